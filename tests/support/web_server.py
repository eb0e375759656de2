"""A real ``red7 serve`` for the tests: a subprocess on a free port with a temporary SQLite
database (or the PostgreSQL and Redis given), started and stopped by the tests (``tests.support.web_server``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import httpx

from red7.web.http import limits
from tests.support.local_services import free_port


def red7_command() -> list[str]:
    """How to run the ``red7`` command of the Python running the tests."""
    script = Path(sys.executable).with_name("red7")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from red7.cli import main; sys.exit(main(sys.argv[1:]))"]


UNLIMITED = limits.UNLIMITED.options()
"""Options lifting the limits of a client's tables and sockets: a test makes its tables
from one address, faster than anyone would (the limits have tests of their own)."""


class WebServer:
    """``red7 serve`` in a subprocess, its database in ``folder``; a context manager whose
    value is the server itself (``url``: e.g. ``http://127.0.0.1:43210``). The limits of a
    client's tables and sockets are lifted unless ``limits`` (the server's defaults);
    ``options``: more of ``red7 serve``'s options."""

    def __init__(
        self,
        folder: Path,
        *,
        bot_delay: float = 0.05,
        away: float = 60.0,
        workers: int = 1,
        database_url: str | None = None,
        redis_url: str | None = None,
        env: dict[str, str] | None = None,
        limits: bool = False,
        options: Sequence[str] = (),
    ) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.args = [
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            database_url or f"sqlite:///{folder / 'db.sqlite3'}",
            *(["--redis-url", redis_url] if redis_url else []),
            "--bot-delay",
            str(bot_delay),
            "--workers",
            str(workers),
            "--away",
            str(away),
            *([] if limits else UNLIMITED),
            *options,
        ]
        self.log_path = folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        """Start the server (again, after :meth:`kill`: same port, same database) and
        wait until it answers."""
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [*red7_command(), *self.args],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,  # its bot workers are stopped with it
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"red7 serve exited with {self.process.returncode}:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"red7 serve did not answer /healthz within {timeout} s:\n{self.log()}")

    def kill(self, *, alone: bool = False) -> int:
        """SIGKILL the server: no shutdown, no flush, nothing but what is on disk
        survives. Then its process group too (what it started: bot workers), unless
        ``alone``. The group's id (the server's pid)."""
        process, self.process = self.process, None
        assert process is not None, "the server is not running"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        if not alone:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        return process.pid

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def left_in_group(group: int, seconds: float = 60) -> list[str]:
    """The processes still in the process group ``group`` (a killed server's: what it
    started) once it empties or ``seconds`` pass (generous: a busy machine is slow to reap);
    those left are killed before this returns their pids."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)  # anything left in the server's process group?
        except ProcessLookupError:
            return []
        time.sleep(0.1)
    left = [p for p in os.listdir("/proc") if p.isdigit() and os.getpgid(int(p)) == group]
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    return left

"""Throwaway Debian services on this machine: PostgreSQL, Redis and nginx, each started
from its installed binaries in a temporary folder, on a free port of 127.0.0.1, and stopped
with the context manager that started it. The tests of a cluster and the web benchmarks
(``benchmarks/web_load.py``, ``benchmarks/web_capacity.py``) run on them; the server itself
never starts a service.

Never the system services: nothing here touches ``/etc``, ``/var/lib`` or systemd, so the
tests run the same in a container without an init, beside a developer's own databases,
and leave nothing behind."""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self

# Where Debian's postgresql-NN packages put their binaries; /usr/bin holds only wrappers
# (pg_wrapper) that look for a system cluster, which we never use.
POSTGRES_ROOT = Path("/usr/lib/postgresql")
REDIS_SERVER = Path("/usr/bin/redis-server")
NGINX = Path("/usr/sbin/nginx")


def free_port() -> int:
    """A TCP port nobody listens on now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tail(path: Path, lines: int = 40) -> str:
    """The last ``lines`` lines of a log file ("" when it was never written)."""
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def accepts_tcp(port: int) -> bool:
    """Whether 127.0.0.1:``port`` accepts a TCP connection now (one try: callers loop,
    checking meanwhile that their process is still alive)."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


def _stop_process(process: subprocess.Popen[bytes], signals: tuple[signal.Signals, ...], grace: float = 5.0) -> None:
    """Send ``signals`` to ``process`` in turn, each given ``grace`` seconds to end it, then
    SIGKILL its whole process group (it was started in a session of its own: nginx's
    workers go with their master)."""
    for sig in signals:
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=5)


def _make_folder(prefix: str) -> Path:
    """A new empty folder under /tmp, readable and traversable by every user (0755).

    Always /tmp, never ``$TMPDIR`` nor pytest's ``tmp_path``: those may be private to
    root (0700), and as root PostgreSQL runs as the ``postgres`` user and nginx's workers
    as ``nobody``, who must reach their files."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    folder.chmod(0o755)
    return folder


class Service:
    """A service a test starts and stops: a context manager whose value is the service
    itself, stopped again (whatever it had started) when starting it fails."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class Postgres(Service):
    """A fresh PostgreSQL cluster of its own in a temporary folder, listening on
    127.0.0.1:``port`` with ``trust`` authentication for the superuser ``postgres`` (no
    password); a context manager whose value is the cluster itself.

    Databases are made with :meth:`create_database`, one per test that wants a clean one;
    they all go with the cluster when it stops (immediately: nothing is flushed, the
    folder is removed)."""

    def __init__(self, *, port: int | None = None, durable: bool = False) -> None:
        bin_dir = self.bin_dir()
        if bin_dir is None:
            raise RuntimeError(f"PostgreSQL is not installed (no {POSTGRES_ROOT}/*/bin/initdb)")
        self.bin = bin_dir
        self.port = port if port is not None else free_port()
        self.durable = durable
        """fsync on, as a real server runs (off by default: tests need no durability
        against power cuts, and it is faster)."""
        self.folder: Path | None = None
        self.running = False

    @staticmethod
    def bin_dir() -> Path | None:
        """The ``bin`` folder of the newest PostgreSQL installed (by version number), or
        ``None`` when there is none."""
        found: list[tuple[tuple[int, ...], Path]] = []
        for initdb in POSTGRES_ROOT.glob("*/bin/initdb"):
            version = initdb.parent.parent.name  # "15", or "9.6" for the old ones
            if re.fullmatch(r"\d+(\.\d+)*", version):
                found.append((tuple(int(part) for part in version.split(".")), initdb.parent))
        return max(found)[1] if found else None

    @classmethod
    def available(cls) -> bool:
        """Whether a cluster can be started here: the server's binaries are installed and,
        when we are root, the ``postgres`` user they must run as exists (the Debian
        package creates it)."""
        bin_dir = cls.bin_dir()
        if bin_dir is None or not all((bin_dir / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return False
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return False
            return shutil.which("runuser") is not None
        return True

    # Paths inside the folder (set by start()).

    @property
    def data(self) -> Path:
        assert self.folder is not None, "the cluster is not started"
        return self.folder / "data"

    @property
    def log_path(self) -> Path:
        assert self.folder is not None, "the cluster is not started"
        return self.folder / "postgres.log"

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` (psycopg 3 driver)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 60.0) -> None:
        """Make the cluster (``initdb``) in a new folder and start its server, returning
        once it accepts connections; RuntimeError, with the server's log, if it cannot."""
        assert self.folder is None, "the cluster is already started"
        self.folder = _make_folder("red7-postgres-")
        if os.geteuid() == 0:
            # initdb, pg_ctl and postgres refuse to run as root: everything in the folder
            # is the postgres user's, as in /var/lib/postgresql.
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                # The C locale: the machine's own may not be generated (containers), and
                # sorting then does not depend on the machine.
                "--locale=C",
            ],
            "initdb",
        )
        self.start_server(timeout)

    def start_server(self, timeout: float = 60.0) -> None:
        """Start the cluster's server (again, after :meth:`stop_server`: same folder, same
        port, same databases), returning once it accepts connections."""
        assert self.folder is not None and not self.running, "the cluster is not made, or is running"
        # -F: no fsync, for tests; a benchmark wants what a real server does (durable=True)
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder}" + ("" if self.durable else " -F")
        try:
            self._run(
                [
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.log_path),
                    "-w",
                    "-t",
                    str(int(timeout)),
                    "-o",
                    options,
                    "start",
                ],
                "pg_ctl start",
            )
        except RuntimeError:
            self._kill_server()  # pg_ctl may give up waiting on a server that did start
            raise
        self.running = True

    def stop_server(self) -> None:
        """Stop the cluster's server as an operator restarting it does (``pg_ctl -m fast``:
        every session is ended, its clients told ``AdminShutdown``, what was committed
        kept), leaving its folder for :meth:`start_server`."""
        assert self.running, "the cluster is not running"
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"], "pg_ctl stop")
        self.running = False

    def stop(self) -> None:
        """Stop the server at once (``pg_ctl -m immediate``) and remove the folder; nothing
        is kept. Safe to call more than once, and after a failed start."""
        if self.folder is None:
            return
        try:
            if self.running:
                try:
                    self._run(
                        [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"], "pg_ctl stop"
                    )
                except RuntimeError:
                    self._kill_server()
        finally:
            self.running = False
            folder, self.folder = self.folder, None
            shutil.rmtree(folder, ignore_errors=True)

    def create_database(self, name: str | None = None) -> str:
        """Create a new empty database (named ``name``, or a new unique name) and return its
        URL. Uses ``psql``, so this module needs no Python driver for PostgreSQL."""
        if name is None:
            name = f"red7_test_{uuid.uuid4().hex[:12]}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            # A plain identifier: it is put into SQL and into the URL as is.
            raise ValueError(f"not a plain PostgreSQL database name: {name!r}")
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` with ``psql`` as the superuser and return what it printed (unaligned,
        tuples only); RuntimeError with psql's message when it fails."""
        assert self.running, "the cluster is not started"
        psql = self.bin / "psql"
        command = [
            str(psql if psql.exists() else "/usr/bin/psql"),
            "-X",  # no ~/.psqlrc
            "-q",
            "-A",
            "-t",
            "-w",  # trust: never prompt for a password
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            database,
            "-c",
            sql,
        ]
        result = subprocess.run(command, capture_output=True, text=True, env=self._environment(), timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed ({result.returncode}) on {sql!r}:\n{result.stderr}{result.stdout}")
        return result.stdout

    def _run(self, command: list[str], step: str) -> None:
        """Run a server command as the user the server runs as; RuntimeError with its output
        and the log's tail when it fails."""
        assert self.folder is not None
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        # cwd: the folder, which the postgres user can enter (it may not enter ours).
        result = subprocess.run(
            command, cwd=self.folder, capture_output=True, text=True, env=self._environment(), timeout=120
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"{step} failed ({result.returncode}):\n{result.stdout}{result.stderr}\n"
                f"--- {self.log_path} (last lines) ---\n{_tail(self.log_path)}"
            )

    def _kill_server(self) -> None:
        """SIGKILL the server by the pid in its ``postmaster.pid``, if there is one: the
        last resort when pg_ctl cannot stop it."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.data / "postmaster.pid").read_text().splitlines()[0])
            os.kill(pid, signal.SIGKILL)

    @staticmethod
    def _environment() -> dict[str, str]:
        """Our environment without the ``PG*`` variables: a developer's PGDATA, PGHOST or
        PGDATABASE must not point these commands elsewhere."""
        return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


class Redis(Service):
    """``redis-server`` as our child process, in memory only (nothing saved), listening on
    127.0.0.1:``port``; a context manager whose value is the server itself (``url``: e.g.
    ``redis://127.0.0.1:43210/0``)."""

    def __init__(self, *, port: int | None = None, durable: bool = False) -> None:
        self.port = port if port is not None else free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def server_path() -> Path | None:
        """The ``redis-server`` binary, Debian's or else one on the PATH."""
        if REDIS_SERVER.exists():
            return REDIS_SERVER
        found = shutil.which("redis-server")
        return Path(found) if found else None

    @classmethod
    def available(cls) -> bool:
        return cls.server_path() is not None

    @property
    def log_path(self) -> Path:
        assert self.folder is not None, "the server is not started"
        return self.folder / "redis.log"

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and return once it answers PING; RuntimeError, with its log,
        if it exits or does not answer within ``timeout`` seconds."""
        assert self.process is None, "the server is already running"
        server = self.server_path()
        if server is None:
            raise RuntimeError("redis-server is not installed")
        self.folder = _make_folder("red7-redis-")
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                str(server),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--daemonize",
                "no",  # our child: stopped by us, and never left behind
                "--save",
                "",  # no snapshots, no append-only file: tests start empty
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=self.folder,
            # A process group of its own: a Ctrl-C meant for pytest does not end it before
            # pytest's teardown, and the SIGKILL of last resort goes to the group.
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}:\n{_tail(self.log_path)}")
            if self._pong():
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer PING within {timeout} s:\n{_tail(self.log_path)}")

    def _pong(self) -> bool:
        """Whether the server answers an inline ``PING`` with ``+PONG`` (a raw socket: no
        redis-cli nor client library needed)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1.0) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM the server (SIGKILL after 5 s) and remove its folder. Safe to call more
        than once."""
        process, self.process = self.process, None
        if process is not None:
            _stop_process(process, (signal.SIGTERM,))
        folder, self.folder = self.folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


class Nginx(Service):
    """nginx as our child process, serving ``fragment``: the text of an ``http``-level
    configuration file (``upstream`` and ``server`` blocks, as a deployment example has),
    whose server listens on 127.0.0.1:``port``; a context manager whose value is the server
    itself (``url``: e.g. ``http://127.0.0.1:43210``).

    The fragment is included by a full configuration of our own that keeps every file
    nginx writes (pid, logs, request bodies and buffered responses) in a temporary folder.
    Relative paths in the fragment are relative to that folder (not /etc/nginx)."""

    def __init__(self, fragment: str, *, port: int) -> None:
        self.fragment = fragment
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.folder: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def available(cls) -> bool:
        return NGINX.exists()

    @property
    def config_path(self) -> Path:
        assert self.folder is not None, "the server is not started"
        return self.folder / "nginx.conf"

    @property
    def log_path(self) -> Path:
        """nginx's error log: where it says why it did not start or what went wrong."""
        assert self.folder is not None, "the server is not started"
        return self.folder / "error.log"

    def _write_config(self) -> None:
        assert self.folder is not None
        (self.folder / "site.conf").write_text(self.fragment)
        folder = self.folder
        self.config_path.write_text(
            f"""\
# Written by tests.support.local_services: nginx in the foreground, every file it writes in {folder}.
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""
        )

    def _command(self, *extra: str) -> list[str]:
        """nginx with our prefix, configuration and error log (``-e``: where it reports the
        errors it meets before reading ``error_log``, instead of /var/log/nginx)."""
        assert self.folder is not None
        return [str(NGINX), *extra, "-p", f"{self.folder}/", "-c", str(self.config_path), "-e", str(self.log_path)]

    def start(self, timeout: float = 30.0) -> None:
        """Check the configuration (``nginx -t``), start nginx and return once the port
        accepts connections; RuntimeError, with nginx's own words, if it cannot."""
        assert self.process is None, "the server is already running"
        if not NGINX.exists():
            raise RuntimeError(f"nginx is not installed (no {NGINX})")
        if accepts_tcp(self.port):
            # Someone else's server would answer for us (nginx retries binding for seconds).
            raise RuntimeError(f"port {self.port} is already in use: nginx cannot listen on it")
        self.folder = _make_folder("red7-nginx-")
        self._write_config()
        check = subprocess.run(self._command("-t", "-q"), capture_output=True, text=True, cwd=self.folder, timeout=60)
        if check.returncode != 0:
            raise RuntimeError(
                # Its messages are on stderr, and in the error log too: one of them is enough.
                f"nginx -t rejected the configuration:\n{check.stderr or _tail(self.log_path)}{check.stdout}\n"
                f"--- the fragment ---\n{self.fragment}"
            )
        log = (self.folder / "nginx.out").open("ab")
        self.process = subprocess.Popen(
            self._command(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=self.folder,
            start_new_session=True,  # its workers can be killed with it, as a group
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.process.returncode}:\n{_tail(self.log_path)}")
            if accepts_tcp(self.port):
                return
            time.sleep(0.05)
        raise RuntimeError(
            f"nginx did not accept connections on port {self.port} within {timeout} s:\n{_tail(self.log_path)}"
        )

    def stop(self) -> None:
        """SIGQUIT nginx (graceful: its workers finish their requests), then SIGTERM (fast),
        then SIGKILL, 5 s apart; remove its folder. Safe to call more than once."""
        process, self.process = self.process, None
        if process is not None:
            _stop_process(process, (signal.SIGQUIT, signal.SIGTERM))
        folder, self.folder = self.folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def log(self) -> str:
        """nginx's error log so far."""
        return _tail(self.log_path, lines=10_000) if self.folder is not None else ""

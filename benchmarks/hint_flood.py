"""One client's hint flood against ``red7 serve``, and what everyone else waits meanwhile.

The flood of issue 46: one address opens ``--tables`` tables (20), each of its person
against a bot (``--bot``, ``easy``), and asks for hints at each as often as the server
lets it: a hint asked again as soon as the last one came, and after a refusal as soon as
its ``retry_after`` says (the per-seat share, four a minute after three at once, and
whatever else the server refuses). Its person never decides, so each table stays at its
first turn of the person's and every hint is worked out anew.

Meanwhile, from other addresses, for ``--seconds`` (60) from the flood's first ask, each
probe one request after another (a pause of ``--pause`` s between two):

* ``readyz``: ``GET /readyz`` (the readiness probe: the database answers);
* ``account``: ``GET /api/account`` with a login session's cookie (who is logged in);
* ``login``: ``POST /api/account/login`` (a password checked; every 6 s: the login limit
  is ten a minute per address);
* ``profile``: ``GET /api/players/<name>`` (a public profile: its account, games and
  rating read from the database; 404 for an account without games, the same reads);
* ``hint``: another person's hint at their own table against a bot, from the ask to the
  hint frame (at most one every 15 s: the per-seat share), and ``decision``: that
  person's decision, from its send to the table frame that follows it (a decision
  between two hints, each about a second after their turn came).

Each probe's answers are timed (milliseconds: median, p90, max, count, and the answers'
status codes); the flood's hints are counted (worked out, and refused by code). The
machine's load average is sampled every second.

It talks to the server over HTTP and WebSockets only, so the same script measures any
version of it: ``--src DIR`` runs the server from another checkout's ``src`` (put first
on ``PYTHONPATH``; that checkout needs its compiled module, e.g. a copy of this one's).
The server is ``red7 serve`` on a free loopback port with a fresh SQLite file, its
defaults but ``--bot-delay 0`` (the probes' bot answers at once); the addresses are
``X-Forwarded-For`` headers, believed from loopback (the default ``--trusted-proxy``).

    python -m benchmarks.hint_flood [--tables 20] [--seconds 60] [--src DIR] [--json]

The figures vary with whatever else the machine runs: compare versions in runs
alternated in one sitting, and give the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

RED7 = Path(sys.executable).with_name("red7")
FLOODER = "10.46.0.1"
"""The flooding client's address."""
PROBER = "10.46.0.2"
"""The address of the probes over HTTP."""
PLAYER = "10.46.0.3"
"""The address of the other person, whose hints and decisions are timed."""
HINT_EVERY = 15.0
"""Seconds between two of the other person's hints (the per-seat share: four a minute)."""
LOGIN_EVERY = 6.0
"""Seconds between two timed logins (ten a minute per address are allowed)."""
DEADLINE = 300.0
"""Seconds any one answer may take before the run gives up (a hung server)."""

Frame = dict[str, Any]


class Server:
    """``red7 serve`` on a free loopback port and a fresh SQLite file in ``folder``, from
    ``src`` if given (first on ``PYTHONPATH``), in a session of its own."""

    def __init__(self, folder: Path, src: Path | None, options: list[str]) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "server.log"
        command = [str(RED7), "serve", "--port", str(self.port), "--database-url", f"sqlite:///{folder}/db.sqlite3"]
        env = {**os.environ, "PYTHONPATH": str(src)} if src is not None else dict(os.environ)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [*command, "--bot-delay", "0", *options],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
            )

    async def ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise SystemExit(f"the server stopped:\n{self.log.read_text(errors='replace')}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{self.base}/readyz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit(f"the server was not ready in {timeout:.0f} s:\n{self.log.read_text()[-4000:]}")

    def stop(self) -> None:
        """SIGTERM, 15 s, then SIGKILL to its process group (its bot workers too)."""
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(15)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def http_client(base: str, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base,
        trust_env=False,
        timeout=DEADLINE,
        headers={"X-Forwarded-For": address},
        limits=httpx.Limits(max_keepalive_connections=0),  # a new connection a request: no stale one
    )


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post(path, json=body)
    if r.status_code != 200:
        raise SystemExit(f"{path}: {r.status_code} {r.text}")
    answer: dict[str, Any] = r.json()
    return answer


async def table_against(http: httpx.AsyncClient, name: str, bot: str) -> tuple[str, str]:
    """A started 2-player table, hints on: ``name`` in seat 0, a ``bot`` in seat 1; its id
    and the person's token."""
    created = await post(http, "/api/tables", {"players": 2, "name": name, "hints": True, "lang": "en"})
    table_id, token = created["id"], created["token"]
    await post(http, f"/api/tables/{table_id}/bots", {"token": token, "seat": 1, "level": bot})
    await post(http, f"/api/tables/{table_id}/start", {"token": token})
    return table_id, token


class Seat:
    """A person's WebSocket at a table: the newest table frame, and the other frames as
    they come."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.table: Frame | None = None

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(cls, base: str, table_id: str, token: str, address: str) -> Any:
        url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        headers = {"X-Forwarded-For": address}
        async with websockets.connect(url, proxy=None, open_timeout=DEADLINE, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            yield cls(ws)

    async def recv(self) -> Frame:
        """The next frame (a table frame is kept in :attr:`table` too)."""
        frame: Frame = json.loads(await asyncio.wait_for(self.ws.recv(), DEADLINE))
        if frame["type"] == "table":
            self.table = frame
        return frame

    async def next(self) -> Frame:
        """The next frame that is not a table frame."""
        while (frame := await self.recv())["type"] == "table":
            pass
        return frame

    async def turn(self) -> Frame:
        """The newest table frame once it asks this seat to decide (or its game is over)."""
        while not (self.table and (self.table["table"]["status"] == "over" or my_turn(self.table))):
            await self.recv()
        return self.table

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))


def my_turn(frame: Frame) -> bool:
    return bool(frame["game"] and frame["game"]["options"])


@dataclass
class Run:
    """What a run measured."""

    start: float = 0.0
    end: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    answers: dict[str, Counter[str]] = field(default_factory=dict)
    flood: Counter[str] = field(default_factory=Counter)
    load: list[float] = field(default_factory=list)

    def running(self) -> bool:
        return time.monotonic() < self.end

    def timed(self, probe: str, seconds: float, answer: str) -> None:
        self.times.setdefault(probe, []).append(seconds)
        self.answers.setdefault(probe, Counter())[answer] += 1


async def flood(base: str, table_id: str, token: str, run: Run) -> None:
    """One of the flood's tables: a hint asked whenever the server allows one."""
    async with Seat.opened(base, table_id, token, FLOODER) as seat:
        frame = await seat.turn()
        while run.running():
            await seat.send({"type": "hint", "seq": frame["seq"]})
            answer = await seat.next()
            while answer["type"] == "error" and answer["code"] == "hint-busy":  # its hint comes next
                run.flood["hint-busy"] += 1
                answer = await seat.next()
            if answer["type"] == "hint":
                run.flood["worked out"] += 1
                continue
            run.flood[answer.get("code", answer["type"])] += 1
            await asyncio.sleep(float(answer.get("retry_after") or 1.0))


async def probe(run: Run, name: str, every: float, ask: Callable[[], Awaitable[httpx.Response]], pause: float) -> None:
    """``ask`` timed, one after another (at most one every ``every`` s, and ``pause`` s apart)."""
    while run.running():
        started = time.monotonic()
        response = await ask()
        run.timed(name, time.monotonic() - started, str(response.status_code))
        await asyncio.sleep(max(pause, every - (time.monotonic() - started)))


async def other_person(base: str, bot: str, run: Run) -> None:
    """Another person at their own tables against a bot: a hint at most every
    :data:`HINT_EVERY` s, and a decision about a second after each turn comes."""
    async with http_client(base, PLAYER) as http:
        last_hint = -HINT_EVERY
        while run.running():
            table_id, token = await table_against(http, "Bia", bot)
            async with Seat.opened(base, table_id, token, PLAYER) as seat:
                while run.running():
                    frame = await seat.turn()
                    if frame["table"]["status"] == "over":
                        break  # a new table
                    if time.monotonic() - last_hint >= HINT_EVERY:
                        last_hint = started = time.monotonic()
                        await seat.send({"type": "hint", "seq": frame["seq"]})
                        answer = await seat.next()
                        run.timed("hint", time.monotonic() - started, answer.get("code", answer["type"]))
                    await asyncio.sleep(1.0)
                    options = frame["game"]["options"]
                    safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
                    started = time.monotonic()
                    await seat.send({"type": "decide", "seq": frame["seq"], "action": (safe or ["concede"])[0]})
                    answer = await seat.recv()
                    while answer["type"] == "table" and answer["seq"] <= frame["seq"]:
                        answer = await seat.recv()
                    run.timed("decision", time.monotonic() - started, answer.get("code", answer["type"]))


async def sample_load(run: Run) -> None:
    while run.running():
        run.load.append(os.getloadavg()[0])
        await asyncio.sleep(1.0)


def summary(seconds: list[float], answers: Counter[str]) -> dict[str, Any]:
    ms = sorted(s * 1000 for s in seconds)
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 1) if ms else None,
        "p90_ms": round(ms[min(len(ms) - 1, round(0.9 * len(ms)))], 1) if ms else None,
        "max_ms": round(ms[-1], 1) if ms else None,
        "answers": dict(answers),
    }


async def measure(server: Server, tables: int, seconds: float, bot: str, pause: float) -> dict[str, Any]:
    await server.ready()
    base = server.base
    name, password = "probe", secrets.token_urlsafe(18)
    run = Run()
    async with http_client(base, FLOODER) as flooder, http_client(base, PROBER) as prober:
        registered = await prober.post("/api/account/register", json={"username": name, "password": password})
        if registered.status_code != 200:
            raise SystemExit(f"register: {registered.status_code} {registered.text}")
        cookies = dict(registered.cookies)
        made = [await table_against(flooder, f"F{i}", bot) for i in range(tables)]
        run.start = time.monotonic()
        run.end = run.start + seconds
        credentials = {"username": name, "password": password}
        probes = [
            probe(run, "readyz", 0, lambda: prober.get("/readyz"), pause),
            probe(run, "account", 0, lambda: prober.get("/api/account", cookies=cookies), pause),
            probe(run, "login", LOGIN_EVERY, lambda: prober.post("/api/account/login", json=credentials), pause),
            probe(run, "profile", 0, lambda: prober.get(f"/api/players/{name}"), pause),
        ]
        tasks = [asyncio.create_task(flood(base, table_id, token, run)) for table_id, token in made]
        tasks += [asyncio.create_task(c) for c in (*probes, other_person(base, bot, run), sample_load(run))]
        await asyncio.wait_for(asyncio.gather(*tasks), seconds + DEADLINE)
    return {
        "tables": tables,
        "seconds": seconds,
        "bot": bot,
        "probes": {key: summary(run.times.get(key, []), run.answers.get(key, Counter())) for key in PROBES},
        "flood": dict(run.flood),
        "load_average": {
            key: round(f(run.load), 2) for key, f in (("min", min), ("mean", statistics.mean), ("max", max))
        },
    }


PROBES = ("readyz", "account", "login", "profile", "hint", "decision")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hint_flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="the flooding client's tables (20)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the flood is measured (60)")
    parser.add_argument("--bot", default="easy", help="the bots' level at every table (easy)")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between two asks of one probe (0.25)")
    parser.add_argument("--src", type=Path, help="run the server from this checkout's src (PYTHONPATH)")
    parser.add_argument("--option", action="append", default=[], help="one more word of red7 serve's command line")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="red7-hint-flood-") as folder:
        server = Server(Path(folder), args.src, args.option)
        try:
            result = asyncio.run(measure(server, args.tables, args.seconds, args.bot, args.pause))
        finally:
            server.stop()
    result["src"] = str(args.src or "this checkout")
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.tables} tables flooding for {args.seconds:g} s ({result['src']}), load {result['load_average']}")
    for key, row in result["probes"].items():
        print(f"  {key:9} p50 {row['p50_ms']} ms, p90 {row['p90_ms']} ms, max {row['max_ms']} ms ({row['answers']})")
    print(f"  the flood's hints: {result['flood']}")


if __name__ == "__main__":
    main()

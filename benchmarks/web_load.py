"""Load on ``red7 serve``: many people playing at once, and bots that think.

The script starts the servers itself, drives them over HTTP and WebSockets from one asyncio
process, and stops everything at the end (also on Ctrl+C, SIGTERM or an error):

* ``--backend sqlite`` (the default): one ``red7 serve`` process (``--workers 1
  --bot-delay 0``, a free loopback port) on a fresh SQLite file;
* ``--backend postgres``: a throwaway PostgreSQL cluster and a Redis of its own on
  loopback (the throwaway services of :mod:`red7.web.local_services`: Debian's binaries, run as the
  ``postgres`` user when we are root), a fresh database in it, and ``--processes`` N
  ``red7 serve`` processes sharing them, each waited for until its ``/readyz`` says 200.

The load is spread over the processes as a round-robin reverse proxy would spread it:
seat ``s`` of game ``g`` makes its REST calls and opens its WebSocket on process
``(g + s) % N``, so with N > 1 the four players of a table are on different processes and
every change crosses PostgreSQL and Redis to reach some of them: cross-process play is
what is measured.

People (the default): ``--games`` 4-player basic games of four simulated people each
(``--clock 60``: each table with a per-turn clock of 60 s, its countdown in every frame)
(create the table and take the other three seats over REST, start, one WebSocket per
seat). Each game makes one decision a second: the seat asked to decide sends a safe
decision about a second after the previous decision of its game, and a game that ends
is played again. After a ramp-up in which the games are set up, ``--seconds`` are
measured:

* the round trip of every decision: from its send to the arrival, at the sender, of the
  frame with the next ``seq`` (p50, p90, p99, max);
* decisions per second; errors (error frames by code, disconnects, decisions that got
  no answer);
* CPU of every server process (with its bot workers) and their sum, from /proc, and
  their memory (VmRSS and peak VmHWM); with ``postgres``, the CPU of the PostgreSQL
  processes (the postmaster and every ``postgres`` process under it) and of
  ``redis-server`` over the same window. CPU includes that of children that ended (a
  backend that closed is counted in its parent);
* the servers' CPU per decision: their CPU over the window divided by the decisions
  their ``/metrics`` counted in it (what a decision costs, frames and write included);
* the machine's load average, sampled every second of the window (the machine may be
  shared: a figure means little without it);
* each server's ``/metrics``, scraped at the start and the end of the window and at the
  end of the run: decisions by people and bots, conflicts (a change refused because
  another process changed the table first: 0 or nearly), clients per process;
* leaks, checked on every frame each client receives, with what that client may know
  only (the generator does not see the other hands). In a basic game without action
  cards no card ever goes from the deck or a palette into a hand, so a card a client may
  see is one in its own hand or one it has seen in a public place of this game (palettes,
  canvas, public deck top, cards known in hand). Every card named in a frame, as a card
  object or inside any text (``R7``, ``Red 7``), must be one of those, or it is a leak: any
  card of another hand or of the deck is caught, since it was never public. Each frame is
  also checked to be addressed to its seat, with a hand of the size the table shows.

Bots (``--bots``): K tables of one person and three ``hard`` bots, K = 1, 2, 4, 8...
(``--bot-tables``), the person deciding at once, each K for ``--bot-seconds``. The
latency of a bot's decision is measured by the person's client, from the frame that
hands the bot its turn to the frame of its decision. The run stops once the p99 exceeds
``--budget`` seconds (``hard``: 1 s): the largest K under it is how many such tables the
processes (each with its one bot worker) serve. Table ``t`` is on process ``t % N``; with
one process (the default) that is how many one process serves. Bots work on both backends.

    python benchmarks/web_load.py [--games 250] [--seconds 60] [--json]
    python benchmarks/web_load.py --backend postgres --processes 2 [--games 500] [--seconds 60] [--json]
    python benchmarks/web_load.py --bots [--bot-tables 1,2,4,8,16] [--bot-seconds 20] [--json]

The figures vary with whatever else the machine runs: give medians and percentiles of
long runs, and say on what machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from red7.web import local_services as services
from red7.web.limits import UNLIMITED

RED7 = Path(sys.executable).with_name("red7")
COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Indigo", "Violet")
CARD_TEXT = re.compile(r"(?<![\w])(?:([ROYGBIV][1-7])|(Red|Orange|Yellow|Green|Blue|Indigo|Violet) ([1-7]))(?![\w])")
NAMES = ("Ana", "Bia", "Caio", "Davi")
"""Seat names that cannot be read as cards."""


def card_ids(text: str) -> set[str]:
    """Every card ``text`` names, in notation (``R7``) or by name (``Red 7``)."""
    found = set()
    for match in CARD_TEXT.finditer(text):
        notation, colour, number = match.groups()
        found.add(notation or f"{'ROYGBIV'[COLOURS.index(colour)]}{number}")
    return found


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, Any]:
    """Count and milliseconds: median, p90, p99, max."""
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50_ms": statistics.median(ms) if ms else None,
        "p90_ms": percentile(ms, 90),
        "p99_ms": percentile(ms, 99),
        "max_ms": max(ms) if ms else None,
    }


# --- the servers ----------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
METRIC = re.compile(r"^([A-Za-z_:][\w:]*)(\{[^}]*\})? (\S+)$", re.MULTILINE)


def processes_now() -> dict[int, tuple[str, int, float]]:
    """Every process: its command name, its parent and its CPU seconds, user and system,
    its own and those of the children it has reaped (so a backend or worker that ended
    is still counted, in its parent's)."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            text = Path(entry.path, "stat").read_text()
            name, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
            found[int(entry.name)] = (name, int(rest[1]), sum(int(ticks) for ticks in rest[11:15]) / CLOCK_TICKS)
    return found


def tree_cpu(table: dict[int, tuple[str, int, float]], root: int, name: str | None = None) -> float:
    """CPU seconds of ``root`` and every process under it (``name``: only those of that
    command name), from a :func:`processes_now` table."""
    children: dict[int, list[int]] = {}
    for pid, (_, parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in table and (name is None or table[pid][0] == name):
            total += table[pid][2]
        todo += children.get(pid, [])
    return total


class Server:
    """``red7 serve`` on a free loopback port and the given database (and Redis), in a
    session of its own: a Ctrl+C meant for this script does not reach it, we stop it."""

    def __init__(self, folder: Path, index: int, database: str, redis: str | None, workers: int) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.index = index
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server{index}.log"
        command = [str(RED7), "serve", "--port", str(self.port), "--database-url", database]
        command += ["--redis-url", redis] if redis else []
        command += ["--bot-delay", "0", "--workers", str(workers)]
        # one load generator stands for thousands of people: no limit on one client's share
        command += UNLIMITED.options()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )

    async def ready(self, timeout: float = 60.0) -> None:
        """Until ``/readyz`` answers 200: connected to its database and its bus."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise SystemExit(f"server {self.index} stopped:\n{self.log.read_text(errors='replace')}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{self.base}/readyz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit(f"server {self.index} was not ready in {timeout:.0f} s:\n{self.log.read_text()[-4000:]}")

    def memory(self) -> dict[str, float]:
        """Resident and peak resident memory of the server process, MiB."""
        fields = {}
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0]) / 1024
        return fields

    async def metrics(self, http: httpx.AsyncClient) -> dict[str, float]:
        """Its ``/metrics`` samples, by name with labels (``red7_decisions_total{by="bot"}``)."""
        with contextlib.suppress(httpx.HTTPError):
            text = (await http.get(f"{self.base}/metrics")).text
            return {name + labels: float(value) for name, labels, value in METRIC.findall(text)}
        return {}


def stop_servers(servers: list[Server]) -> None:
    """SIGTERM every server at once (uvicorn shuts down), give them 15 s in all, then
    SIGKILL each one's process group: the server and whatever it started (bot workers)."""
    for server in servers:
        with contextlib.suppress(ProcessLookupError):
            server.process.terminate()
    deadline = time.monotonic() + 15
    for server in servers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.process.wait(max(0.1, deadline - time.monotonic()))
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait()


class Cluster:
    """The server processes under load and, with ``postgres``, the PostgreSQL cluster and
    the Redis they share."""

    def __init__(self, backend: str, servers: list[Server], postgres: Any = None, redis: Any = None) -> None:
        self.backend, self.servers, self.postgres, self.redis = backend, servers, postgres, redis

    def describe(self) -> str:
        n = len(self.servers)
        if self.backend == "sqlite":
            return f"backend sqlite (one file), {n} server process{'es' * (n != 1)}"
        version = self.postgres.bin.parent.name
        return f"backend postgres (PostgreSQL {version} + Redis), {n} server process{'es' * (n != 1)}"

    def server(self, index: int) -> Server:
        """The process a round-robin proxy would give the ``index``-th client to."""
        return self.servers[index % len(self.servers)]

    def cpu_seconds(self) -> dict[str, Any]:
        """CPU seconds so far: each server with its workers, PostgreSQL's processes, Redis."""
        table = processes_now()
        cpu: dict[str, Any] = {"servers": [tree_cpu(table, s.process.pid) for s in self.servers]}
        if self.postgres is not None:
            postmaster = int((self.postgres.data / "postmaster.pid").read_text().splitlines()[0])
            cpu["postgres"] = tree_cpu(table, postmaster, "postgres")
        if self.redis is not None:
            cpu["redis"] = tree_cpu(table, self.redis.process.pid, "redis-server")
        return cpu

    def cpu_shares(self, before: dict[str, Any], after: dict[str, Any], seconds: float) -> dict[str, Any]:
        """CPU used between two :meth:`cpu_seconds`, in seconds (``cpu_seconds``) and in
        cores (``*_cpu_share``): the servers' sum and each one's, PostgreSQL's, Redis's
        (None on SQLite)."""
        each = [b - a for a, b in zip(before["servers"], after["servers"], strict=True)]
        used = {"servers": round(sum(each), 3), "servers_each": [round(c, 3) for c in each]}
        used |= {key: round(after[key] - before[key], 3) if key in after else None for key in ("postgres", "redis")}
        return {
            "cpu_seconds": used,
            "server_cpu_share": round(sum(each) / seconds, 3),
            "server_cpu_shares": [round(c / seconds, 3) for c in each],
            **{
                f"{key}_cpu_share": None if used[key] is None else round(used[key] / seconds, 3)
                for key in ("postgres", "redis")
            },
        }

    def memory(self) -> dict[str, Any]:
        """Memory of the server processes, MiB: the sums, and each one's."""
        each = [s.memory() for s in self.servers]
        summed = {key: round(sum(m.get(key, 0.0) for m in each), 1) for key in ("VmRSS", "VmHWM")}
        return {
            "server_memory_mib": summed,
            "server_memory_mib_each": [{k: round(v, 1) for k, v in m.items()} for m in each],
        }

    async def metrics(self) -> list[dict[str, float]]:
        """Every server's ``/metrics`` samples, in process order."""
        async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
            return list(await asyncio.gather(*(s.metrics(http) for s in self.servers)))


def counted(
    start: list[dict[str, float]], end: list[dict[str, float]], final: list[dict[str, float]]
) -> dict[str, Any]:
    """What the servers counted (``/metrics``): over the whole run (``final``), and over the
    window (``start`` to ``end``)."""

    def total(samples: list[dict[str, float]], key: str) -> float:
        return sum(s.get(key, 0.0) for s in samples)

    person, bot = 'red7_decisions_total{by="person"}', 'red7_decisions_total{by="bot"}'
    trips = total(end, "red7_round_trip_seconds_count") - total(start, "red7_round_trip_seconds_count")
    trip_time = total(end, "red7_round_trip_seconds_sum") - total(start, "red7_round_trip_seconds_sum")
    return {
        "decisions_by_people": round(total(final, person)),
        "decisions_by_bots": round(total(final, bot)),
        "conflicts": round(total(final, "red7_conflicts_total")),
        "window_decisions": round(total(end, person) + total(end, bot) - total(start, person) - total(start, bot)),
        "window_server_round_trip_mean_ms": round(trip_time / trips * 1000, 2) if trips else None,
        "each": [
            {
                "decisions": round(s.get(person, 0.0) + s.get(bot, 0.0)),
                "conflicts": round(s.get("red7_conflicts_total", 0.0)),
                "clients_in_window": round(w.get("red7_connected_clients", 0.0)),
            }
            for s, w in zip(final, start, strict=True)
        ],
    }


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post(path, json=body)
    if r.status_code != 200:
        raise RuntimeError(f"{path}: {r.status_code} {r.text}")
    data: dict[str, Any] = r.json()
    return data


def spread(clients: list[httpx.AsyncClient], game: int, seat: int) -> httpx.AsyncClient:
    """The client through which seat ``seat`` of game ``game`` calls: one process after
    another, as a round-robin proxy spreads them (the module's docstring)."""
    return clients[(game + seat) % len(clients)]


async def new_table(
    via: Callable[[int], httpx.AsyncClient], people: int, bot: str | None, clock: int = 0
) -> tuple[str, list[str]]:
    """A 4-player basic table: ``people`` people (seat 0 first), bots of level ``bot`` in
    the other seats, started; ``clock``: seconds per turn (0: no clock). Its id and the
    people's tokens. Each seat's calls go through ``via(seat)`` (seat 0 creates, adds the
    bots and starts)."""
    settings: dict[str, Any] = {"players": 4, "name": NAMES[0]}
    if clock:
        settings["clock"] = clock
    created = await post(via(0), "/api/tables", settings)
    table, tokens = created["id"], [created["token"]]
    for seat in range(1, 4):
        if seat < people:
            tokens.append((await post(via(seat), f"/api/tables/{table}/seats/{seat}", {"name": NAMES[seat]}))["token"])
        else:
            await post(via(0), f"/api/tables/{table}/bots", {"token": tokens[0], "seat": seat, "level": bot})
    await post(via(0), f"/api/tables/{table}/start", {"token": tokens[0]})
    return table, tokens


# --- people ---------------------------------------------------------------------------


@dataclass
class Stats:
    window: tuple[float, float] = (0.0, 0.0)
    round_trips: list[float] = field(default_factory=list)
    decisions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: int = 0
    unanswered: int = 0
    leaks: list[str] = field(default_factory=list)
    frames: int = 0
    frame_bytes: int = 0
    games_over: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def measured(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]


@dataclass
class Pace:
    """One game's clock: when its newest frame (game number, seq) first arrived at one
    of its clients."""

    last: float = field(default_factory=time.monotonic)
    newest: tuple[int, int] = (0, 0)


class Person:
    """One seat's WebSocket client: decides when asked (``delay`` after the game's
    previous decision), times its decisions, and checks every frame for leaks."""

    def __init__(
        self, server: Server, table: str, seat: int, token: str, pace: Pace, stats: Stats, delay: float, seed: int
    ) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        self.token = token  # said in the socket's first message (never in an address)
        self.table, self.seat, self.pace, self.stats, self.delay = table, seat, pace, stats, delay
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}
        """Sends waiting for their answer: the seq they make, and when they were sent."""
        self.acted: set[tuple[int, int]] = set()
        self.game: int | None = None
        self.known: set[str] = set()
        self.bot_waits: list[float] = []
        self.bot_turn: tuple[int, float] | None = None

    async def run(self) -> None:
        try:
            async with websockets.connect(self.url, proxy=None, open_timeout=60, max_queue=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": self.token}))
                receiving = asyncio.create_task(self.receive(ws))
                stopping = asyncio.create_task(self.stats.stop.wait())
                done, _ = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if receiving in done:
                    receiving.result()  # the server closed the socket: raises if it broke
                    raise websockets.ConnectionClosedOK(None, None)
                receiving.cancel()
        except (OSError, websockets.ConnectionClosed, TimeoutError) as err:
            if not self.stats.stop.is_set():
                self.stats.disconnects += 1
                self.stats.errors[f"disconnect: {type(err).__name__}"] += 1
        now = time.monotonic()
        self.stats.unanswered += sum(1 for at in self.sent.values() if self.stats.measured(at) and now - at > 5)

    async def receive(self, ws: Any) -> None:
        async for raw in ws:
            now = time.monotonic()
            frame = json.loads(raw)
            self.stats.frames += 1
            self.stats.frame_bytes += len(raw)
            if frame["type"] == "error":
                self.stats.errors[frame["code"]] += 1
                continue
            self.check(raw, frame)
            seq, game = frame["seq"], frame["game"]
            if game is None:
                continue
            key = (frame["table"]["game"], seq)
            if key > self.pace.newest:
                self.pace.newest, self.pace.last = key, now
            sent = self.sent.pop(seq, None)
            if sent is not None:
                if self.stats.measured(sent):
                    self.stats.round_trips.append(now - sent)
                    self.stats.decisions += 1
            self.time_bots(frame, now)
            if game["over"] is not None:
                if key not in self.acted:  # every person agrees to the next game (the first proposes it)
                    self.acted.add(key)
                    if self.seat == 0:
                        self.stats.games_over += self.stats.measured(now)
                    again = {"type": "again", "game": frame["table"]["game"]}
                    asyncio.get_running_loop().call_later(self.delay, self.send, ws, again)
            elif game["options"] and key not in self.acted:
                self.acted.add(key)
                safe = [o["action"] for o in game["options"] if o["safe"] and o["kind"] != "concede"]
                action = self.rng.choice(safe) if safe else "concede"
                wait = max(0.0, self.pace.last + self.delay - now)
                message = {"type": "decide", "seq": seq, "action": action}
                asyncio.get_running_loop().call_later(wait, self.send, ws, message, seq + 1)

    def send(self, ws: Any, message: dict[str, Any], answer: int | None = None) -> None:
        if self.stats.stop.is_set():
            return
        if answer is not None:
            self.sent[answer] = time.monotonic()
        asyncio.ensure_future(self._send(ws, json.dumps(message)))

    async def _send(self, ws: Any, text: str) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(text)

    def check(self, raw: str, frame: dict[str, Any]) -> None:
        """The leak check (see the module docstring), with this seat's knowledge only."""
        problems = []
        if frame["you"] != self.seat:
            problems.append(f"a frame for seat {frame['you']}")
        game = frame["game"]
        if game is not None:
            if frame["table"]["game"] != self.game:
                self.game, self.known = frame["table"]["game"], set()
            hand = {c["id"] for c in game["hand"]}
            if len(hand) != game["hand_sizes"][self.seat]:
                problems.append(f"a hand of {len(hand)} cards for {game['hand_sizes'][self.seat]}")
            public = {c["id"] for c in game["canvas"]} | {c["id"] for c in game["deck"]["known_top"]}
            for cards in (*game["palettes"], *game["known_hands"]):
                public |= {c["id"] for c in cards}
            if hand & public:
                problems.append(f"hand cards shown in public: {sorted(hand & public)}")
            self.known |= hand | public
            unknown = card_ids(raw.replace(self.table, "")) - self.known
            if unknown:
                problems.append(f"cards it cannot know: {sorted(unknown)}")
        if problems:
            self.stats.leaks.append(f"table {self.table} seat {self.seat} seq {frame['seq']}: {'; '.join(problems)}")

    def time_bots(self, frame: dict[str, Any], now: float) -> None:
        """A bot's decision time: from the frame handing it the turn to the next one."""
        if self.bot_turn is not None and frame["seq"] == self.bot_turn[0] + 1:
            if self.stats.measured(self.bot_turn[1]):
                self.bot_waits.append(now - self.bot_turn[1])
            self.bot_turn = None
        current, seats = frame["game"]["current"], frame["seats"]
        if frame["game"]["over"] is None and current is not None and seats[current]["bot"]:
            if self.bot_turn is None or self.bot_turn[0] != frame["seq"]:
                self.bot_turn = (frame["seq"], now)


async def people_load(cluster: Cluster, games: int, seconds: float, ramp: float, clock: int = 0) -> dict[str, Any]:
    stats = Stats()
    people: list[Person] = []
    tasks = []
    started = time.monotonic()
    limits = httpx.Limits(max_connections=20)
    async with contextlib.AsyncExitStack() as clients:
        https = [
            await clients.enter_async_context(
                httpx.AsyncClient(base_url=server.base, trust_env=False, limits=limits, timeout=60)
            )
            for server in cluster.servers
        ]
        for g in range(games):
            await asyncio.sleep(max(0.0, started + ramp * g / games - time.monotonic()))
            table, tokens = await new_table(functools.partial(spread, https, g), people=4, bot=None, clock=clock)
            pace = Pace()
            for seat, token in enumerate(tokens):
                server = cluster.server(g + seat)
                person = Person(server, table, seat, token, pace, stats, delay=1.0, seed=g * 4 + seat)
                people.append(person)
                tasks.append(asyncio.create_task(person.run()))
    setup = time.monotonic() - started
    await asyncio.sleep(3.0)  # the last games settle into their pace
    metrics0 = await cluster.metrics()
    begin = time.monotonic()
    stats.window = (begin, begin + seconds)
    cpu0, client0 = cluster.cpu_seconds(), time.process_time()
    load = [os.getloadavg()[0]]
    samples = max(1, round(seconds))
    for _ in range(samples):  # the machine's load average, sampled every second of the window
        await asyncio.sleep(seconds / samples)
        load.append(os.getloadavg()[0])
    cpu1, client_cpu = cluster.cpu_seconds(), time.process_time() - client0
    memory = cluster.memory()
    metrics1 = await cluster.metrics()
    await asyncio.sleep(5.0)  # answers to the last sends of the window
    stats.stop.set()
    await asyncio.gather(*tasks)
    metrics2 = await cluster.metrics()
    counts = counted(metrics0, metrics1, metrics2)
    shares = cluster.cpu_shares(cpu0, cpu1, seconds)
    decided = counts["window_decisions"] or stats.decisions
    return {
        "mode": "people",
        "backend": cluster.backend,
        "processes": len(cluster.servers),
        "cluster": cluster.describe(),
        "games": games,
        "clock": clock,
        "connections": len(people),
        "seconds": seconds,
        "setup_seconds": round(setup, 1),
        "round_trip": summary(stats.round_trips),
        "decisions_per_second": round(stats.decisions / seconds, 1),
        "games_finished": stats.games_over,
        "frames_checked": "every frame of the run, set-up included",
        "errors": dict(stats.errors),
        "disconnects": stats.disconnects,
        "unanswered": stats.unanswered,
        "frames": stats.frames,
        "mean_frame_bytes": round(stats.frame_bytes / max(1, stats.frames)),
        "leaks": len(stats.leaks),
        "leak_samples": stats.leaks[:5],
        **shares,
        "server_cpu_ms_per_decision": round(1000 * shares["cpu_seconds"]["servers"] / decided, 3) if decided else None,
        "client_cpu_share": round(client_cpu / seconds, 2),
        "load_average": {key: round(f(load), 2) for key, f in (("min", min), ("mean", statistics.mean), ("max", max))},
        **memory,
        "metrics": counts,
    }


# --- bots -----------------------------------------------------------------------------


async def bots_load(cluster: Cluster, counts: list[int], seconds: float, budget: float) -> dict[str, Any]:
    steps = []
    async with contextlib.AsyncExitStack() as clients:
        https = [
            await clients.enter_async_context(httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=60))
            for server in cluster.servers
        ]
        for k in counts:
            stats = Stats()
            people = []
            for t in range(k):
                http = https[t % len(https)]
                table, tokens = await new_table(functools.partial(spread, [http], 0), people=1, bot="hard")
                people.append(Person(cluster.server(t), table, 0, tokens[0], Pace(), stats, delay=0.0, seed=t))
            begin = time.monotonic() + 2.0  # the pool's worker starts with the first bot
            stats.window = (begin, begin + seconds)
            tasks = [asyncio.create_task(p.run()) for p in people]
            cpu0 = cluster.cpu_seconds()
            await asyncio.sleep(seconds + 2.0)
            cpu1 = cluster.cpu_seconds()
            stats.stop.set()
            await asyncio.gather(*tasks)
            waits = [w for p in people for w in p.bot_waits]
            step = {
                "tables": k,
                "bot_decision": summary(waits),
                "bot_decisions_per_second": round(len(waits) / seconds, 1),
                "person_decisions": stats.decisions,
                "errors": dict(stats.errors),
                "leaks": len(stats.leaks),
                **cluster.cpu_shares(cpu0, cpu1, seconds + 2.0),
                **cluster.memory(),
            }
            steps.append(step)
            print(json.dumps(step), file=sys.stderr, flush=True)
            p99 = step["bot_decision"]["p99_ms"]
            if p99 is None or p99 > budget * 1000:
                break
    final = await cluster.metrics()
    served = [s["tables"] for s in steps if s["bot_decision"]["p99_ms"] is not None]
    within = [s["tables"] for s in steps if (s["bot_decision"]["p99_ms"] or 1e9) <= budget * 1000]
    return {
        "mode": "bots",
        "backend": cluster.backend,
        "processes": len(cluster.servers),
        "cluster": cluster.describe(),
        "level": "hard",
        "budget_seconds": budget,
        "seconds_per_step": seconds,
        "steps": steps,
        "most_tables_within_budget": max(within) if within else 0,
        "tried": served,
        "metrics": counted(final, final, final),
    }


# --- main -----------------------------------------------------------------------------


def cores(share: float | None) -> str:
    return "-" if share is None else f"{share:.1%}"


def cpu_line(result: dict[str, Any]) -> str:
    """Servers' CPU, in all and each, and PostgreSQL's and Redis's: seconds, and shares of a core."""
    used, each = result["cpu_seconds"], result["server_cpu_shares"]
    line = f"{used['servers']:.2f} s, {cores(result['server_cpu_share'])} of a core"
    if len(each) > 1:
        line += (
            " in all ("
            + ", ".join(f"{c:.2f} s, {cores(share)}" for c, share in zip(used["servers_each"], each, strict=True))
            + ")"
        )
    if used["postgres"] is not None:
        line += (
            f"; postgres {used['postgres']:.2f} s, {cores(result['postgres_cpu_share'])}, "
            f"redis-server {used['redis']:.2f} s, {cores(result['redis_cpu_share'])}"
        )
    return line


def report(result: dict[str, Any]) -> str:
    counts = result["metrics"]
    metrics_line = (
        f"servers' /metrics over the run: {counts['decisions_by_people']} decisions by people, "
        f"{counts['decisions_by_bots']} by bots, {counts['conflicts']} conflicts"
    )
    if len(counts["each"]) > 1:
        each = "; ".join(f"{e['decisions']} decisions, {e['conflicts']} conflicts" for e in counts["each"])
        metrics_line += f" (by process: {each})"
    if result["mode"] == "people":
        rt = result["round_trip"]
        mem = result["server_memory_mib"]
        each = result["server_memory_mib_each"]
        lines = [
            result["cluster"],
            f"{result['games']} games{' with a ' + str(result['clock']) + ' s clock' if result['clock'] else ''}, "
            f"{result['connections']} WebSockets, {result['seconds']} s measured "
            f"(set-up {result['setup_seconds']} s)",
            f"decision round trip: p50 {rt['p50_ms']:.1f} ms, p90 {rt['p90_ms']:.1f} ms, p99 {rt['p99_ms']:.1f} ms, "
            f"max {rt['max_ms']:.1f} ms over {rt['n']} decisions"
            if rt["n"]
            else "no decision was answered",
            f"{result['decisions_per_second']} decisions/s, {result['games_finished']} games finished; "
            f"{result['frames']} frames (the whole run, all checked for leaks), "
            f"{result['mean_frame_bytes']} bytes on average",
            f"errors {result['errors'] or 0}, disconnects {result['disconnects']}, unanswered {result['unanswered']}, "
            f"leaks {result['leaks']}",
            f"CPU: servers {cpu_line(result)}; load generator {cores(result['client_cpu_share'])}",
            f"server CPU per decision (the servers' CPU over the window / the decisions they counted in it): "
            f"{result['server_cpu_ms_per_decision']} ms",
            "machine load average (1 min) over the window: min {min}, mean {mean}, max {max}".format(
                **result["load_average"]
            ),
            f"memory: servers VmRSS {mem['VmRSS']} MiB (peak {mem['VmHWM']} MiB)"
            + (
                " in all; by process " + ", ".join(f"{m.get('VmRSS')} ({m.get('VmHWM')})" for m in each)
                if len(each) > 1
                else ""
            ),
            metrics_line
            + (f"; {counts['window_decisions'] / result['seconds']:.1f} decisions/s in the window by their count")
            + (
                f", {counts['window_server_round_trip_mean_ms']} ms mean server round trip"
                if counts["window_server_round_trip_mean_ms"] is not None
                else ""
            ),
        ]
        if len(counts["each"]) > 1:
            lines.append(
                "clients by process in the window: " + ", ".join(str(e["clients_in_window"]) for e in counts["each"])
            )
        lines += result["leak_samples"]
        return "\n".join(lines)
    lines = [
        result["cluster"],
        f"hard bots, tables of 1 person + 3 bots, {result['seconds_per_step']} s per step:",
    ]
    for step in result["steps"]:
        b = step["bot_decision"]
        lines.append(
            f"  {step['tables']:>3} tables: bot decision p50 {b['p50_ms'] or 0:.0f} ms, p99 {b['p99_ms'] or 0:.0f} ms, "
            f"max {b['max_ms'] or 0:.0f} ms ({b['n']} decisions, {step['bot_decisions_per_second']}/s), "
            f"errors {step['errors'] or 0}, leaks {step['leaks']}, "
            f"servers and workers {cpu_line(step)}"
        )
    lines.append(f"most tables with the p99 within {result['budget_seconds']} s: {result['most_tables_within_budget']}")
    lines.append(metrics_line)
    return "\n".join(lines)


async def measure(args: argparse.Namespace, stack: contextlib.ExitStack) -> dict[str, Any]:
    """Start the services and the servers (each registered on ``stack`` to be stopped), then
    the load."""
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="red7-load-")))
    postgres = redis = None
    if args.backend == "postgres":
        postgres = stack.enter_context(services.Postgres(durable=True))
        redis = stack.enter_context(services.Redis())
        database, redis_url = postgres.create_database("red7_load"), redis.url
    else:
        database, redis_url = f"sqlite:///{folder}/load.sqlite3", None
    servers: list[Server] = []
    stack.callback(stop_servers, servers)  # before the services' own: the servers stop first
    for index in range(args.processes):
        servers.append(Server(folder, index, database, redis_url, args.workers))
    for server in servers:  # all started at once: waiting for each in turn costs nothing
        await server.ready()
    cluster = Cluster(args.backend, servers, postgres, redis)
    if args.bots:
        counts = [int(k) for k in args.bot_tables.split(",")]
        return await bots_load(cluster, counts, args.bot_seconds, args.budget)
    ramp = args.ramp if args.ramp is not None else max(5.0, args.games / 25)
    return await people_load(cluster, args.games, args.seconds, ramp, args.clock)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`measure`, and everything it started stopped whatever happens: on SIGTERM the
    run is cancelled as asyncio cancels it on Ctrl+C, and while things stop both signals
    are ignored, so that a second Ctrl+C cannot leave a server, PostgreSQL or Redis behind."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    stack = contextlib.ExitStack()
    try:
        return await measure(args, stack)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stack.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250, help="4-player games of people (default 250)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured after the ramp-up (default 60)")
    parser.add_argument("--ramp", type=float, default=None, help="seconds to set the games up (default games/25)")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="sqlite: one SQLite file; postgres: a PostgreSQL and a Redis started for the run (default sqlite)",
    )
    parser.add_argument("--processes", type=int, default=1, help="red7 serve processes (default 1; >1: postgres)")
    parser.add_argument("--bots", action="store_true", help="measure hard bots' decision time instead")
    parser.add_argument("--bot-tables", default="1,2,4,8,16,32", help="table counts to try (default 1,2,4,8,16,32)")
    parser.add_argument("--bot-seconds", type=float, default=20.0, help="seconds per table count (default 20)")
    parser.add_argument("--budget", type=float, default=1.0, help="a hard bot's p99 budget in seconds (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="each server's bot workers (default 1)")
    parser.add_argument(
        "--clock", type=int, default=0, help="each table's clock, seconds per turn: 0 (none, the default), 60, 180..."
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.backend == "sqlite" and args.processes > 1:
        parser.error(
            f"--processes {args.processes} needs --backend postgres: server processes share their tables "
            "through PostgreSQL and Redis, never through a SQLite file"
        )
    if args.backend == "postgres":
        if not services.Postgres.available() or not services.Redis.available():
            parser.error(
                "--backend postgres needs Debian's PostgreSQL server (postgresql-NN, and the postgres user when run "
                "as root) and redis-server installed"
            )
    # The generator's own garbage collections would be counted as the servers' latency
    # (a full one stops every simulated person for up to 140 ms): it is tuned as
    # red7.web.server.tune_gc tunes a server.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per client, here and in the server
    try:
        result = asyncio.run(run(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: what this run started is stopped", file=sys.stderr)
        sys.exit(130)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # both ignored while things stopped
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    print(json.dumps(result, indent=2) if args.json else report(result))


if __name__ == "__main__":
    main()

"""Load on ``red7 serve``: many people playing at once, and bots that think.

The script starts the servers itself, drives them over HTTP and WebSockets from one asyncio
process, and stops everything at the end (also on Ctrl+C, SIGTERM or an error):

* ``--backend sqlite`` (the default): one ``red7 serve`` process (``--workers 1
  --bot-delay 0``, a free loopback port) on a fresh SQLite file;
* ``--backend postgres``: a throwaway PostgreSQL cluster and a Redis of its own on
  loopback (the throwaway services of :mod:`tests.support.local_services`: Debian's binaries, run as the
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

Languages (``--languages en,pt-BR``, with people): each person's hello asks for a
language, seat by seat in turn, so a table's people read it in two languages (its frames'
words made once per language); by default none is asked and each reads the table's.

Chat (``--chat``, with people): every person also chats, as the server lets a person: a
line at random moments, on average one every ``--chat-every`` seconds (20 by default),
never two within 2.5 s (the server's limit is a line every 2 s after a burst of 5: a
person at this pace is never refused), half of them canned reactions and half free text
of a few words to a long sentence (Portuguese and English words, emoji, markup that must
stay text); at a game's end half the people say ``gg`` or ``wp`` (unless they chatted
less than 2.5 s before). Every connection asks for the chat (``"chat": true``), so each
line goes to the four seats of its table, through the database and, with N > 1, the bus.
Measured besides the above:

* chat delivery: from a line's send to its arrival at each of the three other seats'
  clients (p50, p90, p99, max), for the lines sent in the window; the arrivals missing at
  the end (``undelivered``: each line is owed to three seats);
* chat refusals (``chat-too-fast`` and the others), counted with the errors;
* the leak check covers chat frames: every line in the players' channel, from a seat,
  under that seat's name, saying a reaction's words or a text its seat sent, and naming
  no card the receiver cannot know (the texts name none).

The servers' CPU per decision then includes the chat's (its writes and frames).

Bots (``--bots``): K tables of one person and three ``hard`` bots, K = 1, 2, 4, 8...
(``--bot-tables``), the person deciding at once, each K for ``--bot-seconds``. The
latency of a bot's decision is measured by the person's client, from the frame that
hands the bot its turn to the frame of its decision. The run stops once the p99 exceeds
``--budget`` seconds (``hard``: 1 s): the largest K under it is how many such tables the
processes (each with its one bot worker) serve. Table ``t`` is on process ``t % N``; with
one process (the default) that is how many one process serves. Bots work on both backends.

    python -m benchmarks.web_load [--games 250] [--seconds 60] [--clock 60] [--chat [--chat-every 20]] [--json]
    python -m benchmarks.web_load --backend postgres --processes 2 [--games 500] [--seconds 60] [--json]
    python -m benchmarks.web_load --bots [--bot-tables 1,2,4,8,16] [--bot-seconds 20] [--json]

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
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from red7.ui.i18n import translations
from red7.web.chat.chat import RATE as CHAT_RATE
from red7.web.chat.chat import REACTIONS
from red7.web.http.limits import UNLIMITED
from tests.support import local_services as services

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


NO_KEEP_ALIVE = httpx.Limits(max_connections=20, max_keepalive_connections=0)
"""The set-up's HTTP connections: a new one per request (on loopback: cheap). A connection
kept idle is closed by the server after 5 s, and on a loaded machine the generator may
read a response seconds after it was sent, then send its next request on a connection
the server is closing (``httpx.ReadError``: it failed two set-ups at a load average of
15); a POST cannot be sent again blindly (a seat taken twice)."""


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
    settings: dict[str, Any] = {"players": 4, "name": NAMES[0], "lang": "en"}
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
    chat: ChatStats | None = None
    """With ``--chat``: what the chat did."""
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def measured(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]


CHAT_GAP = 1 / CHAT_RATE + 0.5
"""The least time between two lines of one person: the server's refill time (a line every
2 s) and half a second for the network's jitter, so that a person who keeps the pace is
never refused however long they chat (the burst is never needed)."""
CHAT_REFUSALS = ("chat-too-fast", "chat-too-long", "chat-off", "bad-chat")
"""The error codes that answer a chat message (each answers the oldest one waiting)."""
WORDS = (
    "boa",
    "jogada",
    "nice",
    "hmm",
    "wait",
    "what",
    "now",
    "ok",
    "que",
    "sorte",
    "again?",
    "not",
    "that",
    "one",
    "ai",
    "não",
    "acredito",
    "rules",
    "changed",
    "haha",
    "🎉",
    "👍",
    "sure",
    "café?",
    "amanhã",
    "tonight",
    "club",
    "mesa",
    "play",
    "next",
    "<b>bold</b>",
    "<script>alert(1)</script>",
    "&amp;",
)
"""Free text's words: short ones in two languages, emoji, markup that must stay text. No
colour name or card notation (``R7``): a chat frame that names a card is a leak."""


@dataclass
class ChatStats:
    """The chat of a ``--chat`` run, as its clients saw it. A line is known by its table
    and its id (the server's); its sender learns the id from its own line coming back
    (lines and refusals answer one connection's messages in order)."""

    every: float
    """Mean seconds between two lines of one person."""
    said: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    """The texts each seat (table, seat) sent: a line must be one of its seat's."""
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """Each line (table, id) said: when it was sent."""
    arrivals: list[tuple[str, int, int, float]] = field(default_factory=list)
    """Each line arriving at another seat: (table, id, that seat, when)."""
    sends: int = 0
    reactions: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    held_back: int = 0
    """Game-end reactions not sent: the person had chatted less than :data:`CHAT_GAP` before."""

    def text(self, rng: random.Random) -> str:
        """A free line: a few words, sometimes long, never a card's name."""
        length = rng.choice((1, 2, 3, 4, 6, 9, 14, 20))
        return " ".join(rng.choice(WORDS) for _ in range(length))[:200].strip()

    def delivery(self, window: tuple[float, float]) -> dict[str, Any]:
        """The lines sent in ``window``: how long they took to reach each other seat, and
        how many arrivals are missing (each line goes to the three other seats)."""
        lines = {key: at for key, at in self.sent.items() if window[0] <= at < window[1]}
        waits = [now - lines[(table, line)] for table, line, _seat, now in self.arrivals if (table, line) in lines]
        return {
            "lines": len(lines),
            "lines_per_second": round(len(lines) / (window[1] - window[0]), 1),
            "delivery": summary(waits),
            "undelivered": 3 * len(lines) - len(waits),
        }


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
        self,
        server: Server,
        table: str,
        seat: int,
        token: str,
        pace: Pace,
        stats: Stats,
        delay: float,
        seed: int,
        lang: str | None = None,
    ) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        self.token = token  # said in the socket's first message (never in an address)
        self.lang = lang  # the language its hello asks for (None: the table's)
        self.table, self.seat, self.pace, self.stats, self.delay = table, seat, pace, stats, delay
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}
        """Sends waiting for their answer: the seq they make, and when they were sent."""
        self.acted: set[tuple[int, int]] = set()
        self.game: int | None = None
        self.known: set[str] = set()
        self.bot_waits: list[float] = []
        self.bot_turn: tuple[int, float] | None = None
        self.talk = random.Random(-1 - seed)
        """The chat's own randomness: the decisions are those of a run without chat."""
        self.said_at: deque[float] = deque()
        """This connection's chat messages waiting for their line or refusal: when each was sent."""
        self.last_said = -CHAT_GAP

    async def run(self) -> None:
        try:
            async with websockets.connect(self.url, proxy=None, open_timeout=60, max_queue=None) as ws:
                chat = self.stats.chat is not None
                hello = {"type": "hello", "token": self.token, "chat": chat}
                await ws.send(json.dumps(hello if self.lang is None else {**hello, "lang": self.lang}))
                receiving = asyncio.create_task(self.receive(ws))
                stopping = asyncio.create_task(self.stats.stop.wait())
                chatting = asyncio.create_task(self.chat(ws)) if chat else None
                done, _ = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if chatting is not None:
                    chatting.cancel()
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
                if self.stats.chat is not None and frame["code"] in CHAT_REFUSALS:
                    self.stats.chat.refused[frame["code"]] += 1
                    if self.said_at:
                        self.said_at.popleft()
                continue
            if frame["type"] == "chat":
                self.heard(raw, frame, now)
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
                    if self.stats.chat is not None and self.talk.random() < 0.5:  # "gg", or "wp", at the end
                        reaction = self.talk.choice(("gg", "wp"))
                        self.say(ws, {"type": "chat", "reaction": reaction}, game_end=True)
                    again = {"type": "again", "game": frame["table"]["game"]}
                    asyncio.get_running_loop().call_later(self.delay, self.send, ws, again)
            elif game["options"] and key not in self.acted:
                self.acted.add(key)
                safe = [o["action"] for o in game["options"] if o["safe"] and o["kind"] != "concede"]
                action = self.rng.choice(safe) if safe else "concede"
                wait = max(0.0, self.pace.last + self.delay - now)
                message = {"type": "decide", "seq": seq, "action": action}
                asyncio.get_running_loop().call_later(wait, self.send, ws, message, seq + 1)

    async def chat(self, ws: Any) -> None:
        """Say a line now and then: on average one every ``--chat-every`` seconds (at random
        moments, never two within :data:`CHAT_GAP`), half canned reactions, half free text."""
        chat = self.stats.chat
        assert chat is not None
        while not self.stats.stop.is_set():
            await asyncio.sleep(CHAT_GAP + self.talk.expovariate(1 / max(1e-3, chat.every - CHAT_GAP)))
            if self.talk.random() < 0.5:
                self.say(ws, {"type": "chat", "reaction": self.talk.choice(tuple(REACTIONS))})
            else:
                self.say(ws, {"type": "chat", "text": chat.text(self.talk)})

    def say(self, ws: Any, message: dict[str, Any], game_end: bool = False) -> None:
        """Send a chat message, and note when (its line, coming back, tells its id)."""
        chat = self.stats.chat
        now = time.monotonic()
        if chat is None or self.stats.stop.is_set():
            return
        if game_end and now - self.last_said < CHAT_GAP:
            chat.held_back += 1
            return
        if "text" in message:
            chat.said.setdefault((self.table, self.seat), set()).add(message["text"])
        else:
            chat.reactions += 1
        chat.sends += 1
        self.last_said = now
        self.said_at.append(now)
        asyncio.ensure_future(self._send(ws, json.dumps(message)))

    def heard(self, raw: str, frame: dict[str, Any], now: float) -> None:
        """A chat frame: its lines timed (the receiver's own: its send's id) and checked,
        with this seat's knowledge only: in the players' channel, from a seat, under the
        seat's name, saying a reaction's words or a text that seat sent, naming no card
        the receiver cannot know."""
        chat = self.stats.chat
        assert chat is not None
        chat.frames += 1
        problems = []
        if not frame["can_post"]:
            problems.append("a seat told it may not chat")
        for line in frame["lines"]:
            seat = line["seat"]
            if line["channel"] != "players" or seat not in range(4):
                problems.append(f"a line of the {line['channel']} channel, seat {seat}")
                continue
            if line["name"] != NAMES[seat]:
                problems.append(f"a line of seat {seat} under the name {line['name']!r}")
            # (in the language its hello asked, else its table's: English)
            reaction = REACTIONS.get(line["reaction"]) if line["reaction"] else None
            expected = None if reaction is None else translations(self.lang or "en").gettext(reaction)
            if expected is not None and line["text"] != expected:
                problems.append(f"reaction {line['reaction']} as {line['text']!r}")
            if line["reaction"] is None and line["text"] not in chat.said.get((self.table, seat), ()):
                problems.append(f"a line seat {seat} never said: {line['text'][:60]!r}")
            if frame["history"]:
                continue  # (said before this connection came: not timed)
            if seat == self.seat:
                if self.said_at:
                    chat.sent[(self.table, line["id"])] = self.said_at.popleft()
            else:
                chat.arrivals.append((self.table, line["id"], self.seat, now))
        unknown = card_ids(raw.replace(self.table, "")) - self.known
        if unknown:
            problems.append(f"cards it cannot know: {sorted(unknown)}")
        if problems:
            self.stats.leaks.append(f"table {self.table} seat {self.seat} chat: {'; '.join(problems)}")

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


async def people_load(
    cluster: Cluster,
    games: int,
    seconds: float,
    ramp: float,
    clock: int = 0,
    chat: float | None = None,
    languages: Sequence[str] = (),
) -> dict[str, Any]:
    stats = Stats(chat=None if chat is None else ChatStats(every=chat))
    people: list[Person] = []
    tasks = []
    started = time.monotonic()
    limits = NO_KEEP_ALIVE
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
                lang = languages[seat % len(languages)] if languages else None
                person = Person(server, table, seat, token, pace, stats, delay=1.0, seed=g * 4 + seat, lang=lang)
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
        "chat": None if stats.chat is None else chat_figures(stats.chat, stats.window),
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


def chat_figures(chat: ChatStats, window: tuple[float, float]) -> dict[str, Any]:
    """The chat of a run: its pace, the lines of the window and their delivery, refusals."""
    return {
        "every_seconds": chat.every,
        "sent_in_run": chat.sends,
        "reactions_in_run": chat.reactions,
        **chat.delivery(window),
        "frames": chat.frames,
        "refused": dict(chat.refused),
        "game_end_reactions_held_back": chat.held_back,
    }


# --- bots -----------------------------------------------------------------------------


async def bots_load(cluster: Cluster, counts: list[int], seconds: float, budget: float) -> dict[str, Any]:
    steps = []
    async with contextlib.AsyncExitStack() as clients:
        https = [
            await clients.enter_async_context(
                httpx.AsyncClient(
                    base_url=server.base,
                    trust_env=False,
                    timeout=60,
                    limits=NO_KEEP_ALIVE,
                )
            )
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
            f"{result['games']} games{' with a ' + str(result['clock']) + ' s clock' if result['clock'] else ''}"
            f"{', chatting' if result['chat'] else ''}, "
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
        chat = result["chat"]
        if chat is not None:
            d = chat["delivery"]
            lines.append(
                f"chat: {chat['lines']} lines sent in the window ({chat['lines_per_second']}/s, a person's every "
                f"{chat['every_seconds']} s on average), {chat['frames']} chat frames; delivery to the other seats "
                + (
                    f"p50 {d['p50_ms']:.1f} ms, p90 {d['p90_ms']:.1f} ms, p99 {d['p99_ms']:.1f} ms, "
                    f"max {d['max_ms']:.1f} ms over {d['n']} arrivals"
                    if d["n"]
                    else "(none arrived)"
                )
                + f"; undelivered {chat['undelivered']}, refused {chat['refused'] or 0}"
            )
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
    languages = [lang for lang in args.languages.split(",") if lang]
    return await people_load(
        cluster, args.games, args.seconds, ramp, args.clock, args.chat_every if args.chat else None, languages
    )


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
    parser.add_argument(
        "--chat",
        action="store_true",
        help="people chat too: reactions and free text, each person a line every --chat-every s on average",
    )
    parser.add_argument(
        "--chat-every",
        type=float,
        default=20.0,
        help=f"with --chat: a person's mean seconds between two lines (default 20; at least {CHAT_GAP} s apart)",
    )
    parser.add_argument(
        "--languages",
        default="",
        help="the languages the people's hellos ask for, seat by seat (e.g. en,pt-BR: seats 0 and 2 read English, "
        "1 and 3 Portuguese; default: none, each reads the table's)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.chat_every < CHAT_GAP:
        parser.error(f"--chat-every must be at least {CHAT_GAP} s: the server refuses faster chat (a line every 2 s)")
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

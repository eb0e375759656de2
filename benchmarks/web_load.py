"""Load on one ``red7 serve`` process: many people playing at once, and bots that think.

The script starts the server itself (a subprocess on a fresh SQLite file, ``--workers 1
--bot-delay 0``, on a free loopback port), drives it over HTTP and WebSockets from one
asyncio process, and stops it at the end.

People (the default): ``--games`` 4-player basic games of four simulated people each
(create the table and take the other three seats over REST, start, one WebSocket per
seat). Each game makes one decision a second: the seat asked to decide sends a safe
decision about a second after the previous decision of its game, and a game that ends
is played again. After a ramp-up in which the games are set up, ``--seconds`` are
measured:

* the round trip of every decision: from its send to the arrival, at the sender, of the
  frame with the next ``seq`` (p50, p90, p99, max);
* decisions per second; errors (error frames by code, disconnects, decisions that got
  no answer); server CPU seconds and memory (VmRSS and peak VmHWM from /proc).
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
``--budget`` seconds (``hard``: 1 s): the largest K under it is how many such tables one
process (and its one bot worker) serves.

    python benchmarks/web_load.py [--games 250] [--seconds 60] [--json]
    python benchmarks/web_load.py --bots [--bot-tables 1,2,4,8,16] [--bot-seconds 20] [--json]

The figures vary with whatever else the machine runs: give medians and percentiles of
long runs, and say on what machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

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


# --- the server -----------------------------------------------------------------------


class Server:
    """``red7 serve`` on a free loopback port and a new SQLite file."""

    def __init__(self, folder: Path, workers: int) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "server.log"
        command = [str(RED7), "serve", "--port", str(self.port), "--database-url", f"sqlite:///{folder}/load.sqlite3"]
        command += ["--bot-delay", "0", "--workers", str(workers)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        async with httpx.AsyncClient(trust_env=False) as http:
            for _ in range(300):
                if self.process.poll() is not None:
                    raise SystemExit(f"the server stopped:\n{self.log.read_text()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{self.base}/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit("the server did not start in 30 s")

    def memory(self) -> dict[str, float]:
        """Resident and peak resident memory of the server process, MiB."""
        fields = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
        return fields

    def cpu_seconds(self) -> float:
        """CPU seconds of the server process and of its bot workers so far."""
        total, pids = 0.0, [self.process.pid]
        while pids:
            pid = pids.pop()
            with contextlib.suppress(OSError):
                parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
                for task in Path(f"/proc/{pid}/task").iterdir():
                    pids += [int(child) for child in (task / "children").read_text().split()]
        return total

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post(path, json=body)
    if r.status_code != 200:
        raise RuntimeError(f"{path}: {r.status_code} {r.text}")
    data: dict[str, Any] = r.json()
    return data


async def new_table(http: httpx.AsyncClient, people: int, bot: str | None) -> tuple[str, list[str]]:
    """A 4-player basic table: ``people`` people (seat 0 first), bots of level ``bot`` in
    the other seats, started. Its id and the people's tokens."""
    created = await post(http, "/api/tables", {"players": 4, "name": NAMES[0]})
    table, tokens = created["id"], [created["token"]]
    for seat in range(1, 4):
        if seat < people:
            tokens.append((await post(http, f"/api/tables/{table}/seats/{seat}", {"name": NAMES[seat]}))["token"])
        else:
            await post(http, f"/api/tables/{table}/bots", {"token": tokens[0], "seat": seat, "level": bot})
    await post(http, f"/api/tables/{table}/start", {"token": tokens[0]})
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
        self.url = f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}"
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
                if self.seat == 0 and key not in self.acted:
                    self.acted.add(key)
                    self.stats.games_over += self.stats.measured(now)
                    asyncio.get_running_loop().call_later(self.delay, self.send, ws, {"type": "again"})
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


async def people_load(server: Server, games: int, seconds: float, ramp: float) -> dict[str, Any]:
    stats = Stats()
    people: list[Person] = []
    tasks = []
    started = time.monotonic()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, limits=limits, timeout=60) as http:
        for g in range(games):
            await asyncio.sleep(max(0.0, started + ramp * g / games - time.monotonic()))
            table, tokens = await new_table(http, people=4, bot=None)
            pace = Pace()
            for seat, token in enumerate(tokens):
                person = Person(server, table, seat, token, pace, stats, delay=1.0, seed=g * 4 + seat)
                people.append(person)
                tasks.append(asyncio.create_task(person.run()))
    setup = time.monotonic() - started
    await asyncio.sleep(3.0)  # the last games settle into their pace
    begin = time.monotonic()
    stats.window = (begin, begin + seconds)
    cpu0, client0 = server.cpu_seconds(), time.process_time()
    await asyncio.sleep(seconds)
    memory = server.memory()
    cpu = server.cpu_seconds() - cpu0
    client_cpu = time.process_time() - client0
    await asyncio.sleep(5.0)  # answers to the last sends of the window
    stats.stop.set()
    await asyncio.gather(*tasks)
    return {
        "mode": "people",
        "games": games,
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
        "server_cpu_share": round(cpu / seconds, 2),
        "client_cpu_share": round(client_cpu / seconds, 2),
        "server_memory_mib": {key: round(value, 1) for key, value in memory.items()},
    }


# --- bots -----------------------------------------------------------------------------


async def bots_load(server: Server, counts: list[int], seconds: float, budget: float) -> dict[str, Any]:
    steps = []
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=60) as http:
        for k in counts:
            stats = Stats()
            people = []
            for t in range(k):
                table, tokens = await new_table(http, people=1, bot="hard")
                people.append(Person(server, table, 0, tokens[0], Pace(), stats, delay=0.0, seed=t))
            begin = time.monotonic() + 2.0  # the pool's worker starts with the first bot
            stats.window = (begin, begin + seconds)
            tasks = [asyncio.create_task(p.run()) for p in people]
            cpu0 = server.cpu_seconds()
            await asyncio.sleep(seconds + 2.0)
            cpu = server.cpu_seconds() - cpu0
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
                "server_cpu_share": round(cpu / (seconds + 2.0), 2),
                "server_memory_mib": {key: round(value, 1) for key, value in server.memory().items()},
            }
            steps.append(step)
            print(json.dumps(step), file=sys.stderr, flush=True)
            p99 = step["bot_decision"]["p99_ms"]
            if p99 is None or p99 > budget * 1000:
                break
    served = [s["tables"] for s in steps if s["bot_decision"]["p99_ms"] is not None]
    within = [s["tables"] for s in steps if (s["bot_decision"]["p99_ms"] or 1e9) <= budget * 1000]
    return {
        "mode": "bots",
        "level": "hard",
        "budget_seconds": budget,
        "seconds_per_step": seconds,
        "steps": steps,
        "most_tables_within_budget": max(within) if within else 0,
        "tried": served,
    }


# --- main -----------------------------------------------------------------------------


def report(result: dict[str, Any]) -> str:
    if result["mode"] == "people":
        rt = result["round_trip"]
        mem = result["server_memory_mib"]
        lines = [
            f"{result['games']} games, {result['connections']} WebSockets, {result['seconds']} s measured "
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
            f"server: {result['server_cpu_share']:.0%} of a core, VmRSS {mem.get('VmRSS')} MiB "
            f"(peak {mem.get('VmHWM')} MiB); load generator {result['client_cpu_share']:.0%} of a core",
        ]
        lines += result["leak_samples"]
        return "\n".join(lines)
    lines = [f"hard bots, tables of 1 person + 3 bots, {result['seconds_per_step']} s per step:"]
    for step in result["steps"]:
        b = step["bot_decision"]
        lines.append(
            f"  {step['tables']:>3} tables: bot decision p50 {b['p50_ms'] or 0:.0f} ms, p99 {b['p99_ms'] or 0:.0f} ms, "
            f"max {b['max_ms'] or 0:.0f} ms ({b['n']} decisions, {step['bot_decisions_per_second']}/s), "
            f"errors {step['errors'] or 0}, leaks {step['leaks']}, "
            f"server and worker {step['server_cpu_share']:.0%} of a core"
        )
    lines.append(f"most tables with the p99 within {result['budget_seconds']} s: {result['most_tables_within_budget']}")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="red7-load-") as folder:
        server = Server(Path(folder), args.workers)
        try:
            await server.ready()
            if args.bots:
                counts = [int(k) for k in args.bot_tables.split(",")]
                return await bots_load(server, counts, args.bot_seconds, args.budget)
            ramp = args.ramp if args.ramp is not None else max(5.0, args.games / 25)
            return await people_load(server, args.games, args.seconds, ramp)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250, help="4-player games of people (default 250)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured after the ramp-up (default 60)")
    parser.add_argument("--ramp", type=float, default=None, help="seconds to set the games up (default games/25)")
    parser.add_argument("--bots", action="store_true", help="measure hard bots' decision time instead")
    parser.add_argument("--bot-tables", default="1,2,4,8,16,32", help="table counts to try (default 1,2,4,8,16,32)")
    parser.add_argument("--bot-seconds", type=float, default=20.0, help="seconds per table count (default 20)")
    parser.add_argument("--budget", type=float, default=1.0, help="a hard bot's p99 budget in seconds (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="the server's bot workers (default 1)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per client, here and in the server
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2) if args.json else report(result))


if __name__ == "__main__":
    main()

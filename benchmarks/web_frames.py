"""The CPU a web table's change costs to show: every client's frame made, encoded and
handed to its connection (``Hub.publish``: :mod:`red7.web.table.presence`), in one
process, without a network or a database.

4-player games of four people (the games of ``web_load.py``), each seat with
``--connections`` connections and ``--spectators`` spectators at each table: every
decision (a safe one, at random) is applied and published, as the server does after
each change. Reported: the process's CPU per decision (median of ``--repeat`` runs) and
the frames sent. The script uses only what ``red7.web`` had before its frame cache
(``Hub``, ``Client``, ``LiveTable``), so the same script measures an older checkout
with that checkout's Python (``/path/to/old/.venv/bin/python -m benchmarks.web_frames``):
alternate the two, on a machine as quiet as can be.

    python -m benchmarks.web_frames [--games 30] [--connections 1] [--spectators 0] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

from red7.core.actions import Action
from red7.core.model import Config
from red7.play.session import Session
from red7.play.table import Seat, Table

try:
    from red7.web.table.live import LiveTable, SeatState
    from red7.web.table.presence import Client, Hub
except ImportError:  # a checkout from before the web package's rooms (68d268a and older)
    from red7.web.live import LiveTable, SeatState  # type: ignore[import-not-found,no-redef]
    from red7.web.service import Client, Hub  # type: ignore[import-not-found,no-redef]

NAMES = ("Ana", "Bia", "Caio", "Davi")


async def play(games: int, connections: int, spectators: int) -> tuple[float, int, int]:
    """CPU seconds, decisions and frames sent for ``games`` games played out and published."""
    hub = Hub()
    sent = 0

    async def send(_text: str) -> None:
        nonlocal sent
        sent += 1

    rng = random.Random(1)
    decisions = 0
    started = time.process_time()
    for g in range(games):
        config = Config(4)
        seats = [SeatState(name=name, token_hash=f"h{name}", here=connections) for name in NAMES]
        table = Table([Seat(name) for name in NAMES], config, seed=g)
        live = LiveTable(f"t{g}", "en", config, seats, "playing", session=Session(table))
        for seat in [s for s in range(4) for _ in range(connections)] + [None] * spectators:
            hub.add(Client(live.id, seat, send))
        await hub.publish(live)
        while not table.is_over:
            safe: list[Action | str] = [o.action for o in table.options() if o.safe]
            table.decide(rng.choice(safe or ["concede"]))
            decisions += 1
            await hub.publish(live)
    return time.process_time() - started, decisions, sent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--connections", type=int, default=1, help="connections per seat (default 1)")
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table (default 0)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    runs = [asyncio.run(play(args.games, args.connections, args.spectators)) for _ in range(args.repeat)]
    per_decision = [cpu / decisions * 1000 for cpu, decisions, _sent in runs]
    result: dict[str, Any] = {
        "games": args.games,
        "connections_per_seat": args.connections,
        "spectators": args.spectators,
        "decisions": runs[0][1],
        "frames_sent": runs[0][2],
        "cpu_ms_per_decision_median": round(statistics.median(per_decision), 4),
        "cpu_ms_per_decision_runs": [round(ms, 4) for ms in per_decision],
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['decisions']} decisions, {result['frames_sent']} frames sent a run: "
            f"{result['cpu_ms_per_decision_median']} ms of CPU per decision (median of {args.repeat}: "
            f"{', '.join(str(ms) for ms in result['cpu_ms_per_decision_runs'])})"
        )


if __name__ == "__main__":
    main()

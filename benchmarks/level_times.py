"""Seconds per decision of each level in every configuration: the levels' time budgets.

For each of the 12 configurations (2-4 players, basic or advanced, with or without the
action cards) and each level, seeded games are played with the level in seat 0 and
``medium`` in the other seats (as ``red7 bench --bot``), until the level has made at
least ``--decisions`` decisions; the table gives their mean, 99th percentile and
maximum, wall-clock (what a player waits) and the process's CPU time (what the machine's
other load does not change), and the load average when the cell ended. The clocks:
``easy`` within 50 ms, ``medium`` within 200 ms and ``hard`` within 1 s at the 99th
percentile. Cells run in ``--jobs`` processes: with 2 on a 2-core machine each cell has
a core.

    .venv/bin/python -m benchmarks.level_times --levels easy,medium,hard --decisions 200 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from red7.analysis.measures import percentile
from red7.bots import Bot, make_bot
from red7.core.actions import Action
from red7.core.model import Config, Option
from red7.core.observation import Observation
from red7.play.match import play_game

CONFIGS = [Config(p, a, x) for p, a, x in itertools.product((2, 3, 4), (False, True), (False, True))]


def name(config: Config) -> str:
    return f"{config.players}p {'advanced' if config.advanced else 'basic'}{' + actions' if config.actions else ''}"


class CPUTimed(Bot):
    """``bot``, with the CPU time of each of its decisions in ``cpu`` (the process's, so
    what the machine's other load does not add)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu: list[float] = []

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        start = time.process_time()
        action = self.bot.choose(observation, options, rng)
        self.cpu.append(time.process_time() - start)
        return action


def cell(args: tuple[str, Config, int, int]) -> dict[str, Any]:
    """The times of one level in one configuration."""
    level, config, decisions, seed = args
    times: list[float] = []
    cpu: list[float] = []
    games = 0
    while len(times) < decisions:
        timed = CPUTimed(make_bot(level))
        bots = [timed, *(make_bot("medium") for _ in range(config.players - 1))]
        times += play_game(bots, seed + games, config).times[0]
        cpu += timed.cpu
        games += 1
    return {
        "level": level,
        "config": name(config),
        "games": games,
        "decisions": len(times),
        "mean_ms": 1000 * statistics.fmean(times),
        "p99_ms": 1000 * (percentile(times, 99) or 0.0),
        "max_ms": 1000 * max(times),
        "cpu_mean_ms": 1000 * statistics.fmean(cpu),
        "cpu_p99_ms": 1000 * (percentile(cpu, 99) or 0.0),
        "cpu_max_ms": 1000 * max(cpu),
        "load": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--decisions", type=int, default=200, help="decisions of the level per cell (default 200)")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--configs", default="", help="only these configurations, comma-separated as printed, e.g. '3p advanced'"
    )
    args = parser.parse_args(argv)
    wanted = {c.strip() for c in args.configs.split(",") if c.strip()}
    configs = [c for c in CONFIGS if not wanted or name(c) in wanted]
    tasks = [(level, c, args.decisions, args.seed) for level in args.levels.split(",") for c in configs]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = []
        for row in pool.map(cell, tasks):
            rows.append(row)
            if not args.json:
                print(
                    f"{row['level']:<8} {row['config']:<24} {row['games']:>4} games {row['decisions']:>5} decisions  "
                    f"mean {row['mean_ms']:8.1f} ms  p99 {row['p99_ms']:8.1f} ms  max {row['max_ms']:8.1f} ms  "
                    f"CPU mean {row['cpu_mean_ms']:8.1f} ms  p99 {row['cpu_p99_ms']:8.1f} ms  "
                    f"max {row['cpu_max_ms']:8.1f} ms  "
                    f"load {row['load']:.1f}",
                    flush=True,
                )
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

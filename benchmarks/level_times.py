"""Seconds per decision of each level in every configuration: the levels' time budgets.

For each of the 12 configurations (2-4 players, basic or advanced, with or without the
action cards) and each level, seeded games are played with the level in seat 0 and
``medium`` in the other seats (as ``red7 bench --bot``), until the level has made at
least ``--decisions`` decisions; the table gives their mean, 99th percentile and
maximum. ``hard`` must stay within 1 s at the 99th percentile and ``expert`` within 5 s.
Cells run in ``--jobs`` processes: with 2 on a 2-core machine each cell has a core.

    .venv/bin/python benchmarks/level_times.py --levels hard,expert --decisions 200 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from red7.analysis.measures import percentile
from red7.bots import make_bot
from red7.core.model import Config
from red7.play.match import play_game

CONFIGS = [Config(p, a, x) for p, a, x in itertools.product((2, 3, 4), (False, True), (False, True))]


def name(config: Config) -> str:
    return f"{config.players}p {'advanced' if config.advanced else 'basic'}{' + actions' if config.actions else ''}"


def cell(args: tuple[str, Config, int, int]) -> dict[str, Any]:
    """The times of one level in one configuration."""
    level, config, decisions, seed = args
    times: list[float] = []
    games = 0
    while len(times) < decisions:
        bots = [make_bot(level), *(make_bot("medium") for _ in range(config.players - 1))]
        times += play_game(bots, seed + games, config).times[0]
        games += 1
    return {
        "level": level,
        "config": name(config),
        "games": games,
        "decisions": len(times),
        "mean_ms": 1000 * statistics.fmean(times),
        "p99_ms": 1000 * (percentile(times, 99) or 0.0),
        "max_ms": 1000 * max(times),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--levels", default="easy,medium,hard,expert")
    parser.add_argument("--decisions", type=int, default=200, help="decisions of the level per cell (default 200)")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    tasks = [(level, c, args.decisions, args.seed) for level in args.levels.split(",") for c in CONFIGS]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = []
        for row in pool.map(cell, tasks):
            rows.append(row)
            if not args.json:
                print(
                    f"{row['level']:<8} {row['config']:<24} {row['games']:>4} games {row['decisions']:>5} decisions  "
                    f"mean {row['mean_ms']:8.1f} ms  p99 {row['p99_ms']:8.1f} ms  max {row['max_ms']:8.1f} ms",
                    flush=True,
                )
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

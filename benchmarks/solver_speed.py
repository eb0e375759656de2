"""The exact solver, compiled (red7.native) against the pure-Python reference.

Two measurements, each made for both searches in the same run, alternating deal by
deal, so that the ratio is taken under the same load:

* **fresh deals**: is the first turn start of a 2-player basic deal won? Each search
  starts from an empty transposition table (the hardest case: 7 cards each);
* **a PIMC decision**: ``--worlds`` worlds sampled from the first player's view of the
  deal (7 cards in hand), each solved with the value of every decision (what ``pimc``
  does when it solves), from an empty table (in a game the table keeps what earlier
  decisions solved, so later decisions are cheaper).

Each figure is the median over the deals (and the mean, for the long tail); the ratio
is the median of the per-deal ratios. The pure-Python search runs in a second process
started with ``RED7_NATIVE=0`` (red7's own switch), which solves each deal when this one
asks and waits meanwhile: one search runs at a time, deal by deal, as in one process.

    python -m benchmarks.solver_speed [--deals 40] [--worlds 16] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from red7 import Game, native
from red7.core.worlds import WorldSampler
from red7.solver import exact, solve


def _masks(game: Game) -> tuple[int, int, int, int, int]:
    me = game.current_player
    assert me is not None
    seen = game.observe(None)
    hands = [game.observe(s).hand or 0 for s in range(2)]
    return hands[me], seen.palettes[me], hands[1 - me], seen.palettes[1 - me], game.rule


def _fresh_deal(game: Game) -> float:
    """Seconds to solve the deal's first turn start, from an empty table."""
    exact.clear_table()
    started = time.perf_counter()
    exact.won(*_masks(game))
    return time.perf_counter() - started


def _pimc_decision(game: Game, worlds: int, seed: int) -> float:
    """Seconds to solve ``worlds`` worlds sampled from the mover's view, every decision
    valued, from an empty table."""
    me = game.current_player
    assert me is not None
    sampler, rng = WorldSampler(game.observe(me)), random.Random(seed)
    exact.clear_table()
    started = time.perf_counter()
    for _ in range(worlds):
        solve(sampler.sample(rng), plans=False)
    return time.perf_counter() - started


def _times(seed: int, worlds: int) -> tuple[float, float]:
    """This process's seconds for deal ``seed``: its fresh deal, then a PIMC decision."""
    game = Game(players=2, seed=seed)
    return _fresh_deal(game), _pimc_decision(game, worlds, seed)


def _answer(worlds: int) -> None:
    """The Python twin (``--twin``): for each seed read from standard input, print the
    deal's two times as a JSON list, until the input ends."""
    for line in sys.stdin:
        print(json.dumps(_times(int(line), worlds)), flush=True)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--twin", action="store_true", help=argparse.SUPPRESS)  # the Python process, see _answer
    args = parser.parse_args(argv)
    if args.twin:
        _answer(args.worlds)
        return {}
    if not native.available():
        sys.exit(f"the compiled core is not in use ({native.why_not}); build it with make")
    fresh: dict[str, list[float]] = {"python": [], "compiled": []}
    pimc: dict[str, list[float]] = {"python": [], "compiled": []}
    twin = subprocess.Popen(
        [sys.executable, __file__, "--twin", "--worlds", str(args.worlds)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "RED7_NATIVE": "0"},
    )  # fmt: skip
    assert twin.stdin is not None and twin.stdout is not None
    with twin:
        for seed in range(args.deals):
            print(seed, file=twin.stdin, flush=True)
            python = json.loads(twin.stdout.readline())
            compiled = _times(seed, args.worlds)
            for times, in_python, in_c in ((fresh, python[0], compiled[0]), (pimc, python[1], compiled[1])):
                times["python"].append(in_python)
                times["compiled"].append(in_c)
        twin.stdin.close()
    if twin.returncode != 0:
        sys.exit(f"the Python process ended with {twin.returncode}")
    result: dict[str, float] = {}
    for label, times in (("fresh_deal", fresh), ("pimc_decision", pimc)):
        for name in ("python", "compiled"):
            result[f"{label}_{name}_median_ms"] = 1e3 * statistics.median(times[name])
            result[f"{label}_{name}_mean_ms"] = 1e3 * statistics.mean(times[name])
        result[f"{label}_ratio"] = statistics.median(
            p / c for p, c in zip(times["python"], times["compiled"], strict=True)
        )
    if args.json:
        print(json.dumps(result, indent=1))
        return result
    print(f"Exact solver, {args.deals} 2-player basic deals (one at a time; medians, means in brackets):")
    for label, words in (
        ("fresh_deal", "first turn start, empty table"),
        ("pimc_decision", f"{args.worlds} sampled worlds solved, 7 cards in hand"),
    ):
        py, c = (
            f"{result[f'{label}_{n}_median_ms']:.2f} ms ({result[f'{label}_{n}_mean_ms']:.2f})"
            for n in ("python", "compiled")
        )
        print(f"  {words}: Python {py}, compiled {c}: x{result[f'{label}_ratio']:.1f}")
    return result


if __name__ == "__main__":
    main()

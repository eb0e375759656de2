"""The long differential check of the compiled engine, for releases: seeded random
games of all 12 configurations played by both engines side by side
(:func:`red7.core.compiled.play_beside`: the position, the options and their safety
marks before every decision, the results at the end). ``tests/test_native_engine.py``
runs a small sample of it in ``make test``, with games continued mid-turn and
positions given card by card.

    .venv/bin/python experiments/engine_differential.py --games 2000

Prints the decisions compared per configuration; exits 1 at the first difference.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

from red7 import Game
from red7.core import compiled
from red7.core.model import Config


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    args = parser.parse_args()
    if not compiled.available():
        sys.exit("the compiled engine is not in use: nothing to compare")
    total = 0
    started = time.perf_counter()
    for players, advanced, actions in itertools.product((2, 3, 4), (False, True), (False, True)):
        config = Config(players, advanced, actions)
        compared = 0
        for seed in range(args.seed, args.seed + args.games):
            choose = compiled.testing_player(random.Random(seed))
            try:
                compared += compiled.play_beside(Game(config=config, seed=seed), choose)
            except compiled.EnginesDiffer as err:
                print(f"{config}, seed {seed}: {err}")
                return 1
        total += compared
        print(f"{config}: {args.games} games, {compared:,} decisions compared", flush=True)
    print(f"all equal: {total:,} decisions in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The long differential check of the compiled engine, for releases: seeded random
games of all 12 configurations played by both engines side by side
(:func:`red7.core.compiled.play_beside`: the position, the options and their safety
marks before every decision, the results at the end). ``tests/test_native_engine.py``
runs a small sample of it in ``make test``, with games continued mid-turn and
positions given card by card.

    .venv/bin/python experiments/engine_differential.py --games 2000 --jobs 2
    .venv/bin/python experiments/engine_differential.py --decisions 1000000 --jobs 2

Prints the decisions compared per configuration; exits 1 at the first difference.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from red7 import Game
from red7.core import compiled
from red7.core.model import Config

CONFIGS = [Config(p, a, x) for p, a, x in itertools.product((2, 3, 4), (False, True), (False, True))]


def compare(config: Config, seeds: range) -> tuple[int, str | None]:
    """Decisions compared over the games of ``seeds``, and the first difference found."""
    compared = 0
    for seed in seeds:
        choose = compiled.testing_player(random.Random(seed))
        try:
            compared += compiled.play_beside(Game(config=config, seed=seed), choose)
        except compiled.EnginesDiffer as err:
            return compared, f"{config}, seed {seed}: {err}"
    return compared, None


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration (default 1000)")
    parser.add_argument(
        "--decisions", type=int, default=0, help="instead: at least this many decisions per configuration"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    if not compiled.available():
        sys.exit("the compiled engine is not in use: nothing to compare")
    total = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for config in CONFIGS:
            compared = games = 0
            seed = args.seed
            chunk = 20 if args.decisions else max(1, args.games // (4 * args.jobs))
            while (compared < args.decisions) if args.decisions else (games < args.games):
                width = chunk * args.jobs if args.decisions else min(chunk * 4 * args.jobs, args.games - games)
                parts = [range(s, min(s + chunk, seed + width)) for s in range(seed, seed + width, chunk)]
                for done, difference in pool.map(compare, [config] * len(parts), parts):
                    compared += done
                    if difference:
                        print(difference)
                        return 1
                seed += width
                games += width
                if args.decisions:
                    chunk = min(2000, chunk * 2)
            total += compared
            print(f"{config}: {games:,} games, {compared:,} decisions compared", flush=True)
    print(f"all equal: {total:,} decisions in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

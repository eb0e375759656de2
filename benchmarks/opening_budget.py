"""Does a smaller budget in the opening cost won turns? An A/B on the same positions.

``pimc``'s ``opening=N`` solves N worlds instead of ``worlds`` while the two hands hold
13 cards or more (a 2-player basic game's first turn), where a solve costs the most.
Elsewhere two specs that differ only there decide alike, so this measures them where
they differ: in ``--deals`` 2-player basic deals (seeds from ``--seed``) played by two
``medium`` players, every opening decision point with a choice, the mover's
observation is given to each bot (the same random stream for both), and the exact
solver labels the true position: of the positions won for the mover, the share whose
decision keeps the round won (*won turns kept*, as ``benchmarks/exact_play.py``
counts it), per bot, with 95 % bootstraps over deals and the paired difference (the
positions of a deal resampled together), and each bot's CPU seconds per decision (from
an empty transposition table, so a little above what it costs in a game).

    .venv/bin/python -m benchmarks.opening_budget --bots pimc:worlds=64,model=1,tries=50000,steps=200000,hard \\
        --deals 300 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from red7 import native
from red7.analysis.measures import bootstrap_difference, bootstrap_ratio, percentile
from red7.analysis.schedule import split_specs
from red7.bots import make_bot
from red7.bots.pimc import OPENING
from red7.core import compiled
from red7.core.game import Game
from red7.core.seeds import derive_seed
from red7.solver.exact import clear_table


def deal(args: tuple[list[str], int]) -> dict[str, Any]:
    """One deal: per bot, (won positions kept, won positions) and CPU seconds per decision."""
    specs, seed = args
    bots = [make_bot(spec) for spec in specs]
    medium = make_bot("medium")
    game = Game(players=2, seed=seed)
    medium_rng = random.Random(derive_seed(seed, "medium"))
    kept = [0] * len(bots)
    won = 0
    cpu: list[list[float]] = [[] for _ in bots]
    while not game.is_over:
        seat = game.current_player
        observation, options = game.observe(seat), game.options()
        if sum(observation.hand_sizes) < OPENING:
            break  # the opening is over: the specs decide alike from here
        if len(options) > 1:
            values = dict(compiled.engine_of(game).turn_values())
            if any(values.values()):
                won += 1
                for i, bot in enumerate(bots):
                    rng = random.Random(derive_seed(seed, "bot", len(game.history)))  # the same for every bot
                    clear_table()  # each bot solves from a cold table: none reuses another's solutions
                    start = time.process_time()
                    choice = bot.choose(observation, options, rng)
                    cpu[i].append(time.process_time() - start)
                    kept[i] += values[choice.id]
        game.apply(medium.choose(observation, options, medium_rng))
    return {"seed": seed, "won": won, "kept": kept, "cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", required=True, help="two or more comma-separated pimc specs, the first the reference")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not native.available():  # the labels are the compiled solver's, on 7-card hands
        sys.exit(f"the compiled core is not in use ({native.why_not}); build it with make")
    specs = [s.strip() for s in split_specs(args.bots)]
    tasks = [(specs, args.seed + d) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(deal, tasks, chunksize=4))
    per_bot: list[dict[str, Any]] = []
    for i, spec in enumerate(specs):
        pairs = [(float(r["kept"][i]), float(r["won"])) for r in rows]
        kept, won = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        cpu = [t for r in rows for t in r["cpu"][i]]
        per_bot.append(
            {
                "bot": spec,
                "kept": kept,
                "won": won,
                "share": kept / won if won else None,
                "ci": bootstrap_ratio([p[0] for p in pairs], [p[1] for p in pairs]),
                "paired_difference_to_first": bootstrap_difference(
                    pairs, [(float(r["kept"][0]), float(r["won"])) for r in rows]
                )
                if i
                else None,
                "cpu_mean_ms": 1000 * statistics.fmean(cpu) if cpu else None,
                "cpu_p99_ms": 1000 * (percentile(cpu, 99) or 0.0) if cpu else None,
                "cpu_max_ms": 1000 * max(cpu) if cpu else None,
            }
        )
    if args.json:
        json.dump({"deals": args.deals, "seed": args.seed, "bots": per_bot}, sys.stdout, indent=1)
        print()
        return 0
    print(f"2-player basic openings of {args.deals} deals (seed {args.seed}), medium's play; won positions kept:")
    for row in per_bot:
        lo, hi = row["ci"]
        line = f"{row['bot']:<70} {row['kept']:>5.0f} / {row['won']:<5.0f} = {100 * (row['share'] or 0):5.1f} % "
        line += f"({100 * lo:.1f}-{100 * hi:.1f})"
        if row["share"] is None:  # no won opening position among these deals
            print(f"{row['bot']:<70} no won opening position", flush=True)
            continue
        if row["paired_difference_to_first"] is not None:
            dlo, dhi = row["paired_difference_to_first"]
            difference = 100 * (row["share"] - per_bot[0]["share"])
            line += f"  minus the first: {difference:+.1f} ({100 * dlo:+.1f} to {100 * dhi:+.1f})"
        line += f"  CPU ms mean {row['cpu_mean_ms']:.0f} p99 {row['cpu_p99_ms']:.0f} max {row['cpu_max_ms']:.0f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

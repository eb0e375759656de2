"""How often do the bots keep a won round? The 2-player basic game labelled by the solver.

Every deal of the 2-player basic game is won for one side under perfect play, so the
raw win rate mostly measures the deals. This measures play instead: each bot plays
``--deals`` deals in both seats against an opponent, and the exact solver labels every
one of its turn starts (:class:`red7.analysis.review.TurnLabels`). Per bot:

* **won turns kept**: of its turn starts in a won position, the share after which it
  was still winning;
* **won seats converted**: of the games whose first turn start was won for it, the
  share it won;
* its win rate, and its seconds per decision (mean, p99).

Intervals are 95 % percentile bootstraps over deals (the two games of a deal share the
cards, so they are resampled together). ``--against perfect`` is an opponent that sees
every card and plays a winning decision whenever it has one (greedy's choice among
them, or among all when it has none): an upper bound on what any bot faces.

    .venv/bin/python -m benchmarks.exact_play --bots easy,medium,hard --against medium --deals 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from red7.analysis.measures import bootstrap_difference, bootstrap_ratio, percentile
from red7.analysis.review import TurnLabels
from red7.analysis.runner import run
from red7.analysis.schedule import make_entrants, schedule, split_specs
from red7.bots import Bot, register_bot
from red7.bots.greedy import GreedyBot
from red7.core.actions import Action
from red7.core.game import Game
from red7.core.model import Config
from red7.core.observation import Observation
from red7.solver import solve


class _Sight:
    """The game being played, for the perfect opponent (set before every decision)."""

    game: Game | None = None


class PerfectBot(Bot):
    """Sees the game through :class:`_Sight` (this script's measure sets it): plays a
    decision that keeps the round won, greedy's choice among them; when none does,
    greedy's choice among all. Not a bot for players: it reads hidden cards."""

    name = "perfect"

    def __init__(self) -> None:
        self.greedy = GreedyBot()

    def choose(self, observation: Observation, options: Sequence[Any], rng: random.Random) -> Action:
        game = _Sight.game
        assert game is not None and game.observe(observation.seat) == observation, "not the game being played"
        winning = set(solve(game).winning_ids)
        chosen = [o for o in options if o.action.id in winning] or list(options)
        return chosen[0].action if len(chosen) == 1 else self.greedy.choose(observation, chosen, rng)


class SeeingLabels(TurnLabels):
    """:class:`TurnLabels` that also shows the game to :class:`PerfectBot`."""

    def before_decision(self, game: Game) -> None:
        _Sight.game = game
        super().before_decision(game)


register_bot("perfect", PerfectBot)


def measure(spec: str, against: str, deals: int, jobs: int, seed: int) -> dict[str, Any]:
    """Play ``spec`` against ``against`` on ``deals`` deals (both seats) and tally."""
    entrants = make_entrants([spec, against])
    factory = SeeingLabels if against == "perfect" else TurnLabels
    plan = schedule(entrants, config=Config(2), games=2 * deals, seed=seed, measure=factory)
    records = run(plan.tasks, jobs=jobs)
    label = entrants[0].label
    per_deal: dict[int, list[int]] = {}  # deal -> [won turns, kept, won seats, converted, games, wins]
    times: list[float] = []
    for r in records:
        seat = r["seating"].index(label)
        tally = per_deal.setdefault(r["deal"], [0] * 6)
        first = True
        for s, won, after in r["analysis"]["turns"]:
            if s != seat:
                continue
            if won:
                tally[0] += 1
                tally[1] += bool(after)
            if first:
                first = False
                if won:
                    tally[2] += 1
                    tally[3] += seat in r["winners"]
        tally[4] += 1
        tally[5] += seat in r["winners"]
        times.extend(r["times"][seat])
    rows = list(per_deal.values())

    def share(num: int, den: int) -> dict[str, Any]:
        n = sum(t[num] for t in rows)
        d = sum(t[den] for t in rows)
        lo, hi = bootstrap_ratio([t[num] for t in rows], [t[den] for t in rows], seed=seed)
        return {"n": n, "of": d, "share": n / d if d else None, "ci95": [lo, hi]}

    return {
        "bot": spec,
        "against": against,
        "deals": deals,
        "per_deal": [per_deal[d] for d in sorted(per_deal)],
        "won_turns_kept": share(1, 0),
        "won_seats_converted": share(3, 2),
        "games_won": share(5, 4),
        "seconds_mean": statistics.fmean(times) if times else None,
        "seconds_p99": percentile(times, 99),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", default="easy,medium,hard", help="comma-separated bot specs to measure")
    parser.add_argument("--against", default="medium", help="the opponent's spec, or 'perfect'")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = []
    heading = f"2-player basic, {args.deals} deals x both seats against {args.against} (seed {args.seed})"
    print(heading, file=sys.stderr if args.json else sys.stdout, flush=True)  # --json: the JSON alone on stdout
    if not args.json:
        print(
            f"{'bot':<24} {'won turns kept':<28} {'won seats converted':<28} {'games won':<28} "
            "ms per decision: mean / p99"
        )
    for spec in split_specs(args.bots):
        row = measure(spec.strip(), args.against, args.deals, args.jobs, args.seed)
        results.append(row)
        if not args.json:
            cells = [_cell(row[k]) for k in ("won_turns_kept", "won_seats_converted", "games_won")]
            t = (
                f"{1000 * row['seconds_mean']:.1f} / {1000 * row['seconds_p99']:.1f}"
                if row["seconds_mean"] is not None
                else "-"
            )
            print(f"{spec:<24} {cells[0]:<28} {cells[1]:<28} {cells[2]:<28} {t}", flush=True)
    if len(results) > 1 and not args.json:
        print(f"Paired on the same deals, each bot minus {results[0]['bot']} (95 % bootstrap over deals):")
        for row in results[1:]:
            cells = []
            for name, (num, den) in (
                ("won turns kept", (1, 0)),
                ("won seats converted", (3, 2)),
                ("games won", (5, 4)),
            ):
                a = [(t[num], t[den]) for t in row["per_deal"]]
                b = [(t[num], t[den]) for t in results[0]["per_deal"]]
                diff = row[_KEY[name]]["share"] - results[0][_KEY[name]]["share"]
                lo, hi = bootstrap_difference(a, b, seed=args.seed)
                cells.append(f"{name} {100 * diff:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})")
            print(f"  {row['bot']}: " + ", ".join(cells))
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
    return 0


_KEY = {"won turns kept": "won_turns_kept", "won seats converted": "won_seats_converted", "games won": "games_won"}


def _cell(share: dict[str, Any]) -> str:
    if share["share"] is None:
        return "-"
    lo, hi = share["ci95"]
    return f"{100 * share['share']:.1f} % ({100 * lo:.1f}-{100 * hi:.1f}) {share['n']}/{share['of']}"


if __name__ == "__main__":
    sys.exit(main())

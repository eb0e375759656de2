"""How many won turns can any player keep against `medium` (or a perfect opponent)? An upper bound.

In the 2-player basic game a turn *plan* (the decisions to the end of a turn, chosen
with the same information: nothing is drawn) keeps the round won or not depending on
the other hand. Against `medium`, which is greedy and decides the same way whenever it
holds the same cards, the cards the other player may hold given everything the mover saw
are exactly the deals in which greedy makes every decision it made
(:mod:`red7.bots.inference` samples them, uniformly). At a turn start whose observation
is I, no player who cannot see the other hand keeps the round with a higher probability
than the best plan's share a(I) of those worlds, and the position is won with
probability b(I), the share of them in which some plan keeps it. Over the turn starts a
player meets, the share of its won turns it keeps is then at most (sum of a) / (sum of b):
the bound this script estimates (``--worlds`` worlds a turn start) at every turn start of
``--bot`` playing `medium` on ``--deals`` deals in both seats, beside the share the bot
kept. 95 % intervals are bootstraps over deals.

With ``--against perfect`` the other player is the perfect opponent of
`benchmarks/exact_play.py` (it keeps a won round whenever it can, else plays `greedy`'s
choice). It never lets a won round go, so the worlds in which it would have
(:func:`kept_wins.other_let_a_win_go`) are dropped before a and b are counted. The
explained worlds still assume `greedy` throughout, so the worlds in which it held a won
turn start and kept it by another decision than `greedy`'s are missing: worlds lost for
the mover, which leave a and b in proportion at each turn start.

    .venv/bin/python experiments/keep_ceiling.py --bot hard --deals 200 --worlds 400 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from red7 import Game
from red7.analysis.measures import bootstrap_ratio
from red7.bots import inference, make_bot
from red7.core.model import Config, Step
from red7.play.match import bot_rng
from red7.solver import position_won

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from exact_play import _Sight  # noqa: E402  (registers the perfect opponent)
from kept_wins import other_let_a_win_go  # noqa: E402


def shares(game: Game, worlds: int, rng: random.Random, perfect: bool) -> tuple[float, float]:
    """(a, b) of the mover's turn start (module doc): the best plan's share of the explained
    worlds it keeps the round in, and the share of those worlds that are won (``perfect``:
    of those in which the other player never let a won round go; none is left only where
    it left `greedy`'s choice, which it does only to keep a won round: (0, 0) then)."""
    observation = game.observe(game.current_player)
    explained = [world for world, _ in inference.explained_worlds(observation, rng, worlds, 200 * worlds)[0]]
    if perfect:
        explained = [world for world in explained if not other_let_a_win_go(world, observation)]
    if not explained:  # the perfect opponent left greedy's choice: it held a won round, and keeps it
        return 0.0, 0.0
    counts: Counter[tuple[int, ...]] = Counter()
    won = 0
    for world in explained:
        winning = [plan for plan, keeps in world.plan_values() if keeps]
        counts.update(winning)
        won += bool(winning)
    return max(counts.values(), default=0) / len(explained), won / len(explained)


def play_deal(args: tuple[str, str, int, int, int]) -> list[tuple[int, float, float, bool, bool]]:
    """(deal, a, b, won, kept) of each turn start of the bot in both games of one deal."""
    spec, against, deal, worlds, seed = args
    perfect = against == "perfect"
    out = []
    for seat in (0, 1):
        game = Game(config=Config(2), seed=seed + deal)
        bots = [make_bot(spec if s == seat else against) for s in (0, 1)]
        rngs = [bot_rng(seed + deal, s) for s in (0, 1)]
        turn: tuple[float, float, bool] | None = None
        while not game.is_over:
            me = game.current_player
            assert me is not None
            if game.step == Step.START:
                if turn is not None:  # the bot's turn ended: is the other player now lost?
                    out.append((deal, *turn, turn[2] and not position_won(game)))
                    turn = None
                if me == seat:
                    turn = (*shares(game, worlds, random.Random(deal * 7 + len(out)), perfect), position_won(game))
            _Sight.game = game  # what the perfect opponent sees
            game.apply(bots[me].choose(game.observe(me), game.options(), rngs[me]))
        if turn is not None:
            assert game.result is not None
            out.append((deal, *turn, turn[2] and seat in game.result.winners))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--against", default="medium", choices=["medium", "perfect"])
    parser.add_argument("--worlds", type=int, default=400, help="explained worlds per turn start")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [(args.bot, args.against, d, args.worlds, args.seed) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for result in pool.map(play_deal, tasks) for row in result]
    per_deal: dict[int, list[float]] = {}
    for deal, a, b, won, kept in rows:
        tally = per_deal.setdefault(deal, [0.0] * 4)
        for k, value in enumerate((a, b, won, kept)):
            tally[k] += value
    deals = list(per_deal.values())
    kept_lo, kept_hi = bootstrap_ratio([t[3] for t in deals], [t[2] for t in deals], seed=args.seed)
    bound_lo, bound_hi = bootstrap_ratio([t[0] for t in deals], [t[1] for t in deals], seed=args.seed)
    won = sum(t[2] for t in deals)
    kept = sum(t[3] for t in deals) / won
    bound = sum(t[0] for t in deals) / sum(t[1] for t in deals)
    below = sum(a < 0.9 * b for _, a, b, _, _ in rows)
    print(f"{args.bot} against {args.against}, {args.deals} deals x both seats, {args.worlds} worlds a turn start:")
    print(f"  {len(rows)} turn starts, {won:.0f} won; expected won from the worlds: {sum(t[1] for t in deals):.0f}")
    print(f"  won turns kept by {args.bot}: {100 * kept:.1f} % ({100 * kept_lo:.1f}-{100 * kept_hi:.1f})")
    print(f"  the bound, sum a / sum b: {100 * bound:.1f} % ({100 * bound_lo:.1f}-{100 * bound_hi:.1f})")
    print(f"  turn starts where the best plan keeps under 90 % of the won worlds: {below}")


if __name__ == "__main__":
    main()

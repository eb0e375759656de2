"""Does assuming that the other player never threw a won round away change `hard`'s decisions?

An experiment, not part of the product. In the 2-player basic game `hard` solves 64
worlds that `greedy` explains (`red7.bots.inference`). Against the perfect opponent of
`benchmarks/exact_play.py` (it keeps a won round whenever it can, else plays `greedy`'s
choice) the exact posterior is narrower: the other player never lets a won round go, so
a world in which it held a won turn start and the viewer held a won one after it cannot
be the one being played.

Here `hard` plays the perfect opponent on ``--deals`` deals in both seats. At each of its
turn starts in a won position, 128 worlds that `greedy` explains are drawn, those in which
the other player let a won round go are dropped (checked with the compiled solver on the
masks, replaying the round's plays and canvases), and PIMC's choice on the first 64
worlds and on the first 64 that remain are compared with the solver's answer: the chance
each keeps the round (ties among the best decisions shared evenly; where every world is
dropped, the choice on the first 64). A paired bootstrap over deals gives the interval of
the difference.

    .venv/bin/python experiments/kept_wins.py --deals 300 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from red7 import Game
from red7.analysis.measures import bootstrap_ratio
from red7.bots import inference, make_bot
from red7.bots.pimc import _values
from red7.core import actions as A
from red7.core.cards import COLOUR_OF
from red7.core.compiled import FIELDS
from red7.core.model import Config, Option, Step
from red7.core.observation import Observation
from red7.native import core as native
from red7.play.match import bot_rng
from red7.solver import solvable, solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from exact_play import _Sight  # noqa: E402  (registers the perfect opponent)

HANDS = FIELDS.index("hands")
WORLDS = 64  # as `hard`


def other_let_a_win_go(world: Any, observation: Observation) -> bool:
    """Did the other player of ``world`` (a compiled engine at the viewer's position) let a
    won round go earlier in this round: a turn start won for it followed by one won for
    the viewer, which a perfect player never allows? The round's plays and canvases are
    replayed on masks from its deal (the hands now plus every card that left them)."""
    me = observation.seat
    assert me is not None and native is not None, "a seat's view, and the compiled core built"
    past = observation.history[observation.round_log.start :]
    hands = list(world.fields()[HANDS])
    for seat, a in past:
        if a < A.MOVE_CANVAS:  # a play or a canvas: the card was in the hand at the deal
            hands[seat] |= 1 << a % A.CANVAS
    palettes = list(observation.round_log.palettes)
    other = 1 - me

    def won(seat: int) -> bool:
        return bool(native.won(hands[seat], palettes[seat], hands[1 - seat], palettes[1 - seat], rule))

    rule, previous, other_won = 0, None, False  # the basic game's round begins under Red
    for seat, a in past:
        if seat != previous:  # a turn start
            if seat == other:
                other_won = won(other)
            elif other_won and won(me):
                return True
        previous = seat
        if a < A.CANVAS:
            hands[seat] &= ~(1 << a - A.PLAY)
            palettes[seat] |= 1 << a - A.PLAY
        elif a < A.MOVE_CANVAS:
            hands[seat] &= ~(1 << a - A.CANVAS)
            rule = COLOUR_OF[a - A.CANVAS]
    return other_won and won(me)  # the viewer's turn start now
    return False


def keep_chance(worlds: list[Any], options: list[Option], winning: set[int]) -> float:
    """The chance PIMC's choice on ``worlds`` keeps the round: the share of its tied best
    decisions that are in ``winning``."""
    kept = {o.action.id: 0 for o in options}
    for world in worlds:
        for a, won in _values(world):
            kept[a] += won
    best = max(kept.values())
    tied = [a for a, k in kept.items() if k == best]
    return sum(a in winning for a in tied) / len(tied)


def play_deal(args: tuple[int, int]) -> tuple[int, float, float, int, int]:
    """(won turn starts, keep chance on all worlds, on the filtered ones, worlds, dropped)
    of `hard` on one deal in both seats."""
    deal, seed = args
    turns, plain_keeps, rest_keeps, worlds_drawn, dropped = 0, 0.0, 0.0, 0, 0
    for seat in (0, 1):
        game = Game(config=Config(2), seed=seed + deal)
        hard, perfect = make_bot("hard"), make_bot("perfect")
        rngs = [bot_rng(seed + deal, s) for s in (0, 1)]
        while not game.is_over:
            me = game.current_player
            assert me is not None
            observation, options = game.observe(me), game.options()
            if me != seat:
                _Sight.game = game  # what the perfect opponent sees
                game.apply(perfect.choose(observation, options, rngs[me]))
                continue
            if len(options) > 1 and observation.step == Step.START and solvable(observation, fast=True):
                solution = solve(game)
                if solution.won and inference.applies(observation):
                    rng = random.Random(seed * 1_000_003 + deal * 1000 + len(observation.history))
                    drawn = [w for w, _ in inference.explained_worlds(observation, rng, 2 * WORLDS, 100_000)[0]]
                    consistent = [w for w in drawn if not other_let_a_win_go(w, observation)]
                    worlds, rest = drawn[:WORLDS], consistent[:WORLDS]
                    if worlds:
                        winning = set(solution.winning_ids)
                        plain = keep_chance(worlds, options, winning)
                        turns += 1
                        plain_keeps += plain
                        rest_keeps += keep_chance(rest, options, winning) if rest else plain
                        worlds_drawn += len(drawn)
                        dropped += len(drawn) - len(consistent)
            game.apply(hard.choose(observation, options, rngs[me]))
    return turns, plain_keeps, rest_keeps, worlds_drawn, dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(play_deal, [(d, args.seed) for d in range(args.deals)]))
    turns = sum(r[0] for r in rows)
    worlds, dropped = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(f"{turns} won turn starts of hard on {args.deals} deals x both seats; {dropped} of {worlds} worlds dropped")
    for name, k in (("all explained worlds", 1), ("without those", 2)):
        lo, hi = bootstrap_ratio([r[k] for r in rows], [r[0] for r in rows], seed=args.seed)
        print(f"{name}: keeps {100 * sum(r[k] for r in rows) / turns:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})")
    diff = [r[2] - r[1] for r in rows]
    lo, hi = bootstrap_ratio(diff, [r[0] for r in rows], seed=args.seed)
    print(f"difference: {100 * sum(diff) / turns:+.2f} points ({100 * lo:+.2f} to {100 * hi:+.2f}), paired over deals")


if __name__ == "__main__":
    main()

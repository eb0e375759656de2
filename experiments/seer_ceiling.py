"""How many advanced matches does `hard`'s search win against `hard` if it sees every card?

An upper-bound experiment, not part of the product. The *seer* is `hard` with its
hidden information removed: where `hard` samples worlds from its observation, the seer
is handed the true game (its deck order too) at every decision, through
:func:`red7.play.play_game`'s ``before_decision`` hook. It then plays as `hard` does on
that one world:

- where the exact solver answers (:func:`red7.solver.solvable`: two players left and
  nothing left to draw), the true game's solved values: a decision that keeps the round
  won, `greedy` breaking ties (as `pimc` breaks them);
- elsewhere the compiled ISMCTS with `hard`'s budget (200,000 steps), every iteration
  played in the true game (its ``pool`` of one world): the same candidates, rollouts and
  match values as `hard`'s search, without the sampling.

With ``--hands-only`` the seer sees every hand but not the order of the deck: its search
plays :data:`WORLDS` copies of the true game whose deck, below the cards everyone knows
on top (R7.z), is shuffled anew in each. The two runs split what seeing is worth between
the other hand and the cards still to be drawn.

It plays ``--players`` (2 or 3; default 2) matches of the advanced game (``--actions``:
with the action cards) against ``--against`` (default `hard`) in every other seat, over
``--deals`` deals, each with the seer in every seat; the match-win share has a 95 %
bootstrap interval over deals. If even the seer won few more matches than an even
share, no bot that cannot see the cards could be asked to win many more against the
same opponent; if it wins many, what the other player holds is worth inferring.

    .venv/bin/python experiments/seer_ceiling.py --deals 150 --jobs 2
    .venv/bin/python experiments/seer_ceiling.py --players 3 --actions --deals 40 --jobs 2
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from red7 import Game, Observation
from red7.analysis.measures import bootstrap_ratio
from red7.bots import make_bot
from red7.bots.base import Bot, Option
from red7.bots.greedy import GreedyBot
from red7.bots.ismcts import ISMCTSBot
from red7.bots.pimc import PIMCBot
from red7.core import compiled
from red7.core.actions import Action
from red7.core.model import Config
from red7.play import play_game
from red7.solver import solvable

WORLDS = 64
"""Decks shuffled per decision with ``--hands-only``."""


class Seer(Bot):
    """`hard` on the true game (module doc); :meth:`watch` must see each position first."""

    name = "seer"

    def __init__(self, deck: bool = True) -> None:
        hard = make_bot("hard")
        assert isinstance(hard, PIMCBot), "hard is a pimc bot"
        self.search: ISMCTSBot = hard.search  # its budget and exploration constant
        self.deck = deck
        self.game: Game | None = None
        self.tiebreak = GreedyBot()

    def watch(self, game: Game) -> None:
        self.game = game

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        game = self.game
        assert game is not None and game.observe(observation.seat) == observation, "not the game watched"
        if len(options) == 1:
            return options[0].action
        engine = compiled.engine_of(game)
        if solvable(observation, fast=True):
            won = {a for a, keeps in engine.turn_values() if keeps}
            tied = [o for o in options if o.action.id in won] or list(options)
            return tied[0].action if len(tied) == 1 else self.tiebreak.choose(observation, tied, rng)
        me = observation.seat
        worlds = [engine] if self.deck else _shuffled_decks(game, rng, WORLDS)
        steps, c = self.search.steps or 0, self.search.c
        _, stats = engine.ismcts(me, rng.getrandbits(64), 0, steps, 0.0, c, (), False, worlds)
        best, _, _ = max(stats, key=lambda child: (child[1], -child[0]))  # most visited, as ISMCTSBot
        return Action.from_id(best)


def _shuffled_decks(game: Game, rng: random.Random, count: int) -> list[object]:
    """``count`` compiled copies of ``game``, each with its deck below the publicly known
    top shuffled anew (the position is read once)."""
    fields = dict(zip(compiled.FIELDS, compiled.fields_of(game), strict=True))
    deck, known = list(fields["deck"]), fields["deck_known_count"]
    top = deck[len(deck) - known :]
    worlds = []
    for _ in range(count):
        hidden = deck[: len(deck) - known]
        rng.shuffle(hidden)
        worlds.append(compiled.load(game.config, {**fields, "deck": tuple(hidden + top)}, game.seed))
    return worlds


def play_deal(args: tuple[Config, str, bool, int, int]) -> tuple[float, int]:
    """(matches the seer won, matches played) on one deal, with the seer in every seat."""
    config, against, deck, deal, seed = args
    seer = Seer(deck=deck)
    won = 0.0
    for seat in range(config.players):
        bots = [seer if s == seat else make_bot(against) for s in range(config.players)]
        played = play_game(bots, seed + deal, config, before_decision=seer.watch)
        if seat in played.winners:
            won += 1 / len(played.winners)
    return won, config.players


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--actions", action="store_true", help="with the action cards")
    parser.add_argument("--against", default="hard")
    parser.add_argument("--hands-only", action="store_true", help="the seer does not see the order of the deck")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if not compiled.available():
        parser.error("the seer runs the compiled search: build red7.native first")
    config = Config(args.players, advanced=True, actions=args.actions)
    tasks = [(config, args.against, not args.hands_only, deal, args.seed) for deal in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_deal, tasks))
    wins, games = sum(w for w, _ in results), sum(g for _, g in results)
    lo, hi = bootstrap_ratio([w for w, _ in results], [g for _, g in results])
    seer = "seer (hard's search on the true game" + (", its deck shuffled)" if args.hands_only else ")")
    table = f"{args.players}-player advanced matches" + (" with actions" if args.actions else "")
    share = f"{wins:g}/{games} = {wins / games:.1%} (95 % CI over deals {lo:.1%}-{hi:.1%})"
    print(f"{seer} vs {args.against}, {table}: {share}")


if __name__ == "__main__":
    main()

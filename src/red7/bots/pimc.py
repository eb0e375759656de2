"""``pimc`` (levels ``hard`` and ``expert``): sampled worlds solved exactly, ISMCTS elsewhere.

Perfect-information Monte Carlo (Ginsberg's GIB, 2001; Long et al., 2010, "Understanding
the success of perfect information Monte Carlo sampling") with exact leaves: when the
rest of the round no longer depends on chance and two players remain
(:func:`red7.solver.solvable`: the whole 2-player basic game), the bot samples
``worlds`` complete games from its observation (:mod:`red7.core.worlds`), solves each
one exactly (:func:`red7.solver.solve`), and keeps the decision that keeps the round
won in the most worlds. Ties (every world won, or every world lost) go to ``greedy``'s
choice among the tied decisions, so a lost position is played to give the other player
the most chances to go wrong.

A solve is cheap once the hands are small, and a fresh deal's is the dearest: with the
compiled solver (:mod:`red7.native`) 16 worlds of a fresh deal take about 0.3 s, in
pure Python about 5 s. So the bot solves only when its own hand holds at most
``cards`` cards (by default :data:`CARDS`: every hand of a game with the compiled
solver, 5 cards without it) and otherwise asks :class:`~red7.bots.ismcts.ISMCTSBot`
with ``steps``. In positions the solver cannot answer quickly (3-4 players remaining, a
deck still to draw from, action cards) the bot *is* that ISMCTS.

With ``model=1`` (2-player basic game) the worlds are weighted by how well they explain
the other player's choices so far: each of its turns is replayed in the world, and a
turn whose first decision is not the one ``greedy`` would have made there multiplies
the world's weight by :data:`MISMATCH` (a player who kept a card that would have won
probably did not have it). A world counts for its weight instead of 1.

Deterministic for a given RNG: the worlds come from it, and solutions are exact.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Final

from .. import native
from ..core import actions as A
from ..core.cards import names_of
from ..core.game import Game
from ..core.model import Step
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from ..solver import solvable, solve
from .base import Appraisal, Appraiser, BotSpecError, Option
from .greedy import GreedyBot
from .ismcts import ISMCTSBot

CARDS: Final = 7 if native.available() else 5
"""The most cards in hand at which ``pimc`` solves by default: a whole deal's hand
where the compiled solver is built, else what the pure-Python one solves in time."""

MISMATCH = 0.3
"""The weight a world keeps for each turn of the other player that ``greedy`` would
have begun otherwise in it (``model=1``)."""


def _whole(name: str, value: int | float, low: int) -> int:
    if isinstance(value, float) and value == int(value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BotSpecError(f"option {name}={value!r} must be a whole number, at least {low}")
    return value


class PIMCBot(Appraiser):
    """Solved sampled worlds where the solver applies; ISMCTS elsewhere (module doc).

    options: worlds=N (worlds solved per decision, default 16), cards=N (solve only
    with at most N cards in the bot's hand, default :data:`CARDS`), steps=N (the ISMCTS budget
    elsewhere, default 8000), model=1 (weight the worlds by a model of the other
    player, the 2-player basic game only; default 0)
    """

    name = "pimc"

    def __init__(self, worlds: int = 16, cards: int = CARDS, steps: int = 8000, model: int = 0) -> None:
        """options: worlds=N, cards=N, steps=N, model=0|1 (see the class docstring)"""
        self.worlds = _whole("worlds", worlds, 1)
        self.cards = _whole("cards", cards, 1)
        self.search = ISMCTSBot(steps=_whole("steps", steps, 1))
        self.tiebreak = GreedyBot()
        if model not in (0, 1):
            raise BotSpecError(f"option model={model!r} must be 0 or 1")
        self.model = bool(model)
        self.last_solved = False
        """Did the last decision come from solved worlds (for measurements)?"""

    def appraise(
        self,
        observation: Observation,
        options: Sequence[Option],
        rng: random.Random,
        include: Collection[int] = (),
    ) -> Appraisal:
        """Where worlds are solved, each decision's chance is the (weighted) share of the
        worlds in which it keeps the round won, for every legal decision; elsewhere the
        ISMCTS's appraisal (see :class:`~red7.bots.base.Appraisal`)."""
        if len(options) == 1:
            return Appraisal(options[0].action, {}, solved=False, samples=0)
        hand = observation.hand or 0
        self.last_solved = hand.bit_count() <= self.cards and solvable(observation, fast=True)
        if not self.last_solved:
            return self.search.appraise(observation, options, rng, include)
        sampler = WorldSampler(observation)
        model = self.model and observation.players == 2 and not observation.advanced
        kept = {o.action.id: 0.0 for o in options}
        total = 0.0
        for _ in range(self.worlds):
            world = sampler.sample(rng)
            weight = self._likelihood(world, observation) if model else 1.0
            total += weight
            for a, won in solve(world).values.items():
                kept[a] += weight * won
        chances = {a: k / total for a, k in kept.items()}
        best = max(kept.values())
        tied = [o for o in options if kept[o.action.id] == best]
        choice = tied[0].action if len(tied) == 1 else self.tiebreak.choose(observation, tied, rng)
        return Appraisal(choice, chances, solved=True, samples=self.worlds)

    def _likelihood(self, world: Game, observation: Observation) -> float:
        """How well ``world`` explains the other player's turns so far (``model=1``):
        the round is dealt again from the world's cards and replayed, and each turn of
        the other player that ``greedy`` would have begun otherwise costs
        :data:`MISMATCH`. 2-player basic game: every card that left a hand is public."""
        me = observation.seat
        history = observation.history
        if not history:
            return 1.0
        hands = [world.observe(s).hand or 0 for s in range(2)]
        palettes = list(observation.palettes)
        for seat, a in history:  # give each card back to the hand it came from
            if a < A.MOVE_CANVAS:
                card = a % A.CANVAS
                hands[seat] |= 1 << card
                palettes[seat] &= ~(1 << card)
        replay = Game.from_position(
            [names_of(h) for h in hands], [names_of(p) for p in palettes], current=history[0][0]
        )
        weight = 1.0
        judge = random.Random(0)  # greedy evaluates a chance-free turn once: any stream gives its choice
        for seat, a in history:
            if seat != me and replay.step == Step.START:
                expected = self.tiebreak.choose(replay.observe(seat), replay.options(), judge)
                if expected.id != a:
                    weight *= MISMATCH
            replay.apply_id(a)
        return weight

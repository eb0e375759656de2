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

A solve is cheap once the hands are small (under a millisecond at 3 cards each, tens
of milliseconds at 6) but a fresh deal takes up to a second, so the bot solves only
when its own hand holds at most ``cards`` cards, and otherwise asks
:class:`~red7.bots.ismcts.ISMCTSBot` with ``steps``. In positions the solver cannot
answer quickly (3-4 players remaining, a deck still to draw from, action cards) the
bot *is* that ISMCTS.

Deterministic for a given RNG: the worlds come from it, and solutions are exact.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import Action
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from ..solver import solvable, solve
from .base import Bot, BotSpecError, Option
from .greedy import GreedyBot
from .ismcts import ISMCTSBot


def _whole(name: str, value: int | float, low: int) -> int:
    if isinstance(value, float) and value == int(value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BotSpecError(f"option {name}={value!r} must be a whole number, at least {low}")
    return value


class PIMCBot(Bot):
    """Solved sampled worlds where the solver applies; ISMCTS elsewhere (module doc).

    options: worlds=N (worlds solved per decision, default 16), cards=N (solve only
    with at most N cards in the bot's hand, default 5), steps=N (the ISMCTS budget
    elsewhere, default 8000)
    """

    name = "pimc"

    def __init__(self, worlds: int = 16, cards: int = 5, steps: int = 8000) -> None:
        """options: worlds=N, cards=N, steps=N (see the class docstring)"""
        self.worlds = _whole("worlds", worlds, 1)
        self.cards = _whole("cards", cards, 1)
        self.search = ISMCTSBot(steps=_whole("steps", steps, 1))
        self.tiebreak = GreedyBot()
        self.last_solved = False
        """Did the last decision come from solved worlds (for measurements)?"""

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        if len(options) == 1:
            return options[0].action
        hand = observation.hand or 0
        self.last_solved = hand.bit_count() <= self.cards and solvable(observation, fast=True)
        if not self.last_solved:
            return self.search.choose(observation, options, rng)
        sampler = WorldSampler(observation)
        kept = {o.action.id: 0 for o in options}
        for _ in range(self.worlds):
            for a, won in solve(sampler.sample(rng)).values.items():
                kept[a] += won
        best = max(kept.values())
        tied = [o for o in options if kept[o.action.id] == best]
        if len(tied) == 1:
            return tied[0].action
        return self.tiebreak.choose(observation, tied, rng)

"""``pimc`` (the level ``hard``): sampled worlds solved exactly, ISMCTS elsewhere.

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

With ``model=1`` the solved worlds must also explain the other player's decisions
(:mod:`red7.bots.inference`): each is a deal of the round that fits every decision made
in it, replayed, and kept only if ``greedy`` in the other player's place would have made
every decision it made (a player who kept a card that would have won probably did not
have it). Deals are tried until ``worlds`` are kept or ``tries`` were dealt; when none
explains the other player (it does not play like ``greedy``), the bot samples plain
worlds.

Deterministic for a given RNG: the worlds come from it, and solutions are exact.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, Final

from .. import native
from ..core import compiled
from ..core.game import Game
from ..core.model import N_
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from ..solver import solvable, solve
from . import inference
from .base import Appraisal, Appraiser, BotSpecError, Option
from .greedy import GreedyBot
from .ismcts import ISMCTSBot

CARDS: Final = 7 if native.available() else 5
"""The most cards in hand at which ``pimc`` solves by default: a whole deal's hand
where the compiled solver is built, else what the pure-Python one solves in time."""

TRIES: Final = 20_000 if native.available() else 1_000
"""The most candidate worlds ``model=1`` deals per decision by default: compiled, a
candidate costs some 20 microseconds; in Python about a millisecond."""

DRAWING_JUDGEMENT: Final = 8
"""What one judgement of the opponent model counts for in ``judgements=N`` in the advanced
game: there a line of ``greedy`` can draw an unknown card (the canvas draw), and it is then
scored in each of greedy's 8 worlds, so a judgement costs up to 8 of the basic game's
(measured: 50,000 judgements took 1.1 s of CPU in a 3-player advanced round;
docs/results/levels.md)."""

OPENING: Final = 13
"""The cards in the two hands together from which a position is an *opening* (13 or 14:
a 2-player basic game's first turn, both players' first decisions and the first
player's canvas after a play), where ``opening=N`` solves fewer worlds. A solve's cost
grows some fourfold per card in the two hands: seven cards against seven cost about
five times six against six (docs/results/strength.md, "Within the clock")."""


def _whole(name: str, value: int | float, low: int) -> int:
    if isinstance(value, float) and value == int(value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BotSpecError(
            N_("option {key}={value!r} must be a whole number, at least {low}"), key=name, value=value, low=low
        )
    return value


class PIMCBot(Appraiser):
    """Solved sampled worlds where the solver applies; ISMCTS elsewhere (module doc).

    options: worlds=N (worlds solved per decision, default 16), cards=N (solve only
    with at most N cards in the bot's hand, default :data:`CARDS`), steps=N (the ISMCTS budget
    elsewhere, default 8000), model=1 (solved worlds that explain the other players'
    decisions, :mod:`red7.bots.inference`; default 0), tries=N (the most deals the model
    tries per decision, default :data:`TRIES`), opening=N (the worlds solved instead of
    ``worlds`` when the two hands hold :data:`OPENING` cards or more, where a solve costs
    the most; default ``worlds``: a deterministic budget that keeps the first turn of a
    2-player basic game within the level's clock), judgements=N (the most decisions of
    the other players the model's replays judge per decision, each counting
    :data:`DRAWING_JUDGEMENT` in the advanced game; default: no bound, only ``tries``; a
    deterministic budget of work, since a deal of a 3- or 4-player advanced round costs a
    hundred times one of a 2-player basic round)
    """

    name = "pimc"

    def __init__(
        self,
        worlds: int = 16,
        cards: int = CARDS,
        steps: int = 8000,
        model: int = 0,
        tries: int = TRIES,
        opening: int | None = None,
        judgements: int | None = None,
    ) -> None:
        """options: worlds=N, cards=N, steps=N, model=0|1, tries=N, opening=N, judgements=N
        (see the class docstring)"""
        self.worlds = _whole("worlds", worlds, 1)
        self.opening = self.worlds if opening is None else _whole("opening", opening, 1)
        self.cards = _whole("cards", cards, 1)
        self.search = ISMCTSBot(steps=_whole("steps", steps, 1))
        self.tiebreak = GreedyBot()
        if model not in (0, 1):
            raise BotSpecError(N_("option {key}={value!r} must be 0 or 1"), key="model", value=model)
        self.model = bool(model)
        self.tries = _whole("tries", tries, 1)
        self.judgements = 0 if judgements is None else _whole("judgements", judgements, 1)
        self.last_solved = False
        """Did the last decision come from solved worlds (for measurements)?"""
        self.last_explained = 0
        """How many of the last decision's worlds explained the other player (``model=1``)."""

    def appraise(
        self,
        observation: Observation,
        options: Sequence[Option],
        rng: random.Random,
        include: Collection[int] = (),
    ) -> Appraisal:
        """Where worlds are solved, each decision's chance is the share of the worlds in
        which it keeps the round won, for every legal decision; elsewhere the ISMCTS's
        appraisal (see :class:`~red7.bots.base.Appraisal`)."""
        if len(options) == 1:
            return Appraisal(options[0].action, {}, solved=False, samples=0)
        hand = observation.hand or 0
        self.last_solved = hand.bit_count() <= self.cards and solvable(observation, fast=True)
        if not self.last_solved:
            return self.search.appraise(observation, options, rng, include)
        # two players remain here (solvable), so the live hands are the bot's and the other's
        cards = sum(size for size, alive in zip(observation.hand_sizes, observation.alive, strict=True) if alive)
        count = self.opening if cards >= OPENING else self.worlds
        worlds: list[Any] = []
        if self.model and inference.applies(observation):
            judgements = self.judgements
            if judgements and observation.advanced:
                judgements = max(1, judgements // DRAWING_JUDGEMENT)
            explained, _ = inference.explained_worlds(observation, rng, count, self.tries, judgements=judgements)
            worlds = [world for world, _ in explained]
        self.last_explained = len(worlds)
        if not worlds:
            sampler = WorldSampler(observation)
            worlds = [sampler.sample(rng) for _ in range(count)]
        kept = {o.action.id: 0 for o in options}
        for world in worlds:
            for a, won in _values(world):
                kept[a] += won
        chances = {a: k / len(worlds) for a, k in kept.items()}
        best = max(kept.values())
        tied = [o for o in options if kept[o.action.id] == best]
        choice = tied[0].action if len(tied) == 1 else self.tiebreak.choose(observation, tied, rng)
        return Appraisal(choice, chances, solved=True, samples=len(worlds))


def _values(world: Game | Any) -> list[tuple[int, bool]]:
    """(decision, keeps the round won) of every legal decision in a solvable world: a
    :class:`Game`, or its compiled twin, which the compiled solver values whole."""
    if isinstance(world, Game):
        if not compiled.available():
            return list(solve(world, plans=False).values.items())
        world = compiled.engine_of(world)
    return list(world.turn_values())

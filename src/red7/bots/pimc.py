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

With ``model=1`` the solved worlds must also explain the other player's decisions
(:mod:`red7.bots.inference`): each is a deal of the round that fits every decision made
in it, replayed, and kept only if ``greedy`` in the other player's place would have made
every decision it made (a player who kept a card that would have won probably did not
have it). Deals are tried until ``worlds`` are kept or ``tries`` were dealt; when none
explains the other player (it does not play like ``greedy``), the bot samples plain
worlds.

With ``plans=1`` a decision is worth its best *plan*, the most worlds in which one and
the same sequence of decisions to the end of the turn keeps the round won: nothing is
drawn within such a turn, so its later decisions are made with the same information,
and a decision that wins each world by another continuation is worth less than one
that wins them by the same (strategy fusion within the turn).

With ``depth=M`` (M > 1, compiled core only) the bot values its decisions by the αμ
search (Cazenave & Ventos, 2019, "The αμ search algorithm for the game of Bridge") over
the same worlds: it chooses its next ``M`` turns knowing only which worlds are still
possible (those in which the other player's replies were legal), while the other player,
as in PIMC, sees its world; after those turns each world is solved exactly. A decision
that wins each world by another continuation is then worth only what one continuation
wins in the worlds the bot cannot tell apart (strategy fusion, over the turns to come).
The search gives up past ``nodes`` positions of the solver (the bot then values its
decisions as ``depth=1`` does), and searches at most the first 64 worlds.

Deterministic for a given RNG: the worlds come from it, and solutions are exact.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any, Final

from .. import native
from ..core import compiled
from ..core.game import Game
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

NODES: Final = 1_000_000
"""The most positions of the solver the ``depth`` search visits per decision by default
(a budget in positions rather than seconds, so that a seeded game replays the same)."""

TRIES: Final = 20_000 if native.available() else 1_000
"""The most candidate worlds ``model=1`` deals per decision by default: compiled, a
candidate costs some 20 microseconds; in Python about a millisecond."""


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
    elsewhere, default 8000), model=1 (solved worlds that explain the other players'
    decisions, :mod:`red7.bots.inference`; default 0), tries=N (the most deals the model
    tries per decision, default :data:`TRIES`), plans=1 (a decision worth its best plan
    to the end of the turn), depth=M (the αμ search over the bot's next M turns,
    compiled core only; default 1: PIMC), nodes=N (the most positions of the solver
    that search visits per decision, default :data:`NODES`)
    """

    name = "pimc"

    def __init__(
        self,
        worlds: int = 16,
        cards: int = CARDS,
        steps: int = 8000,
        model: int = 0,
        tries: int = TRIES,
        plans: int = 0,
        depth: int = 1,
        nodes: int = NODES,
    ) -> None:
        """options: worlds=N, cards=N, steps=N, model=0|1, tries=N, plans=0|1,
        depth=M, nodes=N (see the class docstring)"""
        self.worlds = _whole("worlds", worlds, 1)
        self.cards = _whole("cards", cards, 1)
        self.search = ISMCTSBot(steps=_whole("steps", steps, 1))
        self.tiebreak = GreedyBot()
        if model not in (0, 1):
            raise BotSpecError(f"option model={model!r} must be 0 or 1")
        self.model = bool(model)
        self.tries = _whole("tries", tries, 1)
        if plans not in (0, 1):
            raise BotSpecError(f"option plans={plans!r} must be 0 or 1")
        self.plans = bool(plans)
        self.depth = _whole("depth", depth, 1)
        if self.depth > 1 and not native.available():
            raise BotSpecError("option depth=M needs the compiled core (red7.native), which is not built here")
        self.nodes = _whole("nodes", nodes, 1)
        self.last_solved = False
        """Did the last decision come from solved worlds (for measurements)?"""
        self.last_explained = 0
        """How many of the last decision's worlds explained the other player (``model=1``)."""
        self.last_searched = False
        """Did the last decision come from the ``depth`` search, done within its nodes?"""

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
        worlds: list[Any] = []
        if self.model and inference.applies(observation):
            explained, _ = inference.explained_worlds(observation, rng, self.worlds, self.tries)
            worlds = [world for world, _ in explained]
        self.last_explained = len(worlds)
        if not worlds:
            sampler = WorldSampler(observation)
            worlds = [sampler.sample(rng) for _ in range(self.worlds)]
        kept = {o.action.id: 0 for o in options}
        self.last_searched = False
        if self.depth > 1:  # the αμ values of the plans: a decision is worth its best
            worlds = worlds[:_ALPHA_MU_WORLDS]
            engines = [compiled.engine_of(w) if isinstance(w, Game) else w for w in worlds]
            values, self.last_searched = compiled.alpha_mu(engines, self.depth, self.nodes)
            for plan, count in values:
                kept[plan[0]] = max(kept[plan[0]], count)
        elif self.plans:  # a decision is worth its best plan: the rest of the turn is chosen blind too
            counts: Counter[tuple[int, ...]] = Counter()
            for world in worlds:
                counts.update(plan for plan, won in _plan_values(world) if won)
            for plan, count in counts.items():
                kept[plan[0]] = max(kept[plan[0]], count)
        else:
            for world in worlds:
                for a, won in _values(world):
                    kept[a] += won
        chances = {a: k / len(worlds) for a, k in kept.items()}
        best = max(kept.values())
        tied = [o for o in options if kept[o.action.id] == best]
        choice = tied[0].action if len(tied) == 1 else self.tiebreak.choose(observation, tied, rng)
        return Appraisal(choice, chances, solved=True, samples=len(worlds))


_ALPHA_MU_WORLDS: Final = 64
"""The most worlds the ``depth`` search takes (a set of worlds is a 64-bit mask)."""


def _plan_values(world: Game | Any) -> list[tuple[tuple[int, ...], bool]]:
    """(plan, keeps the round won) of every plan to the end of the mover's turn in a
    solvable world (a :class:`Game`: only its winning plans), as :func:`_values`."""
    if isinstance(world, Game):
        if not compiled.available():
            return [(tuple(a.id for a in plan), True) for plan in solve(world).plans]
        world = compiled.engine_of(world)
    return list(world.plan_values())


def _values(world: Game | Any) -> list[tuple[int, bool]]:
    """(decision, keeps the round won) of every legal decision in a solvable world: a
    :class:`Game`, or its compiled twin, which the compiled solver values whole."""
    if isinstance(world, Game):
        if not compiled.available():
            return list(solve(world, plans=False).values.items())
        world = compiled.engine_of(world)
    return list(world.turn_values())

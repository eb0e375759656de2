"""The interface every bot implements, and the options a bot is offered.

A bot sees exactly what its seat may see: the seat's typed observation (R9,
:class:`~red7.core.observation.Observation`) and the legal decisions with their safety
marks (R4.7, which depend only on the mover's own cards and public facts). It never
gets the :class:`~red7.core.game.Game`, so it cannot read hidden cards; search bots
rebuild complete games from the observation with :mod:`red7.core.worlds`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..core.actions import Action
from ..core.model import Explained
from ..core.model import Option as Option  # the engine owns it; bots take it from here too
from ..core.model import safe_or_concede as safe_or_concede
from ..core.observation import Observation


class BotSpecError(Explained, ValueError):
    """A bot spec that names no bot or carries a bad option (its sentence a template the
    interfaces translate: :class:`~red7.core.model.Explained`)."""


class Bot(ABC):
    """A player. Subclasses set ``name`` and implement :meth:`choose`.

    Contract: ``choose`` returns one of ``options``' actions; given the same
    observation, options and RNG state it returns the same action (bots are
    deterministic for a seed), and it reads nothing but its arguments.
    """

    name: str = "bot"

    @abstractmethod
    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        """Pick a decision for the seat ``observation.seat``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


@dataclass(frozen=True)
class Appraisal:
    """What a search bot thinks of one decision point (:meth:`Appraiser.appraise`)."""

    choice: Action
    """The decision the bot makes there (what :meth:`Bot.choose` returns)."""
    chances: Mapping[int, float]
    """Decision id → the bot's estimate, from 0 to 1, of the mover's chance to win
    after that decision: the round in the basic game, the match in the advanced game.
    Only the decisions the bot weighed are here; empty when it had only one to weigh."""
    solved: bool
    """True: each chance is the share of sampled worlds, each solved exactly, in which
    the decision keeps the round won (both players playing perfectly after it); False:
    the mean value of the search's random rollouts, a rougher estimate."""
    samples: int
    """Worlds solved, or search iterations, behind the chances."""


class Appraiser(Bot):
    """A bot that can say how good each decision is, not only which one it makes: the
    post-game review and the hint's reason read it (:class:`Appraisal`)."""

    @abstractmethod
    def appraise(
        self,
        observation: Observation,
        options: Sequence[Option],
        rng: random.Random,
        include: Collection[int] = (),
    ) -> Appraisal:
        """The bot's choice and its chances. ``include``: decision ids (legal here) to
        weigh even if the bot would not consider them, e.g. a player's own decision in
        a review. With no ``include`` the choice is exactly :meth:`choose`'s for the
        same RNG state."""

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        return self.appraise(observation, options, rng).choice

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
from collections.abc import Sequence

from ..core.actions import Action
from ..core.model import Option as Option  # the engine owns it; bots take it from here too
from ..core.model import safe_or_concede as safe_or_concede
from ..core.observation import Observation


class BotSpecError(ValueError):
    """A bot spec that names no bot or carries a bad option."""


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

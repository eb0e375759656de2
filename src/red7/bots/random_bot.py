"""``random`` (level ``easy``): uniform among the safe decisions (R4.7).

:func:`random_decision` is the same player for code that holds a game (simulations,
search rollouts): it reads only the legal decisions and their safety marks, which
depend on nothing the mover cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import Action
from ..core.game import Game
from ..core.model import Option, safe_or_concede
from ..core.observation import Observation
from ..core.stream import Stream
from .base import Bot


def random_decision(game: Game, rng: random.Random | Stream) -> int:
    """The id of a uniformly random safe decision of ``game``'s mover, or concede when
    none is safe (one ``rng.random()`` per decision, as the compiled engine's
    ``r7_random_decision`` draws it)."""
    choices = game.safe_or_concede_ids()
    # rng.random() rather than rng.choice(): one call per decision, and the same stream
    # of choices on every Python version (choice's algorithm is not part of its contract).
    return choices[int(rng.random() * len(choices))]


class RandomBot(Bot):
    """Picks uniformly among the safe decisions and concedes only when none is safe."""

    name = "random"

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        choices = safe_or_concede(options)
        return choices[int(rng.random() * len(choices))]

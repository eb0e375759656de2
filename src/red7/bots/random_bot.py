"""``random`` (level ``easy``): uniform among the safe decisions (R4.7)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.actions import Action
from .base import Bot, Option, safe_or_concede


class RandomBot(Bot):
    """Picks uniformly among the safe decisions and concedes only when none is safe."""

    name = "random"

    def choose(self, observation: dict[str, Any], options: Sequence[Option], rng: random.Random) -> Action:
        choices = safe_or_concede(options)
        return choices[int(rng.random() * len(choices))]

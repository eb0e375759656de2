"""The game seed of each episode, shared by the environments (red7.core.seeds).

``reset(seed=s)`` plays the engine game of seed ``s`` (the same deal as
``red7.Game(seed=s)``); each later ``reset()`` without a seed plays the game of
``derive_seed(s, "episode", k)``, ``k = 1, 2, ...``; a first ``reset()`` without a seed
starts from :func:`~red7.core.seeds.fresh_seed`.
"""

from __future__ import annotations

from ..core.seeds import derive_seed, fresh_seed


class EpisodeSeeds:
    """The sequence of game seeds of an environment's episodes (module docstring)."""

    __slots__ = ("_base", "_episode")

    def __init__(self) -> None:
        self._base: int | None = None
        self._episode = 0

    def next(self, seed: int | None) -> int:
        """The game seed of the episode a ``reset(seed=seed)`` begins."""
        if seed is not None or self._base is None:
            self._base, self._episode = (fresh_seed() if seed is None else seed), 0
            return self._base
        self._episode += 1
        return derive_seed(self._base, "episode", self._episode)

"""Many Red7 games stepped at once, in compiled code: a Gymnasium ``VectorEnv``.

``Red7VectorEnv(num_envs=1024, players=2)`` runs ``num_envs`` games on the compiled
engine (:mod:`red7.native`; this environment needs it). In each game one seat is the
learner (``seat=0`` by default, ``seat="random"``: drawn each episode) and the other
seats are the project's random player (``opponent="random"``, the ``easy`` level:
uniform among the safe decisions) or its greedy player (``opponent="greedy"``, the
``medium`` level's search, :mod:`red7.bots.greedy`, compiled), played natively between
the learner's decisions. With ``seat="self"`` (self-play)
every seat is the learner: each step is the decision of whichever seat is to move
(``infos["seat"]``), so the other seats' decisions are another policy's (or the same
policy's) actions, and an episode is the whole game.

- Observations: ``int8`` [N, 873], the learner's view encoded as every environment of
  red7 encodes it (:func:`red7.envs.encoding.encode`, the same bytes: a test checks it).
- Actions: one decision id per game (``int64`` [N], the engine's ids, 0..248).
- ``infos["action_mask"]``: ``int8`` [N, 249], 1 for each legal decision (``mask="safe"``:
  the safe ones, or the concession alone when none is, as in ``SingleAgentRed7``).
- Rewards: 0 until a game ends, then the deciding seat's zero-sum return
  (:func:`red7.envs.returns.zero_sum_returns`: +1 for a win, ``-1/(n-1)`` for a loss);
  ``infos["returns"]`` (``float32`` [N, 4], by absolute seat, zeros past the table) holds
  every seat's return in the step a game ends (self-play needs them all). Outside
  self-play the learner's elimination ends its basic game's episode (only its own loss
  is then known).
- Illegal actions: each action is judged by what its game allows, as the environment
  recorded it when it wrote the mask (the compiled games keep their own copy), never by
  the mask array, which the caller may have written into. An action outside it (an id
  outside 0..248, a decision the rules do not allow now, or with ``mask="safe"`` one the
  mask left out) is not applied: it ends the episode as a loss (-1, the others sharing
  +1 in ``infos["returns"]``) with ``infos["illegal"]`` set, as in ``SingleAgentRed7``,
  and the game is dealt again like any game that ends.
- ``infos["seat"]`` (``int8`` [N]): the seat whose view each row is.
- Autoreset: the same step (``AutoresetMode.SAME_STEP``): a game that ends is dealt
  again at once and its row holds the next episode's first observation.
- Seeds: each game's deals, learner seats and opponents' choices come from a SplitMix64
  stream of the seed and the game's index (compiled streams, not the Python engine's
  ``random.Random``): ``reset(seed=s)`` replays the same episodes.

The arrays are the environment's own and are overwritten by the next ``step``: copy
what must outlive it (``obs.copy()``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .. import native
from ..core.actions import NUM_ACTIONS
from ..core.model import MAX_PLAYERS, MIN_PLAYERS
from ..core.seeds import SEED_BITS, fresh_seed
from .encoding import OBS_SIZE

Obs = npt.NDArray[np.int8]
OPPONENTS = {"random": False, "easy": False, "greedy": True, "medium": True}
"""The opponents played in compiled code, by bot name or level: greedy or not."""


class Red7VectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games, one learner seat each and random players in the others, or
    every seat the learner (``seat="self"``); see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 1024,
        players: int = 2,
        advanced: bool = False,
        actions: bool = False,
        seat: int | str = 0,
        mask: str = "legal",
        seed: int | None = None,
        opponent: str = "random",
    ) -> None:
        if native.core is None:
            raise RuntimeError(f"Red7VectorEnv needs the compiled engine, which is not in use: {native.why_not}")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        if seat not in ("random", "self") and (not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be a seat of the table (0..{players - 1}), 'random' or 'self', not {seat!r}")
        if mask not in ("legal", "safe"):
            raise ValueError(f"mask must be 'legal' or 'safe', not {mask!r}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, not {opponent!r}")
        self.num_envs = num_envs
        self.config = (players, bool(advanced), bool(actions))
        self.seat = seat if isinstance(seat, int) else {"random": -1, "self": -2}[seat]  # the compiled codes
        self.safe = mask == "safe"
        self.greedy = OPPONENTS[opponent]
        self.single_observation_space = spaces.Box(low=-128, high=127, shape=(OBS_SIZE,), dtype=np.int8)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(low=-128, high=127, shape=(num_envs, OBS_SIZE), dtype=np.int8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self.obs = np.zeros((num_envs, OBS_SIZE), dtype=np.int8)
        self.mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.illegal = np.zeros(num_envs, dtype=np.bool_)
        self.seats = np.zeros(num_envs, dtype=np.int8)
        self.returns = np.zeros((num_envs, MAX_PLAYERS), dtype=np.float32)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)  # games always end: never truncated
        self._games: Any = None
        self._seed = fresh_seed() if seed is None else seed

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal every game again (from ``seed``, or the constructor's, or the last one's
        stream when neither is given)."""
        if seed is not None:
            self._seed = seed
        if self._games is None or seed is not None:
            core = native.core
            assert core is not None
            self._games = core.VectorGames(
                self.num_envs, *self.config, self.seat, self.safe, self._seed % (1 << SEED_BITS),
                self.obs, self.mask, self.rewards, self.terminated, self.illegal, self.seats, self.returns,
                self.greedy,
            )  # fmt: skip
        self._games.reset()
        return self.obs, {"action_mask": self.mask, "seat": self.seats}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """One decision per game (of its learner, or in self-play of its seat to move)."""
        if self._games is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions: one decision id per game, shape ({self.num_envs},), not {chosen.shape}")
        self._games.step(chosen)
        info = {"action_mask": self.mask, "illegal": self.illegal, "seat": self.seats, "returns": self.returns}
        return self.obs, self.rewards, self.terminated, self.truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The mask as booleans (sb3-contrib's MaskablePPO interface)."""
        return self.mask.astype(bool)

    def learners(self) -> tuple[int, ...]:
        """The seat whose view each row is now (``infos["seat"]``)."""
        assert self._games is not None, "call reset() first"
        return tuple(self._games.learners())

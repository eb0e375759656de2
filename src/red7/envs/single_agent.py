"""Red7 as a Gymnasium environment: one learning seat against the project's bots.

``SingleAgentRed7(opponents=["hard", "easy"])`` seats the agent (seat 0 by default,
``seat="random"`` for a random seat each episode) and one bot per spec in the other
seats; registered as ``Red7-v0`` (``gymnasium.make("Red7-v0", opponents=[...])``).
The bots choose from their own seat's observation (R9), like everywhere else, each with
its own RNG (:func:`red7.play.match.bot_rng` of the game's seed, as in ``play_game``).

- Observation: the agent's observation encoded by :func:`red7.envs.encoding.encode`
  (``int8`` Box of 873), also when it is not the agent's turn (the final one).
- Action: ``Discrete(249)``, the engine's decision ids (see :mod:`red7.envs.red7_v0`).
  The legal ones are in ``info["action_mask"]`` and ``env.action_masks()`` (the
  interface of sb3-contrib's ``MaskablePPO``); ``mask="safe"`` keeps the safe ones
  (or the concession alone when none is: ``Game.safe_or_concede_ids``).
- Reward: 0 until the end; then +1 for a win, ``(1/k - 1/n) * n/(n-1)`` for a victory
  shared by ``k``, ``-1/(n-1)`` for a loss (zero-sum with the bots, as in red7_v0).
  The episode terminates when the game ends (basic game: also when the agent is
  eliminated, since it has lost).
- Bad input: an action outside the space raises ``ValueError``. An action in the space
  but not allowed now (masked out) ends the episode as a loss, reward -1, with
  ``info["illegal_action"]`` naming it and the allowed ones (the convention of
  PettingZoo's ``TerminateIllegalWrapper``, and what Gymnasium's ``check_env``, which
  steps unmasked random actions, expects); ``illegal="raise"`` raises ``ValueError``
  instead and changes nothing. ``step`` after the end, or before ``reset``, raises
  ``RuntimeError``.
- Seeds: ``reset(seed=s)`` plays the engine game of seed ``s`` and later resets continue
  from it (:mod:`red7.envs.seeding`); ``seat="random"`` draws the agent's seat from the
  game's seed (``derive_seed(game_seed, "seat")``). An episode begins at the agent's
  first decision: a deal on which the bots end the game (or the agent's basic round)
  before the agent decides is skipped for the next episode's deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core.actions import NUM_ACTIONS, Action
from ..core.game import Game
from ..core.model import Config, GameError
from ..core.seeds import derive_seed
from ..play.match import bot_rng
from .encoding import OBS_SIZE, encode
from .returns import zero_sum_returns
from .seeding import EpisodeSeeds


class SingleAgentRed7(gym.Env[npt.NDArray[np.int8], np.int64]):
    """One agent against ``opponents`` (bot specs, one per other seat)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponents: Sequence[str] = ("easy",),
        advanced: bool = False,
        actions: bool = False,
        seat: int | str = 0,
        mask: str = "legal",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        try:
            self.config = Config(len(opponents) + 1, bool(advanced), bool(actions))
        except GameError as err:  # say it in this environment's terms
            raise GameError(f"{err}: give 1 to 3 opponents, not {len(opponents)}") from None
        self.bots: list[Bot] = [make_bot(spec) for spec in opponents]
        self.n = self.config.players
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < self.n):
            raise ValueError(f"seat must be 0..{self.n - 1} or 'random', not {seat!r}")
        if mask not in ("legal", "safe"):
            raise ValueError(f"mask {mask!r} is not 'legal' or 'safe'")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal {illegal!r} is not 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not 'ansi' (or None)")
        self.specs, self.advanced, self.actions = list(opponents), self.config.advanced, self.config.actions
        self.seat_choice, self.mask, self.illegal, self.render_mode = seat, mask, illegal, render_mode
        self._illegal: str | None = None
        self.observation_space = spaces.Box(low=-128, high=127, shape=(OBS_SIZE,), dtype=np.int8)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.seat = 0
        self._bot_of: dict[int, tuple[Bot, random.Random]] = {}
        self._seeds = EpisodeSeeds()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        while True:
            if self.seat_choice == "random":
                self.seat = random.Random(derive_seed(game_seed, "seat")).randrange(self.n)
            else:
                self.seat = int(self.seat_choice)
            others = [s for s in range(self.n) if s != self.seat]
            self._bot_of = {s: (bot, bot_rng(game_seed, s)) for s, bot in zip(others, self.bots, strict=True)}
            self.game = Game(config=self.config, seed=game_seed)
            self._illegal = None
            self._play_bots()
            if not self._done():
                return self._obs(), self._info()
            # The bots ended the episode before the agent's first decision (a bot out of
            # safe choices concedes at once): an episode is the agent's decisions, so the
            # next episode's deal is played instead.
            game_seed = self._seeds.next(None)

    def step(self, action: int | np.integer[Any]) -> tuple[npt.NDArray[np.int8], float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if self._done():
            raise RuntimeError("the episode is over: call reset() to start a new game")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is outside Discrete({NUM_ACTIONS})")
        allowed = self._allowed()
        if int(action) not in allowed:
            names = ", ".join(f"{a} ({Action.from_id(a)})" for a in allowed)
            message = f"action {int(action)} ({Action.from_id(int(action))}) is not allowed now; allowed: {names}"
            if self.illegal == "raise":
                raise ValueError(message)
            self._illegal = message
            return self._obs(), -1.0, True, False, {**self._info(), "illegal_action": message}
        game.apply_id(int(action))
        self._play_bots()
        done = self._done()
        return self._obs(), self._reward() if done else 0.0, done, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The allowed actions now, as booleans (sb3-contrib's MaskablePPO calls this)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[self._allowed()] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        obs = self.game.observation(self.seat)
        rows = [f"rule {obs['rule']} · deck {obs['deck_size']} · you are seat {self.seat}"]
        rows += [f"  seat {s}: {' '.join(p) if obs['alive'][s] else '(out)'}" for s, p in enumerate(obs["palettes"])]
        rows.append(f"  your hand: {' '.join(obs['hand'])}")
        return "\n".join(rows)

    # --- internals --------------------------------------------------------------------

    def _allowed(self) -> list[int]:
        game = self.game
        if game is None or game.current_player != self.seat or self._illegal is not None:
            return []
        return game.legal_ids() if self.mask == "legal" else game.safe_or_concede_ids()

    def _play_bots(self) -> None:
        game = self.game
        assert game is not None
        while not self._done() and game.current_player != self.seat:
            seat = game.current_player
            assert seat is not None  # the game is not over
            bot, rng = self._bot_of[seat]
            game.apply(bot.choose(game.observe(seat), game.options(), rng))

    def _done(self) -> bool:
        game = self.game
        assert game is not None
        return self._illegal is not None or game.is_over or (not self.advanced and not game.alive[self.seat])

    def _reward(self) -> float:
        game = self.game
        assert game is not None
        winners = game.result.winners if game.result is not None else ()  # basic game: out means lost
        return zero_sum_returns(winners, self.n)[self.seat]

    def _obs(self) -> npt.NDArray[np.int8]:
        if self.game is None:
            raise GameError("call reset() first")
        return encode(self.game.observe(self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}

"""Red7 as a PettingZoo AEC environment: ``red7.envs.red7_v0.env(players=2, ...)``.

Agents ``player_0 .. player_{n-1}`` sit in engine seats ``0 .. n-1``. The agent to act
is the engine's current player, so the same agent acts again for each decision of its
turn (play, then the canvas or the end of the turn; the 7's, 5's and 1's choices; the
advanced draw).

- **Actions**: ``Discrete(249)``, the engine's fixed decision ids
  (:mod:`red7.core.actions`): 0-48 play card c, 49-97 canvas card c, 98-146 / 147-195 the
  7's card to the canvas / onto the deck, 196-244 the 1's card to take, 245 end the
  turn, 246 concede, 247 draw, 248 decline. An id never changes meaning by phase.
- **Observations**: ``{"observation": int8 Box(873), "action_mask": int8 Box(249)}``;
  the vector is :func:`red7.envs.encoding.encode` of the agent's own observation (R9; the
  observer comes first; layout in that module). The mask marks the legal decisions
  (``mask="safe"``: only the safe ones, R4.7, or the concession when none is:
  ``Game.safe_or_concede_ids``).
- **Rewards** (zero-sum): at the end, each winner gets ``(1/k - 1/n) * n/(n-1)`` for a
  victory shared by ``k`` (so a lone winner gets +1 and each other player
  ``-1/(n-1)``), everyone else ``-1/(n-1)``. ``rewards="points"`` (advanced game) adds,
  at the end of each round, each player's points scored in it minus the mean of all
  players' points that round.
- **Termination**: in the basic game a player is terminated when eliminated (with its
  final reward); in the advanced game elimination ends only the round, and every
  player is terminated when the match ends. Never truncated: a basic game ends within
  a few dozen decisions, and the engine ends every advanced match after
  :data:`~red7.core.model.MAX_ROUNDS` rounds at most (R8.6).
- ``env()`` wraps the raw environment in PettingZoo's standard classic-game wrappers:
  an illegal or masked-out action ends the game with reward -1 for the offender
  (``TerminateIllegalWrapper``), an action outside the space raises
  (``AssertOutOfBoundsWrapper``), and calls out of order raise
  (``OrderEnforcingWrapper``). The raw environment (``raw_env``) raises the engine's
  ``IllegalActionError`` for an illegal action.
- Seeds: ``reset(seed=s)`` deals the engine game of seed ``s``, the same deal as
  ``red7.Game(seed=s)``; later ``reset()`` calls without a seed play the games of
  ``derive_seed(s, "episode", k)`` (:mod:`red7.envs.seeding`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import NUM_ACTIONS, Action
from ..core.events import GameOver, PlayerEliminated, RoundOver
from ..core.game import Game
from ..core.model import Config, GameError
from .encoding import OBS_SIZE, encode
from .returns import zero_sum_returns
from .seeding import EpisodeSeeds

RENDER_MODES = ["human", "ansi"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (see the module docstring)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Red7 for ``players`` agents; ``advanced`` and ``actions`` as in :class:`red7.Game`."""

    metadata = {"render_modes": RENDER_MODES, "name": "red7_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(
        self,
        players: int = 2,
        advanced: bool = False,
        actions: bool = False,
        render_mode: str | None = None,
        mask: str = "legal",
        rewards: str = "win",
    ) -> None:
        super().__init__()
        self.config = Config(players, bool(advanced), bool(actions))  # refuses a bad table (GameError)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {RENDER_MODES} (or None)")
        if mask not in ("legal", "safe"):
            raise ValueError(f"mask {mask!r} is not 'legal' or 'safe'")
        if rewards not in ("win", "points") or (rewards == "points" and not self.config.advanced):
            raise ValueError(f"rewards {rewards!r}: use 'win', or 'points' with advanced=True")
        self.n, self.advanced, self.actions = self.config.players, self.config.advanced, self.config.actions
        self.render_mode, self.mask, self.reward_mode = render_mode, mask, rewards
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-128, high=127, shape=(OBS_SIZE,), dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = EpisodeSeeds()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # --- the AEC cycle ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game(config=self.config, seed=self._seeds.next(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.int8]]:
        game = self._game()
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if game.current_player == seat:
            mask[self._allowed(game)] = 1
        return {"observation": encode(game.observe(seat)), "action_mask": mask}

    def _allowed(self, game: Game) -> list[int]:
        return game.legal_ids() if self.mask == "legal" else game.safe_or_concede_ids()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        events = game.apply(int(action))  # type: ignore[arg-type]  # checked: an illegal id raises, nothing changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        seat_of = self.agent_name_mapping
        for event in events:
            if isinstance(event, RoundOver) and self.reward_mode == "points":
                mean = event.points / self.n
                for a in self.agents:
                    self.rewards[a] += (event.points if seat_of[a] == event.winner else 0) - mean
            elif isinstance(event, GameOver):
                returns = zero_sum_returns(event.winners, self.n)
                for a in self.agents:
                    self.rewards[a] += returns[seat_of[a]]
                    self.terminations[a] = True
            elif isinstance(event, PlayerEliminated) and not self.advanced:
                out = self.possible_agents[event.seat]
                if out in self.agents and not game.is_over:  # out of the only round: a loss (else GameOver says)
                    self.rewards[out] += zero_sum_returns((), self.n)[0]
                    self.terminations[out] = True
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        game = self._game()
        seat = game.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._deads_step_first()

    def _game(self) -> Game:
        if self.game is None:
            raise GameError("call reset() before using the environment")
        return self.game

    # --- rendering ----------------------------------------------------------------------

    def render(self) -> str | None:
        """The public table (palettes, rule, sizes) and the hand of the agent to act."""
        if self.render_mode is None:
            return None
        game = self._game()
        obs = game.observation(game.current_player)
        lines = [
            f"round {obs['round']} · rule {obs['rule']} · deck {obs['deck_size']}"
            + (f" · scores {obs['scores']} / {obs['target']}" if obs["advanced"] else "")
        ]
        for s in range(self.n):
            state = " ".join(obs["palettes"][s]) if obs["alive"][s] else "(out)"
            mark = ">" if s == obs["current_player"] else " "
            lines.append(f"{mark} player_{s}: {state}  [{obs['hand_sizes'][s]} in hand]")
        if obs["history"]:
            seat, last = obs["history"][-1]
            lines.append(f"last: player_{seat} {last}")
        if "hand" in obs:
            lines.append(f"hand of player_{obs['seat']}: {' '.join(obs['hand'])}")
        if game.result is not None:
            lines.append(f"over: won by {', '.join(f'player_{w}' for w in game.result.winners)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    @staticmethod
    def action_name(action: int) -> str:
        """The engine notation of an action id, e.g. 'play R7'."""
        return str(Action.from_id(action))

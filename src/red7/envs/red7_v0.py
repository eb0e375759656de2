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
  the vector is :func:`red7.envs.encoding.encode` of the agent's own view (R9; the
  observer comes first; layout in that module). The mask marks the legal decisions
  (``mask="safe"``: only the safe ones, R4.7, or the concession when none is).
- **Rewards** (zero-sum): at the end, each winner gets ``(1/k - 1/n) * n/(n-1)`` for a
  victory shared by ``k`` (so a lone winner gets +1 and each other player
  ``-1/(n-1)``), everyone else ``-1/(n-1)``. ``rewards="points"`` (advanced game) adds,
  at the end of each round, each player's points scored in it minus the mean of all
  players' points that round.
- **Termination**: in the basic game a player is terminated when eliminated (with its
  final reward); in the advanced game elimination ends only the round, and every
  player is terminated when the match ends. Never truncated: a basic game ends within
  a few dozen decisions; an advanced match ends with probability 1 (a round may score
  nothing, about 1 % of random rounds, and then the same cards are dealt again).
- ``env()`` wraps the raw environment in PettingZoo's standard classic-game wrappers:
  an illegal or masked-out action ends the game with reward -1 for the offender
  (``TerminateIllegalWrapper``), an action outside the space raises
  (``AssertOutOfBoundsWrapper``), and calls out of order raise
  (``OrderEnforcingWrapper``). The raw environment (``raw_env``) raises the engine's
  ``IllegalActionError`` for an illegal action.
- Seeds: ``reset(seed=s)`` deals the engine game of seed ``s``, the same deal as
  ``red7.Game(seed=s)``; later ``reset()`` calls without a seed continue a sequence
  derived from it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import CONCEDE, NUM_ACTIONS, Action
from ..core.game import Game, GameError
from .encoding import OBS_SIZE, encode
from .returns import zero_sum_returns

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
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise GameError(f"Red7 is played by 2 to 4 players, not {players!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {RENDER_MODES} (or None)")
        if mask not in ("legal", "safe"):
            raise ValueError(f"mask {mask!r} is not 'legal' or 'safe'")
        if rewards not in ("win", "points") or (rewards == "points" and not advanced):
            raise ValueError(f"rewards {rewards!r}: use 'win', or 'points' with advanced=True")
        self.n, self.advanced, self.actions = players, bool(advanced), bool(actions)
        self.render_mode, self.mask, self.reward_mode = render_mode, mask, rewards
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-128, high=127, shape=(OBS_SIZE,), dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds: random.Random | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # --- the AEC cycle ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        elif self._seeds is not None:
            game_seed = self._seeds.randrange(1 << 62)
        else:
            game_seed = random.SystemRandom().randrange(1 << 62)
        self.game = Game(self.n, self.advanced, self.actions, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rounds_rewarded = 0
        self._select()

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.int8]]:
        game = self._game()
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if game.current_player == seat:
            mask[self._allowed(game)] = 1
        return {"observation": encode(game.view(seat)), "action_mask": mask}

    def _allowed(self, game: Game) -> list[int]:
        if self.mask == "legal":
            return game.legal_ids()
        return game.safe_ids() or [CONCEDE]  # safe decisions, else only the concession

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        game.apply(int(action))  # type: ignore[arg-type]  # checked: an illegal id raises, nothing changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.reward_mode == "points":
            for r in game.round_results[self._rounds_rewarded :]:
                mean = r.points / self.n
                for a in self.agents:
                    self.rewards[a] += (r.points if self.agent_name_mapping[a] == r.winner else 0) - mean
        self._rounds_rewarded = len(game.round_results)
        if game.result is not None:
            returns = zero_sum_returns(game.result.winners, self.n)
            for a in self.agents:
                self.rewards[a] += returns[self.agent_name_mapping[a]]
                self.terminations[a] = True
        elif not self.advanced:
            loss = zero_sum_returns((), self.n)[0]
            for a in self.agents:
                if not game.alive[self.agent_name_mapping[a]] and not self.terminations[a]:
                    self.rewards[a] += loss  # out of the only round: a loss
                    self.terminations[a] = True
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

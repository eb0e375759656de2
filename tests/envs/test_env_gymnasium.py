"""The Gymnasium environment SingleAgentRed7 (Red7-v0): one agent against the bots."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import red7.envs  # noqa: F401 - registers Red7-v0
from red7 import Game, Observation
from red7.bots import make_bot
from red7.core.seeds import derive_seed
from red7.envs import SingleAgentRed7
from red7.envs.encoding import encode
from red7.play.match import bot_rng


@pytest.mark.parametrize(
    ("opponents", "advanced", "actions"),
    [
        (["easy"], False, False),
        (["medium", "easy"], False, True),
        (["easy"] * 3, True, True),
    ],
)
def test_gymnasiums_env_checker_passes(opponents: list[str], advanced: bool, actions: bool) -> None:
    env = gym.make("Red7-v0", opponents=opponents, advanced=advanced, actions=actions, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env.unwrapped)


def test_registered_as_red7_v0() -> None:
    env = gym.make("Red7-v0", opponents=["easy", "easy"])
    obs, info = env.reset(seed=3)
    assert obs.shape == (873,) and obs.dtype == np.int8 and env.unwrapped.n == 3  # type: ignore[attr-defined]
    check_env(env.unwrapped)


def run(env: SingleAgentRed7, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert env.game is not None and env.game.current_player == env.seat
        assert np.array_equal(obs, encode(env.game.observe(env.seat)))
        allowed = env.game.legal_ids() if env.mask == "legal" else [a.id for a in env.game.safe_actions()] or [246]
        assert np.flatnonzero(info["action_mask"]).tolist() == allowed
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not truncated
        steps += 1
    return reward, steps


def test_episodes_end_with_the_zero_sum_reward_of_the_agent() -> None:
    rng = np.random.default_rng(0)
    env = SingleAgentRed7(opponents=["easy", "easy"], seat="random", mask="safe")
    seats, rewards = set(), set()
    for seed in range(30):
        reward, steps = run(env, seed, rng)
        seats.add(env.seat)
        rewards.add(reward)
        assert env.game is not None
        if reward > 0:
            assert env.game.result is not None and env.game.result.winners == (env.seat,)
    assert seats == {0, 1, 2} and rewards == {1.0, -0.5}


def test_the_same_seed_replays_the_same_episode() -> None:
    def history(seed: int) -> Any:
        env = SingleAgentRed7(opponents=["medium"], actions=True)
        run(env, seed, np.random.default_rng(1))
        assert env.game is not None
        return env.game.history

    assert history(8) == history(8)
    assert history(8) != history(9)


def test_a_masked_out_action_ends_the_episode_as_a_loss() -> None:
    env = SingleAgentRed7(opponents=["easy"])
    env.reset(seed=1)
    assert env.game is not None
    before = env.game.fingerprint()
    obs, reward, done, truncated, info = env.step(245)  # 'end' at the start of a turn (R4.6)
    assert (reward, done, truncated) == (-1.0, True, False)
    assert info["illegal_action"].startswith("action 245 (end) is not allowed now; allowed: ")
    assert env.game.fingerprint() == before and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.step(0)


def test_illegal_raise_refuses_and_changes_nothing() -> None:
    env = SingleAgentRed7(opponents=["easy"], illegal="raise")
    env.reset(seed=1)
    assert env.game is not None
    before = env.game.fingerprint()
    with pytest.raises(ValueError, match=r"action 245 \(end\) is not allowed now"):
        env.step(245)
    assert env.game.fingerprint() == before


@pytest.mark.parametrize("action", [249, -1, "play R7"])
def test_an_action_outside_the_space_raises(action: Any) -> None:
    env = SingleAgentRed7(opponents=["easy"])
    env.reset(seed=1)
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step(action)


def test_step_before_reset_raises() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentRed7(opponents=["easy"]).step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(opponents=[]), "give 1 to 3 opponents"),
        (dict(opponents=["easy"] * 4), "give 1 to 3 opponents"),
        (dict(seat=2), "seat must be 0..1"),
        (dict(mask="all"), "mask"),
        (dict(illegal="ignore"), "illegal"),
        (dict(render_mode="human"), "render_mode"),
        (dict(opponents=["wizard"]), "wizard"),
    ],
)
def test_unsupported_parameters_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleAgentRed7(**kwargs)


def test_bots_play_from_their_own_observation() -> None:
    """Each bot is handed its own seat's observation (R9), never the game."""
    from red7.bots import Bot

    seen: list[Observation] = []

    class Spy(Bot):
        def choose(self, observation: Observation, options: Any, rng: Any) -> Any:
            seen.append(observation)
            return next(o.action for o in options if o.safe or o.action.kind == "concede")

    env = SingleAgentRed7(opponents=["easy"])
    env.bots = [Spy()]
    run(env, 5, np.random.default_rng(2))
    assert seen and all(isinstance(o, Observation) and o.seat == 1 - env.seat for o in seen)


def test_a_seeded_reset_plays_the_engine_game_of_that_seed() -> None:
    """reset(seed=s) deals red7.Game(seed=s); a later reset() deals the game of
    derive_seed(s, "episode", 1) (red7.envs.seeding)."""
    env = SingleAgentRed7(opponents=["easy"])
    env.reset(seed=3)
    assert env.game is not None and env.game.events[0] == Game(2, seed=3).events[0]  # the deal
    env.reset()
    assert env.game.events[0] == Game(2, seed=derive_seed(3, "episode", 1)).events[0]


def test_an_episode_begins_at_the_agents_decision_even_when_the_bots_end_the_first_deal() -> None:
    """With seed 12329 the easy bot (seat 1, first to play) has no safe decision and
    concedes before the agent (seat 0) decides: that deal is no episode, so reset plays
    the next episode's deal and the agent can step (training loops step right after a
    reset; before, the first step raised "the episode is over")."""
    env = SingleAgentRed7(["easy"])
    first = Game(players=2, seed=12329)
    bot, rng = make_bot("easy"), bot_rng(12329, 1)
    while first.current_player == 1:
        first.apply(bot.choose(first.observe(1), first.options(), rng))
    assert first.is_over  # the deal of seed 12329 ends before seat 0 decides
    env.reset(seed=12329)
    assert env.game is not None and env.game.seed == derive_seed(12329, "episode", 1)
    assert env.game.current_player == env.seat == 0
    env.step(int(np.flatnonzero(env.action_masks())[0]))

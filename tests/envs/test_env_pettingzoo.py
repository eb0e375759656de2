"""The PettingZoo AEC environment red7_v0: PettingZoo's own tests, rewards,
eliminations, masks, and the standard wrappers' answers to bad input."""

from __future__ import annotations

import warnings
from dataclasses import asdict
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from red7 import Game, GameError, IllegalActionError
from red7.core.seeds import derive_seed
from red7.envs import red7_v0
from red7.envs.encoding import encode
from tests.support import configs

CONFIGS = [asdict(c) for c in configs.CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # api_test warns that a dict observation "probably should be" a Box: the masked
    # {"observation", "action_mask"} dict is PettingZoo's own convention for classic games.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _name(c: dict[str, Any]) -> str:
    return f"{c['players']}p-adv{int(c['advanced'])}-act{int(c['actions'])}"


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_pettingzoo_api_seed_and_render_tests(config: dict[str, Any]) -> None:
    api_test(red7_v0.env(**config), num_cycles=200)
    seed_test(lambda **kw: red7_v0.env(**config, **kw), num_cycles=200)
    render_test(lambda **kw: red7_v0.env(**config, **kw))


def engine(env: Any) -> Game:
    """The engine game inside an environment, raw or wrapped (after reset)."""
    game: Game | None = env.unwrapped.game
    assert game is not None
    return game


def play(env: Any, seed: int, rng: np.random.Generator) -> dict[str, float]:
    """A whole game of masked random actions; returns each agent's total reward."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rewards_are_zero_sum_and_the_winner_gets_one(players: int) -> None:
    rng = np.random.default_rng(players)
    for seed in range(20):
        env = red7_v0.env(players=players, actions=True)
        total = play(env, seed, rng)
        assert sum(total.values()) == pytest.approx(0.0)
        result = engine(env).result
        assert result is not None
        winners = result.winners
        assert [total[f"player_{w}"] for w in winners] == [pytest.approx(1.0)]
        assert sorted(total.values())[:-1] == [pytest.approx(-1 / (players - 1))] * (players - 1)


def test_match_points_rewards_in_the_advanced_game() -> None:
    rng = np.random.default_rng(5)
    env = red7_v0.env(players=3, advanced=True, rewards="points")
    total = play(env, 3, rng)
    game = engine(env)
    assert sum(total.values()) == pytest.approx(0.0) and game.result is not None
    winners = game.result.winners
    for seat in range(3):
        won = sum(r.points for r in game.round_results if r.winner == seat)
        mean = sum(r.points for r in game.round_results) / 3
        final = (1 / len(winners) if seat in winners else 0) - 1 / 3
        assert total[f"player_{seat}"] == pytest.approx(won - mean + final * 3 / 2)


def test_the_same_agent_acts_for_every_decision_of_its_turn() -> None:
    env = red7_v0.raw_env(players=2)
    env.reset(seed=11)
    game = engine(env)
    agent = env.agent_selection
    play_ids = [a for a in game.legal_ids() if a < 49]
    env.step(play_ids[0])
    assert env.agent_selection == agent and game.step_name == "after"


def test_a_basic_game_terminates_each_player_when_eliminated() -> None:
    env = red7_v0.raw_env(players=3)
    env.reset(seed=2)
    first = env.agent_selection
    env.step(246)  # concede
    assert env.terminations[first] and env.rewards[first] == pytest.approx(-0.5)
    assert env.agent_selection == first  # a dead agent steps None before play goes on
    env.step(None)
    assert first not in env.agents and len(env.agents) == 2
    assert not any(env.terminations.values())


def test_an_advanced_round_elimination_does_not_end_the_match() -> None:
    env = red7_v0.raw_env(players=3, advanced=True)
    env.reset(seed=2)
    first = env.agent_selection
    env.step(246)
    assert not env.terminations[first] and first in env.agents


def test_observations_are_the_seats_own_view() -> None:
    env = red7_v0.raw_env(players=3, actions=True)
    env.reset(seed=4)
    game = engine(env)
    for agent in env.agents:
        seat = env.agent_name_mapping[agent]
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"], encode(game.observe(seat)))
        mask = np.flatnonzero(obs["action_mask"]).tolist()
        assert mask == (game.legal_ids() if game.current_player == seat else [])


def test_the_safe_mask_keeps_safe_decisions_or_the_concession() -> None:
    env = red7_v0.raw_env(players=2, mask="safe")
    env.reset(seed=7)
    game = engine(env)
    mask = np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
    safe = [a.id for a in game.safe_actions()]
    assert mask == (safe or [246])


def test_an_illegal_action_ends_the_game_for_the_offender(caplog: pytest.LogCaptureFixture) -> None:
    """PettingZoo's TerminateIllegalWrapper: the offender gets -1, the game ends."""
    env = red7_v0.env(players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    before = engine(env).fingerprint()
    env.step(245)  # 'end' at the start of a turn is illegal (R4.6)
    assert "Illegal move made" in caplog.text
    assert env.rewards[agent] == -1
    assert all(env.terminations.values())
    assert engine(env).fingerprint() == before  # the engine never saw it


def test_an_action_outside_the_space_is_refused() -> None:
    env = red7_v0.env(players=2)
    env.reset(seed=1)
    with pytest.raises(AssertionError):
        env.step(249)


def test_the_raw_environment_raises_the_engines_error_and_changes_nothing() -> None:
    env = red7_v0.raw_env(players=2)
    env.reset(seed=1)
    before = engine(env).fingerprint()
    with pytest.raises(IllegalActionError, match="end"):
        env.step(245)
    assert engine(env).fingerprint() == before


def test_stepping_before_reset_or_after_the_end(caplog: pytest.LogCaptureFixture) -> None:
    """PettingZoo's OrderEnforcingWrapper refuses a step before reset; after the end
    its standard answer is a warning, and nothing changes."""
    env = red7_v0.env(players=2)
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        env.step(0)
    play(env, 1, np.random.default_rng(0))
    assert env.agents == []
    before = engine(env).fingerprint()
    env.step(0)
    assert "step() called after all agents are terminated or truncated. Should reset() first." in caplog.text
    assert engine(env).fingerprint() == before


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        (dict(players=5), GameError),
        (dict(players=1), GameError),
        (dict(render_mode="rgb_array"), ValueError),
        (dict(mask="all"), ValueError),
        (dict(rewards="points"), ValueError),
    ],
)
def test_unsupported_parameters_are_refused(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        red7_v0.raw_env(**kwargs)


def test_reset_with_a_seed_deals_the_engine_game_of_that_seed() -> None:
    env = red7_v0.raw_env(players=3)
    env.reset(seed=42)
    assert engine(env).fingerprint() == Game(3, seed=42).fingerprint()


def test_resets_without_a_seed_play_the_derived_episode_seeds() -> None:
    """After reset(seed=s), each reset() plays the game of derive_seed(s, "episode", k)."""
    env = red7_v0.raw_env(players=2)
    env.reset(seed=42)
    env.reset()
    assert engine(env).fingerprint() == Game(2, seed=derive_seed(42, "episode", 1)).fingerprint()
    env.reset()
    assert engine(env).fingerprint() == Game(2, seed=derive_seed(42, "episode", 2)).fingerprint()
    env.reset(seed=42)
    assert engine(env).fingerprint() == Game(2, seed=42).fingerprint()

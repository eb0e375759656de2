"""The compiled vector environment (red7.envs.vector): its observations are the
encoding of every other environment, its masks the legal (or safe) decisions, its
games the rules' games against the random player, with the zero-sum rewards, same-step
autoreset and the bad-input behaviour of SingleAgentRed7."""

from __future__ import annotations

import random

import numpy as np
import pytest

from red7 import Game, native
from red7.bots.random_bot import random_decision
from red7.core import compiled
from red7.envs import SingleAgentRed7
from red7.envs.encoding import OBS_SIZE, OFFSETS, encode
from red7.envs.vector import Red7VectorEnv
from tests.support.configs import CONFIGS

compiled_only = pytest.mark.skipif(
    not compiled.available(), reason=f"the compiled engine is not in use: {native.why_not}"
)


def test_without_the_compiled_engine_it_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the compiled engine is not built or turned off, making the environment fails
    at once with the reason (the other environments run on the Python engine)."""
    monkeypatch.setattr(native, "core", None)
    monkeypatch.setattr(native, "why_not", "turned off by RED7_NATIVE=0")
    with pytest.raises(RuntimeError, match="needs the compiled engine, which is not in use: turned off by RED7_NATIVE"):
        Red7VectorEnv(4)


@compiled_only
def test_the_compiled_encoding_is_the_environments_encoding() -> None:
    """Every seat's vector (R9: the seat's own view) at every decision point of seeded
    random games of all 12 configurations: the same bytes as encode()."""
    compared = 0
    for config in CONFIGS:
        for seed in range(4):
            game = Game(config=config, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                twin = compiled.engine_of(game)
                for seat in range(config.players):
                    assert twin.encode(seat) == encode(game.observe(seat)).tobytes()
                    compared += 1
                game.apply_id(random_decision(game, rng))
    assert compared > 2000


def first_safe(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)  # the lowest id the mask allows


@compiled_only
@pytest.mark.parametrize(("players", "advanced", "actions"), [(2, False, False), (3, True, True), (4, False, True)])
def test_views_masks_rewards_and_autoreset(players: int, advanced: bool, actions: bool) -> None:
    env = Red7VectorEnv(num_envs=32, players=players, advanced=advanced, actions=actions, seat="random", seed=3)
    obs, info = env.reset()
    assert obs.shape == (32, OBS_SIZE) and obs.dtype == np.int8 and info["action_mask"].shape == (32, 249)
    seats = set()
    rewards = set()
    for _ in range(300):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) >= 1).all()
        step = OFFSETS["step"]
        assert (obs[:, OFFSETS["current"]] == 1).all()  # the learner (relative seat 0) decides
        assert (obs[:, step : step + 6].sum(axis=1) == 1).all()
        seats.update(env.learners())
        obs, reward, terminated, truncated, info = env.step(first_safe(mask))
        rewards.update(reward[terminated].astype(float).round(4).tolist())
        assert not truncated.any() and not info["illegal"].any()
        assert (reward[~terminated] == 0).all()
    assert seats == set(range(players))
    win, loss = 1.0, round(-1 / (players - 1), 4)
    shared = {round((players - k) / (k * (players - 1)), 4) for k in (2, 3)}  # R8.4's shared victories
    assert loss in rewards and rewards <= {win, loss, *shared}


@compiled_only
@pytest.mark.parametrize(("opponent", "level"), [("random", "easy"), ("greedy", "medium")])
def test_the_games_are_the_rules_games_against_the_compiled_opponents(opponent: str, level: str) -> None:
    """The same policy (the lowest safe decision) wins as often against the compiled
    random (or greedy) player here as in SingleAgentRed7 against `easy` (or `medium`):
    other random streams, the same game; and less often against greedy."""
    env = Red7VectorEnv(num_envs=500, mask="safe", seed=11, opponent=opponent)
    obs, info = env.reset()
    wins = np.zeros(500)
    done = np.zeros(500, dtype=bool)
    while not done.all():
        obs, reward, terminated, _, info = env.step(first_safe(info["action_mask"]))
        wins[terminated & ~done] = reward[terminated & ~done] > 0
        done |= terminated
    single = SingleAgentRed7(opponents=[level], mask="safe")
    reference = []
    for seed in range(400):
        _, step_info = single.reset(seed=seed)
        over, reward_1 = False, 0.0
        while not over:
            _, reward_1, over, _, step_info = single.step(int(np.argmax(step_info["action_mask"])))
        reference.append(reward_1 > 0)
    p, q = wins.mean(), np.mean(reference)
    spread = (p * (1 - p) / 500 + q * (1 - q) / 400) ** 0.5
    assert abs(p - q) < 4 * spread, (p, q)
    assert (p < 0.3) == (opponent == "greedy"), p


@compiled_only
def test_masks_allow_only_legal_or_safe_decisions() -> None:
    legal = Red7VectorEnv(num_envs=16, players=3, actions=True, seed=5)
    safe = Red7VectorEnv(num_envs=16, players=3, actions=True, mask="safe", seed=5)
    _, a = legal.reset()
    _, b = safe.reset()
    assert ((b["action_mask"] <= a["action_mask"]).all()) and (a["action_mask"][:, 246] == 1).all()


@compiled_only
def test_same_seed_same_episodes() -> None:
    runs = []
    for _ in range(2):
        env = Red7VectorEnv(num_envs=8, players=4, advanced=True, actions=True, seat="random", seed=9)
        obs, info = env.reset()
        trace = []
        for _ in range(50):
            obs, reward, terminated, _, info = env.step(first_safe(info["action_mask"]))
            trace.append((obs.copy(), reward.copy(), terminated.copy()))
        runs.append(trace)
    assert all(np.array_equal(x, y) for a, b in zip(*runs, strict=True) for x, y in zip(a, b, strict=True))
    other = Red7VectorEnv(num_envs=8, players=4, advanced=True, actions=True, seat="random", seed=10)
    other.reset()
    obs, _ = other.reset(seed=9)  # reset(seed=) starts the streams of that seed
    again = Red7VectorEnv(num_envs=8, players=4, advanced=True, actions=True, seat="random", seed=9).reset()[0]
    assert np.array_equal(obs, again)


@compiled_only
def test_bad_input_gets_a_clear_error_or_ends_the_episode_as_a_loss() -> None:
    env = Red7VectorEnv(num_envs=4, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, dtype=np.int64))
    obs, info = env.reset()
    with pytest.raises(ValueError, match="one decision id per game"):
        env.step(np.zeros(3, dtype=np.int64))
    masked_out = np.array([int(np.flatnonzero(row == 0)[0]) for row in info["action_mask"]])
    masked_out[0] = 999  # outside the space: a loss too
    obs, reward, terminated, _, info = env.step(masked_out)
    assert terminated.all() and (reward == -1).all() and info["illegal"].all()
    assert (obs[:, OFFSETS["current"]] == 1).all()  # dealt again: the next episode's first view
    for bad, message in (
        ({"num_envs": 0}, "num_envs"),
        ({"players": 5}, "players"),
        ({"seat": 2}, "seat"),
        ({"mask": "some"}, "mask"),
        ({"opponent": "grandmaster"}, "opponent must be one of random, easy, greedy, medium"),
    ):
        with pytest.raises(ValueError, match=message):
            Red7VectorEnv(**bad)  # type: ignore[arg-type]


@compiled_only
@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False)])
def test_self_play_steps_every_seat_and_returns_every_seats_outcome(players: int, advanced: bool) -> None:
    """seat="self": each row is the view of the seat to move (its relative seat 0 decides),
    the seats take turns as the rules say, and a finished game returns every seat's
    zero-sum outcome (adding up to 0), the row's reward being the last decider's."""
    env = Red7VectorEnv(num_envs=16, players=players, advanced=advanced, seat="self", seed=4)
    obs, info = env.reset()
    movers: set[int] = set()
    finished = 0
    for _ in range(400):
        assert (obs[:, OFFSETS["current"]] == 1).all()
        deciding = info["seat"].copy()
        movers.update(deciding.tolist())
        obs, reward, terminated, _, info = env.step(first_safe(info["action_mask"]))
        returns = info["returns"]
        assert (returns[~terminated] == 0).all()
        for row in np.flatnonzero(terminated):
            finished += 1
            assert returns[row, :players].sum() == pytest.approx(0, abs=1e-6)
            assert returns[row, players:].sum() == 0
            assert reward[row] == returns[row, deciding[row]]
            assert returns[row].max() > 0  # somebody won
    assert movers == set(range(players)) and finished > 0

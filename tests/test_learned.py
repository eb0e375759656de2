"""The learned player (src/red7/bots/learned.py): the shipped network loads, plays legal
decisions in every configuration from the seat's observation alone, needs no PyTorch,
and decides within the level clocks; the trainer's bookkeeping (red7.learn.train)."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from red7 import Config, Game
from red7.bots import BotSpecError, make_bot
from red7.bots.encoding import OBS_SIZE, encode
from red7.bots.learned import LearnedBot, Network, load_weights, save_weights, shipped
from red7.core.actions import NUM_ACTIONS
from red7.core.worlds import sample_world
from red7.play import play_game

CONFIGS = [Config(p, advanced=adv, actions=act) for p in (2, 3, 4) for adv in (False, True) for act in (False, True)]


def test_the_shipped_weights_are_small_and_say_how_they_were_trained() -> None:
    source = resources.files("red7.bots").joinpath("data", "learned.npz")
    assert source.is_file()
    assert len(source.read_bytes()) < 4_000_000  # a few MB at most, in the package
    network = shipped()
    assert network.layers[0][0].shape[0] == OBS_SIZE
    assert network.policy[0].shape[1] == NUM_ACTIONS
    assert network.meta["trainer"] == "red7.learn.train"
    assert network.meta["steps"] > 0


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_learned_bot_plays_legal_decisions_in_every_configuration(config: Config) -> None:
    """Whole games with the learned bot in one seat (play_game applies each decision with
    full checks: an illegal one raises) and `easy` in the others, from two seeds."""
    for seed in (1, 2):
        bots = [make_bot("learned")] + [make_bot("easy") for _ in range(config.players - 1)]
        played = play_game(bots, seed, config)
        assert played.game.is_over
        assert len(played.times[0]) > 0


def test_the_learned_bot_is_deterministic_and_samples_from_its_rng() -> None:
    config = Config(2, advanced=True)
    first = play_game([make_bot("learned"), make_bot("easy")], 7, config)
    again = play_game([make_bot("learned"), make_bot("easy")], 7, config)
    assert first.game.history == again.game.history
    a = play_game([make_bot("learned:sample=1"), make_bot("learned:sample=1")], 7, config)
    b = play_game([make_bot("learned:sample=1"), make_bot("learned:sample=1")], 7, config)
    assert a.game.history == b.game.history  # the bot's RNG is seeded by the game


def test_the_bot_reads_the_observation_only() -> None:
    """Worlds that differ from the game only in cards the seat cannot see (other hands,
    the deck) encode to the same numbers and get the same decision."""
    bot = LearnedBot()
    for seed in range(5):
        game = Game(config=Config(2, advanced=True), seed=seed)
        easy = make_bot("easy")
        for _ in range(3 * seed):  # a few decisions in, by easy
            mover = game.current_player or 0
            game.apply(easy.choose(game.observe(mover), game.options(), random.Random(seed)))
        me = game.current_player
        assert me is not None
        choice = bot.choose(game.observe(me), game.options(), random.Random(0))
        assert choice in [o.action for o in game.options()]
        for k in range(3):
            world = sample_world(game.observe(me), random.Random(k))
            assert np.array_equal(encode(world.observe(me)), encode(game.observe(me)))
            assert bot.choose(world.observe(me), world.options(), random.Random(0)) == choice


def test_bad_options_and_bad_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BotSpecError):
        make_bot("learned:sample=2")
    with pytest.raises(BotSpecError):
        make_bot("learned:depth=3")
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((OBS_SIZE, 4)))
    with pytest.raises(ValueError, match="not a red7 network"):
        load_weights(bad)


def test_weights_round_trip_through_the_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(OBS_SIZE, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32))]
    policy = (rng.normal(size=(8, NUM_ACTIONS)).astype(np.float32), np.zeros(NUM_ACTIONS, np.float32))
    value = (rng.normal(size=(8, 1)).astype(np.float32), np.zeros(1, np.float32))
    net = Network(layers, policy, value, {"trainer": "test"})
    save_weights(tmp_path / "n.npz", net)
    back = load_weights(tmp_path / "n.npz")
    obs = rng.integers(0, 2, size=(5, OBS_SIZE)).astype(np.int8)
    mask = np.ones((5, NUM_ACTIONS), np.int8)
    assert back.meta == {"trainer": "test"}
    # float16 on disk: the probabilities agree to a few thousandths
    assert np.allclose(back.probabilities(obs, mask), net.probabilities(obs, mask), atol=5e-3)
    masked = back.probabilities(obs, np.eye(NUM_ACTIONS, dtype=np.int8)[:5])
    assert np.allclose(masked, np.eye(NUM_ACTIONS)[:5])  # a single legal decision has it all


def test_a_decision_takes_milliseconds() -> None:
    """Far within hard's clock (1 s at the 99th percentile): the slowest of 200 decisions
    of a 4-player advanced game with actions stays under 0.25 s even on a busy machine."""
    config = Config(4, advanced=True, actions=True)
    played = play_game([make_bot("learned") for _ in range(4)], 11, config)
    times = [t for seat in played.times for t in seat]
    assert len(times) > 20
    assert max(times) < 0.25


def test_playing_needs_no_pytorch() -> None:
    """In a fresh interpreter where importing torch fails, the learned bot still loads
    its weights and plays a game, and torch was never imported."""
    code = textwrap.dedent(
        """
        import importlib.abc
        import sys

        class NoTorch(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("torch is blocked in this test")
                return None

        sys.meta_path.insert(0, NoTorch())
        from red7 import Config
        from red7.bots import make_bot
        from red7.play import play_game

        played = play_game([make_bot("learned"), make_bot("easy")], 5, Config(2, advanced=True))
        assert played.game.is_over
        assert "torch" not in sys.modules
        print("played without torch")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "played without torch" in done.stdout


def test_the_advantages_run_over_the_learners_own_decisions() -> None:
    """Self-play rollouts interleave the learner's decisions with the others': the
    return of a game ending on an opponent's step reaches the learner's last decision,
    and the bootstrap stops at a game's end."""
    from red7.learn.train import _advantages

    # one game row: learner at t=0 and t=2, opponent at t=1 and t=3; the game ends at
    # t=3 (won by the learner), a new game starts at t=4 with the learner to move.
    mine = np.array([[1], [0], [1], [0], [1]], bool)
    done = np.array([[0], [0], [0], [1], [0]], bool)
    reward = np.array([[0], [0], [0], [1.0], [0]], np.float32)
    value = np.array([[0.5], [9], [0.25], [9], [0.1]], np.float32)
    buf = {"mine": mine, "done": done, "reward": reward, "value": value}
    adv = _advantages(buf, np.array([0.3], np.float32), gamma=1.0, lam=1.0)
    assert adv[:, 0].tolist() == pytest.approx([0.5, 0.0, 0.75, 0.0, 0.2])

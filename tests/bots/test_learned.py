"""The learned player (src/red7/bots/learned.py): the shipped network loads, plays legal
decisions in every configuration from the seat's observation alone, scores the ends of
its turn as documented and needs no PyTorch (its decision times are a benchmark's:
docs/results/research.md); the trainer's positions and their links (red7.learn.train,
no PyTorch needed)."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from red7 import Config, Game, native
from red7.bots import BotSpecError, make_bot
from red7.bots.encoding import OBS_SIZE, OFFSETS, encode
from red7.bots.learned import LearnedBot, Network, ValueSearch, load_weights, save_weights, shipped
from red7.core import compiled
from red7.core.worlds import sample_world
from red7.play import play_game
from tests.support.configs import CONFIGS


def test_the_shipped_weights_are_small_and_say_how_they_were_trained() -> None:
    source = resources.files("red7.bots").joinpath("data", "learned.npz")
    assert source.is_file()
    assert len(source.read_bytes()) < 4_000_000  # a few MB at most, in the package
    network = shipped()
    assert network.layers[0][0].shape[0] == OBS_SIZE
    assert network.value[0].shape == (network.layers[-1][0].shape[1], 1)
    assert network.meta["trainer"] == "red7.learn.train"
    assert network.meta["positions"] > 0


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_learned_bot_plays_legal_decisions_in_every_configuration(config: Config) -> None:
    """Whole games with the learned bot in one seat (play_game applies each decision with
    full checks: an illegal one raises) and `easy` in the others, from two seeds."""
    for seed in (1, 2):
        bots = [make_bot("learned")] + [make_bot("easy") for _ in range(config.players - 1)]
        played = play_game(bots, seed, config)
        assert played.game.is_over
        assert len(played.times[0]) > 0


def test_the_learned_bot_is_deterministic() -> None:
    """Its worlds come from the RNG the game gives it: a seeded game replays."""
    config = Config(2, advanced=True)
    for spec in ("learned", "learned:worlds=2"):
        first = play_game([make_bot(spec), make_bot("easy")], 7, config)
        again = play_game([make_bot(spec), make_bot("easy")], 7, config)
        assert first.game.history == again.game.history


def test_the_ends_of_a_turn_are_scored_as_documented() -> None:
    """A finished game is 1 for its winners and 0 for the others, a seat out of a basic
    game 0, anything else the network's win probability of the seat's own view."""
    network = shipped()
    finished = play_game([make_bot("easy"), make_bot("easy")], 3, Config(2)).game
    assert finished.result is not None
    (winner,) = finished.result.winners
    assert ValueSearch(winner, finished, network).leaf_value(finished) == 1.0
    assert ValueSearch(1 - winner, finished, network).leaf_value(finished) == 0.0
    out = play_game([make_bot("easy") for _ in range(3)], 3, Config(3), before_decision=None).game
    loser = next(s for s in range(3) if s not in (out.result.winners if out.result else ()))
    assert ValueSearch(loser, out, network).leaf_value(out) == 0.0
    game = Game(config=Config(2, advanced=True), seed=4)
    for seat in (0, 1):
        value = ValueSearch(seat, game, network).leaf_value(game)
        assert value == pytest.approx(float(network.win_probability(encode(game.observe(seat))[None, :])[0]))
        assert 0.0 < value < 1.0


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
    for spec in ("learned:worlds=65", "learned:worlds=1.5", "learned:worlds=0", "learned:depth=3", "learned:sample=1"):
        with pytest.raises(BotSpecError):
            make_bot(spec)
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((OBS_SIZE, 4)))
    with pytest.raises(ValueError, match="not a red7 network"):
        load_weights(bad)


def test_weights_round_trip_through_the_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(OBS_SIZE, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32))]
    value = ((rng.normal(size=(8, 1)) / 10).astype(np.float32), np.zeros(1, np.float32))
    net = Network(layers, value, {"trainer": "test"})
    save_weights(tmp_path / "n.npz", net)
    back = load_weights(tmp_path / "n.npz")
    obs = rng.integers(0, 2, size=(5, OBS_SIZE)).astype(np.int8)
    assert back.meta == {"trainer": "test"}
    # float16 on disk: the probabilities agree to a few thousandths
    assert np.allclose(back.win_probability(obs), net.win_probability(obs), atol=5e-3)
    with pytest.raises(ValueError, match="one number"):
        Network(layers, (np.zeros((8, 2), np.float32), np.zeros(2, np.float32)), {})


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


@pytest.mark.skipif(not compiled.available(), reason=f"the compiled engine is not in use: {native.why_not}")
def test_the_trainers_positions_link_each_seat_to_its_next_round() -> None:
    """A chunk of games holds each seat's view at the end of its turns; a position's link
    is its own seat's first view of a later round (advanced games), and no link means
    the game ended in that round (every basic game). A chunk's name replays it."""
    from red7.learn.train import afterstates

    chunk = afterstates("test", 1, 0.1)
    again = afterstates("test", 1, 0.1)
    assert np.array_equal(chunk.obs, again.obs) and np.array_equal(chunk.next_round, again.next_round)
    assert set(np.unique(chunk.won)) == {0.0, 1.0}
    advanced = chunk.obs[:, OFFSETS["advanced"]] == 1
    linked = chunk.next_round >= 0
    assert linked.sum() > 0 and not linked[~advanced].any()
    rounds = chunk.obs[:, OFFSETS["round"]].astype(int)
    target = chunk.next_round[linked]
    assert (rounds[target] > rounds[linked] - 1).all()  # a later round than the turn's own
    assert (chunk.won[target] == chunk.won[linked]).all()  # the same seat, so the same outcome
    assert (target > np.flatnonzero(linked)).all()  # later in the game


def test_a_turn_ends_where_the_mover_or_the_round_changes() -> None:
    """The trainer reads a turn's end as the mover or the round changing (the compiled
    engine counts no turns); the engine's own turn counter agrees at every decision of
    random games in all 12 configurations."""
    for config in CONFIGS:
        for seed in range(6):
            game = Game(config=config, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                turns, mover, rounds = game.turns, game.current_player, len(game.round_results)
                game.apply_id(rng.choice(game.safe_ids() or game.legal_ids()))
                if not game.is_over:
                    changed = game.current_player != mover or len(game.round_results) != rounds
                    assert (game.turns != turns) == changed, (config, seed, game.history[-1])

"""Training the learned player (red7.learn, PyTorch): a tiny network trained for a few
seconds wins far more often against `random` than before; the exported numpy network
makes the PyTorch network's decisions; a run resumes from its checkpoint.

The full tier only (PyTorch is in the `dev` extra, as for the other training tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from red7.bots.encoding import OBS_SIZE
from red7.core.actions import NUM_ACTIONS
from red7.envs.vector import Red7VectorEnv
from red7.learn.__main__ import main
from red7.learn.train import Options, export, make_net, train

pytestmark = pytest.mark.slow  # training

TINY = {"hidden": (32,), "imitation": 3000, "imitation_epochs": 2, "iterations": 3, "horizon": 16, "envs_greedy": 16,
        "envs_self": 8, "envs_multi": 4, "eval_every": 3, "eval_medium": 20, "eval_hard": 0}  # fmt: skip


@pytest.fixture
def torch() -> Any:
    """PyTorch, imported only by the tests that run (the full tier installs it; the fast
    tier leaves these tests out without importing it)."""
    import torch as module

    return module


def win_rate_vs_random(net: Any, games: int = 300, seed: int = 123) -> float:
    """The share of ``games`` fixed 2-player basic deals won against the random player
    (`easy`) by the network's most likely decisions (seat drawn per deal)."""
    import torch

    env = Red7VectorEnv(num_envs=games, players=2, seat="random", opponent="random", seed=seed)
    obs, info = env.reset()
    won = np.zeros(games, bool)
    done = np.zeros(games, bool)
    while not done.all():
        with torch.no_grad():
            logits, _ = net(
                torch.from_numpy(obs.astype(np.float32)), torch.from_numpy(info["action_mask"].astype(bool))
            )
        obs, rewards, terminated, _, info = env.step(logits.argmax(dim=1).numpy())
        first = terminated & ~done
        won[first] = rewards[first] > 0
        done |= terminated
    return float(won.mean())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_few_seconds_of_training_lift_the_win_rate_against_random(seed: int, tmp_path: Path, torch: Any) -> None:
    """Untrained (random layers, a near-uniform policy) the network wins 0 % to 16 % of
    300 fixed deals against `random`; after 3,000 imitated decisions and three small PPO
    iterations, 44 % to 49 % (seeds 0 to 4 measured on 2026-12-06: the smallest gain was
    28 points; 20 are asserted)."""
    torch.manual_seed(seed)
    before = win_rate_vs_random(make_net((32,)))
    curve = train(Options(seed=seed, **TINY), tmp_path, quiet=True)  # type: ignore[arg-type]
    state = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    net = make_net((32,))
    net.load_state_dict(state["net"])
    after = win_rate_vs_random(net)
    assert after >= before + 0.2, (before, after)
    assert [p.iteration for p in curve] == [0, 0, 3]  # untrained, after imitation, at the end
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_the_exported_network_makes_the_same_decisions(tmp_path: Path, torch: Any) -> None:
    torch.manual_seed(0)
    net = make_net((24, 16))
    numpy_net = export(net, {"trainer": "test"})
    rng = np.random.default_rng(0)
    obs = rng.integers(0, 5, size=(50, OBS_SIZE)).astype(np.int8)
    mask = (rng.random((50, NUM_ACTIONS)) < 0.1).astype(np.int8)
    mask[:, 0] = 1
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs.astype(np.float32)), torch.from_numpy(mask.astype(bool)))
    ours, our_value = numpy_net.forward(obs)
    assert np.allclose(np.where(mask == 1, ours, 0), np.where(mask == 1, logits.numpy(), 0), atol=1e-4)
    assert np.allclose(our_value, value.numpy(), atol=1e-4)
    probs = numpy_net.probabilities(obs, mask)
    assert np.array_equal(probs.argmax(axis=1), logits.argmax(dim=1).numpy())


def test_one_command_trains_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str], torch: Any) -> None:
    args = ["--out", str(tmp_path), "--quiet", "--hidden", "16", "--imitation", "1000", "--imitation-epochs", "1",
            "--iterations", "2", "--horizon", "8", "--envs-greedy", "8", "--envs-self", "4", "--envs-multi", "2",
            "--eval-every", "2", "--eval-medium", "10", "--eval-hard", "1"]  # fmt: skip
    assert main(args) == 0
    assert "against medium" in capsys.readouterr().out
    for name in ("checkpoint.pt", "learned.npz", "curve.json", "curve.png", "log.txt"):
        assert (tmp_path / name).stat().st_size > 0
    more = [a if a != "2" or args[i - 1] != "--iterations" else "4" for i, a in enumerate(args)]
    assert main([*more, "--resume"]) == 0  # the same command with more iterations goes on
    state = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    assert state["iteration"] == 4
    assert [p["iteration"] for p in state["curve"]] == [0, 0, 2, 4]


def test_a_seed_reproduces_the_run(tmp_path: Path) -> None:
    """Two runs with the same seed and options give the same learning curve (one torch
    thread; the evaluation deals are fixed), and another seed gives another."""
    small = {**TINY, "iterations": 2, "eval_every": 2}
    curves = [train(Options(seed=s, **small), tmp_path / f"{i}", quiet=True) for i, s in enumerate((5, 5, 6))]  # type: ignore[arg-type]
    measured = [[(p.steps, p.medium_basic, p.medium_advanced) for p in curve] for curve in curves]
    assert measured[0] == measured[1]
    assert measured[0] != measured[2]

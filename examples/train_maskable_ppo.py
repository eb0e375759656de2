"""Train a small masked PPO agent (sb3-contrib's MaskablePPO) against `easy` bots.

The agent plays seat 0 of 2-player basic games through the Gymnasium environment
(:class:`red7.envs.SingleAgentRed7`), choosing only among legal decisions (the mask).
It prints the win rate of a uniformly random legal agent (the baseline) and of the
trained agent, over the same evaluation deals.

    python examples/train_maskable_ppo.py [--steps 4096] [--games 200] [--seed 0]

Needs ``pip install 'red7[rl,train]'`` (PyTorch, stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO

from red7.envs import SingleAgentRed7


def win_rate(choose: Any, games: int, seed: int) -> float:
    """The share of ``games`` won (rewards > 0) by ``choose(observation, mask)``."""
    env = SingleAgentRed7(opponents=["easy"])
    wins = 0
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        while not done:
            obs, reward, done, _trunc, info = env.step(choose(obs, env.action_masks()))
        wins += reward > 0
    return wins / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=4096, help="training steps (decisions of the agent)")
    p.add_argument("--games", type=int, default=200, help="evaluation games for each win rate")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    baseline = win_rate(lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.games, 10_000)

    env = SingleAgentRed7(opponents=["easy"])
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=512,
        batch_size=128,
        learning_rate=1e-3,
        gamma=1.0,
        policy_kwargs={"net_arch": [64, 64]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    model.learn(total_timesteps=args.steps)

    def trained(obs: Any, mask: Any) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    result = {"random_legal": baseline, "trained": win_rate(trained, args.games, 10_000), "steps": args.steps}
    print(
        f"win rate against easy over {args.games} games: random legal agent {result['random_legal']:.1%}, "
        f"masked PPO after {args.steps} steps {result['trained']:.1%}"
    )
    return result


if __name__ == "__main__":
    main()

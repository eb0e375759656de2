"""Train a masked PPO agent on many games at once (the compiled vector environment).

The agent plays seat 0 of 2-player basic games against the random player (`easy`) in
``--envs`` games stepped together by :class:`red7.envs.vector.Red7VectorEnv`, choosing
only among legal decisions (the mask). PPO (Schulman et al., 2017) in plain PyTorch:
rollouts of ``--horizon`` steps per game, generalized advantage estimates, a clipped
objective. It prints the win rate of a uniformly random legal agent (the baseline) and
of the trained agent (its most likely decision), over the same evaluation games.

    python examples/train_vector_ppo.py [--iterations 30] [--envs 128] [--horizon 32] [--seed 0]

Needs the compiled engine (``make``, or any ``pip install`` with a C compiler) and
``pip install 'red7[rl,train]'`` (PyTorch).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from red7.envs.vector import Red7VectorEnv

OBS, ACTIONS = 873, 249


class Policy(nn.Module):
    """Logits over the 249 decisions and a value, from the observation vector."""

    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.logits = nn.Linear(hidden, ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(mask == 0, -1e9)  # illegal decisions: never chosen
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


def win_rate(choose: object, games: int, seed: int) -> float:
    """The share of ``games`` episodes won by ``choose(obs, mask) -> actions``, played
    ``games`` at a time (each row's first episode counts)."""
    env = Red7VectorEnv(num_envs=games, seed=seed)
    obs, info = env.reset()
    result = np.zeros(games)
    done = np.zeros(games, dtype=bool)
    while not done.all():
        obs, rewards, terminated, _, info = env.step(choose(obs, info["action_mask"]))  # type: ignore[operator]
        first = terminated & ~done
        result[first] = rewards[first] > 0
        done |= terminated
    return float(result.mean())


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=30, help="PPO iterations (rollout, then update)")
    p.add_argument("--envs", type=int, default=128, help="games stepped together")
    p.add_argument("--horizon", type=int, default=32, help="steps per game in each rollout")
    p.add_argument("--games", type=int, default=400, help="evaluation games")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    def random_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return (rng.random(mask.shape) * mask).argmax(axis=1)

    baseline = win_rate(random_legal, args.games, seed=10_000 + args.seed)
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    env = Red7VectorEnv(num_envs=args.envs, seed=args.seed)
    obs_np, info = env.reset()
    n, t_max = args.envs, args.horizon
    started, steps = time.perf_counter(), 0
    for _ in range(args.iterations):
        batch_obs = torch.zeros(t_max, n, OBS)
        batch_mask = torch.zeros(t_max, n, ACTIONS)
        batch = {k: torch.zeros(t_max, n) for k in ("actions", "logp", "values", "rewards", "dones")}
        with torch.no_grad():
            for t in range(t_max):
                obs = torch.from_numpy(obs_np.astype(np.float32))
                mask = torch.from_numpy(info["action_mask"].astype(np.float32))
                dist, value = policy(obs, mask)
                action = dist.sample()
                batch_obs[t], batch_mask[t] = obs, mask
                batch["actions"][t], batch["logp"][t], batch["values"][t] = action, dist.log_prob(action), value
                obs_np, rewards, terminated, _, info = env.step(action.numpy())
                batch["rewards"][t] = torch.from_numpy(rewards.copy())
                batch["dones"][t] = torch.from_numpy(terminated.astype(np.float32))
            steps += n * t_max
            _, last_value = policy(
                torch.from_numpy(obs_np.astype(np.float32)), torch.from_numpy(info["action_mask"].astype(np.float32))
            )
            advantages = torch.zeros(t_max, n)
            gae = torch.zeros(n)
            for t in reversed(range(t_max)):  # the episode ends at a done step: no bootstrap past it
                following = last_value if t == t_max - 1 else batch["values"][t + 1]
                live = 1.0 - batch["dones"][t]
                delta = batch["rewards"][t] + 0.99 * following * live - batch["values"][t]
                gae = delta + 0.99 * 0.95 * live * gae
                advantages[t] = gae
            returns = advantages + batch["values"]
        flat = lambda x: x.reshape(t_max * n, *x.shape[2:])  # noqa: E731
        b_obs, b_mask, b_act, b_logp = flat(batch_obs), flat(batch_mask), flat(batch["actions"]), flat(batch["logp"])
        b_adv, b_ret = flat(advantages), flat(returns)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        for _epoch in range(4):
            for idx in torch.randperm(t_max * n).split(512):
                dist, value = policy(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                clipped = torch.clamp(ratio, 0.8, 1.2) * b_adv[idx]
                loss = -torch.min(ratio * b_adv[idx], clipped).mean()
                loss = loss + 0.5 * (value - b_ret[idx]).pow(2).mean() - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    seconds = time.perf_counter() - started

    def trained(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            dist, _ = policy(torch.from_numpy(obs.astype(np.float32)), torch.from_numpy(mask.astype(np.float32)))
        return dist.probs.argmax(dim=1).numpy()

    result = {"random_legal": baseline, "trained": win_rate(trained, args.games, seed=10_000 + args.seed)}
    print(f"win rate against easy over {args.games} games: random legal agent {baseline:.1%}")
    print(f"masked PPO after {steps} steps ({seconds:.0f} s of training): {result['trained']:.1%}")
    return result


if __name__ == "__main__":
    main()

"""A PettingZoo loop: every agent picks uniformly among its legal actions (the mask).

python examples/pettingzoo_random.py [--players 3] [--advanced] [--actions] [--games 10] [--seed 0]
"""

from __future__ import annotations

import argparse

import numpy as np

from red7.envs import red7_v0


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--advanced", action="store_true")
    p.add_argument("--actions", action="store_true")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    env = red7_v0.env(players=args.players, advanced=args.advanced, actions=args.actions)
    rng = np.random.default_rng(args.seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for game in range(args.games):
        env.reset(seed=args.seed + game)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                totals[agent] += reward  # the agent's final reward, received as it leaves
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
    env.close()
    print(
        f"{args.games} games, {steps} decisions; total reward per agent:",
        ", ".join(f"{a} {r:+.2f}" for a, r in totals.items()),
    )
    return {**totals, "steps": steps}


if __name__ == "__main__":
    main()

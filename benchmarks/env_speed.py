"""Environment steps per second: PettingZoo red7_v0 against the bare engine, and the
compiled vector environment.

The first loops make the same kind of decision, uniformly random among the legal ones,
in 2-player basic games, one process; the PettingZoo loop also builds every observation
(vector and mask) through ``env.last()``, as an agent would. The vector environment
(:mod:`red7.envs.vector`, where the compiled engine is built) steps ``--envs`` games at
once, the learner's decision the lowest its mask allows (one numpy call), the other
seat the random player (``vector``) or the compiled greedy player (``vector_greedy``),
and writes every observation and mask; its steps count the learner's decisions. Each
figure is the median of ``--repeat`` runs of ``--seconds``;
the ratios are taken within the same run.

    python -m benchmarks.env_speed [--seconds 2] [--repeat 5] [--players 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from red7 import Config, Game, native
from red7.envs import red7_v0


def engine_steps(seconds: float, players: int) -> float:
    config = Config(players)
    rng = random.Random(1)
    steps, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game(config=config, seed=seed)
        seed += 1
        while not game.is_over:
            game.apply_id(rng.choice(game.legal_ids()))
            steps += 1
    return steps / (time.perf_counter() - started)


def env_steps(make: Callable[[], Any], seconds: float) -> float:
    env = make()
    rng = np.random.default_rng(1)
    steps, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                steps += 1
            env.step(action)
    return steps / (time.perf_counter() - started)


def vector_steps(seconds: float, players: int, envs: int, opponent: str = "random") -> float:
    from red7.envs.vector import Red7VectorEnv

    env = Red7VectorEnv(num_envs=envs, players=players, seed=1, opponent=opponent)
    _obs, info = env.reset()
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        _obs, _reward, _terminated, _truncated, info = env.step(info["action_mask"].argmax(axis=1))
        steps += envs
    return steps / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--envs", type=int, default=256, help="games of the vector environment (default 256)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    runs: dict[str, list[float]] = {"engine": [], "pettingzoo_raw": [], "pettingzoo_wrapped": []}
    if native.available():
        runs["vector"] = []
        runs["vector_greedy"] = []
    for _ in range(args.repeat):
        runs["engine"].append(engine_steps(args.seconds, args.players))
        runs["pettingzoo_raw"].append(env_steps(lambda: red7_v0.raw_env(players=args.players), args.seconds))
        runs["pettingzoo_wrapped"].append(env_steps(lambda: red7_v0.env(players=args.players), args.seconds))
        if "vector" in runs:
            runs["vector"].append(vector_steps(args.seconds, args.players, args.envs))
            runs["vector_greedy"].append(vector_steps(args.seconds, args.players, args.envs, "greedy"))
    report: dict[str, float] = {k: round(statistics.median(v)) for k, v in runs.items()}
    report["env_over_engine"] = round(
        statistics.median(w / e for w, e in zip(runs["pettingzoo_wrapped"], runs["engine"], strict=True)), 3
    )
    if "vector" in runs:
        report["vector_over_pettingzoo"] = round(
            statistics.median(v / w for v, w in zip(runs["vector"], runs["pettingzoo_wrapped"], strict=True)), 1
        )
    if args.json:
        print(json.dumps(report))
    else:
        print(f"steps per second, {args.players} players, basic game, median of {args.repeat} × {args.seconds} s:")
        for k, v in report.items():
            print(f"  {k:<20} {v:>10,}")
    return report


if __name__ == "__main__":
    main()

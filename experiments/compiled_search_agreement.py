"""Does ISMCTS on compiled worlds search as well per iteration as on Python worlds?

The compiled worlds (``ismcts``'s default where the engine is built) deal their hidden
cards and play their rollouts from other random streams than the Python worlds
(``reference=1``), so the two never choose identically; they should
choose *as* each other does as often as two Python searches with different seeds do.
On positions of seeded games (mid-game decisions of ``medium`` players), each position
is searched three times with the same budget: Python twice (two seeds) and compiled
once; the script prints how often each pair agrees, and the iterations per second of
each kind.

    .venv/bin/python experiments/compiled_search_agreement.py --positions 120 --steps 8000
"""

from __future__ import annotations

import argparse
import random
import time

from red7 import Game
from red7.bots import make_bot
from red7.core.model import Config


def positions(config: Config, count: int, seed: int) -> list[Game]:
    """Decision points of games between ``medium`` players, one every few decisions."""
    medium = make_bot("medium")
    found: list[Game] = []
    game_seed = seed
    while len(found) < count:
        game = Game(config=config, seed=game_seed)
        rng = random.Random(game_seed)
        while not game.is_over and len(found) < count:
            seat = game.current_player
            assert seat is not None
            if rng.random() < 0.25 and len(game.options()) > 2:
                found.append(game.clone())
            game.apply(medium.choose(game.observe(seat), game.options(), rng))
        game_seed += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    config = Config(args.players, advanced=True, actions=True)
    python = make_bot(f"ismcts:steps={args.steps},reference=1")
    compiled = make_bot(f"ismcts:steps={args.steps}")
    agree = {"python-python": 0, "python-compiled": 0}
    seconds = {"python": 0.0, "compiled": 0.0}
    iterations = {"python": 0, "compiled": 0}
    games = positions(config, args.positions, seed=500)
    for i, game in enumerate(games):
        seat = game.current_player
        assert seat is not None
        obs, options = game.observe(seat), game.options()
        choices = []
        for name, bot, stream in (("python", python, 1), ("python", python, 2), ("compiled", compiled, 3)):
            started = time.perf_counter()
            choices.append(bot.choose(obs, options, random.Random(stream * 1_000_003 + i)))
            seconds[name] += time.perf_counter() - started
            iterations[name] += bot.last_iterations  # type: ignore[attr-defined]
        agree["python-python"] += choices[0] == choices[1]
        agree["python-compiled"] += choices[0] == choices[2]
    n = len(games)
    print(f"{n} positions of {config}, ismcts:steps={args.steps}")
    for pair, count in agree.items():
        print(f"  {pair:<16} agree {count / n:6.1%} ({count} / {n})")
    for name in seconds:
        print(f"  {name:<9} {iterations[name] / seconds[name]:10,.0f} iterations/s")
    print(
        f"  ratio     {iterations['compiled'] / seconds['compiled'] / (iterations['python'] / seconds['python']):.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

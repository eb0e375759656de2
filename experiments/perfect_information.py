"""How much of a 2-player basic game can search win against ``greedy``, if it could see?

An upper-bound experiment, not part of the product: ISMCTS is handed the true game in
every iteration instead of worlds sampled from its observation (it cheats), and plays
``greedy`` over mirrored deals (each deal with both seatings). If even a search that
sees every card wins only a modest share, the deal decides most games and an honest
bot cannot be expected to do much better against a good heuristic.

    .venv/bin/python experiments/perfect_information.py --iters 500 --deals 50
"""

from __future__ import annotations

import argparse
from typing import Any

import red7.bots.ismcts as ismcts_module
from red7 import Game
from red7.bots import make_bot
from red7.bots.base import Option
from red7.bots.ismcts import ISMCTSBot
from red7.play.match import bot_rng


class _TrueWorld:
    """Stands in for WorldSampler: every 'sample' is a copy of the real game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def sample(self, rng: Any) -> Game:
        return self.game.clone()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=500)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    greedy, seer = make_bot("greedy"), ISMCTSBot(iters=args.iters)
    real_sampler = ismcts_module.WorldSampler
    wins = 0
    for deal in range(args.deals):
        for seer_seat in (0, 1):
            game = Game(2, seed=args.seed + deal)
            rngs = [bot_rng(deal, s) for s in range(2)]
            while not game.is_over:
                seat = game.current
                options = [Option(a, s) for a, s in game.options()]
                if seat == seer_seat:
                    ismcts_module.WorldSampler = lambda _obs, g=game: _TrueWorld(g)  # type: ignore[assignment,misc]
                    try:
                        action = seer.choose(game.observation(seat), options, rngs[seat])
                    finally:
                        ismcts_module.WorldSampler = real_sampler  # type: ignore[misc]
                else:
                    action = greedy.choose(game.observation(seat), options, rngs[seat])
                game.apply(action)
            assert game.result is not None
            wins += seer_seat in game.result.winners
    games = 2 * args.deals
    print(f"ISMCTS({args.iters} iterations) seeing every card vs greedy: {wins}/{games} = {wins / games:.3f}")


if __name__ == "__main__":
    main()

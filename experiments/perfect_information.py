"""How much of a 2-player basic game can search win against ``greedy``, if it could see?

An upper-bound experiment, not part of the product: ISMCTS is handed the true game in
every iteration instead of worlds sampled from its observation (it cheats, through the
bot's ``world_source``), and plays ``greedy`` over mirrored deals (each deal with both
seatings). If even a search that sees every card wins only a modest share, the deal
decides most games and an honest bot cannot be expected to do much better against a
good heuristic.

    .venv/bin/python experiments/perfect_information.py --iters 500 --deals 50
"""

from __future__ import annotations

import argparse
import random

from red7 import Game, Observation
from red7.bots import make_bot
from red7.bots.ismcts import ISMCTSBot
from red7.play import play_game


class TrueWorlds:
    """A world source that shows the bot the game being played.

    :func:`play_game` reports each position before its decision (``watch``, its
    ``before_decision``); the bot then asks for the worlds of its observation
    (``__call__``), and every world is a copy of that game.
    """

    def __init__(self) -> None:
        self.game: Game | None = None

    def watch(self, game: Game) -> None:
        self.game = game

    def __call__(self, observation: Observation) -> TrueWorlds:
        assert self.game is not None and self.game.observe(observation.seat) == observation, "not the game watched"
        return self

    def sample(self, rng: random.Random) -> Game:
        assert self.game is not None
        return self.game.clone()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--iters", type=int, default=500)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    truth = TrueWorlds()
    seer, greedy = ISMCTSBot(iters=args.iters, world_source=truth), make_bot("greedy")
    wins = 0
    for deal in range(args.deals):
        for seer_seat in (0, 1):
            bots = [greedy, seer] if seer_seat else [seer, greedy]
            played = play_game(bots, args.seed + deal, before_decision=truth.watch)
            wins += seer_seat in played.winners
    games = 2 * args.deals
    print(f"ISMCTS({args.iters} iterations) seeing every card vs greedy: {wins}/{games} = {wins / games:.3f}")


if __name__ == "__main__":
    main()

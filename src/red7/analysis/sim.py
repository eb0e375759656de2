"""Random play: whole games between uniformly random players, for statistics and speed.

The random player picks uniformly among the *safe* legal decisions (R4.7) and concedes
only when none is safe. It reads only the legal decisions and their safety marks,
which depend on nothing its seat cannot see.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..bots.random_bot import random_decision
from ..core.game import Game


def play_random_game(players: int, advanced: bool, actions: bool, seed: int) -> Game:
    """One complete game; the game's seed is ``seed`` and the players' choices come
    from a separate RNG seeded from it, so the game is reproducible."""
    game = Game(players, advanced, actions, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    while not game.is_over:
        game.apply_id(random_decision(game, rng))
    return game


def simulate(
    games: int, players: int = 2, advanced: bool = False, actions: bool = False, seed: int = 0
) -> dict[str, Any]:
    """Play ``games`` random games with seeds ``seed, seed+1, ...`` and summarize them.

    ``wins_by_seat`` counts a shared victory (R8.4) once for each sharing seat;
    ``mean_turns`` counts every turn begun, the eliminating ones included.
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    wins = [0] * players
    decisions = turns = rounds = 0
    started = time.perf_counter()
    for i in range(games):
        game = play_random_game(players, advanced, actions, seed + i)
        assert game.result is not None
        for w in game.result.winners:
            wins[w] += 1
        decisions += game.decisions
        turns += game.turns
        rounds += game.round
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": players,
        "advanced": advanced,
        "actions": actions,
        "seed": seed,
        "decisions": decisions,
        "wins_by_seat": wins,
        "mean_turns": turns / games,
        "mean_rounds": rounds / games,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
    }

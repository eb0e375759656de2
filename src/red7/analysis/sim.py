"""Random play: whole games between uniformly random players, for statistics and speed.

The random player (:func:`red7.bots.random_bot.random_decision`) picks uniformly among
the *safe* legal decisions (R4.7) and concedes only when none is safe. It reads only
the legal decisions and their safety marks, which depend on nothing its seat cannot
see.

**Seeds.** The game of seed ``s`` is dealt from ``s`` and its players' choices come
from one stream, ``random.Random(derive_seed(s, "players"))``: a random game, and so a
:func:`simulate` summary (apart from its timings), is a pure function of the
configuration and the seed. This loop is also the engine benchmark of ``red7 bench``,
so it asks the game for nothing but the next decision.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..bots.random_bot import random_decision
from ..core.game import Game
from ..core.model import Config
from ..core.seeds import derive_seed

__all__ = ["players_rng", "play_random_game", "simulate"]


def players_rng(seed: int) -> random.Random:
    """The random players' stream of the game of ``seed`` (one for every seat)."""
    return random.Random(derive_seed(seed, "players"))


def play_random_game(config: Config, seed: int) -> Game:
    """One complete game between random players (see the module docstring)."""
    game = Game(config=config, seed=seed)
    rng = players_rng(seed)
    while not game.is_over:
        game.apply_id(random_decision(game, rng))
    return game


def simulate(games: int, config: Config | None = None, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` random games with seeds ``seed, seed+1, ...`` and summarize them
    (``config``: the basic 2-player game by default).

    ``wins_by_seat`` counts a shared victory (R8.4) once for each sharing seat;
    ``mean_turns`` counts every turn begun, the eliminating ones included; the rates
    are per second of wall time spent playing (``seconds``).
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    config = config or Config()
    wins = [0] * config.players
    decisions = turns = rounds = 0
    started = time.perf_counter()
    for i in range(games):
        game = play_random_game(config, seed + i)
        assert game.result is not None
        for w in game.result.winners:
            wins[w] += 1
        decisions += game.decisions
        turns += game.turns
        rounds += game.round
    seconds = time.perf_counter() - started
    return {
        "games": games,
        **config.as_dict(),
        "seed": seed,
        "decisions": decisions,
        "wins_by_seat": wins,
        "mean_turns": turns / games,
        "mean_rounds": rounds / games,
        "seconds": round(seconds, 6),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
    }

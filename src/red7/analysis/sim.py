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

**Engines.** :func:`simulate` plays on the compiled engine where it is built
(:mod:`red7.core.compiled`), which deals the same cards and draws the same choices from
the same streams, so the summary is the same as the reference's, decision for decision
(a test checks it); ``engine="python"`` asks for the reference. ``engine="fast"`` gives
up that sameness for speed: each game's deals and choices come from one SplitMix64
stream of its seed, still a pure function of the configuration and the seed.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .. import native
from ..bots.random_bot import random_decision
from ..core.game import Game
from ..core.model import Config
from ..core.seeds import derive_seed, round_key

__all__ = ["ENGINES", "players_rng", "play_random_game", "simulate"]

ENGINES = ("auto", "python", "native", "fast")
"""What :func:`simulate` plays on: the compiled engine where it is built (``auto``), the
reference (``python``), the compiled engine or an error (``native``), the compiled
engine with its own fast streams (``fast``: other games, see the module docstring)."""
_SEEDS_BELOW = 1 << 64  # the compiled loop's seeds are unsigned 64-bit ints


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


def _compiled_seeds(seed: int, games: int) -> bool:
    return 0 <= seed and seed + games < _SEEDS_BELOW


def _players_seed(seed: int) -> int:
    return derive_seed(seed, "players")


def simulate(games: int, config: Config | None = None, seed: int = 0, engine: str = "auto") -> dict[str, Any]:
    """Play ``games`` random games with seeds ``seed, seed+1, ...`` and summarize them
    (``config``: the basic 2-player game by default; ``engine``: one of :data:`ENGINES`).

    ``wins_by_seat`` counts a shared victory (R8.4) once for each sharing seat;
    ``mean_turns`` counts every turn begun, the eliminating ones included; the rates
    are per second of wall time spent playing (``seconds``); ``engine`` says which
    engine played (``python``, ``native`` or ``fast``).
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not one of {', '.join(ENGINES)}")
    if engine in ("native", "fast") and native.core is None:
        raise ValueError(f"engine {engine!r} needs the compiled engine, which is not in use: {native.why_not}")
    config = config or Config()
    if engine == "auto":
        engine = "native" if native.core is not None and _compiled_seeds(seed, games) else "python"
    wins = [0] * config.players
    decisions = turns = rounds = 0
    started = time.perf_counter()
    if engine == "python":
        for i in range(games):
            game = play_random_game(config, seed + i)
            assert game.result is not None
            for w in game.result.winners:
                wins[w] += 1
            decisions += game.decisions
            turns += game.turns
            rounds += game.round
    else:
        if not _compiled_seeds(seed, games):
            raise ValueError(f"the compiled engine takes seeds from 0 to 2**64 - 1, not {seed}..{seed + games - 1}")
        assert native.core is not None
        fast = engine == "fast"
        cfg = (config.players, config.advanced, config.actions)
        wins, decisions, turns, rounds = native.core.random_games(
            *cfg, seed, games, round_key, _players_seed, fast=fast
        )
    seconds = time.perf_counter() - started
    return {
        "games": games,
        **config.as_dict(),
        "engine": engine,
        "seed": seed,
        "decisions": decisions,
        "wins_by_seat": wins,
        "mean_turns": turns / games,
        "mean_rounds": rounds / games,
        "seconds": round(seconds, 6),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
    }

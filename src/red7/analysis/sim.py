"""Random play: whole games between uniformly random players, for statistics and speed.

The random player (:func:`red7.bots.random_bot.random_decision`) picks uniformly among
the *safe* legal decisions (R4.7) and concedes only when none is safe. It reads only
the legal decisions and their safety marks, which depend on nothing its seat cannot
see.

**Seeds.** The game of seed ``s`` is dealt from ``s`` (:func:`red7.core.seeds.round_rng`)
and its players' choices come from one stream, ``Stream(split(s, 0))``
(:func:`players_rng`, :mod:`red7.core.stream`): a random game, and so a
:func:`simulate` summary (apart from its timings), is a pure function of the
configuration and the seed. This loop is also the engine benchmark of ``red7 bench``,
so it asks the game for nothing but the next decision.

**Engines.** :func:`simulate` plays on the compiled engine where it is built
(:mod:`red7.core.compiled`), which deals from the same generator and draws the same
choices from the same streams in C alone, so the summary is the same as the
reference's, decision for decision (a test checks it); ``engine="python"`` asks for the
reference. (Before both engines dealt from SplitMix64, ``engine="fast"`` traded that
sameness for speed; it is gone, and refused with a message saying so.)
"""

from __future__ import annotations

import time
from typing import Any

from .. import native
from ..bots.random_bot import random_decision
from ..core.game import Game
from ..core.model import N_, Config, Explained
from ..core.stream import Stream, split

__all__ = ["ENGINES", "players_rng", "play_random_game", "simulate"]

ENGINES = ("auto", "python", "native")
"""What :func:`simulate` plays on: the compiled engine where it is built (``auto``), the
reference (``python``), the compiled engine or an error (``native``): the same games."""
_SEEDS_BELOW = 1 << 64  # the compiled loop's seeds are unsigned 64-bit ints


def players_rng(seed: int) -> Stream:
    """The random players' stream of the game of ``seed`` (one for every seat):
    ``Stream(split(seed, 0))``."""
    return Stream(split(seed, 0))


def play_random_game(config: Config, seed: int) -> Game:
    """One complete game between random players (see the module docstring)."""
    game = Game(config=config, seed=seed)
    rng = players_rng(seed)
    while not game.is_over:
        game.apply_id(random_decision(game, rng))
    return game


def _compiled_seeds(seed: int, games: int) -> bool:
    return 0 <= seed and seed + games < _SEEDS_BELOW


class SimulationError(Explained, ValueError):
    """Games :func:`simulate` cannot play (a bad count, engine or seed); its sentence a
    template the interfaces translate (:class:`~red7.core.model.Explained`)."""


def simulate(games: int, config: Config | None = None, seed: int = 0, engine: str = "auto") -> dict[str, Any]:
    """Play ``games`` random games with seeds ``seed, seed+1, ...`` and summarize them
    (``config``: the basic 2-player game by default; ``engine``: one of :data:`ENGINES`).

    ``wins_by_seat`` counts a shared victory (R8.4) once for each sharing seat;
    ``mean_turns`` counts every turn begun, the eliminating ones included; the rates
    are per second of wall time spent playing (``seconds``); ``engine`` says which
    engine played (``python`` or ``native``).
    """
    if not isinstance(games, int) or games < 1:
        raise SimulationError(N_("the number of games must be a positive integer, not {games!r}"), games=games)
    if engine == "fast":
        raise SimulationError(
            N_(
                "engine 'fast' is gone: every engine now deals and plays from the same fast generator, "
                "and the default engine is as fast (use auto, python or native)"
            )
        )
    if engine not in ENGINES:
        raise SimulationError(
            N_("engine {engine!r} is not one of {engines}"), engine=engine, engines=", ".join(ENGINES)
        )
    if engine == "native" and native.core is None:
        off = native.why_not == native.TURNED_OFF  # (else why the build failed: the system's words)
        raise SimulationError(
            N_("engine {engine!r} needs the compiled engine, which is not in use: {why}"),
            engine=engine,
            why=Explained(N_("turned off by RED7_NATIVE=0")) if off else native.why_not,
        )
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
            raise SimulationError(
                N_("the compiled engine takes seeds from 0 to 2**64 - 1, not {first}..{last}"),
                first=seed,
                last=seed + games - 1,
            )
        assert native.core is not None
        cfg = (config.players, config.advanced, config.actions)
        wins, decisions, turns, rounds = native.core.random_games(*cfg, seed, games)
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
        # to the nanosecond: a few compiled games take tens of microseconds, and the rates
        # beside it must be what a reader gets by dividing by it
        "seconds": round(seconds, 9),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
        "turns_per_second": round(turns / seconds, 1) if seconds else None,
    }

"""Bots: players that see only their own observation (R9).

Build one from a short spec, as the command line does (:mod:`red7.bots.spec`)::

    make_bot("easy")                 # a level: easy, medium, hard
    make_bot("greedy")               # a bot by name: random, greedy, ismcts
    make_bot("ismcts:iters=400")     # with options (name:key=value,key=value)
    make_bot("ismcts:seconds=0.5")   # a time budget instead of iterations

and add your own with :func:`register_bot`. Every bot implements :class:`Bot`. Bots
play no games themselves: :func:`red7.play.play_game` seats them at a table.
"""

from __future__ import annotations

from .base import Bot, BotSpecError, Option, safe_or_concede
from .spec import (
    COMPILED_LEVELS,
    LEVELS,
    PYTHON_LEVELS,
    RETIRED_LEVELS,
    bot_names,
    fallback_levels,
    make_bot,
    register_bot,
    stored_spec,
    unregister_bot,
)

__all__ = [
    "COMPILED_LEVELS",
    "LEVELS",
    "PYTHON_LEVELS",
    "RETIRED_LEVELS",
    "Bot",
    "BotSpecError",
    "Option",
    "bot_names",
    "fallback_levels",
    "make_bot",
    "register_bot",
    "safe_or_concede",
    "stored_spec",
    "unregister_bot",
]

"""Bots: players that see only their own observation (R9).

Build one from a short spec, as the command line does::

    make_bot("easy")                 # a level: easy, medium, hard, expert
    make_bot("greedy")               # a bot by name: random, greedy, ismcts
    make_bot("ismcts:iters=400")     # with options (name:key=value,key=value)
    make_bot("ismcts:seconds=0.5")   # a time budget instead of iterations
"""

from __future__ import annotations

from typing import Any

from .base import Bot, BotSpecError, Option, safe_or_concede

LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "ismcts:steps=8000",
    "expert": "ismcts:steps=40000",
}
"""What each level exposed to players is (budgets measured in the README)."""


def _factories() -> dict[str, Any]:
    from .greedy import GreedyBot
    from .ismcts import ISMCTSBot
    from .random_bot import RandomBot

    return {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot}


def bot_names() -> list[str]:
    """Every spec name accepted by :func:`make_bot`: the levels, then the bots."""
    return [*LEVELS, *_factories()]


def _number(key: str, text: str) -> int | float:
    try:
        value: int | float = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise BotSpecError(f"option {key}={text!r} is not a number") from None
    if not value > 0 or value != value or value == float("inf"):
        raise BotSpecError(f"option {key}={text} must be a positive number")
    return value


def make_bot(spec: str) -> Bot:
    """The bot described by ``spec`` (see the module docstring); its ``name`` is the spec."""
    text = spec.strip().lower() if isinstance(spec, str) else ""
    name, _, rest = text.partition(":")
    expanded = LEVELS.get(name)
    if expanded is not None:
        if rest:
            raise BotSpecError(f"level {name!r} takes no options; use a bot name such as 'ismcts:{rest}'")
        level_bot = make_bot(expanded)
        level_bot.name = name
        return level_bot
    factories = _factories()
    if name not in factories:
        raise BotSpecError(f"unknown bot {spec!r}: choose one of {', '.join(bot_names())}")
    options: dict[str, int | float] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise BotSpecError(f"bad option {part!r} in {spec!r}: write key=value")
        options[key.strip()] = _number(key.strip(), value.strip())
    try:
        bot: Bot = factories[name](**options)
    except BotSpecError:
        raise
    except TypeError:
        raise BotSpecError(
            f"bot {name!r} does not take options {sorted(options)}: {factories[name].__init__.__doc__ or ''}".strip()
        ) from None
    except ValueError as err:  # a bot refusing its options in its own words
        raise BotSpecError(f"bad bot spec {spec!r}: {err}") from None
    bot.name = text
    return bot


__all__ = [
    "LEVELS",
    "Bot",
    "BotSpecError",
    "Option",
    "bot_names",
    "make_bot",
    "safe_or_concede",
]

"""Bot specs: the short texts that name a bot, and the registry of bots they name.

The command line, tournaments and the terminal game build their bots from a spec::

    make_bot("easy")                 # a level: easy, medium, hard
    make_bot("greedy")               # a bot by name: random, greedy, ismcts
    make_bot("ismcts:iters=400")     # with options (name:key=value,key=value)
    make_bot("ismcts:seconds=0.5")   # a time budget instead of iterations

A spec is ``name`` or ``name:key=value,...``, case-insensitive; every option value is a
positive number. Levels are fixed aliases of specs (:data:`LEVELS`) and take no options.

The registry is open: :func:`register_bot` adds a bot under a new name, after which
every front end that takes a spec can play it (the built-in ``random``, ``greedy`` and
``ismcts`` are registered the same way, below).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Final

from .. import native
from ..core.model import N_
from .base import Bot, BotSpecError
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .pimc import PIMCBot
from .random_bot import RandomBot

BotFactory = Callable[..., Bot]
"""Makes a bot from a spec's options, given as keyword arguments (``worlds=3``): a bot
class or any function. It rejects options it does not know with TypeError, and values
it does not accept with ValueError (its message is shown to the user)."""

COMPILED_LEVELS: Final[dict[str, str]] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "pimc:worlds=64,model=1,tries=50000,steps=200000,opening=16,judgements=50000",
}
"""What each level is where the compiled core (:mod:`red7.native`) is in use. ``hard``'s
``opening`` and ``judgements`` are deterministic budgets that keep it within 1 s at the
99th percentile where a solve or the opponent model's replays cost the most
(docs/results/levels.md)."""
PYTHON_LEVELS: Final[dict[str, str]] = {
    **COMPILED_LEVELS,
    "hard": "pimc:worlds=16,model=1,tries=400,steps=8000",
}
"""What each level is where it is not: the pure-Python search runs the same bots with smaller
budgets (ISMCTS does some 70 times fewer iterations per second in Python, the opponent
model deals some hundred times fewer candidates), so that each level keeps its time per
decision (``hard`` within 1 s at the 99th percentile); it plays weaker (measured in
docs/results/strength.md, summed up in docs/bots.md)."""
LEVELS: Final[dict[str, str]] = COMPILED_LEVELS if native.available() else PYTHON_LEVELS
"""What each level exposed to players is here: :data:`COMPILED_LEVELS` or :data:`PYTHON_LEVELS`
(budgets measured in docs/results/strength.md)."""
RETIRED_LEVELS: Final[dict[str, str]] = {"expert": "hard"}
"""Levels that were offered once and left, with the level that plays in their place in data
written before (:func:`stored_spec`). ``expert`` measured no stronger than ``hard`` at five
times its time (docs/bots.md, "Tried and removed"); a spec naming it is refused."""


def stored_spec(spec: str) -> str:
    """The spec to play for ``spec`` read from data written before (a saved game, a stored
    web table's seat): a retired level (:data:`RETIRED_LEVELS`) becomes the level that
    replaced it, any other spec is itself. The one place old data's levels are read."""
    return RETIRED_LEVELS.get(spec.strip().lower(), spec)


def fallback_levels() -> list[str]:
    """The levels that play differently here from where the compiled core is in use:
    ``["hard"]`` when the pure-Python budgets are in use, ``[]`` when not. The
    front ends say so once (:func:`red7.ui.fallback.fallback_notice`)."""
    return [level for level, spec in LEVELS.items() if spec != COMPILED_LEVELS[level]]


_NAME: Final = re.compile(r"[a-z][a-z0-9_-]*")
_BOTS: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make :func:`make_bot` build ``factory(**options)`` for the spec ``name`` (or
    ``name:key=value,...``); the bot's ``name`` is then set to the spec.

    ``name`` is lower case (letters, digits, ``-`` and ``_``, starting with a letter)
    and names neither a level nor a bot already registered; a bad or taken name raises
    :class:`BotSpecError`, and nothing is registered.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise BotSpecError(
            N_("bot name {name!r} must be lower-case letters, digits, '-' or '_', starting with a letter"), name=name
        )
    if name in LEVELS or name in RETIRED_LEVELS or name in _BOTS:
        raise BotSpecError(N_("the bot name {name!r} is taken: {names}"), name=name, names=", ".join(bot_names()))
    if not callable(factory):
        raise BotSpecError(
            N_("bot {name!r} needs a factory that makes bots, not {factory!r}"), name=name, factory=factory
        )
    _BOTS[name] = factory


def unregister_bot(name: str) -> None:
    """Forget the bot registered as ``name`` (KeyError if there is none)."""
    del _BOTS[name]


def bot_names() -> list[str]:
    """Every spec name accepted by :func:`make_bot`: the levels, then the bots in the
    order they were registered."""
    return [*LEVELS, *_BOTS]


def make_bot(spec: str) -> Bot:
    """The bot described by ``spec`` (see the module docstring); its ``name`` is the spec,
    lower-cased. Raises :class:`BotSpecError` naming what is wrong with the spec."""
    text = spec.strip().lower() if isinstance(spec, str) else ""
    name, _, rest = text.partition(":")
    expanded = LEVELS.get(name)
    if expanded is not None:
        if rest:
            raise BotSpecError(
                N_("level {name!r} takes no options; use a bot name such as 'ismcts:{options}'"),
                name=name,
                options=rest,
            )
        level_bot = make_bot(expanded)
        level_bot.name = name
        return level_bot
    factory = _BOTS.get(name)
    if factory is None and name in RETIRED_LEVELS:
        raise BotSpecError(
            N_("the level {name!r} was removed: it played no stronger than {level!r}; choose one of {names}"),
            name=name,
            level=RETIRED_LEVELS[name],
            names=", ".join(LEVELS),
        )
    if factory is None:
        raise BotSpecError(N_("unknown bot {spec!r}: choose one of {names}"), spec=spec, names=", ".join(bot_names()))
    options = _options(spec, rest)
    _check_options(name, factory, options)
    try:
        bot = factory(**options)
    except BotSpecError:
        raise
    except (TypeError, ValueError) as err:  # the bot refusing its options in its own words
        raise BotSpecError(N_("bad bot spec {spec!r}: {reason}"), spec=spec, reason=err) from None
    bot.name = text
    return bot


def _options(spec: str, text: str) -> dict[str, int | float]:
    """The options of a spec, ``key=value,...`` after the colon."""
    options: dict[str, int | float] = {}
    for part in filter(None, text.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise BotSpecError(N_("bad option {option!r} in {spec!r}: write key=value"), option=part, spec=spec)
        options[key.strip()] = _number(key.strip(), value.strip())
    return options


def _number(key: str, text: str) -> int | float:
    """An option's value: a positive int, or else a positive finite float."""
    try:
        value: int | float = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise BotSpecError(N_("option {key}={value!r} is not a number"), key=key, value=text) from None
    if not value > 0 or value == float("inf"):  # "not > 0" also refuses nan
        raise BotSpecError(N_("option {key}={value} must be a positive number"), key=key, value=text)
    return value


def _check_options(name: str, factory: BotFactory, options: dict[str, int | float]) -> None:
    """Refuse options that ``factory`` has no parameter for, quoting its documentation."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # no signature to read: the factory will say
        return
    try:
        signature.bind(**options)
    except TypeError:
        usage = _usage(factory)
        template = N_("bot {name!r} does not take options {options}: {usage}") if usage else None
        raise BotSpecError(
            template or N_("bot {name!r} does not take options {options}"),
            name=name,
            options=sorted(options),
            usage=usage,
        ) from None


def _usage(factory: BotFactory) -> str:
    """What a factory says about its options: a class's ``__init__`` docstring, or a
    function's docstring."""
    target = factory.__init__ if isinstance(factory, type) else factory  # type: ignore[misc]
    if target is object.__init__:
        return ""
    return inspect.getdoc(target) or ""


def learned(worlds: int = 8) -> Bot:
    """learned: a one-turn search scored by the shipped value network (red7.bots.learned;
    needs numpy, red7[rl]). worlds=N, the number of sampled worlds averaged (default 8,
    at most 64)."""
    try:
        from .learned import LearnedBot  # numpy: imported only when the bot is made
    except ImportError as err:
        raise BotSpecError(N_("the learned bot needs numpy: pip install 'red7[rl]' ({reason})"), reason=err) from None
    return LearnedBot(worlds=worlds)


register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)
register_bot("ismcts", ISMCTSBot)
register_bot("pimc", PIMCBot)
register_bot("learned", learned)

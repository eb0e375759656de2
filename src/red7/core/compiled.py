"""The compiled engine beside the reference: how a game reaches it and comes back.

:mod:`red7.native` builds, where a C compiler is present, a twin of :class:`Game`
(``red7.native._core.Engine``, see ``src/red7/native/engine.h``): the same position,
the same legal decisions with the same safety marks (R4.7), the same effects, some 25-40
times faster on random games (``red7 bench``). It deals each round as
:func:`~red7.core.seeds.round_rng` does (seeded by :func:`~red7.core.seeds.deal_key`:
SplitMix64, or the Mersenne Twister of a game recorded before it), so a seeded game
deals the same cards through either engine. What it does not keep: the history, the event log, explicit chance.

:func:`engine` starts a game from a seed, :func:`engine_of` continues a
:class:`Game` from its position, and :func:`fields_of` reads a :class:`Game`'s
position in the order of ``Engine.fields()`` (:data:`FIELDS`), which is how the tests
compare the two engines after every decision (``tests/support/lockstep.py``). The constants
both engines use and the position's fields are defined once, on this side
(:mod:`red7.core.native_defs`, which generates the C header ``defs.h``).

A position reaches the compiled engine through ``Engine.load`` alone (:func:`load`,
:func:`engine_of`), which checks it whole (``r7_check`` in ``engine.h``: the rules of
:meth:`Game.from_position` and the invariants the rules keep) and raises ``ValueError``
saying what does not hold together; the engine then checks nothing per decision, as
every legal decision keeps a position whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from .. import native
from . import native_defs
from .game import Game
from .model import Config, GameError, Step
from .seeds import DEAL, deal_key

if TYPE_CHECKING:
    from ..native._core import Engine

FIELDS: Final = native_defs.FIELDS
"""The position's fields (of :class:`~red7.core.state.State`), in ``Engine.fields()`` order:
defined, with how the compiled engine holds each, in :data:`red7.core.native_defs.POSITION`."""
_READ: Final = attrgetter(*FIELDS)
_STEP: Final = FIELDS.index("step")


def available() -> bool:
    """Is the compiled engine built and in use (:func:`red7.native.available`)?"""
    return native.available()


def _require() -> None:
    """Raise :class:`GameError` unless the compiled engine is in use (``native.core``)."""
    if native.core is None:
        raise GameError(f"the compiled engine is not in use: {native.why_not}")


def engine(config: Config, seed: int, deal: str = DEAL) -> Engine:
    """A new compiled game of ``config`` dealt from ``seed`` by ``deal`` (as
    ``Game(config=config, seed=seed, deal=deal)`` deals it)."""
    _require()
    return native.core.Engine(config.players, config.advanced, config.actions, partial(deal_key, seed, deal=deal))


def load(config: Config, fields: Mapping[str, Any], seed: int = 0, deal: str = DEAL) -> Engine:
    """A compiled game of ``config`` at the position given field by field (by the names
    of :data:`FIELDS`), its later rounds dealt from ``seed`` by ``deal``. ``ValueError`` when the
    position does not hold together (cards placed twice, fewer than two players in the
    round, a step without its pending 7...: the message says which)."""
    _require()
    return native.core.Engine.load(
        config.players,
        config.advanced,
        config.actions,
        partial(deal_key, seed, deal=deal),
        tuple(fields[f] for f in FIELDS),
    )


def fields_of(game: Game) -> tuple[Any, ...]:
    """``game``'s position as ``Engine.fields()`` gives it: lists become tuples, the
    step an int."""
    values = _READ(game._s)
    return tuple(tuple(v) if isinstance(v, list) else int(v) if i == _STEP else v for i, v in enumerate(values))


def engine_of(game: Game) -> Engine:
    """A compiled game at ``game``'s position, where a player decides (its later rounds
    dealt from its seed by its generator; its ``round_results`` begin there). Not for a game that is over,
    nor one whose chance is explicit: the compiled engine draws the deck's top."""
    s = game._s
    if s.explicit_chance:
        raise GameError("the compiled engine has no explicit chance: it draws the top of the deck")
    if s.step >= Step.OVER:
        raise GameError("the game is over: the compiled engine continues games where a player decides")
    cfg = s.config
    _require()
    round_key = partial(deal_key, s.seed, deal=s.deal)
    return native.core.Engine.load(cfg.players, cfg.advanced, cfg.actions, round_key, fields_of(game))


def greedy_in(worlds: list[Engine]) -> int:
    """The decision of :class:`~red7.bots.greedy.GreedyBot` for the mover of ``worlds[0]``,
    searching these compiled worlds (complete games at the same decision point, as the
    mover could see it): the first for every line, the others for the lines that draw an
    unknown card. What the tests compare the compiled greedy with the Python bot by."""
    _require()
    return native.core.greedy_in(worlds)

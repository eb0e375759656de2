"""The compiled engine beside the reference: how a game reaches it and comes back.

:mod:`red7.native` builds, where a C compiler is present, a twin of :class:`Game`
(``red7.native._core.Engine``, see ``src/red7/native/engine.h``): the same position,
the same legal decisions with the same safety marks (R4.7), the same effects, about
ten times faster. It deals from a Mersenne Twister seeded as :func:`round_rng` is
(:func:`~red7.core.seeds.round_key`), so a seeded game deals the same cards through
either engine. What it does not keep: the history, the event log, explicit chance.

:func:`engine` starts a game from a seed, :func:`engine_of` continues a
:class:`Game` from its position, and :func:`fields_of` reads a :class:`Game`'s
position in the order of ``Engine.fields()`` (:data:`FIELDS`), which is how the
tests compare the two engines after every decision.
"""

from __future__ import annotations

from functools import partial
from operator import attrgetter
from typing import Any, Final

from .. import native
from .game import Game
from .model import Config, GameError, Step
from .seeds import round_key

FIELDS: Final = (
    "hands",
    "palettes",
    "known_hand_cards",
    "deck",
    "deck_known_count",
    "canvas",
    "rule",
    "out_of_round",
    "out_of_round_known",
    "out_of_round_own",
    "score_piles",
    "scores",
    "alive",
    "current",
    "step",
    "pending",
    "round",
    "turns",
)
"""The position's fields (of :class:`~red7.core.state.State`), in ``Engine.fields()`` order."""
_READ: Final = attrgetter(*FIELDS)


def available() -> bool:
    """Is the compiled engine built and in use (:func:`red7.native.available`)?"""
    return native.available()


def _core() -> Any:
    if native.core is None:
        raise GameError(f"the compiled engine is not in use: {native.why_not}")
    return native.core


def engine(config: Config, seed: int) -> Any:
    """A new compiled game of ``config`` dealt from ``seed`` (as ``Game(config=config,
    seed=seed)`` deals it)."""
    return _core().Engine(config.players, config.advanced, config.actions, partial(round_key, seed))


def fields_of(game: Game) -> tuple[Any, ...]:
    """``game``'s position as ``Engine.fields()`` gives it: lists become tuples, the
    step an int."""
    values = _READ(game._s)
    return tuple(tuple(v) if isinstance(v, list) else int(v) if i == 14 else v for i, v in enumerate(values))


def engine_of(game: Game) -> Any:
    """A compiled game at ``game``'s position, where a player decides (its later rounds
    dealt from its seed; its ``round_results`` begin there). Not for a game that is over,
    nor one whose chance is explicit: the compiled engine draws the deck's top."""
    s = game._s
    if s.explicit_chance:
        raise GameError("the compiled engine has no explicit chance: it draws the top of the deck")
    if s.step >= Step.OVER:
        raise GameError("the game is over: the compiled engine continues games where a player decides")
    cfg = s.config
    return _core().Engine.load(cfg.players, cfg.advanced, cfg.actions, partial(round_key, s.seed), fields_of(game))

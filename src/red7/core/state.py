"""The position: every fact of a match in progress, in one object with one constructor.

:class:`State` is private to the core. :class:`~red7.core.game.Game` changes it by the
rules; :func:`~red7.core.observation.observe` reads it for one seat;
:class:`~red7.core.worlds.WorldSampler` and ``Game.from_position`` build one. Every
copy goes through :meth:`State.copy` and every comparison through :meth:`State.key`,
so a new fact is added in one place (a test checks that a copy shares nothing
mutable with its original).

Cards are ints and card sets are 49-bit masks (:mod:`red7.core.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final

from .model import Config, Result, RoundLog, RoundResult, Step
from .seeds import DEAL


@dataclass(slots=True, eq=False)
class State:
    """The whole position (R2-R9); lists are per seat unless said otherwise."""

    config: Config
    seed: int
    """Seeds the shuffles of the rounds (see :func:`red7.core.seeds.round_rng`)."""
    explicit_chance: bool
    """Chance stops at chance nodes for the caller to decide (Step.DEALING, Step.DRAWING)."""
    hands: list[int]
    palettes: list[int]
    known_hand_cards: list[int]
    """Hand cards everyone saw their owner draw from the public top of the deck (R7.z, R9)."""
    deck: list[int]
    """Top last. While a round is dealt with explicit chance: the cards not dealt yet."""
    deck_known_count: int
    """How many cards on top of the deck everyone knows (put there by a 7 or a 1, R7.z)."""
    canvas: list[int]
    """The cards on the canvas above the "Red" start card, top last (its colour is the rule)."""
    rule: int
    out_of_round: int
    """Cards of eliminated players, face down (R6.1)."""
    out_of_round_known: int
    """...of which everyone saw which: their palettes and the cards seen drawn (R9)."""
    out_of_round_own: list[int]
    """...and each eliminated seat's own hand, known to that seat."""
    score_piles: list[int]
    scores: list[int]
    alive: list[bool]
    current: int
    """The seat whose turn it is (it stays set when the game is over)."""
    step: Step
    pending: int | None
    """The 7 whose action is being chosen (Step.SEVEN)."""
    draw_ends_turn: bool
    """At Step.DRAWING: the draw is the advanced draw (the turn then ends) rather than a 3's."""
    round: int
    turns: int
    """Turns begun in the match, the eliminating ones included."""
    history: tuple[tuple[int, int], ...]
    """(seat, action id) of every decision of the match (a tuple: copies and
    observations share it; appending copies it, a few hundred entries at most)."""
    round_log: RoundLog
    """The round's public log beyond its decisions: its start, its draws (R9)."""
    round_results: tuple[RoundResult, ...]
    result: Result | None
    deal: str = DEAL
    """The generator that shuffles the rounds, one of :data:`red7.core.seeds.DEALS` (the
    game's constant, with its seed; last, as it has a default: see ``empty``)."""

    @classmethod
    def empty(cls, config: Config, seed: int, explicit_chance: bool = False, deal: str = DEAL) -> State:
        """A match before its first deal."""
        n = config.players
        return cls(
            config=config, seed=seed, explicit_chance=explicit_chance, hands=[0] * n, palettes=[0] * n,
            known_hand_cards=[0] * n, deck=[], deck_known_count=0, canvas=[], rule=0, out_of_round=0,
            out_of_round_known=0, out_of_round_own=[0] * n, score_piles=[0] * n, scores=[0] * n, alive=[True] * n,
            current=0, step=Step.START, pending=None, draw_ends_turn=False, round=0, turns=0, history=(),
            round_log=RoundLog.empty(n), round_results=(), result=None, deal=deal,
        )  # fmt: skip

    def copy(self) -> State:
        """An independent copy (the lists are copied; everything else is immutable)."""
        return State(
            self.config,
            self.seed,
            self.explicit_chance,
            self.hands[:],
            self.palettes[:],
            self.known_hand_cards[:],
            self.deck[:],
            self.deck_known_count,
            self.canvas[:],
            self.rule,
            self.out_of_round,
            self.out_of_round_known,
            self.out_of_round_own[:],
            self.score_piles[:],
            self.scores[:],
            self.alive[:],
            self.current,
            self.step,
            self.pending,
            self.draw_ends_turn,
            self.round,
            self.turns,
            self.history,
            self.round_log,
            self.round_results,
            self.result,
            self.deal,
        )

    def key(self) -> tuple[Any, ...]:
        """Every field, as a hashable tuple: equal keys, equal games."""
        values = _ALL_FIELDS(self)
        return tuple(tuple(v) if i in _LIST_FIELDS else v for i, v in enumerate(values))

    def position_key(self) -> tuple[Any, ...]:
        """The position however it was reached: every field but the history, the round's
        log, the turn counter, the seed, its generator and the game's constants (configuration, chance mode). Written
        out because search bots key their transposition tables with it.

        >>> len(State.empty(Config(), seed=0).position_key()) == len(_POSITION_FIELDS)
        True
        """
        return (
            tuple(self.hands), tuple(self.palettes), tuple(self.known_hand_cards), tuple(self.deck),
            self.deck_known_count, tuple(self.canvas), self.rule, self.out_of_round, self.out_of_round_known,
            tuple(self.out_of_round_own), tuple(self.score_piles), tuple(self.scores), tuple(self.alive),
            self.current, int(self.step), self.pending, self.draw_ends_turn, self.round, self.round_results,
            self.result,
        )  # fmt: skip

    @property
    def players(self) -> int:
        return self.config.players


_NAMES: Final = tuple(f.name for f in fields(State))
_ALL_FIELDS: Final = attrgetter(*_NAMES)
_LIST_FIELDS: Final = frozenset(i for i, f in enumerate(fields(State)) if str(f.type).startswith("list["))
"""The fields a key turns into tuples (the others are immutable already)."""
_POSITION_FIELDS: Final = frozenset(_NAMES) - {
    "config",
    "seed",
    "deal",
    "explicit_chance",
    "history",
    "round_log",
    "turns",
}
"""What :meth:`State.position_key` holds (a test checks it against the key's length)."""

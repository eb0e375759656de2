"""What happened: the events a decision (or chance) causes, and what each seat may see
of them (R9).

:meth:`Game.apply <red7.core.game.Game.apply>` returns the events it caused and the
game keeps them in order (:attr:`Game.events <red7.core.game.Game.events>`). Each
event is a small frozen dataclass; :meth:`Event.seen_by` is the event as one seat (or a
spectator, None) may see it: a card drawn from the unknown part of the deck is hidden
from everyone but its drawer, and a deal shows each seat only its own hand. Front ends
broadcast ``event.seen_by(seat)`` and nothing else; consumers that used to re-derive
what happened (a draw, an elimination, a round's end) read events instead.

Cards are :class:`~red7.core.cards.Card` values and card sets
:class:`~red7.core.cards.CardSet`; :meth:`Event.to_json` writes them in notation.

>>> from red7 import Game
>>> game = Game(players=2, seed=1)
>>> game.apply("concede")
[PlayerEliminated(seat=1, conceded=True), RoundOver(round=1, winner=0, rule=0, scored=CardSet([]), points=0), \
GameOver(winners=(0,), scores=(0, 0), rounds=1)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from .cards import ALL_CARDS, COLOURS, Card, CardSet
from .model import MAX_PLAYERS


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a game; public unless a subclass hides part of it."""

    @property
    def name(self) -> str:
        """The event's name in JSON: its class name in snake case (``card_played``...)."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", type(self).__name__).lower()

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` (a seat, or None for a spectator) may see it (R9)."""
        return self

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"event": name, field: value...}``, cards in notation."""
        return {"event": self.name, **{f.name: _json(getattr(self, f.name)) for f in fields(self)}}


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, CardSet):
        return [str(c) for c in value]
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """A round was dealt (R2.2-R2.4): every palette's first card, every hand (None where
    a view hides it), and who plays first."""

    round: int
    palettes: tuple[Card, ...]
    hands: tuple[CardSet | None, ...]
    first_player: int

    def seen_by(self, viewer: int | None) -> RoundDealt:
        hands = tuple(h if seat == viewer else None for seat, h in enumerate(self.hands))
        # the constructor, not dataclasses.replace: every view of a game asks this
        return self if hands == self.hands else RoundDealt(self.round, self.palettes, hands, self.first_player)


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` from its hand to its palette (R4.2; also a 5's extra card)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CanvasPlayed(Event):
    """``seat`` put ``card`` from its hand on the canvas: its colour is the rule (R4.2)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardMoved(Event):
    """A 7's action: ``seat`` moved ``card`` from its palette to the canvas or, face down
    but known to all, onto the deck (R7.7, R7.z)."""

    seat: int
    card: Card
    to_canvas: bool


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """A 1's action: ``seat`` took ``card`` from ``owner``'s palette and put it, known to
    all, on top of the deck (R7.1, R7.z)."""

    seat: int
    card: Card
    owner: int


class DrawReason(StrEnum):
    """Why a card was drawn: a 3's action (R7.3) or the advanced canvas draw (R5.1)."""

    THREE = "three"
    CANVAS = "canvas"


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` drew the top card of the deck, for ``reason``: a 3's action (R7.3) or
    the advanced draw after a card went on the canvas (R5.1). ``public``: the card was
    known to all (R7.z); otherwise only ``seat`` sees it. Why the card was drawn is
    public, whoever may see the card."""

    seat: int
    card: Card | None
    public: bool
    reason: DrawReason

    def seen_by(self, viewer: int | None) -> CardDrawn:
        if self.public or viewer == self.seat or self.card is None:
            return self
        return HIDDEN_DRAW[self.seat][self.reason is DrawReason.CANVAS]


@dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    """``seat`` did not take the advanced draw (R5.1)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``seat``'s turn ended with ``seat`` winning (R4.3, R4.6); the next player's begins."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """``seat`` is out of the round: it conceded (R4.2), or began its turn with an empty
    hand (R4.1). Its cards leave the round face down (R6.1)."""

    seat: int
    conceded: bool


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """Round ``round`` ended: ``winner`` is the last player in it, under the final
    ``rule`` (a colour index, 0 = Red; its English name in JSON); in the advanced game
    it scored ``scored`` for ``points`` (R6.2, R8.2)."""

    round: int
    winner: int
    rule: int
    scored: CardSet
    points: int

    def to_json(self) -> dict[str, Any]:
        return {**Event.to_json(self), "rule": COLOURS[self.rule]}


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game (the match, in the advanced game) is over (R6.3, R8.3, R8.4, R8.6)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int


def draws_unknown(events: Iterable[Event]) -> bool:
    """Did these events draw a card that only its drawer sees (a 3's draw or the
    advanced draw from the unknown part of the deck, R7.3, R5.1; not a public card,
    R7.z)? Then what follows depends on a hidden card: a line of search has a chance
    outcome, and a person may not take the decision back (no peeking at the deck)."""
    for e in events:  # a plain loop: search bots ask once per node
        if type(e) is CardDrawn and not e.public:
            return True
    return False


# Events are immutable, so the engine hands out one shared instance per value of the
# events a decision causes (as Action does): appending an event costs a look-up, not an
# object: PLAYED[seat][card] and so on; the rarer events are made when they happen.
_SEATS = range(MAX_PLAYERS)
PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(tuple(CardPlayed(s, c) for c in ALL_CARDS) for s in _SEATS)
CANVASED: tuple[tuple[CanvasPlayed, ...], ...] = tuple(tuple(CanvasPlayed(s, c) for c in ALL_CARDS) for s in _SEATS)
MOVED: tuple[tuple[tuple[CardMoved, ...], ...], ...] = tuple(
    tuple(tuple(CardMoved(s, c, to_canvas) for c in ALL_CARDS) for to_canvas in (False, True)) for s in _SEATS
)
_REASONS = (DrawReason.THREE, DrawReason.CANVAS)  # indexed by "the draw ends the turn"
DRAWN: tuple[tuple[tuple[tuple[CardDrawn, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(CardDrawn(s, c, public, reason) for c in ALL_CARDS) for reason in _REASONS)
        for public in (False, True)
    )
    for s in _SEATS
)
"""DRAWN[seat][public][canvas][card]: ``canvas`` is 1 for the advanced draw (R5.1), 0 for a 3's (R7.3)."""
HIDDEN_DRAW: tuple[tuple[CardDrawn, ...], ...] = tuple(
    tuple(CardDrawn(s, None, False, reason) for reason in _REASONS) for s in _SEATS
)
TURN_ENDED: tuple[TurnEnded, ...] = tuple(TurnEnded(s) for s in _SEATS)
ELIMINATED: tuple[tuple[PlayerEliminated, ...], ...] = tuple(
    tuple(PlayerEliminated(s, conceded) for conceded in (False, True)) for s in _SEATS
)

EVENT_TYPES: tuple[type[Event], ...] = (
    RoundDealt,
    CardPlayed,
    CanvasPlayed,
    CardMoved,
    CardTaken,
    CardDrawn,
    DrawDeclined,
    TurnEnded,
    PlayerEliminated,
    RoundOver,
    GameOver,
)

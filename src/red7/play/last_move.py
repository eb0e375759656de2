"""The last move on the board: the cards the latest turn moved, as one seat saw them.

A front end highlights them so a person who looks back at the board sees what just
happened (the card played or put on the canvas, a 7's moved card, a 1's taken card, a
card drawn). It reads the events as the viewer may see them (``table.events_for(seat)``,
R9): another seat's draw of an unknown card has no card there, so it is never named; a
public draw (R7.z) and the viewer's own draws are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import Card
from ..core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    DrawDeclined,
    Event,
    PlayerEliminated,
    RoundDealt,
    TurnEnded,
)

__all__ = ["LastMove", "last_move"]

_MOVES = (CardPlayed, CanvasPlayed, CardMoved, CardTaken, CardDrawn)
"""The events that move a card (a drawn card only when the events show it)."""


@dataclass(frozen=True)
class LastMove:
    """The cards ``seat`` moved in its latest turn that moved any, in the order moved."""

    seat: int
    cards: tuple[Card, ...]


def _card(event: Event) -> Card | None:
    return event.card if isinstance(event, _MOVES) else None


def last_move(events: Sequence[Event]) -> LastMove | None:
    """The latest turn's moved cards in ``events`` (one seat's view of a game, R9), or
    None: nothing moved yet in this round (a new round's deal clears the board), or the
    latest turn moved no card the view shows (a hidden draw, a concession).

    The turn is the latest one with a move: its seat's moves back to the end of the turn
    before (or the round's deal)."""
    end = len(events)
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if isinstance(event, RoundDealt):
            return None
        if isinstance(event, (*_MOVES, DrawDeclined, PlayerEliminated)):
            end = i + 1
            break
    else:
        return None
    seat = getattr(events[end - 1], "seat", None)
    assert isinstance(seat, int)
    cards: list[Card] = []
    for event in reversed(events[:end]):
        if isinstance(event, RoundDealt | TurnEnded) or getattr(event, "seat", seat) != seat:
            break
        if (card := _card(event)) is not None:
            cards.append(card)
    return LastMove(seat, tuple(reversed(cards))) if cards else None

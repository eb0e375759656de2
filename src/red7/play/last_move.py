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
_TURNS = (*_MOVES, DrawDeclined, PlayerEliminated)
"""The events that end the search for the latest turn (it moved a card, or could have)."""
_BOUNDS = (RoundDealt, TurnEnded)
"""The events before the latest turn's moves."""


@dataclass(frozen=True)
class LastMove:
    """The cards ``seat`` moved in its latest turn that moved any, in the order moved."""

    seat: int
    cards: tuple[Card, ...]


def last_move(events: Sequence[Event]) -> LastMove | None:
    """The latest turn's moved cards in ``events`` (one seat's view of a game, R9), or
    None: nothing moved yet in this round (a new round's deal clears the board), or the
    latest turn moved no card the view shows (a hidden draw, a concession).

    The turn is the latest one with a move: its seat's moves back to the end of the turn
    before (or the round's deal). Only the events of that turn and after it are read,
    from the end (the web server asks this of every seat's view at every change, and a
    game's events grow to hundreds)."""
    i = len(events) - 1
    while i >= 0:
        event = events[i]
        if isinstance(event, RoundDealt):
            return None
        if isinstance(event, _TURNS):
            break
        i -= 1
    else:
        return None
    seat = getattr(event, "seat", None)
    assert isinstance(seat, int)
    cards: list[Card] = []
    while i >= 0:
        event = events[i]
        if isinstance(event, _BOUNDS) or getattr(event, "seat", seat) != seat:
            break
        if isinstance(event, _MOVES) and event.card is not None:
            cards.append(event.card)
        i -= 1
    return LastMove(seat, tuple(reversed(cards))) if cards else None

"""Decisions and their text notation (R4, R5, R7).

A turn is a sequence of decisions. Each decision is one interned :class:`Action`
with a fixed integer ``id`` in ``0 .. NUM_ACTIONS - 1`` (stable across versions and
phases, so learning environments can use it as a ``Discrete`` action) and one short
text form that :meth:`Action.parse` reads back:

=========================  ===============================================  ==========
notation                   meaning                                           ids
=========================  ===============================================  ==========
``play R7``                a hand card to your palette (also a 5's follow-up)  0..48
``canvas B3``              a hand card onto the canvas: the rule changes       49..97
``move G2 canvas``         the 7's action: a palette card onto the canvas      98..146
``move G2 deck``           the 7's action: a palette card face down on deck    147..195
``take O4``                the 1's action: an opponent's palette card to deck  196..244
``end``                    end the turn (offered only while winning, R4.6)     245
``concede``                be eliminated (R4.2.4)                              246
``draw`` / ``decline``     the advanced canvas draw (R5.1)                     247, 248
=========================  ===============================================  ==========

The 1's victim is named by the card alone: cards are unique, so the card tells whose
palette it leaves.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .cards import ALL_CARDS, NUM_CARDS, Card, CardError, parse_index

PLAY: Final = 0
CANVAS: Final = PLAY + NUM_CARDS
MOVE_CANVAS: Final = CANVAS + NUM_CARDS
MOVE_DECK: Final = MOVE_CANVAS + NUM_CARDS
TAKE: Final = MOVE_DECK + NUM_CARDS
END: Final = TAKE + NUM_CARDS
CONCEDE: Final = END + 1
DRAW: Final = CONCEDE + 1
DECLINE: Final = DRAW + 1
NUM_ACTIONS: Final = DECLINE + 1


class Kind(StrEnum):
    """What a decision does; its value is the first word of the notation."""

    PLAY = "play"
    """a hand card to the palette (also the 5's extra card)"""
    CANVAS = "canvas"
    """a hand card onto the canvas"""
    MOVE = "move"
    """the 7's action: another palette card to the canvas or onto the deck"""
    TAKE = "take"
    """the 1's action: a card of another palette onto the deck"""
    END = "end"
    CONCEDE = "concede"
    DRAW = "draw"
    DECLINE = "decline"


_CARD_KINDS: Final = (
    (Kind.PLAY, PLAY),
    (Kind.CANVAS, CANVAS),
    (Kind.MOVE, MOVE_CANVAS),
    (Kind.MOVE, MOVE_DECK),
    (Kind.TAKE, TAKE),
)
_WORDS: Final[dict[str, int]] = {Kind.END: END, Kind.CONCEDE: CONCEDE, Kind.DRAW: DRAW, Kind.DECLINE: DECLINE}
_SYNTAX: Final = (
    "'play R7', 'canvas B3', 'move G2 canvas', 'move G2 deck', 'take O4', 'end', 'concede', 'draw' or 'decline'"
)


class ActionError(ValueError):
    """Text that is not a decision's notation, or an id outside the action space."""


class Action:
    """One decision; there is exactly one instance per id, so ``is`` and ``==`` agree
    (``Action(5)`` returns the interned instance, like :meth:`from_id`).

    >>> Action.parse("move g2  Canvas")
    Action('move G2 canvas')
    >>> Action.parse("play R7").id, str(Action.from_id(245))
    (48, 'end')
    """

    __slots__ = ("id", "kind", "card", "_text")
    _all: tuple[Action, ...] = ()

    id: int
    kind: Kind
    card: Card | None
    _text: str
    """The card the decision names (None for ``end``, ``concede``, ``draw``, ``decline``)."""

    def __new__(cls, action_id: int) -> Action:
        if cls._all:
            return cls.from_id(action_id)
        self = super().__new__(cls)
        self.id = action_id
        self.card = None
        if action_id < END:
            base = action_id // NUM_CARDS * NUM_CARDS
            self.kind = next(k for k, b in _CARD_KINDS if b == base)
            self.card = ALL_CARDS[action_id - base]
            self._text = f"{self.kind} {self.card}"
            if base == MOVE_CANVAS:
                self._text += " canvas"
            elif base == MOVE_DECK:
                self._text += " deck"
        else:
            self.kind = Kind(next(w for w, i in _WORDS.items() if i == action_id))
            self._text = str(self.kind)
        return self

    @property
    def destination(self) -> str | None:
        """For a 7's ``move``: ``"canvas"`` or ``"deck"``; otherwise None."""
        if self.kind is not Kind.MOVE:
            return None
        return "canvas" if self.id < MOVE_DECK else "deck"

    @classmethod
    def from_id(cls, action_id: int) -> Action:
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < NUM_ACTIONS:
            raise ActionError(f"action id {action_id!r} is outside 0..{NUM_ACTIONS - 1}")
        return cls._all[action_id]

    @classmethod
    def of(cls, kind: Kind | str, card: Card | int | str | None = None, destination: str | None = None) -> Action:
        """The decision of ``kind`` about ``card`` (and, for a 7's move, its
        ``destination``: ``"canvas"`` or ``"deck"``), e.g. ``Action.of(Kind.PLAY, "R7")``.

        >>> Action.of("move", "G2", "deck")
        Action('move G2 deck')
        """
        parts = [str(kind)]
        if card is not None:
            parts.append(card if isinstance(card, str) else str(Card(card)))
        if destination is not None:
            parts.append(destination)
        return cls.parse(" ".join(parts))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read a decision's notation (words and cards are case-insensitive)."""
        words = text.lower().split() if isinstance(text, str) else []
        try:
            if len(words) == 1 and words[0] in _WORDS:
                return cls._all[_WORDS[words[0]]]
            if len(words) == 2 and words[0] in ("play", "canvas", "take"):
                base = {"play": PLAY, "canvas": CANVAS, "take": TAKE}[words[0]]
                return cls._all[base + parse_index(words[1])]
            if len(words) == 3 and words[0] == "move" and words[2] in ("canvas", "deck"):
                base = MOVE_CANVAS if words[2] == "canvas" else MOVE_DECK
                return cls._all[base + parse_index(words[1])]
        except CardError as err:
            raise ActionError(f"bad decision {text!r}: {err}") from None
        raise ActionError(f"bad decision {text!r}: write {_SYNTAX}")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action('{self._text}')"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_id, (self.id,))


Action._all = tuple(Action(i) for i in range(NUM_ACTIONS))


def to_action(action: Action | str | int) -> Action:
    """Accept an :class:`Action`, its notation or its id."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return Action.parse(action)
    return Action.from_id(action)

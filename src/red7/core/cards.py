"""Cards, their order and their notation (R1).

A card is a small int, its *index* 0..48, laid out so that the natural int order is
the card order of R1.2 (value first, then colour, Red strongest)::

    index = (value - 1) * 7 + (6 - colour)        # colour: 0 = Red ... 6 = Violet

so ``V1`` is 0 and ``R7`` is 48. A set of cards (hand, palette, pile) is an int with
bit ``index`` set for each card: the highest card of a set ``m`` is
``m.bit_length() - 1`` and its size is ``m.bit_count()``. The engine works on these
ints; :class:`Card` and :class:`CardSet` are the friendly faces shown to users.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

COLOURS: Final = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
"""English colour names, strongest first (R1.1); a colour is its index here."""
COLOUR_LETTERS: Final = "ROYGBIV"
"""Notation letters (R1.3), in the order of :data:`COLOURS`."""
NUM_CARDS: Final = 49
FULL_DECK: Final = (1 << NUM_CARDS) - 1

RED, ORANGE, YELLOW, GREEN, BLUE, INDIGO, VIOLET = range(7)


class CardError(ValueError):
    """A card, a card set or a colour name that does not exist or repeats."""


def index_of(colour: int, value: int) -> int:
    """The index of the card of ``colour`` (0 = Red) and ``value`` (1..7)."""
    return (value - 1) * 7 + (6 - colour)


def colour_of(index: int) -> int:
    """The colour (0 = Red .. 6 = Violet) of the card ``index``."""
    return 6 - index % 7


def value_of(index: int) -> int:
    """The value (1..7) of the card ``index``."""
    return index // 7 + 1


COLOUR_OF: Final = tuple(colour_of(i) for i in range(NUM_CARDS))
VALUE_OF: Final = tuple(value_of(i) for i in range(NUM_CARDS))
NAME_OF: Final = tuple(COLOUR_LETTERS[COLOUR_OF[i]] + str(VALUE_OF[i]) for i in range(NUM_CARDS))
_INDEX_OF_NAME: Final = {name: i for i, name in enumerate(NAME_OF)}

COLOUR_MASK: Final = tuple(sum(1 << index_of(c, v) for v in range(1, 8)) for c in range(7))
"""Bit mask of the seven cards of each colour."""
VALUE_MASK: Final = (0,) + tuple(sum(1 << index_of(c, v) for c in range(7)) for v in range(1, 8))
"""Bit mask of the seven cards of each value (index 0 unused and empty)."""
EVEN_MASK: Final = VALUE_MASK[2] | VALUE_MASK[4] | VALUE_MASK[6]
BELOW4_MASK: Final = VALUE_MASK[1] | VALUE_MASK[2] | VALUE_MASK[3]


_COLOURS_PRESENT: Final = tuple(tuple(c for c in range(7) if bits >> (6 - c) & 1) for bits in range(128))


def colour_bits(mask: int) -> int:
    """7 bits, one per colour present in ``mask`` (bit ``6 - colour``)."""
    f = mask | (mask >> 28)  # OR the seven 7-card value groups together
    f |= f >> 14
    f |= f >> 7
    return f & 127


def colours_in(mask: int) -> tuple[int, ...]:
    """The colours (0 = Red .. 6 = Violet) that have a card in ``mask``, in order."""
    return _COLOURS_PRESENT[colour_bits(mask)]


def parse_index(text: str) -> int:
    """The index of a card written ``R7`` (colour letter, value; case-insensitive)."""
    index = _INDEX_OF_NAME.get(text.strip().upper()) if isinstance(text, str) else None
    if index is None:
        raise CardError(f"unknown card {text!r}: write a colour letter (R O Y G B I V) and a value 1-7, e.g. 'R7'")
    return index


def parse_colour(name: str) -> int:
    """The colour index of an English colour name or letter, case-insensitive."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in COLOURS:
        return COLOURS.index(key)
    if len(key) == 1 and key.upper() in COLOUR_LETTERS:
        return COLOUR_LETTERS.index(key.upper())
    raise CardError(f"unknown rule {name!r}: choose one of {', '.join(COLOURS)}")


class Card(int):
    """One of the 49 cards; an ``int`` (its index) that prints as ``R7``.

    >>> Card.parse("R7") > Card.parse("O7") > Card.parse("R6")
    True
    >>> Card.parse("b3").colour_name, Card.parse("B3").value
    ('blue', 3)
    """

    __slots__ = ()
    _all: tuple[Card, ...] = ()

    def __new__(cls, index: int) -> Card:
        if cls._all:
            if not isinstance(index, int) or not 0 <= index < NUM_CARDS:
                raise CardError(f"card index {index!r} is outside 0..48")
            return cls._all[index]
        return super().__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``text`` (R1.3): colour letter and value, e.g. ``R7``."""
        return cls._all[parse_index(text)]

    @classmethod
    def of(cls, colour: int, value: int) -> Card:
        """The card of a colour index (0 = Red) and a value 1..7."""
        if not (0 <= colour < 7 and 1 <= value <= 7):
            raise CardError(f"no card of colour {colour} and value {value}")
        return cls._all[index_of(colour, value)]

    @property
    def colour(self) -> int:
        """Colour index: 0 = Red (strongest) .. 6 = Violet."""
        return COLOUR_OF[self]

    @property
    def colour_name(self) -> str:
        return COLOURS[COLOUR_OF[self]]

    @property
    def value(self) -> int:
        return VALUE_OF[self]

    def __str__(self) -> str:
        return NAME_OF[self]

    def __repr__(self) -> str:
        return f"Card('{NAME_OF[self]}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


Card._all = tuple(Card(i) for i in range(NUM_CARDS))
ALL_CARDS: Final = Card._all


def to_card(card: Card | str | int) -> Card:
    """Accept a :class:`Card`, its notation or its index."""
    if isinstance(card, str):
        return Card.parse(card)
    return Card(card)


def mask_of(cards: Iterable[Card | str | int], what: str = "palette") -> int:
    """The bit mask of ``cards``; a repeated card is an error naming it."""
    mask = 0
    for card in cards:
        c = to_card(card)
        bit = 1 << c
        if mask & bit:
            raise CardError(f"card {c} appears twice in the {what}")
        mask |= bit
    return mask


_BYTE_BITS: Final = tuple(tuple(tuple(8 * k + b for b in range(8) if x >> b & 1) for x in range(256)) for k in range(7))
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE_BITS


def bits_of(m: int) -> tuple[int, ...]:
    """The card indices of the mask ``m``, lowest first (the engine's fast loop: one
    table look-up per byte instead of one step per card)."""
    return (
        _B0[m & 255]
        + _B1[m >> 8 & 255]
        + _B2[m >> 16 & 255]
        + _B3[m >> 24 & 255]
        + _B4[m >> 32 & 255]
        + _B5[m >> 40 & 255]
        + _B6[m >> 48]
    )


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask``, lowest first."""
    return [ALL_CARDS[i] for i in bits_of(mask)]


def names_of(mask: int) -> list[str]:
    """The notation of the cards of ``mask``, highest first (how a palette is read)."""
    return [NAME_OF[c] for c in reversed(cards_of(mask))]


class CardSet:
    """An immutable set of cards backed by a 49-bit mask.

    >>> s = CardSet(["R7", "B3"]); "B3" in s, len(s), str(s)
    (True, 2, 'R7 B3')
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card | str | int] | int = 0) -> None:
        self.mask: int = cards if isinstance(cards, int) else mask_of(cards, "set")

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, (str, int)):
            return False
        return bool(self.mask >> to_card(card) & 1)

    def __iter__(self) -> Iterator[Card]:
        """Highest card first."""
        return iter(reversed(cards_of(self.mask)))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(names_of(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({names_of(self.mask)!r})"

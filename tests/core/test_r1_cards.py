"""R1: the 49 cards, their order (R1.2) and their notation (R1.3).

Expected values are written out by hand from docs/rules.md R1: colour order, strongest
first, is Red Orange Yellow Green Blue Indigo Violet (letters R O Y G B I V), and a
card is compared by value first, then colour.
"""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import pytest

import red7
from red7 import COLOURS, Card, CardError, CardSet
from red7.core import cards as core_cards

LETTERS = "ROYGBIV"  # R1.1 / R1.3, strongest colour first
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
ALL_NAMES = [letter + str(value) for letter in LETTERS for value in range(1, 8)]


def strength(name: str) -> tuple[int, int]:
    """R1.2 as a sort key: value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0].upper())


def card(name: str) -> Card:
    return Card.parse(name)


# --- R1.1 the deck ------------------------------------------------------------------


def test_r1_1_deck_has_49_distinct_cards() -> None:
    """R1.1: seven values in each of seven colours, all distinct."""
    cards = {card(n) for n in ALL_NAMES}
    assert len(cards) == 49
    assert {int(c) for c in cards} == set(range(49))


def test_r1_1_colour_order_and_names() -> None:
    """R1.1: the colour constant lists the colours strongest first."""
    assert tuple(COLOURS) == COLOUR_NAMES


@pytest.mark.parametrize("name", ALL_NAMES)
def test_r1_1_card_value_and_colour(name: str) -> None:
    """R1.1/R1.3: a card's letter gives its colour, its digit its value."""
    c = card(name)
    assert c.value == int(name[1])
    assert c.colour == LETTERS.index(name[0])
    assert c.colour_name == COLOUR_NAMES[LETTERS.index(name[0])]


def test_r1_1_card_of_colour_and_value() -> None:
    """R1.1: Card.of(colour index, value) is the card with that colour and value."""
    for ci, letter in enumerate(LETTERS):
        for v in range(1, 8):
            assert str(Card.of(ci, v)) == f"{letter}{v}"


@pytest.mark.parametrize("colour, value", [(-1, 3), (7, 3), (0, 0), (0, 8)])
def test_r1_1_card_of_outside_deck_raises(colour: int, value: int) -> None:
    """R1.1: there is no card outside colours 0..6 and values 1..7."""
    with pytest.raises(CardError):
        Card.of(colour, value)


# --- R1.2 the order -----------------------------------------------------------------


def test_r1_2_full_order_written_by_hand() -> None:
    """R1.2: the 49 cards from lowest to highest, written out by hand."""
    expected = (
        "V1 I1 B1 G1 Y1 O1 R1 "
        "V2 I2 B2 G2 Y2 O2 R2 "
        "V3 I3 B3 G3 Y3 O3 R3 "
        "V4 I4 B4 G4 Y4 O4 R4 "
        "V5 I5 B5 G5 Y5 O5 R5 "
        "V6 I6 B6 G6 Y6 O6 R6 "
        "V7 I7 B7 G7 Y7 O7 R7"
    ).split()
    assert [str(c) for c in sorted(card(n) for n in ALL_NAMES)] == expected
    assert [str(c) for c in sorted(card(n) for n in reversed(ALL_NAMES))] == expected


def test_r1_2_every_pair_compares_value_then_colour() -> None:
    """R1.2: for all 49*49 pairs, the card order is (value, colour) and total."""
    for a, b in itertools.product(ALL_NAMES, repeat=2):
        ca, cb = card(a), card(b)
        assert (ca < cb) == (strength(a) < strength(b)), (a, b)
        assert (ca == cb) == (a == b), (a, b)
        if a != b:
            assert (ca < cb) != (cb < ca), (a, b)  # total: exactly one is higher


def test_r1_2_seed_examples() -> None:
    """R1.2: any 7 beats any 6; a Red 6 beats an Orange 6; R7 highest, V1 lowest."""
    for a in LETTERS:
        for b in LETTERS:
            assert card(f"{a}7") > card(f"{b}6")
    assert card("R6") > card("O6")
    assert card("O6") > card("Y6") > card("G6") > card("B6") > card("I6") > card("V6")
    every = [card(n) for n in ALL_NAMES]
    assert str(max(every)) == "R7"
    assert str(min(every)) == "V1"


def test_r1_2_lower_value_red_loses_to_higher_value_violet() -> None:
    """R1.2: value is compared before colour (V5 > R4)."""
    assert card("V5") > card("R4")
    assert card("I2") > card("R1")


# --- R1.3 notation ------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_NAMES)
def test_r1_3_notation_round_trip(name: str) -> None:
    """R1.3: str(Card.parse(x)) == x and Card.parse(str(c)) == c."""
    c = card(name)
    assert str(c) == name
    assert Card.parse(str(c)) == c


@pytest.mark.parametrize("name", ALL_NAMES)
def test_r1_3_notation_case_insensitive(name: str) -> None:
    """R1.3: letters may be written in either case; the card prints upper case."""
    assert Card.parse(name.lower()) == card(name)
    assert str(Card.parse(name.lower())) == name


def test_r1_3_card_is_picklable_and_repr_shows_notation() -> None:
    """R1.3: a card's repr uses the notation; pickling keeps the card."""
    c = card("B3")
    assert "B3" in repr(c)
    assert pickle.loads(pickle.dumps(c)) == c
    assert str(pickle.loads(pickle.dumps(c))) == "B3"


BAD_TEXTS: list[Any] = ["X9", "R8", "R0", "", "R", "7", "7R", "RR7", "Red7", "B33", "Z1", "8"]


@pytest.mark.parametrize("bad", BAD_TEXTS)
def test_r1_3_unknown_notation_raises_card_error_naming_it(bad: str) -> None:
    """R1.3: text that is not colour letter + value 1-7 raises CardError naming the text
    and saying how a card is written."""
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value) or f'"{bad}"' in str(info.value)
    assert "R O Y G B I V" in str(info.value) and "1-7" in str(info.value)


@pytest.mark.parametrize("bad", [None, 7, 48, 3.5, b"R7", ["R7"]])
def test_r1_3_non_string_notation_raises_card_error(bad: object) -> None:
    """R1.3: Card.parse only reads text; anything else is a CardError naming the input."""
    with pytest.raises(CardError) as info:
        Card.parse(bad)  # type: ignore[arg-type]
    assert str(bad) in str(info.value)


def test_r1_card_error_is_value_error() -> None:
    """R1.3: CardError is a ValueError, so callers may catch either; the package exports
    the core's own class (catching ``red7.CardError`` catches what the core raises)."""
    assert issubclass(CardError, ValueError)
    assert red7.CardError is core_cards.CardError
    with pytest.raises(red7.CardError):
        core_cards.parse_index("R8")


@pytest.mark.parametrize("index", [-1, 49, 100])
def test_r1_1_card_index_outside_deck_raises(index: int) -> None:
    """R1.1: only 49 cards exist."""
    with pytest.raises(CardError):
        Card(index)


# --- CardSet ------------------------------------------------------------------------


def test_r1_cardset_iterates_highest_first() -> None:
    """R1.2: a CardSet lists its cards highest first (value, then colour)."""
    s = CardSet(["V1", "R4", "O7", "B4", "R7", "I1"])
    assert [str(c) for c in s] == ["R7", "O7", "R4", "B4", "I1", "V1"]
    assert str(s) == "R7 O7 R4 B4 I1 V1"
    assert len(s) == 6


def test_r1_cardset_membership_accepts_notation_and_cards() -> None:
    """R1.3: membership by notation (any case), by Card, and not for absent cards."""
    s = CardSet(["R7", "b3"])
    assert "R7" in s and "r7" in s and "B3" in s
    assert card("B3") in s
    assert "B4" not in s and "O7" not in s
    assert card("V1") not in s
    assert 3.5 not in s  # not a card at all


def test_r1_cardset_equality_ignores_input_order_and_form() -> None:
    """R1.3: a set is the same whatever order or notation case it was built from."""
    a = CardSet(["R7", "B3", "G2"])
    b = CardSet(["g2", card("R7"), "b3"])
    assert a == b and hash(a) == hash(b)
    assert a != CardSet(["R7", "B3"])
    assert CardSet([]) == CardSet()
    assert len(CardSet()) == 0 and str(CardSet()) == ""


def test_r1_cardset_duplicate_card_raises_naming_it() -> None:
    """R1.2: cards are distinct, so a set may not hold the same card twice."""
    with pytest.raises(CardError) as info:
        CardSet(["R7", "B3", "r7"])
    assert "R7" in str(info.value)


def test_r1_cardset_unknown_card_raises_naming_it() -> None:
    """R1.3: building a set from bad notation raises CardError naming the text."""
    with pytest.raises(CardError) as info:
        CardSet(["R7", "X9"])
    assert "X9" in str(info.value)


def test_r1_cardset_of_whole_deck() -> None:
    """R1.1/R1.2: the set of all 49 cards has 49 members, R7 first and V1 last."""
    s = CardSet(ALL_NAMES)
    assert len(s) == 49
    listed = [str(c) for c in s]
    assert listed[0] == "R7" and listed[-1] == "V1"
    assert listed == sorted(ALL_NAMES, key=strength, reverse=True)

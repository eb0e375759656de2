"""R3: the seven rules, qualifying sets (red7.qualifying) and who is winning (red7.winner).

Every expected answer below was worked out by hand from the R3 table of docs/rules.md.
The property test at the end compares the engine with a slow reference written here
directly from the R3 table (it enumerates every candidate group and run explicitly and
does not use src/red7/rules.py or any of the engine's masks).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import red7
from red7 import CardError, CardSet
from tests.support.tiers import examples

LETTERS = "ROYGBIV"  # strongest colour first (R1.1)
RULES = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
ALL_NAMES = [letter + str(value) for letter in LETTERS for value in range(1, 8)]


# --- an independent reference of R1.2 and R3 -------------------------------------------


def strength(name: str) -> tuple[int, int]:
    """R1.2: compare value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0])


def value(name: str) -> int:
    return int(name[1])


def colour(name: str) -> str:
    return name[0]


def best_group(groups: list[list[str]]) -> set[str]:
    """R3 table tie-break: the largest group; on equal size the one holding the highest
    card (R1.2). Empty groups are never candidates."""

    def rank(group: list[str]) -> tuple[int, tuple[int, int]]:
        return len(group), max(strength(c) for c in group)

    best: list[str] = []
    for group in groups:
        if group and (not best or rank(group) > rank(best)):
            best = group
    return set(best)


def ref_qualifying(rule: str, palette: Sequence[str]) -> set[str]:
    """The R3 table, spelled out naively."""
    cards = list(palette)
    if rule == "red":
        return best_group([[c] for c in cards])
    if rule == "orange":
        return best_group([[c for c in cards if value(c) == v] for v in range(1, 8)])
    if rule == "yellow":
        return best_group([[c for c in cards if colour(c) == col] for col in LETTERS])
    if rule == "green":
        return {c for c in cards if value(c) in (2, 4, 6)}
    if rule == "blue":
        out = set()
        for col in LETTERS:
            of_colour = [c for c in cards if colour(c) == col]
            if of_colour:
                out.add(max(of_colour, key=strength))
        return out
    if rule == "indigo":
        present = {value(c) for c in cards}
        runs: list[list[str]] = []
        for lo in range(1, 8):
            for hi in range(lo, 8):
                if all(v in present for v in range(lo, hi + 1)):
                    # one card per value: the highest card of that value
                    runs.append([max((c for c in cards if value(c) == v), key=strength) for v in range(lo, hi + 1)])
        return best_group(runs)
    if rule == "violet":
        return {c for c in cards if value(c) in (1, 2, 3)}
    raise AssertionError(rule)


def ref_winner(rule: str, palettes: Sequence[Sequence[str]]) -> int | None:
    """R3.1/R3.2 for the palettes under ``rule``."""
    return ref_winner_of_sets([ref_qualifying(rule, p) for p in palettes])


def ref_winner_of_sets(qualifying_sets: Sequence[set[str]]) -> int | None:
    """R3.1/R3.2: largest qualifying set, tie -> its highest card; empty never wins."""
    best: int | None = None
    best_key: tuple[int, tuple[int, int]] | None = None
    for seat, q in enumerate(qualifying_sets):
        if not q:
            continue
        key = (len(q), max(strength(c) for c in q))
        assert best_key is None or key != best_key  # cards are distinct
        if best_key is None or key > best_key:
            best, best_key = seat, key
    return best


# --- helpers ------------------------------------------------------------------------------


def qual(rule: str, palette: str) -> set[str]:
    """Engine's qualifying set of a space-separated palette, as a set of names (checked to
    be drawn from the palette: R3 picks cards of the palette, never adds any)."""
    names = {str(c) for c in red7.qualifying(rule, palette.split())}
    assert names <= set(palette.split()), (rule, palette, names)
    return names


def win(rule: str, *palettes: str) -> int | None:
    return red7.winner(rule, [p.split() for p in palettes])


def test_reference_self_check() -> None:
    """Sanity of the reference itself on the R3 table's tie-break examples."""
    assert ref_qualifying("indigo", ["R2", "V3", "O3", "G4"]) == {"R2", "O3", "G4"}
    assert ref_qualifying("orange", ["R3", "O3", "V5", "I5"]) == {"V5", "I5"}
    assert ref_winner("green", [["R1"], ["R3"]]) is None


# --- R3 table: qualifying sets, one rule at a time ---------------------------------------


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("V1 R4 O6 B5", "O6"),  # highest value wins, not strongest colour
        ("O6 R6 V7", "V7"),
        ("O6 R6", "R6"),  # same value -> stronger colour
        ("I3", "I3"),
        ("", ""),
    ],
)
def test_r3_red_qualifying_is_single_highest_card(palette: str, expected: str) -> None:
    """R3 Red: the single highest card (R1.2)."""
    assert qual("red", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R2 O2 Y2 G1", "R2 O2 Y2"),  # three 2s
        ("R2 O2 B7", "R2 O2"),  # the largest group, though the 7 is higher
        ("R3 O3 V5 I5", "V5 I5"),  # tie 2-2 -> group holding the highest card (I5)
        ("R1 V7", "V7"),  # tie 1-1 -> group of the highest card
        ("R6 O6 V7 I7 B1", "V7 I7"),
        ("R4 O4 Y4 V6 I6 B6", "V6 I6 B6"),  # tie 3-3: B6 > R4
        ("", ""),
    ],
)
def test_r3_orange_qualifying_largest_value_group(palette: str, expected: str) -> None:
    """R3 Orange: cards of one value, largest group, tie -> group with highest card."""
    assert qual("orange", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R1 R2 V6 V7", "V6 V7"),  # tie 2-2: V7 is the highest card
        ("R5 R1 O5 O2", "R5 R1"),  # tie 2-2, equal top value: R5 > O5
        ("B1 B2 B3 R7", "B1 B2 B3"),  # largest group beats the high card
        ("G4 Y4", "Y4"),  # tie 1-1: Y4 > G4
        ("I1 I2 I3 O6 O7 O5", "O5 O6 O7"),  # tie 3-3: O7 wins
        ("", ""),
    ],
)
def test_r3_yellow_qualifying_largest_colour_group(palette: str, expected: str) -> None:
    """R3 Yellow: cards of one colour, largest group, tie -> group with highest card."""
    assert qual("yellow", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R4 O2 Y6 G3", "R4 O2 Y6"),
        ("R1 R2 R3 R4 R5 R6 R7", "R2 R4 R6"),
        ("V2 I2 B2", "V2 I2 B2"),
        ("R1 R3 R5 R7", ""),  # no even card
        ("", ""),
    ],
)
def test_r3_green_qualifying_even_cards(palette: str, expected: str) -> None:
    """R3 Green: every card of value 2, 4 or 6."""
    assert qual("green", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R4 R6 B5 B2", "R6 B5"),  # the library's own example
        ("V7 V1 R1", "V7 R1"),
        ("R1 O1 Y1 G1 B1 I1 V1", "R1 O1 Y1 G1 B1 I1 V1"),
        ("I3 I5 I2", "I5"),
        ("", ""),
    ],
)
def test_r3_blue_qualifying_highest_card_of_each_colour(palette: str, expected: str) -> None:
    """R3 Blue: the highest card of each colour present."""
    assert qual("blue", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R2 V3 O3 G4", "R2 O3 G4"),  # 2 3 3 4: run of 3, the higher 3 (O3)
        ("R4 O5 Y7 G6", "R4 O5 G6 Y7"),
        ("R1 R2 V5 V6", "V5 V6"),  # two runs of 2: the one holding V6
        ("R1 O3 Y5", "Y5"),  # only runs of 1: the highest card
        ("R1 R2 R3 V7", "R1 R2 R3"),  # the longest run beats a higher card
        ("V1 I2 B3 G5 Y6 O7", "G5 Y6 O7"),  # tie 3-3 -> run holding O7
        ("V4 R4 I5 O5 B6", "R4 O5 B6"),  # highest card of each value along the run
        ("I1 I2 I3 I4 I5 I6 I7", "I1 I2 I3 I4 I5 I6 I7"),
        ("R7 O7 Y7", "R7"),  # one value only
        ("", ""),
    ],
)
def test_r3_indigo_qualifying_longest_run(palette: str, expected: str) -> None:
    """R3 Indigo: one card per value (the highest of that value) along the longest run
    of consecutive values; tie -> the run holding the highest card."""
    assert qual("indigo", palette) == set(expected.split())


@pytest.mark.parametrize(
    "palette, expected",
    [
        ("R1 O2 Y4 G3", "R1 O2 G3"),
        ("B5 I1 V1 R7", "I1 V1"),
        ("R4 R5 R6 R7", ""),  # nothing below 4
        ("", ""),
    ],
)
def test_r3_violet_qualifying_cards_below_4(palette: str, expected: str) -> None:
    """R3 Violet: every card of value 1, 2 or 3."""
    assert qual("violet", palette) == set(expected.split())


def test_r3_qualifying_accepts_string_and_cardset() -> None:
    """R3: qualifying takes a list of notation, a spaced string or a CardSet alike."""
    as_list = red7.qualifying("indigo", ["R2", "V3", "O3", "G4"])
    assert red7.qualifying("indigo", "R2 V3 O3 G4") == as_list
    assert red7.qualifying("indigo", CardSet(["R2", "V3", "O3", "G4"])) == as_list
    assert as_list == CardSet(["R2", "O3", "G4"])


# --- R3.1 / R3.2 winner --------------------------------------------------------------------


def test_r3_1_larger_qualifying_set_wins_over_higher_card() -> None:
    """R3.1: size first: two 1s beat a lone R7 under Orange."""
    assert win("orange", "V1 I1", "R7") == 0
    assert win("orange", "R7", "V1 I1") == 1


def test_r3_1_tie_broken_by_value_of_highest_card() -> None:
    """R3.1 (seed chart '6 > 4'): on equal size the higher value wins."""
    assert win("red", "V6", "R4") == 0
    assert win("yellow", "V6 V1", "R4 R3") == 0


def test_r3_1_tie_broken_by_colour_on_equal_value() -> None:
    """R3.1 (seed chart '4 > 4'): same value -> colour closer to red wins."""
    assert win("red", "O4", "R4") == 1
    assert win("red", "B4 V3", "G4 R3") == 1  # G4 > B4; the R3 does not count


def test_r3_1_tie_break_only_looks_at_the_qualifying_set() -> None:
    """R3.1: the highest card *in the qualifying set* breaks ties, not the palette's."""
    # Green: {V2} vs {I2}; P0's R7 does not qualify.
    assert win("green", "R7 V2", "I2") == 1
    # Violet: {V3} vs {B3}.
    assert win("violet", "R7 V3", "B3") == 1
    # Orange: {G2,B2} vs {Y3,V3}: 3 beats 2 though P0 holds R7.
    assert win("orange", "R7 G2 B2", "Y3 V3") == 1
    # Indigo: runs of 2 each: {V5,V6} vs {I6,I7}; P0's R1 is outside its run.
    assert win("indigo", "R1 V5 V6", "I6 I7") == 1


def test_r3_1_blue_ties() -> None:
    """R3.1 Blue: more colours wins; equal colours -> highest qualifying card."""
    assert win("blue", "V7 V6 R1", "R2 O2") == 0  # 2-2, V7 > R2
    assert win("blue", "V7 V6 R1", "R2 O2 Y2") == 1  # 3 colours beat 2
    assert win("blue", "R6 O7 Y5 G4", "B5 I6 V4 R1") == 0  # 4-4, O7 > I6


def test_r3_1_indigo_repeated_numbers_count_once() -> None:
    """R3.1 Indigo: 2 3 3 4 is a run of 3, not 4, so a plain run of 4 beats it."""
    assert win("indigo", "R2 V3 O3 G4", "I4 B5 V6 I7") == 1
    assert win("indigo", "R2 V3 O3 G4", "I5 B6 V7") == 1  # 3-3: V7 > G4
    assert win("indigo", "R5 V6 O6 G7", "I4 B5 I6") == 0  # 3-3: G7 > I6


def test_r3_1_orange_tie_between_players() -> None:
    """R3.1 Orange: equal group sizes -> the group with the higher card."""
    assert win("orange", "R3 O3", "V4 I4") == 1
    assert win("orange", "V4 I4", "R4 B4") == 1  # R4 > I4


def test_r3_1_three_and_four_players() -> None:
    """R3.1: the winner beats every other remaining player, whatever the count."""
    assert win("red", "V5", "R5", "O5") == 1
    assert win("violet", "R1 O2", "Y1 G2 B3", "R7", "I1 V2") == 1
    assert win("green", "R2", "O2", "Y2", "G2") == 0
    assert win("yellow", "R1", "O1 O2", "Y1 Y2", "G7") == 1  # 2-2: O2 > Y2 (R1.2)


def test_r3_2_empty_qualifying_set_never_wins() -> None:
    """R3.2: under Green and Violet a palette with no qualifying card is not winning."""
    assert win("green", "R7 R5", "V2") == 1
    assert win("violet", "R7", "V1") == 1
    assert win("violet", "R7 R6", "O4", "V1") == 2


def test_r3_2_nobody_qualifies_gives_none() -> None:
    """R3.2: when no palette qualifies winner() returns None."""
    assert win("green", "R1", "R3") is None
    assert win("violet", "R7", "R5", "O4") is None
    assert win("green", "", "") is None
    for rule in RULES:
        assert win(rule, "", "") is None  # empty palettes never win (R3.2)


def test_r3_2_empty_palette_loses_to_any_card_under_red() -> None:
    """R3.2: an empty palette has an empty qualifying set even under Red."""
    assert win("red", "", "V1") == 1
    assert win("orange", "V1", "") == 0


# --- R3.3 and the seeds' table ----------------------------------------------------------

# "Exemplos das Regras da Tela": the seed shows numbers only; colours chosen here so that
# the stated outcome (left beats right) holds.
SEED_TABLE = [
    ("red", "O5 V1 R6 B4", "Y3 O6 G1 B1"),  # 5 1 6 4 > 3 6 1 1 (R6 > O6)
    ("orange", "R2 O2 Y2 G1", "R7 O7 B1 B2"),  # 2 2 2 1 > 7 7 1 2
    ("yellow", "R2 R6 O1 Y5", "O6 O4 B1 B4"),  # 2 6 1 5 > 6 4 1 4 (tie 2-2, R6 > O6)
    ("green", "R4 O2 Y6 G3", "B3 I1 V6 V1"),  # 4 2 6 3 > 3 1 6 1
    ("blue", "R6 O7 Y5 G4", "B5 I6 V4 R1"),  # 6 7 5 4 > 5 6 4 1 (tie 4-4, O7 > I6)
    ("indigo", "R4 O5 Y7 G6", "B2 I3 V4 R5"),  # 4 5 7 6 > 2 3 4 5
    ("violet", "R1 O2 Y4 G3", "B5 I1 V1 R7"),  # 1 2 4 3 > 5 1 1 7
]


@pytest.mark.parametrize("rule, left, right", SEED_TABLE)
def test_r3_seed_table_examples(rule: str, left: str, right: str) -> None:
    """R3 seed table ('Exemplos das Regras da Tela'): the left palette wins, whichever
    seat it sits in."""
    assert win(rule, left, right) == 0
    assert win(rule, right, left) == 1


def test_r3_seed_table_qualifying_sets() -> None:
    """R3: the qualifying sets behind the seed table examples, worked by hand."""
    assert qual("red", "O5 V1 R6 B4") == {"R6"}
    assert qual("orange", "R7 O7 B1 B2") == {"R7", "O7"}
    assert qual("yellow", "O6 O4 B1 B4") == {"O6", "O4"}
    assert qual("green", "B3 I1 V6 V1") == {"V6"}
    assert qual("blue", "B5 I6 V4 R1") == {"B5", "I6", "V4", "R1"}
    assert qual("indigo", "B2 I3 V4 R5") == {"B2", "I3", "V4", "R5"}
    assert qual("violet", "B5 I1 V1 R7") == {"I1", "V1"}


# R3.3: examples whose outcome does not depend on colours (values only).
R33_EXAMPLES = [
    ("orange", [2, 2, 2, 1], [7, 7, 1, 2]),
    ("green", [4, 2, 6, 3], [3, 1, 6, 1]),
    ("violet", [1, 2, 4, 3], [5, 1, 1, 7]),
    ("indigo", [4, 5, 7, 6], [2, 3, 4, 5]),
]


def colour_palettes(rng: random.Random, left: list[int], right: list[int]) -> tuple[list[str], list[str]]:
    """Give each value a random colour so that all 8 cards are distinct."""
    while True:
        cards = [rng.choice(LETTERS) + str(v) for v in left + right]
        if len(set(cards)) == len(cards):
            return cards[: len(left)], cards[len(left) :]


@pytest.mark.parametrize("rule, left, right", R33_EXAMPLES)
def test_r3_3_seed_examples_hold_for_every_colouring(rule: str, left: list[int], right: list[int]) -> None:
    """R3.3: the left palette wins whatever colours the cards have (300 colourings)."""
    rng = random.Random(f"R3.3 {rule}")
    for _ in range(300):
        a, b = colour_palettes(rng, left, right)
        assert red7.winner(rule, [a, b]) == 0, (a, b)
        assert red7.winner(rule, [b, a]) == 1, (b, a)


def test_r3_readme_example() -> None:
    """R3 Indigo (README): runs 4-7 and 2-5 both hold 4 cards; G7 > V5."""
    assert red7.winner("indigo", [["R4", "B5", "G7", "Y6"], ["I2", "I3", "O4", "V5"]]) == 0
    # I2 I3 O4 V5 is a run of 4 ending in V5; R4 B5 Y6 G7 ends in G7.
    assert qual("indigo", "I2 I3 O4 V5") == {"I2", "I3", "O4", "V5"}


# --- rule names and bad input ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["INDIGO", "Indigo", "indigo", "iNdIgO"])
def test_r3_rule_names_case_insensitive(name: str) -> None:
    """R3: rule names are English colour names in any case."""
    assert red7.winner(name, [["R4", "B5", "G7", "Y6"], ["I2", "I3", "O4", "V5"]]) == 0
    assert qual(name, "R2 V3 O3 G4") == {"R2", "O3", "G4"}


@pytest.mark.parametrize("rule", RULES)
def test_r3_rule_names_each_rule_in_upper_case(rule: str) -> None:
    """R3: every rule name works in upper and title case with the same result."""
    palette = "R2 V3 O3 G4 B6 B1"
    expected = qual(rule, palette)
    assert qual(rule.upper(), palette) == expected
    assert qual(rule.title(), palette) == expected


@pytest.mark.parametrize("bad", ["purple", "", "reds", "rouge"])
def test_r3_unknown_rule_raises_naming_it(bad: str) -> None:
    """R3: an unknown rule name is a CardError naming it."""
    with pytest.raises(CardError) as info:
        red7.winner(bad, [["R1"], ["R2"]])
    assert repr(bad) in str(info.value) or f'"{bad}"' in str(info.value)
    with pytest.raises(CardError) as info:
        red7.qualifying(bad, ["R1"])
    assert repr(bad) in str(info.value) or f'"{bad}"' in str(info.value)


def test_r3_duplicate_card_in_palette_raises() -> None:
    """R1.2/R3: cards are distinct; a palette with the same card twice is an error."""
    with pytest.raises(CardError) as info:
        red7.winner("red", [["R4", "B5", "r4"], ["I2"]])
    assert "R4" in str(info.value)
    with pytest.raises(CardError):
        red7.qualifying("red", ["R4", "R4"])


def test_r3_card_in_two_palettes_raises() -> None:
    """R1.2/R3: one card cannot sit in two palettes."""
    with pytest.raises(CardError) as info:
        red7.winner("red", [["R4", "B5"], ["I2", "B5"]])
    assert "B5" in str(info.value)


def test_r3_unknown_card_in_palette_raises() -> None:
    """R1.3/R3: an unknown card in a palette is a CardError naming it."""
    with pytest.raises(CardError) as info:
        red7.winner("red", [["R4", "X9"], ["I2"]])
    assert "X9" in str(info.value)
    with pytest.raises(CardError) as info:
        red7.qualifying("blue", ["R8"])
    assert "R8" in str(info.value)


# --- the reference comparison ---------------------------------------------------------------


def test_r3_reference_exhaustive_small_palettes() -> None:
    """R3 table: for every palette of 0-2 cards, and 3000 random palettes of 3-7 cards,
    each rule's qualifying set equals the reference."""
    rng = random.Random("R3 exhaustive")
    palettes: list[tuple[str, ...]] = [()]
    palettes += [(a,) for a in ALL_NAMES]
    palettes += list(itertools.combinations(ALL_NAMES, 2))
    palettes += [tuple(rng.sample(ALL_NAMES, rng.randint(3, 7))) for _ in range(3000)]
    for palette in palettes:
        for rule in RULES:
            assert {str(c) for c in red7.qualifying(rule, list(palette))} == ref_qualifying(rule, palette), (
                rule,
                palette,
            )


@st.composite
def disjoint_palettes(draw: st.DrawFn) -> list[list[str]]:
    """2-4 palettes of 0-8 cards each, no card in two palettes."""
    n = draw(st.integers(2, 4))
    sizes = [draw(st.integers(0, 8)) for _ in range(n)]
    total = sum(sizes)
    deck = draw(st.lists(st.sampled_from(ALL_NAMES), min_size=total, max_size=total, unique=True))
    out: list[list[str]] = []
    at = 0
    for size in sizes:
        out.append(list(deck[at : at + size]))
        at += size
    return out


@settings(max_examples=examples(3000))
@given(palettes=disjoint_palettes())
def test_r3_winner_and_qualifying_match_reference(palettes: list[list[str]]) -> None:
    """R3 table, R3.1, R3.2: for random disjoint palettes, winner() and qualifying()
    agree with the slow reference under each of the seven rules."""
    for rule in RULES:
        expected_sets = [ref_qualifying(rule, palette) for palette in palettes]
        for palette, expected in zip(palettes, expected_sets, strict=True):
            got = {str(c) for c in red7.qualifying(rule, palette)}
            assert got == expected, (rule, palette)
        assert red7.winner(rule, palettes) == ref_winner_of_sets(expected_sets), (rule, palettes)


@settings(max_examples=examples(500))
@given(palettes=disjoint_palettes(), data=st.data())
def test_r3_winner_ignores_palette_order_and_notation_case(palettes: list[list[str]], data: st.DataObject) -> None:
    """R3.1: the winning palette does not depend on the order cards are listed in, nor on
    the seat order (the winner moves with its palette), nor on notation case."""
    rule = data.draw(st.sampled_from(RULES))
    expected = ref_winner(rule, palettes)
    shuffled = [list(reversed([c.lower() for c in p])) for p in palettes]
    assert red7.winner(rule, shuffled) == expected
    order = data.draw(st.permutations(range(len(palettes))))
    moved = red7.winner(rule, [palettes[i] for i in order])
    if expected is None:
        assert moved is None
    else:
        assert moved is not None and order[moved] == expected

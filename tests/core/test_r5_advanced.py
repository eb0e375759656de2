"""R5.1: the advanced game's canvas draw.

When a hand card goes onto the canvas (option 2, or option 3 after a play) and its
value is greater than the number of cards in the mover's palette at that moment, the
mover may draw the top card of the deck (draw / decline), unless the deck is empty.
Positions are hand-built; the deck is listed top first. Action rules are off.
"""

from __future__ import annotations

import pytest

from red7 import Card, Game, IllegalActionError, RefusalCode
from red7.core.events import CardDrawn, DrawReason
from tests.support import helpers


def make(
    hands: list[str],
    palettes: list[str],
    *,
    deck: str = "",
    advanced: bool = True,
    current: int = 0,
) -> Game:
    """:func:`helpers.make` with the advanced game on unless said otherwise."""
    return helpers.make(hands, palettes, deck=deck, advanced=advanced, current=current)


def legal(g: Game) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


DECK = "O7 V6"
"""O7 is the top card."""


def canvas_only(advanced: bool = True, deck: str = DECK) -> Game:
    """P0 palette G2 G4 G6 (3 cards), hand Y1..Y7. Yellow: P0's green trio beats P1's
    single R5, so every yellow canvas is legal (R4.4)."""
    return make(
        ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B1"],
        ["G2 G4 G6", "R5"],
        deck=deck,
        advanced=advanced,
    )


def play_then_canvas(advanced: bool = True, deck: str = DECK) -> Game:
    """P0 palette G2 G4 (2 cards), hand G6 Y1..Y5 Y7; after 'play G6' the palette holds 3.
    Yellow then wins (green trio against single colours)."""
    return make(
        ["G6 Y1 Y2 Y3 Y4 Y5 Y7", "B1"],
        ["G2 G4", "R5"],
        deck=deck,
        advanced=advanced,
    )


def assert_turn_passed(g: Game) -> None:
    assert g.current_player == 1
    assert g.step_name == "start"
    assert g.alive == (True, True)


# --- when the draw is offered ---------------------------------------------------------------


@pytest.mark.parametrize("value", range(1, 8))
def test_r5_1_canvas_only_draw_offered_iff_value_exceeds_palette(value: int) -> None:
    """R5.1 option 2: palette of 3 cards; Y1-Y3 give no draw (3 is not > 3), Y4-Y7 do."""
    g = canvas_only()
    g.apply(f"canvas Y{value}")
    if value > 3:
        assert g.current_player == 0
        assert g.step_name == "draw"
        assert legal(g) == sorted(["draw", "decline", "concede"])
    else:
        assert_turn_passed(g)
        assert g.observe(None).deck_size == 2


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 7])
def test_r5_1_play_then_canvas_counts_the_played_card(value: int) -> None:
    """R5.1 option 3: after 'play G6' the palette has 3 cards (not 2): Y3 gives no draw
    (3 = 3, the boundary), Y4 and up do."""
    g = play_then_canvas()
    g.apply("play G6")
    g.apply(f"canvas Y{value}")
    if value > 3:
        assert g.current_player == 0 and g.step_name == "draw"
        assert legal(g) == sorted(["draw", "decline", "concede"])
    else:
        assert_turn_passed(g)
        assert sorted(g.hand(0)) == sorted(f"Y{v}" for v in (1, 2, 3, 4, 5, 7) if v != value)


def test_r5_1_no_draw_in_basic_game() -> None:
    """R5.1 is advanced-only: canvas Y7 over a 3-card palette passes the turn at once."""
    g = canvas_only(advanced=False)
    g.apply("canvas Y7")
    assert_turn_passed(g)
    assert g.observe(None).deck_size == 2
    assert len(g.hand(0)) == 6


def test_r5_1_no_draw_in_basic_game_option_3() -> None:
    """R5.1 is advanced-only, also after a play."""
    g = play_then_canvas(advanced=False)
    g.apply("play G6")
    g.apply("canvas Y7")
    assert_turn_passed(g)


@pytest.mark.parametrize("option3", [False, True])
def test_r5_1_no_draw_with_empty_deck(option3: bool) -> None:
    """R5.1: 'unless the deck is empty': Y7 over 3 cards, no deck, no draw step."""
    g = play_then_canvas(deck="") if option3 else canvas_only(deck="")
    if option3:
        g.apply("play G6")
    g.apply("canvas Y7")
    assert_turn_passed(g)


# --- draw / decline ---------------------------------------------------------------------


def test_r5_1_draw_takes_top_card_and_passes_turn() -> None:
    """R5.1: 'draw' moves the deck's top card (O7) into the hand; the turn passes."""
    g = canvas_only()
    g.apply("canvas Y5")
    g.apply("draw")
    assert_turn_passed(g)
    hand = g.hand(0)
    assert "O7" in hand and "V6" not in hand
    assert sorted(hand) == sorted(["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "O7"])
    assert g.deck() == ["V6"]
    obs = g.observe(None)
    assert obs.deck_size == 1
    assert obs.hand_sizes[0] == 7


def test_r5_1_the_draw_event_says_it_is_the_canvas_draw_to_every_viewer() -> None:
    """R5.1 / R9: the draw's event carries its reason (the canvas draw) for every
    viewer, the drawer's own view naming the card and the others' hiding it (a draw
    made as a chance node says the same: tests/core/test_chance.py)."""
    g = canvas_only()
    g.apply("canvas Y5")
    (drawn, _ended) = g.apply("draw")
    assert drawn == CardDrawn(0, Card.parse("O7"), False, DrawReason.CANVAS)
    assert drawn.seen_by(1) == drawn.seen_by(None) == CardDrawn(0, None, False, DrawReason.CANVAS)


def test_r5_1_draw_after_play_then_canvas() -> None:
    """R5.1 option 3: play G6, canvas Y7 (7 > 3), draw: O7 joins the hand."""
    g = play_then_canvas()
    g.apply("play G6")
    g.apply("canvas Y7")
    g.apply("draw")
    assert_turn_passed(g)
    assert sorted(g.hand(0)) == sorted(["Y1", "Y2", "Y3", "Y4", "Y5", "O7"])
    assert g.observe(None).deck_size == 1


def test_r5_1_decline_keeps_hand_and_deck() -> None:
    """R5.1: 'may' is a choice: declining draws nothing and passes the turn."""
    g = canvas_only()
    g.apply("canvas Y5")
    deck_before = g.deck()
    g.apply("decline")
    assert_turn_passed(g)
    assert sorted(g.hand(0)) == sorted(["Y1", "Y2", "Y3", "Y4", "Y6", "Y7"])
    assert g.deck() == deck_before
    assert g.observe(None).deck_size == 2


def test_r5_1_draw_step_refuses_other_decisions() -> None:
    """R5.1: at the draw step only draw / decline / concede exist; the rest is refused."""
    g = canvas_only()
    g.apply("canvas Y5")
    for bad in ("end", "play Y1", "canvas Y6"):
        before = g.fingerprint()
        with pytest.raises(IllegalActionError) as info:
            g.apply(bad)
        assert info.value.refusal.code is RefusalCode.WRONG_STEP
        assert g.fingerprint() == before


def test_r5_1_draw_decisions_refused_outside_draw_step() -> None:
    """R5.1: draw/decline are not offered at the start, after a play, or after a
    canvas that earned no draw."""
    g = canvas_only()
    for word in ("draw", "decline"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(word)
        assert info.value.refusal.code is RefusalCode.WRONG_STEP
    g.apply("canvas Y2")  # 2 is not > 3
    for word in ("draw", "decline"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(word)
        assert info.value.refusal.code is RefusalCode.WRONG_STEP


def test_r5_1_draw_is_a_choice_with_one_card_left() -> None:
    """R5.1: with a single deck card the draw takes it and leaves the deck empty."""
    g = canvas_only(deck="R1")
    g.apply("canvas Y4")
    g.apply("draw")
    assert "R1" in g.hand(0)
    assert g.deck() == []


def test_r5_1_canvas_still_needs_to_win_in_advanced_game() -> None:
    """R5.1 is 'always subject to R4.4': a losing canvas is refused even if it would draw.

    P0 palette G4 (1 card), hand O6 (6 > 1); P1 R5 O5. Orange: P1's pair of 5s wins."""
    g = make(["O6 Y1", "B1"], ["G4", "R5 O5"], deck=DECK)
    before = g.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        g.apply("canvas O6")
    assert info.value.refusal.code is RefusalCode.CANVAS_NOT_WINNING
    assert g.fingerprint() == before

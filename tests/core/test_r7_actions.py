"""The action cards (R7) and their edge cases, on hand-built positions.

Every expected list of decisions below was worked out by hand from docs/rules.md (the
reasoning is in each test's comments); none was copied from the engine's output.
Rule colours: canvas ``[]`` is the Red start card; otherwise the last canvas card's
colour is the rule. Card order (R1.2): value first, then R > O > Y > G > B > I > V.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from red7 import Card, Game, IllegalActionError, Step
from red7.core.events import CardDrawn, DrawReason
from red7.ui.words import move_log
from tests.support.helpers import settle

Seat = int | None


# --- helpers -------------------------------------------------------------------------


def position(hands: list[list[str]], palettes: list[list[str]], **kw: Any) -> Game:
    """A position with the action rules on unless told otherwise."""
    kw.setdefault("actions", True)
    return Game.from_position(hands, palettes, **kw)


def legal(g: Game) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def safe(g: Game) -> set[str]:
    return {str(a) for a in g.safe_actions()}


def viewers(g: Game) -> list[Seat]:
    """Every seat plus a spectator: public facts must look the same to all of them."""
    return [*range(g.players), None]


def assert_public(g: Game, field: str, expected: Any) -> None:
    for v in viewers(g):
        assert g.observation(v)[field] == expected, (field, v)


def assert_refused(g: Game, action: str) -> IllegalActionError:
    """``action`` raises IllegalActionError and leaves the game untouched."""
    before = g.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    assert g.fingerprint() == before
    return info.value


def play(g: Game, *actions: str) -> None:
    for a in actions:
        g.apply(a)


# --- R7.7 Seven ------------------------------------------------------------------------


def seven_position(advanced: bool = False, deck: list[str] | None = None) -> Game:
    """Rule Orange. P0 palette R2 G2 Y2 B5 (three 2s), hand I7 G3; P1 palette O6 V6.

    After ``play I7`` the palette is I7 B5 R2 G2 Y2 and the 7 must move another card:
      move R2 canvas -> Red: I7 beats O6, wins.
      move G2 canvas -> Green: R2 Y2 (2 evens, top R2) vs O6 V6 (2, top O6): loses.
      move Y2 canvas -> Yellow: I7 R2 G2 B5 all singles, top I7 vs O6: wins.
      move B5 canvas -> Blue: I R G Y = 4 colours vs 2: wins.
      move B5 deck   -> Orange: three 2s vs two 6s: wins (safe).
      move R2/G2/Y2 deck -> Orange: a pair of 2s loses to the pair of 6s, and G3
                        (Green: two 2s vs O6 V6) cannot fix it: unsafe.
    """
    return position(
        [["I7", "G3"], ["V3"]], [["R2", "G2", "Y2", "B5"], ["O6", "V6"]], canvas=["O1"], advanced=advanced, deck=deck
    )


def test_r7_7_seven_step_offers_moves_of_every_other_palette_card() -> None:
    """R7.7 + R4.4 + R4.7: the 'seven' step's decisions and their safe marks."""
    g = seven_position()
    g.apply("play I7")
    assert g.step_name == "seven"
    assert_public(g, "pending", "I7")
    assert legal(g) == {
        "move R2 canvas",
        "move Y2 canvas",
        "move B5 canvas",
        "move R2 deck",
        "move G2 deck",
        "move Y2 deck",
        "move B5 deck",
        "concede",
    }
    assert safe(g) == {"move R2 canvas", "move Y2 canvas", "move B5 canvas", "move B5 deck"}


@pytest.mark.parametrize("action", ["move I7 deck", "move I7 canvas", "move G2 canvas", "canvas G3", "end", "play G3"])
def test_r7_7_seven_step_refuses_moving_the_seven_losing_canvas_and_other_steps(action: str) -> None:
    """R7.7: never the 7 itself; R4.4: G2 to the canvas (Green) loses; the 7's action
    comes before anything else in the turn, so no hand canvas, end or play yet."""
    g = seven_position()
    g.apply("play I7")
    assert_refused(g, action)


def test_r7_7_hand_canvas_still_allowed_after_the_sevens_move() -> None:
    """R7.7 / R4.2.3: after 'move B5 canvas' (rule Blue, winning) the player may end
    or still canvas G3 (Green: R2 Y2 G2 = 3 evens vs 2: wins)."""
    g = seven_position()
    play(g, "play I7", "move B5 canvas")
    assert g.step_name == "after"
    assert g.observation(0)["rule"] == "blue"
    assert legal(g) == {"end", "canvas G3", "concede"}
    g.apply("canvas G3")
    assert g.current_player == 1 and g.step_name == "start"
    assert g.observation(None)["rule"] == "green"
    assert g.observation(None)["canvas"] == ["O1", "B5", "G3"]


def test_r7_7_move_to_canvas_never_triggers_advanced_draw_r5_1() -> None:
    """R7.7 / R5.1: B5 reaches the canvas by the 7 while the palette holds 4 cards
    (5 > 4): a hand canvas would earn the draw, the 7's move never does."""
    g = seven_position(advanced=True, deck=["I1", "I4"])
    play(g, "play I7", "move B5 canvas")
    assert g.step_name == "after"
    assert "draw" not in legal(g)
    assert g.hand(0) == ["G3"]
    assert_public(g, "deck_size", 2)
    assert g.palette(0) == ["I7", "R2", "Y2", "G2"]


def seven_canvas_fix_position(second: str) -> Game:
    """Rule Red. P0 palette B5 B2, hand V7 + ``second``; P1 palette R7 O1.

    After ``play V7`` (palette V7 B5 B2, losing to R7 under Red):
      move B5/B2 canvas -> Blue: V,B = 2 colours top V7 vs R,O = 2 top R7: loses.
      move B5 deck -> V7 B2; move B2 deck -> V7 B5; both lose under Red.
    With ``second`` = G3, Green fixes V7 B2 (B2 vs no even) but not V7 B5.
    With ``second`` = Y3, Yellow gives singles, top V7 < R7: nothing fixes anything.
    """
    return position([["V7", second], ["I4"]], [["B5", "B2"], ["R7", "O1"]])


def test_r7_7_deck_move_then_hand_canvas_is_the_only_way_out() -> None:
    """R7.7 + R7.x: the 7 is legal because 'move B5 deck' then 'canvas G3' wins."""
    g = seven_canvas_fix_position("G3")
    assert g.is_safe("play V7")
    g.apply("play V7")
    assert legal(g) == {"move B5 deck", "move B2 deck", "concede"}
    assert safe(g) == {"move B5 deck"}
    g.apply("move B5 deck")
    assert legal(g) == {"canvas G3", "concede"}
    g.apply("canvas G3")
    assert g.current_player == 1 and g.observation(None)["rule"] == "green"


def test_r7_x_seven_whose_every_continuation_loses_is_illegal() -> None:
    """R7.7 / R7.x: with Y3 instead of G3 no move of the 7 and no canvas after it
    wins, so 'play V7' is refused and the position is unchanged. Other decisions:
      play Y3 (deck empty: no draw) then canvas V7 -> Violet: Y3 B2 (2) vs O1: safe;
      canvas Y3 -> Yellow: B5 B2 two blues vs singles: wins;
      canvas V7 -> Violet: B2 vs O1: wins."""
    g = seven_canvas_fix_position("Y3")
    assert legal(g) == {"play Y3", "canvas Y3", "canvas V7", "concede"}
    err = assert_refused(g, "play V7")
    assert {str(a) for a in err.legal} == legal(g)
    assert g.palette(0) == ["B5", "B2"] and g.hand(0) == ["V7", "Y3"]


def test_r7_7_seven_alone_in_palette_has_nothing_to_move() -> None:
    """R7.7: the action needs *another* palette card; with none (palette emptied
    earlier, e.g. by a 1) nothing happens. Red: B7 > R6, so the turn may end; Y2
    (Yellow: B7 vs R6 singles) may still go to the canvas."""
    g = position([["B7", "Y2"], ["V1"]], [[], ["R6"]])
    g.apply("play B7")
    assert g.step_name == "after"
    assert legal(g) == {"end", "canvas Y2", "concede"}


# --- R7.z / R9: cards tucked on the deck are public -------------------------------------


def test_r7_z_seven_tucks_a_card_then_an_opponents_three_draws_exactly_it() -> None:
    """R7.7 + R7.z + R9 + R4.7: G2 moved to the deck is public; P1's 3 draws it, and
    because it is known, P1 may count on it (play Y3 is safe: then canvas G2 makes
    Green, O6 vs no even). Afterwards everyone sees G2 as P1's known hand card."""
    g = position([["R7", "B4"], ["Y3", "O5"]], [["G2"], ["O6"]], deck=["I1", "I2"])
    g.apply("play R7")
    # G2 to the canvas (Green) leaves R7 with no even card: refused (R4.4).
    assert legal(g) == {"move G2 deck", "concede"}
    g.apply("move G2 deck")
    assert_public(g, "deck_known_top", ["G2"])
    assert_public(g, "deck_size", 3)
    # Blue: R7 vs O6, one colour each, R7 higher.
    assert legal(g) == {"end", "canvas B4", "concede"}
    g.apply("end")

    assert g.current_player == 1
    # P1: Red R7 beats O6; canvas O5 (Orange) / Y3 (Yellow): singles, R7 wins.
    # play O5 then canvas Y3 -> Yellow: O6 O5 two oranges: safe.
    assert legal(g) == {"play Y3", "play O5", "concede"}
    assert safe(g) == {"play Y3", "play O5"}
    g.apply("play Y3")
    assert set(g.hand(1)) == {"O5", "G2"}
    assert_public(g, "known_hand_cards", [[], ["G2"]])
    assert_public(g, "deck_known_top", [])
    assert_public(g, "deck_size", 2)
    # R9: P0 learns G2 but never O5 nor the unknown deck.
    seen_by_p0 = json.dumps(g.observation(0))
    assert "O5" not in seen_by_p0 and "I1" not in seen_by_p0 and "I2" not in seen_by_p0
    assert legal(g) == {"canvas G2", "concede"}
    g.apply("canvas G2")
    assert_public(g, "known_hand_cards", [[], []])


def test_r7_z_seven_tuck_then_advanced_canvas_draw_draws_it() -> None:
    """R7.7 + R5.1 + R7.z: O7 tucks I2; then canvas Y6 (Yellow: O7 vs R5 wins;
    6 > 1 palette card) earns the draw, which is exactly I2, known to every seat."""
    g = position([["O7", "Y6"], ["V3"]], [["I2"], ["R5"]], deck=["V1", "V2"], advanced=True)
    g.apply("play O7")
    # I2 to canvas -> Indigo: O7 vs R5, runs of one, O7 higher: wins.
    assert legal(g) == {"move I2 canvas", "move I2 deck", "concede"}
    g.apply("move I2 deck")
    assert_public(g, "deck_known_top", ["I2"])
    assert legal(g) == {"end", "canvas Y6", "concede"}
    g.apply("canvas Y6")
    assert g.step_name == "draw"
    assert legal(g) == {"draw", "decline", "concede"}
    assert_public(g, "deck_known_top", ["I2"])
    g.apply("draw")
    assert g.hand(0) == ["I2"]
    assert_public(g, "known_hand_cards", [["I2"], []])
    assert_public(g, "deck_known_top", [])
    assert_public(g, "deck_size", 2)
    assert g.current_player == 1


def test_r7_z_known_cards_stack_on_the_deck_top_first() -> None:
    """R7.z / R9: a 7 tucks G2, then the opponent's 1 tucks R7 on top of it; both are
    public, top first; a 3 then draws R7 and leaves G2 known on top."""
    g = position([["R7", "B3", "Y4"], ["Y1", "I5"]], [["G2", "V5"], ["O6"]], deck=["V1", "V2"])
    play(g, "play R7", "move G2 deck", "end")
    assert_public(g, "deck_known_top", ["G2"])
    g.apply("play Y1")
    # P1's palette O6 Y1 has 2 cards; P0's R7 V5 has 2 (>= 2): eligible.
    # take R7 -> Red: O6 beats V5 (safe); take V5 -> R7 wins Red, and I5 (Indigo:
    # runs of one, R7 top) cannot fix it: unsafe.
    assert g.step_name == "one"
    assert legal(g) == {"take R7", "take V5", "concede"}
    assert safe(g) == {"take R7"}
    play(g, "take R7", "end")
    assert_public(g, "deck_known_top", ["R7", "G2"])
    assert_public(g, "deck_size", 4)
    assert_public(g, "palettes", [["V5"], ["O6", "Y1"]])
    g.apply("play B3")
    assert set(g.hand(0)) == {"R7", "Y4"}
    assert_public(g, "known_hand_cards", [["R7"], []])
    assert_public(g, "deck_known_top", ["G2"])
    assert_public(g, "deck_size", 3)


# --- R7.5 Five ---------------------------------------------------------------------------


def test_r7_5_five_requires_one_more_play_then_canvas_still_allowed() -> None:
    """R7.5 + R4.7. Rule Red; P0 palette G4, hand B5 O4 Y6 G1; P1 palette R6 I6.
    After B5 (palette B5 G4) one more card must be played:
      O4 -> B5 G4 O4: Y6 (Yellow: singles, B5 < R6) and G1 (Green: G4 O4 vs R6 I6,
            two each, R6 higher) fail: unsafe.
      Y6 -> Red R6 > Y6; O4 (Orange: singles vs pair of 6s), G1 (Green: Y6 G4 vs
            R6 I6) fail: unsafe.
      G1 -> a 1 with no victim (P1 has 2 < 3 cards); Y6 -> Yellow: G4 G1 two greens
            vs singles: safe.
    No canvas, no end in the 'five' step."""
    g = position([["B5", "O4", "Y6", "G1"], ["V3"]], [["G4"], ["R6", "I6"]])
    assert g.is_safe("play B5")
    g.apply("play B5")
    assert g.step_name == "five"
    assert legal(g) == {"play O4", "play Y6", "play G1", "concede"}
    assert safe(g) == {"play G1"}
    assert_refused(g, "canvas Y6")
    g.apply("play G1")
    assert g.step_name == "after"
    assert legal(g) == {"canvas Y6", "concede"}
    g.apply("canvas Y6")
    assert g.current_player == 1 and g.observation(None)["rule"] == "yellow"
    assert g.palette(0) == ["B5", "G4", "G1"]


def test_r7_5_chain_five_five_three_draws() -> None:
    """R7.5 chains + R7.3: B5 -> R5 -> I3, the 3 draws the top card Y7 (unknown, so
    private: no seat but P0 sees it). Red: R5 beats V2 throughout."""
    g = position([["B5", "R5", "I3"], ["O2"]], [["G4"], ["V2"]], deck=["Y7", "O1"])
    g.apply("play B5")
    assert g.step_name == "five"
    assert legal(g) == {"play R5", "play I3", "concede"}
    assert safe(g) == {"play R5", "play I3"}
    g.apply("play R5")
    assert g.step_name == "five"
    assert legal(g) == {"play I3", "concede"}
    g.apply("play I3")
    assert g.step_name == "after"
    assert g.hand(0) == ["Y7"]
    assert_public(g, "deck_size", 1)
    assert_public(g, "known_hand_cards", [[], []])
    assert_public(g, "deck_known_top", [])
    assert "Y7" not in json.dumps(g.observation(1))
    # Yellow: R5 B5 I3 G4 all singles, R5 tops V2.
    assert legal(g) == {"end", "canvas Y7", "concede"}


def test_r7_5_five_then_seven_resolves_the_sevens_action() -> None:
    """R7.5: the follow-up's action is carried out too. B5 then V7 (palette V7 B5 G4,
    Red: V7 > R6): B5 to canvas -> Blue: V,G vs R: wins; G4 to canvas -> Green: no
    even card: refused; either to the deck keeps V7 on top: safe."""
    g = position([["B5", "V7"], ["O2"]], [["G4"], ["R6"]])
    g.apply("play B5")
    assert legal(g) == {"play V7", "concede"}
    g.apply("play V7")
    assert g.step_name == "seven"
    assert_public(g, "pending", "V7")
    assert legal(g) == {"move B5 canvas", "move B5 deck", "move G4 deck", "concede"}
    assert safe(g) == {"move B5 canvas", "move B5 deck", "move G4 deck"}


def test_r7_5_five_with_empty_hand_does_nothing() -> None:
    """R7.5: with no card left in hand the 5's action is skipped (step 'after')."""
    g = position([["B5"], ["O2"]], [["G4"], ["V2"]])
    g.apply("play B5")
    assert g.step_name == "after"
    assert legal(g) == {"end", "concede"}


def test_r7_y_five_whose_only_follow_ups_are_forbidden_does_nothing() -> None:
    """R7.y + R7.x. Rule Red; P0 palette V4, hand B5 V7 I1; P1 palette R7 O6 Y3 R3.
    After B5 (palette B5 V4):
      V7 -> V7 B5 V4: B5 to canvas (Blue: 1 colour vs 3), V4 to canvas (Violet: 0),
            either to the deck then I1 (Indigo: run of 1 vs 6-7): all lose -> forbidden.
      I1 -> 3 cards vs P1's 4: victims; every take still loses Red to O6/R7 and
            Violet (V7 canvas: I1 vs Y3 or R3): forbidden.
    So the 5 does nothing; Red is lost, and V7 (Violet: none) / I1 (Indigo: 4-5 vs
    6-7, R7 higher) cannot fix it: only concede remains. At the start, V7 and I1
    are illegal for the same reasons and no canvas wins."""
    g = position([["B5", "V7", "I1"], ["G1"]], [["V4"], ["R7", "O6", "Y3", "R3"]])
    assert legal(g) == {"play B5", "concede"}
    assert safe(g) == set()
    g.apply("play B5")
    assert g.step_name == "after"
    assert set(g.hand(0)) == {"V7", "I1"}
    assert legal(g) == {"concede"}


@pytest.mark.parametrize("known", [0, 1])
def test_r4_7_five_chain_counts_a_threes_draw_only_when_known(known: int) -> None:
    """R4.7 + R7.5 + R7.3: B5 forces I3 (palette I3 B5 G4, losing Red to R6); only the
    draw I2 could help (Indigo: run 3-4-5 vs one card). 'play B5' is safe only if the
    top card is public. 'play I3' is safe anyway (canvas B5 -> Blue: I,G vs R)."""
    g = position([["B5", "I3"], ["O2"]], [["G4"], ["R6"]], deck=["I2", "V1"], deck_known=known)
    assert legal(g) == {"play B5", "play I3", "concede"}
    assert safe(g) == ({"play B5", "play I3"} if known else {"play I3"})
    play(g, "play B5", "play I3")
    assert g.hand(0) == ["I2"]
    assert legal(g) == {"canvas I2", "concede"}


def test_r4_1_hand_emptied_by_a_five_chain_eliminates_at_next_turn_start() -> None:
    """R4.1 + R7.5: P0 empties their hand with B5 -> Y2 and ends winning (Red: B5);
    P1 (R6) and P2 (canvas O2: pair of 1s under Orange) take their turns; when P0's
    turn comes their hand is empty: they are out and P1 plays."""
    g = position([["B5", "Y2"], ["R6", "V4"], ["O2", "Y3"]], [["G4"], ["I3"], ["V1", "I1"]])
    g.apply("play B5")
    assert legal(g) == {"play Y2", "concede"}
    play(g, "play Y2")
    assert g.hand(0) == []
    assert legal(g) == {"end", "concede"}
    play(g, "end")
    assert g.observation(None)["alive"] == [True, True, True]
    play(g, "play R6", "end", "canvas O2")
    assert not g.is_over
    assert g.current_player == 1 and g.step_name == "start"
    assert_public(g, "alive", [False, True, True])
    assert_public(g, "palettes", [[], ["R6", "I3"], ["I1", "V1"]])


# --- R7.3 Three -------------------------------------------------------------------------


def test_r7_3_three_draws_the_top_card_privately() -> None:
    """R7.3 + R9: B3 draws O5 (top); an unknown draw stays private."""
    g = position([["B3"], ["O2"]], [["G4"], ["V2"]], deck=["O5", "I6"])
    g.apply("play B3")
    assert g.step_name == "after"
    assert g.hand(0) == ["O5"]
    assert_public(g, "deck_size", 1)
    assert_public(g, "known_hand_cards", [[], []])
    assert "O5" not in json.dumps(g.observation(1))
    # Red: G4 > V2; Orange: singles, G4 > V2.
    assert legal(g) == {"end", "canvas O5", "concede"}


def test_r7_3_the_draw_event_says_it_is_the_threes_action_to_every_viewer() -> None:
    """R7.3 / R9: the 3's draw carries its reason in the event itself, so a log that
    begins at the draw (no 3 played before it in view) still tells it from a canvas
    draw; the card stays the drawer's."""
    g = position([["B3"], ["O2"]], [["G4"], ["V2"]], deck=["O5", "I6"])
    drawn = g.apply("play B3")[-1]
    assert drawn == CardDrawn(0, Card.parse("O5"), False, DrawReason.THREE)
    assert g.events_for(1, len(g.events) - 1) == [CardDrawn(0, None, False, DrawReason.THREE)]
    assert move_log(g.events_for(1, len(g.events) - 1), ["Ana", "Bia"], 1) == ["Ana: drew a card (the 3's action)"]


def test_r7_3_three_with_empty_deck_draws_nothing() -> None:
    """R7.3: nothing to draw. Red: G4 > V2 so the turn may end; canvas Y2 (Yellow:
    singles, G4 top) also wins."""
    g = position([["B3", "Y2"], ["O1"]], [["G4"], ["V2"]], deck=[])
    g.apply("play B3")
    assert g.step_name == "after"
    assert g.hand(0) == ["Y2"]
    assert_public(g, "deck_size", 0)
    assert legal(g) == {"end", "canvas Y2", "concede"}


@pytest.mark.parametrize("known", [0, 1])
def test_r4_7_three_is_legal_but_safe_only_with_a_known_useful_top(known: int) -> None:
    """R7.3 + R4.7 + R7.z. Red; P0 palette G4, hand B3 Y2; P1 palette R6.
    play B3 -> G4 B3 loses Red; Y2 (Yellow: G4 < R6) cannot fix it; only the drawn I5
    would (Indigo: run 3-4 vs 1). Unknown: legal but unsafe. Known: safe.
    play Y2 then canvas B3 -> Blue: G,Y vs R: safe. No canvas wins at the start."""
    g = position([["B3", "Y2"], ["O1"]], [["G4"], ["R6"]], deck=["I5", "V1"], deck_known=known)
    assert legal(g) == {"play B3", "play Y2", "concede"}
    assert safe(g) == ({"play B3", "play Y2"} if known else {"play Y2"})
    g.apply("play B3")
    assert set(g.hand(0)) == {"I5", "Y2"}
    assert_public(g, "known_hand_cards", [["I5"] if known else [], []])
    assert legal(g) == {"canvas I5", "concede"}


# --- R7.1 One ----------------------------------------------------------------------------


def one_position(second: str, current: int = 0) -> Game:
    """3 players, Red. P0 palette G4, hand B1 + ``second``; P1 palette R6 O2;
    P2 palette Y5 (or Y5 Y4 Y3 when P2 is the one to move and will concede)."""
    p2 = ["Y5", "Y4", "Y3"] if current == 2 else ["Y5"]
    return position([["B1", second], ["V5"], ["V6"]], [["G4"], ["R6", "O2"], p2], current=current)


def test_r7_1_victims_have_at_least_as_many_palette_cards_and_the_card_goes_on_deck() -> None:
    """R7.1 + R7.z. After B1, P0 has 2 cards (the 1 counts): P1 (2) is eligible,
    P2 (1) is not. take R6 -> P1 keeps O2; canvas G6 -> Green: G4 > O2: safe.
    take O2 -> P1 keeps R6, which tops G4 under Red and Green: unsafe.
    At the start: G6 (Red: R6 > G6; B1 Blue: 2 colours vs R,O with R6) is unsafe and
    no canvas wins (Blue 1 colour vs 2; Green 1 even vs 2)."""
    g = one_position("G6")
    assert legal(g) == {"play B1", "play G6", "concede"}
    assert safe(g) == {"play B1"}
    g.apply("play B1")
    assert g.step_name == "one"
    assert legal(g) == {"take R6", "take O2", "concede"}
    assert safe(g) == {"take R6"}
    assert_refused(g, "take Y5")
    assert_refused(g, "take G4")
    g.apply("take R6")
    assert g.step_name == "after"
    assert_public(g, "palettes", [["G4", "B1"], ["O2"], ["Y5"]])
    assert_public(g, "deck_known_top", ["R6"])
    assert_public(g, "deck_size", 1)
    # Red: Y5 tops G4; Green: G4 > O2, P2 has none.
    assert legal(g) == {"canvas G6", "concede"}


def test_r7_1_own_palette_counts_the_one() -> None:
    """R7.1: P0 palette G4 V2 + B1 = 3 cards; P1 has 2 < 3: no victim, nothing happens.
    Red G4 < R6 and Y6 (Yellow: singles, R6 top) cannot fix it."""
    g = position([["B1", "Y6"], ["V5"]], [["G4", "V2"], ["R6", "O2"]])
    g.apply("play B1")
    assert g.step_name == "after"
    assert_public(g, "palettes", [["G4", "V2", "B1"], ["R6", "O2"]])
    assert_public(g, "deck_known_top", [])
    assert legal(g) == {"concede"}


def test_r7_1_one_without_victim_is_legal_even_if_it_loses() -> None:
    """R7.1 / R7.x (engine decision after the seeds): P0 palette G4 + B1 = 2 > P1's 1,
    so the 1 takes nothing and is as free as any play, although it loses (Red: R6;
    Y2 Yellow: G4 < R6). play Y2 then canvas B1 -> Blue: G,Y vs R: safe."""
    g = position([["B1", "Y2"], ["O1"]], [["G4"], ["R6"]])
    assert legal(g) == {"play B1", "play Y2", "concede"}
    assert safe(g) == {"play Y2"}
    g.apply("play B1")
    assert g.step_name == "after"
    assert legal(g) == {"concede"}


def test_r7_x_one_whose_every_take_loses_is_illegal() -> None:
    """R7.1 / R7.x: with Y6 instead of G6, after B1 take R6 leaves Y5 on top under Red
    and Yellow (Y6 canvas: G4 single vs Y5); take O2 leaves R6 on top: the 1 may not
    be played. play Y6 (Red R6 > Y6; Blue via B1: 2 colours with Y6 vs 2 with R6) is
    legal but unsafe; no canvas wins at the start."""
    g = one_position("Y6")
    assert legal(g) == {"play Y6", "concede"}
    assert safe(g) == set()
    err = assert_refused(g, "play B1")
    assert {str(a) for a in err.legal} == {"play Y6", "concede"}


def test_r7_1_eliminated_players_are_never_victims() -> None:
    """R7.1 + R6.1: P2 (palette Y5 Y4 Y3, 3 cards >= 2) concedes; on P0's turn the 1
    may take only from P1."""
    g = one_position("G6", current=2)
    g.apply("concede")
    assert g.current_player == 0
    assert_public(g, "alive", [True, True, False])
    g.apply("play B1")
    assert legal(g) == {"take R6", "take O2", "concede"}
    for card in ("Y5", "Y4", "Y3"):
        assert_refused(g, f"take {card}")


# --- cards reaching the canvas; actions off; the advanced draw -------------------------


@pytest.mark.parametrize("card", ["B1", "B3", "B5", "B7"])
def test_r7_cards_reaching_the_canvas_trigger_nothing(card: str) -> None:
    """R7 (preamble): a 1/3/5/7 put on the canvas has no action. Canvas Bx -> Blue:
    G,Y vs R: wins; the turn simply passes (no take, draw, extra play or move)."""
    g = position([[card, "I2"], ["O1"]], [["G4", "Y2"], ["R6"]], deck=["O3", "O4"])
    assert f"canvas {card}" in legal(g)
    g.apply(f"canvas {card}")
    assert g.current_player == 1 and g.step_name == "start"
    assert g.hand(0) == ["I2"]
    assert_public(g, "palettes", [["G4", "Y2"], ["R6"]])
    assert_public(g, "deck_size", 2)
    assert_public(g, "deck_known_top", [])
    assert_public(g, "canvas", [card])


@pytest.mark.parametrize(
    ("card", "step_on", "hand_on"),
    [("B7", "seven", {"I2"}), ("B5", "five", {"I2"}), ("B3", "after", {"I2", "O3"}), ("B1", "one", {"I2"})],
)
def test_r7_actions_only_with_the_action_rules(card: str, step_on: str, hand_on: set[str]) -> None:
    """R7 is optional: with actions off, a 7/5/3/1 played is a plain card (step
    'after', nothing drawn); with actions on, each resolves its action. Red; P0 G4,
    P1 R6 O2 Y2 (3 cards, so a 1 has a victim; B7 then G4 to deck wins Red; B1 then
    take R6 leaves O2 < G4)."""
    hands, palettes = [[card, "I2"], ["V1"]], [["G4"], ["R6", "O2", "Y2"]]
    off = position(hands, palettes, deck=["O3"], actions=False)
    off.apply(f"play {card}")
    assert off.step_name == "after"
    assert set(off.hand(0)) == {"I2"}
    assert_public(off, "deck_size", 1)
    on = position(hands, palettes, deck=["O3"])
    on.apply(f"play {card}")
    assert on.step_name == step_on
    assert set(on.hand(0)) == hand_on


@pytest.mark.parametrize("deck", [[], ["O3"]])
def test_r5_1_canvas_draw_needs_a_non_empty_deck(deck: list[str]) -> None:
    """R5.1: canvas B6 (Blue: G,Y vs R wins; 6 > 2 palette cards) earns the draw only
    if the deck has a card; with an empty deck the turn just ends."""
    g = position([["B6", "I1"], ["O1"]], [["G4", "Y2"], ["R6"]], deck=deck, advanced=True)
    g.apply("canvas B6")
    if deck:
        assert g.step_name == "draw" and g.current_player == 0
        assert legal(g) == {"draw", "decline", "concede"}
    else:
        assert g.current_player == 1 and g.step_name == "start"
        assert g.hand(0) == ["I1"]


def test_explicit_chance_decides_exactly_the_draws_of_unknown_cards() -> None:
    """R7.3 / R5.1 / R7.z: with explicit chance, a decision stops at a DRAWING chance
    node exactly when it draws a card nobody knows, over every legal decision of many
    random positions: there the deck's unknown part is not empty and chance's card goes
    privately to the mover; a decision that is no chance node draws nothing, or draws
    the public top card in front of everyone."""
    rng = random.Random(3)
    checked = {True: 0, False: 0}
    for seed in range(60):
        game = Game(3, advanced=seed % 2 == 0, actions=True, seed=seed, explicit_chance=True)
        settle(game, rng)
        while not game.is_over:
            before = game.observe(None)
            mover = game.current_player
            assert mover is not None
            for a in game.legal_ids():
                trial = game.clone()
                trial.apply_id(a)
                drew_unknown = trial.step is Step.DRAWING
                if drew_unknown:
                    assert before.deck_size > len(before.deck_known_top)
                    card = rng.choice(trial.chance_outcomes())
                    trial.apply_chance(card)
                    if trial.round != game.round:
                        continue  # the draw ended the turn, and the turn the round
                    assert str(card) in trial.hand(mover)
                    assert not trial.observe(None).known_hand_cards[mover] >> card & 1
                    assert trial.observe(None).deck_size == before.deck_size - 1
                elif trial.round != game.round or trial.is_chance_node:
                    continue  # the decision ended the round and a new deal began
                elif trial.observe(None).deck_size < before.deck_size:
                    top = before.deck_known_top[0]  # a draw without chance: the public top card
                    assert trial.observe(None).known_hand_cards[mover] >> top & 1
                    assert str(Card(top)) in trial.hand(mover)
                checked[drew_unknown] += 1
            game.apply_id(rng.choice(game.safe_ids() or game.legal_ids()))
            settle(game, rng)
    assert checked[True] > 50 and checked[False] > 1000

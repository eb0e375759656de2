"""R4: a turn (the four options, end, canvas legality, safe marks, illegal input, turn order).

Every expected answer below was worked out by hand from docs/rules.md. Card order (R1.2):
value first, then colour R > O > Y > G > B > I > V. All games are basic with the
action rules off unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from red7 import ActionError, Game, IllegalActionError, RefusalCode
from red7.core.cards import RED, VIOLET, YELLOW
from tests.support.helpers import canvas, make

# --- helpers ---------------------------------------------------------------------------


def legal(g: Game) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def safe(g: Game) -> list[str]:
    return sorted(str(a) for a in g.safe_actions())


def refused(g: Game, action: str | int) -> IllegalActionError:
    """Apply ``action``, expect IllegalActionError, and check that nothing changed and
    that the error carries the refusal ``check`` gives for the same decision."""
    before = g.fingerprint()
    legal_before = legal(g)
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    assert g.fingerprint() == before
    assert legal(g) == legal_before
    assert g.check(action) == info.value.refusal
    assert info.value.reason == info.value.refusal.message
    return info.value


def unreadable(g: Game, action: str | int) -> ActionError:
    """Apply ``action``, expect ActionError (no decision at all), and check that nothing
    changed and that ``check`` cannot read it either."""
    before = g.fingerprint()
    legal_before = legal(g)
    with pytest.raises(ActionError) as info:
        g.apply(action)
    assert g.fingerprint() == before
    assert legal(g) == legal_before
    with pytest.raises(ActionError):
        g.check(action)
    return info.value


def position_b() -> Game:
    """Rule Red. P0 palette G4 G2 (losing to R5), hand Y6 O3 V7; P1 palette R5, hand B1.

    Start: canvas Y6 -> Yellow: green pair (2) beats 1 card: wins.
           canvas V7 -> Violet: G2 (1) against nothing: wins.
           canvas O3 -> Orange: single G4 against single R5: loses.
    """
    return make(["Y6 O3 V7", "B1"], ["G4 G2", "R5"])


def position_c() -> Game:
    """Rule Red. P0 palette G4 G2, hand Y6 O1; P1 palette R5 O5 (a pair of 5s), hand B1.

    Orange is always lost by P0 (singles against the pair of 5s); Yellow is won
    (green pair against single colours); after playing Y6, P0 wins under Red.
    """
    return make(["Y6 O1", "B1"], ["G4 G2", "R5 O5"])


def position_d() -> Game:
    """Rule Red. P0 palette G4, hand V2 I3; P1 palette R5, hand B1.

    Play V2: Red lost (G4 < R5); canvas I3 -> Indigo: 2 and 4 are no run, best single
    run holds G4 < R5: lost. Nothing rescues it.
    Play I3: Red lost; canvas V2 -> Violet: I3 (1 card) against none: won.
    """
    return make(["V2 I3", "B1"], ["G4", "R5"])


# --- R4.1: empty hand at the start of a turn ------------------------------------------


def test_r4_1_next_player_with_empty_hand_is_eliminated_and_turn_moves_on() -> None:
    """R4.1 / R2.4: P0 plays and ends; P1 starts with no cards, is out; P2 takes the turn."""
    g = make(["G6 V2", "", "Y2"], ["B5", "R4", "O3"])
    g.apply("play G6")  # Red: G6 beats R4 and O3
    g.apply("end")
    assert g.alive == (True, False, True)
    assert g.current_player == 2
    assert g.step_name == "start"
    assert g.palette(1) == []
    assert not g.is_over


def test_r4_1_empty_hand_elimination_ends_a_two_player_round() -> None:
    """R4.1 / R6.2: the opponent's empty hand eliminates them; the mover wins the round."""
    g = make(["G6 V2", ""], ["B5", "R4"])
    g.apply("play G6")
    g.apply("end")
    assert g.is_over
    assert g.result is not None and g.result.winners == (0,)
    assert g.alive == (True, False)


def test_r4_1_empty_hand_is_eliminated_even_while_winning() -> None:
    """R4.1: P0 holds R7 (winning under Red) but starts its turn with no hand: out."""
    g = make(["", "B2"], ["R7", "V1"])
    assert g.is_over
    assert g.alive == (False, True)
    assert g.result is not None and g.result.winners == (1,)


def test_r4_1_empty_hands_eliminated_in_a_chain() -> None:
    """R4.1: P1 and P2 both start with empty hands; both go out, P0 wins the round."""
    g = make(["G6", "", ""], ["B5", "R4", "O3"])
    g.apply("play G6")
    g.apply("end")
    assert g.alive == (True, False, False)
    assert g.is_over
    assert g.result is not None and g.result.winners == (0,)


def test_r4_1_current_seat_with_empty_hand_passes_to_next_in_three_players() -> None:
    """R4.1: a position whose mover has no cards eliminates it at once; seat 1 moves."""
    g = make(["", "Y3", "B1"], ["R7", "V1", "I1"])
    assert g.alive == (False, True, True)
    assert g.current_player == 1
    assert g.step_name == "start"


# --- R4.2: the four options, exact decision lists -----------------------------------------


def test_r4_2_legal_decisions_at_turn_start() -> None:
    """R4.2 / R4.4: every hand card may be played; canvas only Y6 and V7; concede."""
    g = position_b()
    assert legal(g) == sorted(["play O3", "play Y6", "play V7", "canvas Y6", "canvas V7", "concede"])


def test_r4_2_legal_decisions_after_a_winning_play() -> None:
    """R4.2 / R4.6: after Y6 (wins Red) P0 may end, canvas O3 (Orange: Y6 single beats R5)
    or V7 (Violet: G2 against nothing), or concede."""
    g = position_b()
    g.apply("play Y6")
    assert g.step_name == "after"
    assert legal(g) == sorted(["canvas O3", "canvas V7", "end", "concede"])


def test_r4_2_legal_decisions_after_a_losing_play() -> None:
    """R4.2 / R4.6: after O3 P0 still loses Red: no end; Y6 (Yellow) or V7 (Violet: G2 O3) fix it."""
    g = position_b()
    g.apply("play O3")
    assert legal(g) == sorted(["canvas Y6", "canvas V7", "concede"])


def test_r4_2_legal_decisions_after_a_winning_seven() -> None:
    """R4.2: after V7 (wins Red) every remaining hand card is a winning canvas."""
    g = position_b()
    g.apply("play V7")
    # Yellow: green pair; Orange: singles, V7 top beats R5.
    assert legal(g) == sorted(["canvas O3", "canvas Y6", "end", "concede"])


def test_r4_2_three_players_canvas_must_beat_every_other_player() -> None:
    """R4.2 / R4.4 / R3.1 with 3 players. P0 G4 G2; P1 R5; P2 Y1 Y5. Yellow: P2's yellow
    pair (top Y5) beats P0's green pair (top G4); Orange: R5 on top; Violet: G2 > Y1."""
    g = make(["Y6 V7 O3", "B1", "I1"], ["G4 G2", "R5", "Y1 Y5"])
    assert legal(g) == sorted(["play O3", "play Y6", "play V7", "canvas V7", "concede"])
    err = refused(g, "canvas Y6")
    assert "R4.4" in str(err)
    assert err.refusal.code is RefusalCode.CANVAS_NOT_WINNING


def test_r4_2_option_1_play_then_end() -> None:
    """R4.2 option 1: the card goes to the palette, the rule stays, the turn passes."""
    g = position_b()
    g.apply("play Y6")
    g.apply("end")
    assert g.palette(0) == ["Y6", "G4", "G2"]
    assert sorted(g.hand(0)) == ["O3", "V7"]
    assert canvas(g) == [] and g.rule == RED
    assert g.current_player == 1 and g.step_name == "start"


def test_r4_2_option_2_canvas_alone() -> None:
    """R4.2 option 2: the card goes onto the canvas, its colour is the rule, the turn passes."""
    g = position_b()
    g.apply("canvas V7")
    assert g.palette(0) == ["G4", "G2"]
    assert sorted(g.hand(0)) == ["O3", "Y6"]
    assert canvas(g) == ["V7"]
    assert g.rule == VIOLET
    assert g.current_player == 1 and g.step_name == "start"
    assert g.alive == (True, True)


def test_r4_2_option_3_play_then_canvas() -> None:
    """R4.2 option 3: play O3 (still losing Red), then canvas Y6 (Yellow won): turn passes."""
    g = position_b()
    g.apply("play O3")
    g.apply("canvas Y6")
    assert g.palette(0) == ["G4", "O3", "G2"]
    assert g.hand(0) == ["V7"]
    assert canvas(g) == ["Y6"] and g.rule == YELLOW
    assert g.current_player == 1 and g.alive == (True, True)


def test_r4_2_only_one_play_per_turn() -> None:
    """R4.2: after a play, another play is not one of the options."""
    g = position_b()
    g.apply("play Y6")
    err = refused(g, "play V7")
    assert err.refusal.code is RefusalCode.WRONG_STEP


def test_r4_2_option_4_concede_eliminates() -> None:
    """R4.2 option 4: conceding at the start eliminates the mover (2 players: P1 wins)."""
    g = position_b()
    g.apply("concede")
    assert g.alive == (False, True)
    assert g.is_over and g.result is not None and g.result.winners == (1,)


def test_r4_2_concede_legal_at_start_and_after_steps() -> None:
    """R4.2.4: concede is always allowed, whether the mover is winning or not."""
    g = position_b()
    assert "concede" in legal(g)
    won = g.clone()
    won.apply("play Y6")
    assert "concede" in legal(won)
    lost = g.clone()
    lost.apply("play O3")
    assert "concede" in legal(lost)


def test_r4_2_concede_legal_in_advanced_draw_step() -> None:
    """R4.2.4 / R5.1: concede is offered at the draw step too."""
    g = make(["Y6 O3 V7", "B1"], ["G4 G2", "R5"], deck="R1 R2", advanced=True)
    g.apply("canvas V7")  # 7 > 2 palette cards
    assert g.step_name == "draw"
    assert "concede" in legal(g)


def test_r4_2_concede_legal_during_card_actions() -> None:
    """R4.2.4 (with R7 actions on): concede is offered while resolving a 5, a 7 and a 1.

    Rule Red; P0 G4, hand R7 O5 Y1 B2; P1 R5 O2. The 7 is legal (R7 wins Red); the 1 is
    legal (P1's palette has 2 >= 2 cards; taking R5 leaves G4 winning Red)."""
    base = make(["R7 O5 Y1 B2", "I2"], ["G4", "R5 O2"], actions=True)
    for card, step in (("O5", "five"), ("R7", "seven"), ("Y1", "one")):
        g = base.clone()
        g.apply(f"play {card}")
        assert g.step_name == step
        assert "concede" in legal(g)
        g.apply("concede")
        assert g.alive == (False, True)


# --- R4.3 / R4.6: end only while winning ---------------------------------------------------


def test_r4_6_end_refused_while_losing() -> None:
    """R4.3 / R4.6: after I3 P0 still loses under Red: 'end' is not offered and is refused."""
    g = position_d()
    g.apply("play I3")
    assert "end" not in legal(g)
    err = refused(g, "end")
    assert "R4.6" in str(err)
    assert err.refusal.code is RefusalCode.NOT_WINNING


def test_r4_6_end_offered_when_winning() -> None:
    """R4.6: after C's Y6 (Y6 beats R5 under Red) end is offered; ending keeps P0 in."""
    g = position_c()
    g.apply("play Y6")
    assert "end" in legal(g)
    g.apply("end")
    assert g.alive == (True, True) and g.current_player == 1


def test_r4_6_end_is_not_a_start_decision() -> None:
    """R4.6: 'end' belongs to the step after a play, never to the turn start."""
    g = make(["V1", "B1"], ["R7", "R5"])  # P0 is winning, but has not played
    assert "end" not in legal(g)
    assert refused(g, "end").refusal.code is RefusalCode.WRONG_STEP


# --- R4.4: canvas only when winning right after it lands -----------------------------------


def test_r4_4_losing_canvas_refused_at_turn_start() -> None:
    """R4.4: C at start: canvas O1 -> Orange, P1's pair of 5s wins: refused, reason named."""
    g = position_c()
    assert legal(g) == sorted(["play O1", "play Y6", "canvas Y6", "concede"])
    err = refused(g, "canvas O1")
    assert "R4.4" in str(err) and "O1" in str(err)
    assert "winning" in err.reason
    assert err.refusal.code is RefusalCode.CANVAS_NOT_WINNING and str(err.refusal.card) == "O1"


def test_r4_4_canvas_that_turns_a_win_into_a_loss_refused_after_play() -> None:
    """R4.4: after Y6 P0 wins Red, but canvas O1 makes Orange where P1's 5s win: refused."""
    g = position_c()
    g.apply("play Y6")
    assert legal(g) == sorted(["end", "concede"])
    err = refused(g, "canvas O1")
    assert "R4.4" in str(err)
    assert err.refusal.code is RefusalCode.CANVAS_NOT_WINNING
    assert g.rule == RED and canvas(g) == []


def test_r4_4_canvas_refused_when_rule_leaves_empty_qualifying_set() -> None:
    """R4.4 / R3.2: D at start: canvas V2 -> Violet, P0 (G4) has no card below 4: refused."""
    g = position_d()
    assert refused(g, "canvas V2").refusal.code is RefusalCode.CANVAS_NOT_WINNING
    assert refused(g, "canvas I3").refusal.code is RefusalCode.CANVAS_NOT_WINNING  # Indigo: G4 vs R5


# --- R4.5 / R4.7: plays that lose, safe marks ----------------------------------------------


def test_r4_5_losing_play_is_legal_but_then_only_concede() -> None:
    """R4.5: playing V2 is legal; afterwards no canvas wins, so concede is all that is left."""
    g = position_d()
    assert legal(g) == sorted(["play V2", "play I3", "concede"])
    g.apply("play V2")
    assert legal(g) == ["concede"]
    assert safe(g) == []
    g.apply("concede")
    assert g.is_over and g.result is not None and g.result.winners == (1,)


def test_r4_7_safe_marks_rescued_play_vs_doomed_play() -> None:
    """R4.7: play I3 is safe (canvas V2 rescues it), play V2 is not, concede never is."""
    g = position_d()
    assert safe(g) == ["play I3"]
    assert g.is_safe("play I3") is True
    assert g.is_safe("play V2") is False
    assert g.is_safe("concede") is False


def test_r4_7_rescued_play_then_rescue() -> None:
    """R4.7: after I3 the rescue canvas V2 is offered and safe; taking it keeps P0 in."""
    g = position_d()
    g.apply("play I3")
    assert legal(g) == sorted(["canvas V2", "concede"])
    assert safe(g) == ["canvas V2"]
    g.apply("canvas V2")
    assert g.alive == (True, True) and g.current_player == 1
    assert g.rule == VIOLET


def test_r4_7_safe_marks_position_b() -> None:
    """R4.7: in B every play can finish winning (O3 via canvas, Y6/V7 by themselves)."""
    g = position_b()
    assert safe(g) == sorted(["play O3", "play Y6", "play V7", "canvas Y6", "canvas V7"])
    g.apply("play Y6")
    assert safe(g) == sorted(["canvas O3", "canvas V7", "end"])


def test_r4_7_is_safe_on_illegal_decision_raises() -> None:
    """R4.7: is_safe only answers for legal decisions."""
    g = position_d()
    with pytest.raises(IllegalActionError):
        g.is_safe("canvas V2")
    with pytest.raises(ActionError):
        g.is_safe("nonsense")


# --- illegal input ---------------------------------------------------------------------------


def test_r4_2_card_not_in_hand_refused() -> None:
    """R4.2: only hand cards may be played or put on the canvas."""
    g = position_d()
    err = refused(g, "play R7")
    assert "R7 is not in your hand" in str(err)
    assert err.refusal.code is RefusalCode.NOT_IN_HAND
    assert refused(g, "play G4").refusal.code is RefusalCode.NOT_IN_HAND  # a palette card
    assert refused(g, "canvas B1").refusal.code is RefusalCode.NOT_IN_HAND  # the opponent's card


@pytest.mark.parametrize("word", ["draw", "decline"])
def test_r5_1_draw_decisions_do_not_exist_in_basic_game(word: str) -> None:
    """R4.2 / R5.1: the canvas draw is advanced-only: 'draw'/'decline' are refused."""
    g = position_b()
    assert refused(g, word).refusal.code is RefusalCode.WRONG_STEP
    g.apply("play O3")
    assert refused(g, word).refusal.code is RefusalCode.WRONG_STEP


@pytest.mark.parametrize("text", ["", "foo", "play", "play Z9", "play R8", "canvas", "end now", "concede R7"])
def test_r4_2_garbage_text_raises_action_error(text: str) -> None:
    """R4.2: unreadable decisions raise ActionError (a ValueError) and change nothing."""
    g = position_b()
    unreadable(g, text)


@pytest.mark.parametrize("bad_id", [-1, 249, 10_000])
def test_r4_2_out_of_range_id_raises_action_error(bad_id: int) -> None:
    """R4.2: an action id outside the action space is refused, nothing changes."""
    g = position_b()
    unreadable(g, bad_id)


def test_r4_2_refusal_lists_what_is_legal() -> None:
    """R4.2: the IllegalActionError carries the legal decisions of the position."""
    g = position_d()
    err = refused(g, "canvas V2")
    assert err.refusal.code is RefusalCode.CANVAS_NOT_WINNING
    assert sorted(str(a) for a in err.legal) == sorted(["play V2", "play I3", "concede"])


# --- turn order (R2.4) ---------------------------------------------------------------------


def test_r2_4_turns_pass_left_skipping_eliminated_four_players() -> None:
    """R2.4 / R6.1: seat 2 is out; the turn goes 1 -> 3 -> 0 -> 1 (each play wins Red)."""
    g = make(
        ["B6 G1", "V4 B1", "Y2", "I5 O2"],
        ["V1", "I1", "Y1", "O1"],
        current=1,
        eliminated=[2],
    )
    order = [g.current_player]
    for card in ("V4", "I5", "B6"):
        g.apply(f"play {card}")
        g.apply("end")
        order.append(g.current_player)
    assert order == [1, 3, 0, 1]
    assert g.alive == (True, True, False, True)


def test_r2_4_turn_skips_a_player_who_conceded_three_players() -> None:
    """R2.4: P0 concedes; then P1 -> P2 -> P1, seat 0 never plays again."""
    g = make(["B1", "V4 V5", "I5 I6"], ["V1", "I1", "O1"])
    g.apply("concede")
    assert g.current_player == 1
    g.apply("play V4")  # V4 beats O1 under Red
    g.apply("end")
    assert g.current_player == 2
    g.apply("play I5")
    g.apply("end")
    assert g.current_player == 1
    assert g.alive == (False, True, True)

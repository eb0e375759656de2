"""R6: elimination, the end of a round, and the end of a basic game.

Positions are hand-built with Game.from_position (cards listed nowhere are out of the
round face down, R6.1). Basic game, action rules off.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from red7 import Game, IllegalActionError, RefusalCode
from red7.core.cards import ALL_CARDS, NUM_CARDS, VIOLET, names_of
from tests.support.helpers import canvas, make


def legal(g: Game) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def assert_all_cards_accounted(g: Game) -> None:
    """R6.1: hands + palettes + deck + canvas + out of the round (+ score piles) are the
    49 cards, each exactly once."""
    placed = [card for seat in range(g.players) for card in g.hand(seat) + g.palette(seat)]
    placed += [card for pile in g.observe(None).score_piles for card in names_of(pile)]
    placed += g.out_of_round() + g.deck() + canvas(g)
    assert len(placed) == NUM_CARDS
    twice = [card for card, times in Counter(placed).items() if times > 1]
    assert not twice, f"cards in two places: {twice}"
    assert set(placed) == {str(c) for c in ALL_CARDS}


def assert_out(g: Game, seat: int) -> None:
    """R6.1: an eliminated seat holds nothing and is shown as out."""
    obs = g.observe(None)
    assert obs.alive[seat] is False
    assert obs.palettes[seat] == 0
    assert obs.hand_sizes[seat] == 0
    assert g.hand(seat) == [] and g.palette(seat) == []


def assert_game_over(g: Game, winner: int) -> None:
    """R6.2 / R6.3: one winner, nobody to move, nothing legal."""
    assert g.is_over
    assert g.step_name == "over"
    assert g.current_player is None
    assert g.result is not None and g.result.winners == (winner,)
    assert g.legal_actions() == []
    assert g.safe_actions() == []
    assert [s for s in range(g.players) if g.alive[s]] == [winner]
    assert len(g.round_results) == 1 and g.round_results[0].winner == winner
    obs = g.observe(None)
    assert obs.current_player is None
    assert obs.result is not None and obs.result.winners == (winner,)


# --- R6.1: the eliminated player's cards leave the round -------------------------------------


def test_r6_1_conceded_hand_and_palette_leave_face_down() -> None:
    """R6.1: P0 concedes; its hand (B3 V5) and palette (G4) join the removed cards, not the
    deck nor the canvas; the observation shows seat 0 out."""
    g = make(
        ["B3 V5", "I4", "V7"],
        ["G4", "O6", "Y1"],
        canvas="R2",
        deck="V3 I3",
    )
    assert_all_cards_accounted(g)
    removed_before = set(g.out_of_round())
    out_before = g.observe(None).out_of_round_count
    assert out_before == NUM_CARDS - 10  # 10 cards are placed in the position
    deck_before, canvas_before = g.deck(), canvas(g)

    g.apply("concede")

    assert set(g.out_of_round()) == removed_before | {"B3", "V5", "G4"}
    assert g.observe(None).out_of_round_count == out_before + 3
    assert g.deck() == deck_before and canvas(g) == canvas_before
    assert_out(g, 0)
    assert_all_cards_accounted(g)
    assert g.current_player == 1


def test_r6_1_empty_hand_elimination_removes_palette() -> None:
    """R6.1 / R4.1: P1 starts its turn with no cards; its palette R4 is removed."""
    g = make(["G6 V2", "", "Y2"], ["B5", "R4", "O3"])
    g.apply("play G6")
    g.apply("end")
    assert_out(g, 1)
    assert "R4" in g.out_of_round()
    assert_all_cards_accounted(g)


def test_r6_1_eliminated_palette_no_longer_competes() -> None:
    """R6.1: once P1 (holding R7) concedes, its R7 no longer counts: P2's Y5 wins Red.

    Rule Red; P0 G4 hand B3; P1 R7 hand O6; P2 O2 hand Y5 V1.
    P2 at start: Red lost to G4; canvas Y5 -> Yellow: O2 vs G4, lost; canvas V1 ->
    Violet: O2 against nothing, won."""
    g = make(["B3", "O6", "Y5 V1"], ["G4", "R7", "O2"], current=1)
    g.apply("concede")
    assert g.current_player == 2
    assert legal(g) == sorted(["play V1", "play Y5", "canvas V1", "concede"])
    g.apply("play Y5")
    assert legal(g) == sorted(["canvas V1", "end", "concede"])
    g.apply("end")
    assert g.alive == (True, False, True)
    assert g.current_player == 0


def test_r6_1_eliminated_player_gets_no_more_turns() -> None:
    """R6.1 / R2.4: after P1 concedes, turns alternate between P0 and P2 only."""
    g = make(["B6 G1", "O6", "I5 R7"], ["V1", "I1", "O1"], current=1)
    g.apply("concede")
    seen = []
    for card in ("I5", "B6", "R7"):  # each play beats the current Red leader
        seen.append(g.current_player)
        g.apply(f"play {card}")
        g.apply("end")
    seen.append(g.current_player)
    assert seen == [2, 0, 2, 0]


# --- R6.2: the round ends when one player remains ----------------------------------------------


def test_r6_2_two_players_concede_ends_round() -> None:
    """R6.2: the remaining player wins even though its palette (V1) loses under Red."""
    g = make(["B1", "B2"], ["R7", "V1"])
    g.apply("concede")
    assert_game_over(g, 1)
    assert_all_cards_accounted(g)


def test_r6_2_four_players_eliminated_one_by_one() -> None:
    """R6.2 with 4 players: P1 concedes, P2 plays a losing last card and must concede,
    P3 starts with an empty hand (R4.1); P0 is left and wins.

    Rule Red. Palettes B2, V2, I2, Y2 (Y2 leads). P0 plays G5 and wins."""
    g = make(["G5 V3", "I6", "O1", ""], ["B2", "V2", "I2", "Y2"])
    g.apply("play G5")
    g.apply("end")
    assert g.current_player == 1 and g.alive == (True,) * 4

    g.apply("concede")
    assert not g.is_over
    assert g.current_player == 2
    assert g.alive == (True, False, True, True)
    assert_out(g, 1)
    assert_all_cards_accounted(g)

    g.apply("play O1")  # I2 O1: top I2 < G5, no hand card left to canvas
    assert legal(g) == ["concede"]
    g.apply("concede")  # then P3's empty hand eliminates it at once
    for seat in (1, 2, 3):
        assert_out(g, seat)
    assert_game_over(g, 0)
    assert g.palette(0) == ["G5", "B2"]
    assert_all_cards_accounted(g)


def test_r6_2_three_players_last_survivor_wins() -> None:
    """R6.2 with 3 players: P1 concedes; P2 canvases V2 (Violet: I1 against nothing);
    P0 (R7) then starts with no hand and is out: P2 wins the round."""
    g = make(["", "B2", "Y3 V2"], ["R7", "V1", "I1"], current=1)
    g.apply("concede")
    assert not g.is_over and g.current_player == 2
    g.apply("canvas V2")
    assert_game_over(g, 2)
    assert g.round_results[0].rule == VIOLET  # the rule in force at the end
    assert_all_cards_accounted(g)


def test_r6_2_round_not_over_while_two_remain() -> None:
    """R6.2: with 4 players, two eliminations leave two players and the round goes on."""
    g = make(["B1", "B2", "V5 V6", "I5 I6"], ["V1", "I1", "O1", "Y1"])
    g.apply("concede")
    g.apply("concede")
    assert not g.is_over
    assert g.alive == (False, False, True, True)
    assert g.current_player == 2
    assert g.result is None


# --- R6.3: the basic game is one round ---------------------------------------------------------


def test_r6_3_nothing_is_legal_after_the_end() -> None:
    """R6.3: after the only round, every decision is refused and nothing changes."""
    g = make(["B1", "B2"], ["R7", "V1"])
    g.apply("concede")
    assert_game_over(g, 1)
    before = g.fingerprint()
    for action in ("concede", "play B2", "canvas B2", "end", "draw"):
        assert not g.is_legal(action)
        with pytest.raises(IllegalActionError) as info:
            g.apply(action)
        assert "over" in str(info.value)
        assert info.value.refusal.code is RefusalCode.GAME_OVER
        assert g.fingerprint() == before


def test_r6_3_dealt_basic_game_is_one_round() -> None:
    """R6.3: a dealt basic game ends after its single round; no new round is dealt."""
    g = Game(players=3, seed=11)
    first = g.current_player
    assert first is not None
    g.apply("concede")
    g.apply("concede")
    assert g.is_over
    assert g.result is not None and g.result.rounds == 1 and g.round == 1
    (winner,) = g.result.winners
    assert g.alive[winner] and sum(g.alive) == 1
    assert_all_cards_accounted(g)


def test_r6_3_result_counts_the_round_of_a_position() -> None:
    """R6.3: a basic game set up from a position plays exactly one round, so its result
    should say rounds == 1 (observation 'round' is documented as counting from 1)."""
    g = make(["B1", "B2"], ["R7", "V1"])
    g.apply("concede")
    assert g.result is not None
    assert g.result.rounds == 1
    assert g.observe(None).round == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r6_random_basic_games_end_with_one_survivor(players: int) -> None:
    """R6.1-R6.3: random legal play; cards always add up to 49, eliminated seats hold
    nothing, and the game ends after one round with the single survivor as winner."""
    rng = random.Random(players)
    for seed in range(15):
        g = Game(players=players, seed=seed)
        while not g.is_over:
            assert_all_cards_accounted(g)
            for seat in range(players):
                if not g.alive[seat]:
                    assert g.hand(seat) == [] and g.palette(seat) == []
            g.apply(rng.choice(g.legal_actions()))
        survivors = [s for s in range(players) if g.alive[s]]
        assert len(survivors) == 1
        assert g.result is not None and g.result.winners == (survivors[0],)
        assert g.result.rounds == 1 and len(g.round_results) == 1
        assert g.legal_actions() == []
        assert_all_cards_accounted(g)

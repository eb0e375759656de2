"""R8: scoring and the match (advanced game), and R6.3 (the basic game never scores).

Every expected score, pile and winner below is worked out by hand from docs/rules.md:
R3's table gives the qualifying set, R8.2 moves it to the round winner's score pile
(each card worth its value), R8.3 ends the match at 40/35/30 points for 2/3/4
players, R8.4 deals a new round from every card outside the score piles or, with
fewer than 8 x players such cards, ends the match on the highest score (equal
highest scores share the victory), and R8.5/R2.4 pick each round's first player.

Most positions end the round by having the only other remaining player concede
(R4.2.4, R6.2), so the winner and the final rule are fixed by hand.
"""

from __future__ import annotations

import json
import random

import pytest

from red7 import Action, Card, Game
from red7.core.cards import names_of
from red7.core.model import MAX_ROUNDS

LETTERS = "ROYGBIV"
RULE_NAMES = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
TARGET = {2: 40, 3: 35, 4: 30}  # R8.3, written out from the seeds' table


# --- helpers -------------------------------------------------------------------------


def strength(name: str) -> tuple[int, int]:
    """R1.2 as a sort key: value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0])


def value(name: str) -> int:
    return int(name[1])


def names(mask: int) -> set[str]:
    return set(names_of(mask))


def score_piles(game: Game) -> list[set[str]]:
    """Each seat's score pile (public, R9)."""
    return [names(p) for p in game.observe(None).score_piles]


def canvas(game: Game) -> list[str]:
    """The canvas above the Red start card, bottom first (public, R9)."""
    return [str(Card(c)) for c in game.observe(None).canvas]


def in_play(game: Game) -> set[str]:
    """Every card of the current round: hands, palettes, deck, canvas, face-down cards."""
    out: set[str] = set()
    for s in range(game.players):
        out |= set(game.hand(s)) | set(game.palette(s))
    return out | set(game.deck()) | set(canvas(game)) | set(game.out_of_round())


def pile_cards(game: Game) -> set[str]:
    return set().union(*score_piles(game))


def all_names() -> set[str]:
    return {letter + str(v) for letter in LETTERS for v in range(1, 8)}


def expected_first_player(game: Game) -> int:
    """R2.4 / R8.5: the seat left of the highest palette card (one card per palette)."""
    tops = [max(game.palette(s), key=strength) for s in range(game.players)]
    leader = max(range(game.players), key=lambda s: strength(tops[s]))
    return (leader + 1) % game.players


def assert_fresh_round(game: Game, piles: set[str]) -> None:
    """R8.4 + R2: a new round dealt from exactly the cards outside the score piles."""
    n = game.players
    obs = game.observe(None)
    assert not game.is_over
    assert pile_cards(game) == piles
    assert all(len(game.hand(s)) == 7 for s in range(n))  # R2.2
    assert all(len(game.palette(s)) == 1 for s in range(n))  # R2.2
    assert game.alive == (True,) * n  # every player back
    assert game.rule == 0 and canvas(game) == []  # R2.3: rule Red
    assert game.out_of_round() == [] and obs.out_of_round_count == 0 and obs.out_of_round_known == 0
    assert obs.known_hand_cards == (0,) * n and obs.deck_known_top == ()
    dealt: list[str] = []
    for s in range(n):
        dealt += game.hand(s) + game.palette(s)
    dealt += game.deck()
    assert len(dealt) == len(set(dealt))  # each card once
    assert set(dealt) == all_names() - piles  # the complement
    assert len(game.deck()) == obs.deck_size == 49 - len(piles) - 8 * n
    assert game.current_player == expected_first_player(game)  # R2.4 / R8.5
    assert game.step_name == "start"


def concede_position(
    players: int,
    winner_palette: list[str],
    *,
    rule_card: str | None = None,
    piles: list[list[str]] | None = None,
    advanced: bool = True,
    seed: int = 0,
) -> Game:
    """Seat 0 (palette ``winner_palette``) and seat 1 remain; seat 1 is to move and
    will concede; seats 2 and 3 (if any) are already out. The rule is the colour of
    ``rule_card`` (Red when None). The other hand and palette cards are spares that
    do not clash with the test's own cards."""
    used = set(winner_palette) | ({rule_card} if rule_card else set())
    for p in piles or []:
        used |= set(p)
    spare = [c for c in ("Y7", "V7", "V6", "I7", "B7", "G7", "O7", "R7") if c not in used]
    hands: list[list[str]] = [[spare[0]], [spare[1]]] + [[] for _ in range(players - 2)]
    palettes: list[list[str]] = [winner_palette, [spare[2]]] + [[] for _ in range(players - 2)]
    return Game.from_position(
        hands,
        palettes,
        canvas=[rule_card] if rule_card else None,
        current=1,
        advanced=advanced,
        scores=piles,
        eliminated=list(range(2, players)),
        seed=seed,
    )


# --- R8.2 the round winner scores their qualifying set --------------------------------

PALETTE = ["R6", "O6", "Y5", "Y4", "B4", "G2", "I1", "V3"]
# Qualifying sets of PALETTE under each rule, by hand from the R3 table:
SCORED = {
    # Red: the single highest card.
    "red": ("R2", {"R6"}),
    # Orange: 6s (R6 O6) and 4s (Y4 B4) tie at two; the 6s hold the highest card.
    "orange": ("O1", {"R6", "O6"}),
    # Yellow: only yellow has two cards.
    "yellow": ("Y1", {"Y5", "Y4"}),
    # Green: the even cards.
    "green": ("G1", {"R6", "O6", "Y4", "B4", "G2"}),
    # Blue: the highest card of each colour (Y5 beats Y4).
    "blue": ("B1", {"R6", "O6", "Y5", "B4", "G2", "I1", "V3"}),
    # Indigo: run 1..6, the highest card of each value (R6 over O6, Y4 over B4).
    "indigo": ("I2", {"I1", "G2", "V3", "Y4", "Y5", "R6"}),
    # Violet: the cards below 4.
    "violet": ("V1", {"G2", "I1", "V3"}),
}


@pytest.mark.parametrize("rule", list(SCORED))
def test_r8_2_winner_scores_qualifying_set_of_final_rule(rule: str) -> None:
    """R8.2: the round winner moves exactly their qualifying set (R3) under the final
    rule to their score pile; each card is worth its value; nobody else scores."""
    rule_card, expected = SCORED[rule]
    game = concede_position(2, PALETTE, rule_card=rule_card)
    assert game.rule == RULE_NAMES.index(rule)
    first_round = game.round
    game.apply("concede")
    points = sum(value(c) for c in expected)

    assert len(game.round_results) == 1
    rr = game.round_results[0]
    assert rr.winner == 0
    assert rr.rule == RULE_NAMES.index(rule)
    assert set(rr.scored) == expected and len(rr.scored) == len(expected)
    assert rr.points == points
    assert game.scores == (points, 0)
    assert score_piles(game) == [expected, set()]

    obs = game.observation(None)
    assert set(obs["score_piles"][0]) == expected and obs["score_piles"][1] == []
    assert obs["scores"] == [points, 0]
    assert obs["round_results"][0]["points"] == points
    assert obs["round_results"][0]["rule"] == rule

    # Out of later rounds (R8.2), and the palette's other cards return (R8.4).
    assert game.round == first_round + 1
    assert not expected & in_play(game)
    assert_fresh_round(game, expected)


def test_r8_2_scores_under_rule_changed_in_final_turn() -> None:
    """R8.2/R6.2/R4.1: seat 0 canvases B1 (rule Blue), ends its turn winning; seat 1
    starts with an empty hand and is out, so seat 0 wins the round under Blue and
    scores the highest card of each colour: R6 O5 Y3 (R4 stays behind), 14 points,
    added to the 14 points already in its pile."""
    game = Game.from_position(
        [["B1", "G2"], []],
        [["R6", "R4", "O5", "Y3"], ["G7", "G6"]],
        deck=["I3", "I5"],
        current=0,
        advanced=True,
        scores=[["V7", "I7"], []],
    )
    game.apply("canvas B1")  # B1's value 1 is not above the 4-card palette: no draw
    assert len(game.round_results) == 1
    rr = game.round_results[0]
    assert (rr.winner, rr.rule, rr.points) == (0, RULE_NAMES.index("blue"), 14)
    assert set(rr.scored) == {"R6", "O5", "Y3"}
    assert game.scores == (28, 0)
    assert score_piles(game)[0] == {"V7", "I7", "R6", "O5", "Y3"}
    assert "R4" in in_play(game)  # not scored: back in the next round
    assert_fresh_round(game, {"V7", "I7", "R6", "O5", "Y3"})


def test_r8_2_only_the_winner_scores_losers_keep_their_piles() -> None:
    """R8.1/R8.2: losers' piles and scores are untouched by the round."""
    game = concede_position(3, ["R5", "O5"], piles=[["V1"], ["I7", "I6"], ["B3"]])
    game.apply("concede")
    assert game.scores == (1 + 5, 13, 3)  # Red: only R5 scores
    assert score_piles(game)[1] == {"I7", "I6"} and score_piles(game)[2] == {"B3"}
    assert score_piles(game)[0] == {"V1", "R5"}


def test_r8_from_position_counts_its_round_as_round_1() -> None:
    """R8.1/R8.4: a position set up by from_position is in a round of the match, the
    first one (observation doc: "round number, from 1"); the round after it is round
    2, and a match that ends there reports the rounds played (Result.rounds)."""
    game = concede_position(2, ["R6"], piles=[["V1"], []])
    assert game.round == 1
    assert game.observation(None)["round"] == 1
    game.apply("concede")
    assert game.round == 2
    ended = concede_position(2, ["R7"], piles=[EXACT[2], []])
    ended.apply("concede")
    assert ended.result is not None and ended.result.rounds == 1


# --- R8.3 the target ends the match -------------------------------------------------

# Piles holding target - 7 points (seat 0 then scores R7 = 7 under Red) ...
EXACT = {2: ["V7", "I7", "B7", "G7", "Y5"], 3: ["V7", "I7", "B7", "G7"], 4: ["V7", "I7", "B7", "Y2"]}
# ... and target - 8 points (one short after the round).
SHORT = {2: ["V7", "I7", "B7", "G7", "Y4"], 3: ["V7", "I7", "B7", "G6"], 4: ["V7", "I7", "B7", "Y1"]}
# ... and target - 1 (the round overshoots the target).
OVER = {2: ["V7", "I7", "B7", "G7", "Y6", "Y5"], 3: ["V7", "I7", "B7", "G7", "Y6"], 4: ["V7", "I7", "B7", "G7", "Y1"]}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("piles", [EXACT, OVER], ids=["reaches", "overshoots"])
def test_r8_3_reaching_target_ends_match(players: int, piles: dict[int, list[str]]) -> None:
    """R8.3: a round win that brings a score to 40/35/30 (2/3/4 players) or beyond
    ends the match, won by that player."""
    pile = piles[players]
    before = sum(value(c) for c in pile)
    assert TARGET[players] - 7 <= before < TARGET[players]
    game = concede_position(players, ["R7"], piles=[pile] + [[] for _ in range(players - 1)])
    assert game.observation(0)["target"] == TARGET[players]
    game.apply("concede")
    assert game.is_over and game.current_player is None
    assert game.legal_actions() == []
    assert game.result is not None
    assert game.result.winners == (0,)
    assert game.result.scores == (before + 7,) + (0,) * (players - 1)
    assert game.result.rounds == game.round  # the match ended in its first round
    assert game.observation(None)["result"] == {
        "winners": [0],
        "scores": [before + 7] + [0] * (players - 1),
        "rounds": game.round,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r8_3_one_point_short_of_target_goes_on(players: int) -> None:
    """R8.3/R8.4: target - 1 points does not end the match; a new round is dealt."""
    pile = SHORT[players]
    game = concede_position(players, ["R7"], piles=[pile] + [[] for _ in range(players - 1)])
    first_round = game.round
    game.apply("concede")
    assert game.scores[0] == TARGET[players] - 1
    assert game.result is None and game.round == first_round + 1
    assert_fresh_round(game, set(pile) | {"R7"})


# --- R8.4 the next round, and the end of the cards ------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_r8_4_new_round_dealt_from_cards_outside_piles(seed: int) -> None:
    """R8.4/R2/R8.5: after a 2-player round, the next round deals 7 cards to each
    hand and one to each palette from exactly the cards not in a score pile (the
    rest is the deck), rule Red, both players in, first player left of the highest
    palette card."""
    game = concede_position(2, ["Y6", "Y4", "Y2"], rule_card="Y1", piles=[["V1"], ["I2", "I3"]], seed=seed)
    game.apply("concede")
    piles = {"V1", "Y6", "Y4", "Y2", "I2", "I3"}
    assert game.scores == (1 + 12, 5)
    assert_fresh_round(game, piles)
    assert game.history == ((1, Action.parse("concede")),)  # the match history carries on
    assert game.observe(0).history == ((1, 246),)


def test_r8_4_exactly_8_per_player_left_deals_again() -> None:
    """R8.4 boundary: 3 players, 25 cards in piles, so 24 = 8 x 3 remain: that is not
    fewer than 8 x players, so a round is dealt (deck empty) and eliminated seat 2
    is back in."""
    piles = [
        ["R3", "O3", "Y3", "G3", "B3", "I3", "V3"],  # 21
        ["R1", "O1", "Y1", "G1", "B1", "I1", "V1", "R2", "O2", "Y2", "G2", "B2", "I2", "V2", "Y4"],  # 25
        ["O4", "G4"],  # 8
    ]
    game = concede_position(3, ["R4"], piles=piles)
    assert game.alive == (True, True, False)
    game.apply("concede")
    assert game.scores == (25, 25, 8)
    assert game.result is None
    assert_fresh_round(game, {c for p in piles for c in p} | {"R4"})
    assert game.deck() == []


def test_r8_4_fewer_than_8_per_player_ends_with_shared_victory() -> None:
    """R8.4 + Decision: 3 players, 26 cards in piles after the round, 23 < 24 remain:
    the match ends; seats 0 and 1 share the highest score (25) and both win."""
    piles = [
        ["R3", "O3", "Y3", "G3", "B3", "I3", "V3"],  # 21
        ["R1", "O1", "Y1", "G1", "B1", "I1", "V1", "R2", "O2", "Y2", "G2", "B2", "I2", "V2", "Y4"],  # 25
        ["O4", "G4", "B4"],  # 12
    ]
    game = concede_position(3, ["R4"], piles=piles)
    game.apply("concede")
    assert game.is_over and game.result is not None
    assert game.result.winners == (0, 1)
    assert game.result.scores == (25, 25, 12)
    assert game.result.rounds == game.round
    assert game.observation(2)["result"]["winners"] == [0, 1]


def test_r8_4_fewer_cards_highest_score_wins_not_round_winner() -> None:
    """R8.4: 4 players, 19 pile cards after the round leave 30 < 32: the match ends
    and the highest score (seat 1, 14) wins although seat 0 won the last round (13)."""
    piles = [
        ["R1", "O1", "Y1", "G1", "B1", "I1", "V1"],  # 7
        ["R2", "O2", "Y2", "G2", "B2", "I2", "V2"],  # 14
        ["R3", "O3", "Y3", "G3"],  # 12
        [],
    ]
    game = concede_position(4, ["R6"], piles=piles)
    game.apply("concede")
    assert game.round_results[-1].winner == 0 and game.round_results[-1].points == 6
    assert game.is_over and game.result is not None
    assert game.result.winners == (1,)
    assert game.result.scores == (13, 14, 12, 0)


def test_r6_3_basic_game_never_scores() -> None:
    """R6.3/R8 (basic game): the round winner wins the game; nothing is scored or
    moved to a pile, and no further round is dealt."""
    game = concede_position(2, PALETTE, rule_card="B1", advanced=False)
    game.apply("concede")
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,) and game.result.rounds == game.round
    assert game.scores == (0, 0) and score_piles(game) == [set(), set()]
    assert game.round_results[0].scored == () and game.round_results[0].points == 0
    assert game.palette(0) == sorted(PALETTE, key=strength, reverse=True)
    obs = game.observation(0)
    assert obs["target"] is None and obs["score_piles"] == [[], []]


@pytest.mark.parametrize("seed", range(6))
def test_r6_3_basic_random_games_never_score(seed: int) -> None:
    """R6.3: whole basic games (any player count, actions on or off) end after one
    round with no scores."""
    for players in (2, 3, 4):
        game = Game(players, advanced=False, actions=bool(seed % 2), seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            game.apply(rnd.choice(game.safe_actions() or game.legal_actions()))
        assert game.result is not None
        assert game.round == 1 and len(game.result.winners) == 1
        assert game.scores == (0,) * players and score_piles(game) == [set()] * players
        assert game.result.winners == (game.round_results[0].winner,)


# --- whole matches -------------------------------------------------------------------


def check_match_end(game: Game) -> None:
    """R8.3/R8.4/R8.6: why the match ended, checked against the final scores."""
    n = game.players
    assert game.result is not None
    scores = list(game.result.scores)
    left = 49 - len(pile_cards(game))
    last = game.round_results[-1].winner
    if max(scores) >= TARGET[n]:
        assert game.result.winners == (last,)
        assert [s for s in range(n) if scores[s] >= TARGET[n]] == [last]
    else:
        assert left < 8 * n or game.result.rounds == MAX_ROUNDS  # R8.4, or R8.6
        top = max(scores)
        assert game.result.winners == tuple(s for s in range(n) if scores[s] == top)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("actions", [False, True])
def test_r8_whole_matches_are_consistent(players: int, actions: bool) -> None:
    """R8.1-R8.5 over whole random matches: scores equal their piles' values and the
    round winners' points; each round starts as R8.4 says; the end is R8.3 or R8.4."""
    for seed in range(10):
        game = Game(players, advanced=True, actions=actions, seed=1000 * players + seed)
        rnd = random.Random(seed)
        rounds_seen = 1
        piles: set[str] = set()
        assert_fresh_round(game, piles)
        while not game.is_over:
            game.apply(rnd.choice(game.safe_actions() or game.legal_actions()))
            assert not pile_cards(game) & in_play(game)
            if game.round != rounds_seen:
                rounds_seen = game.round
                rr = game.round_results[-1]
                assert set(rr.scored) <= score_piles(game)[rr.winner]
                piles = pile_cards(game)
                assert_fresh_round(game, piles)
        assert game.result is not None
        assert game.result.rounds == game.round == len(game.round_results)
        for s in range(players):
            assert game.scores[s] == sum(value(c) for c in score_piles(game)[s])
            assert game.scores[s] == sum(r.points for r in game.round_results if r.winner == s)
        check_match_end(game)
        json.dumps(game.observation(None))

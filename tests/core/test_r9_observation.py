"""R9: what each player may see, through Game.observation(seat).

Public: palettes, canvas/rule, scores and piles, hand and deck sizes, who is out,
whose turn and which step, every decision so far, and the known top of the deck
(R7.z) with who drew those cards. Private: one's own hand. The expected views below
are written by hand from docs/rules.md and the field list at the top of
src/red7/observation.py.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import Config, Game, GameError, Observation, Step
from tests.support.configs import CONFIGS
from tests.support.tiers import examples

LETTERS = "ROYGBIV"


def strength(name: str) -> tuple[int, int]:
    """R1.2 as a sort key: value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0])


def high_first(cards: list[str]) -> list[str]:
    return sorted(cards, key=strength, reverse=True)


def dump(obs: dict[str, Any]) -> str:
    return json.dumps(obs, sort_keys=True)


def mentioned(obs: dict[str, Any]) -> set[str]:
    """Every card name that appears anywhere in the serialized observation."""
    return set(re.findall(r"\b[ROYGBIV][1-7]\b", dump(obs)))


def viewers(game: Game) -> list[int | None]:
    return [*range(game.players), None]


# --- JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("actions", [False, True])
def test_r9_observation_is_plain_json_for_every_viewer(players: int, advanced: bool, actions: bool) -> None:
    """R9: every seat's view and the spectator's are JSON data that survive a round
    trip unchanged (only dicts, lists, str, int, bool and None), at every decision of
    a whole random game."""
    game = Game(players, advanced, actions, seed=players * 10 + advanced * 2 + actions)
    rnd = random.Random(7)
    while True:
        for seat in viewers(game):
            obs = game.observation(seat)
            assert json.loads(json.dumps(obs)) == obs
            assert obs["seat"] == seat
        if game.is_over:
            break
        game.apply(rnd.choice(game.safe_actions() or game.legal_actions()))


# --- own hand, other hands ---------------------------------------------------------------

HANDS = [["R7", "O3", "B2"], ["Y6", "G5"], ["I4", "V1", "R1", "Y2"]]
PALETTES = [["O7"], ["G6"], ["B5"]]
DECK = ["I7", "V7", "R5"]


def three_player_position() -> Game:
    return Game.from_position(HANDS, PALETTES, deck=DECK, canvas=["Y1"], current=0)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_r9_seat_sees_own_hand_and_no_other(seat: int) -> None:
    """R9 private: a seat's view holds its own hand (highest first) and no card of
    another hand or of the unknown deck, anywhere; hand sizes are public."""
    obs = three_player_position().observation(seat)
    assert obs["hand"] == high_first(HANDS[seat])
    assert obs["hand_sizes"] == [3, 2, 4]
    hidden = {c for s, h in enumerate(HANDS) if s != seat for c in h} | set(DECK)
    assert not mentioned(obs) & hidden
    assert set(HANDS[seat]) <= mentioned(obs)


def test_r9_spectator_sees_no_hand() -> None:
    """R9: the spectator (None) has no hand field and sees no hand or deck card."""
    obs = three_player_position().observation(None)
    assert "hand" not in obs and obs["seat"] is None
    assert not mentioned(obs) & ({c for h in HANDS for c in h} | set(DECK))
    assert mentioned(obs) == {"O7", "G6", "B5", "Y1"}  # palettes and canvas only


def test_r9_view_ignores_hidden_differences() -> None:
    """R9: two positions that differ only in other hands, the order and content of
    the unknown deck and the face-down cards look byte-for-byte the same to seat 0
    and to a spectator, and differ for seat 1 (whose hand differs)."""
    a = Game.from_position([["R7", "O3"], ["Y6", "G5"]], [["O7"], ["G6"]], deck=["I7", "V7", "B3"], current=0)
    b = Game.from_position([["R7", "O3"], ["B3", "V7"]], [["O7"], ["G6"]], deck=["Y6", "I1", "G5"], current=0)
    for seat in (0, None):
        assert a.observe(seat) == b.observe(seat)
        assert dump(a.observation(seat)) == dump(b.observation(seat))
    assert a.observe(1) != b.observe(1)
    assert dump(a.observation(1)) != dump(b.observation(1))


def test_r9_eliminated_hand_is_private() -> None:
    """R9/R6.1: an eliminated player's hand leaves the round face down and stays private;
    the palette, which everyone saw, is remembered as public ``out_of_round_known``."""
    a = Game.from_position([["R7"], ["Y6"], ["B3", "B4"]], [["O7"], ["G6"], ["I2"]], current=0, eliminated=[2])
    b = Game.from_position([["R7"], ["Y6"], ["V3", "V4"]], [["O7"], ["G6"], ["I2"]], current=0, eliminated=[2])
    for seat in (0, 1, None):
        oa, ob = a.observation(seat), b.observation(seat)
        assert a.observe(seat) == b.observe(seat)
        assert dump(oa) == dump(ob)
        assert oa["alive"] == [True, True, False]
        assert oa["hand_sizes"][2] == 0 and oa["palettes"][2] == []
        assert oa["out_of_round_known"] == ["I2"]  # (out_of_round also counts the 42 cards dealt nowhere)
        assert not mentioned(oa) & {"B3", "B4"}
    assert a.observation(2)["out_of_round_own"] == ["B4", "B3"]  # the eliminated seat knows its hand
    c = Game.from_position([["R7"], ["Y6"], ["B3", "B4"]], [["O7"], ["G6"], ["I3"]], current=0, eliminated=[2])
    assert c.observation(0)["out_of_round_known"] == ["I3"]


# --- documented fields ---------------------------------------------------------------


def rich_position() -> Game:
    """3 players, advanced, actions; seat 2 out; rule Blue; R5 known on the deck top;
    seat 1's B1 was seen drawn; piles V1 / G2 G1 / nothing."""
    return Game.from_position(
        [["R7", "O3"], ["Y6", "G5", "B1"], ["I6"]],
        [["O7", "V2"], ["G6"], ["I5"]],
        deck=["R5", "I7", "V7"],
        canvas=["Y1", "B3"],
        current=1,
        advanced=True,
        actions=True,
        deck_known=1,
        known=[[], ["B1"], []],
        scores=[["V1"], ["G1", "G2"], []],
        eliminated=[2],
    )


def test_r9_documented_fields_of_a_position() -> None:
    """R9 public/private, field by field (observation.py's list): 18 cards are
    placed, so 31 are out of the round, plus seat 2's two cards: 33 face down, of which
    everyone saw seat 2's palette card I5."""
    game = rich_position()
    expected: dict[str, Any] = {
        "seat": 1,
        "players": 3,
        "advanced": True,
        "actions": True,
        "round": 1,
        "turns": 1,
        "current_player": 1,
        "step": "start",
        "rule": "blue",
        "canvas": ["Y1", "B3"],
        "palettes": [["O7", "V2"], ["G6"], []],
        "hand_sizes": [2, 3, 0],
        "alive": [True, True, False],
        "known_hand_cards": [[], ["B1"], []],
        "deck_size": 3,
        "deck_known_top": ["R5"],
        "out_of_round_count": 33,
        "out_of_round_known": ["I5"],
        "scores": [1, 3, 0],
        "score_piles": [["V1"], ["G2", "G1"], []],
        "target": 35,
        "pending": None,
        "history": [],
        "round_log": {
            "start": 0,
            "palettes": [["O7", "V2"], ["G6"], ["I5"]],
            "hand_sizes": [2, 3, 1],
            "draws": [],
            "dealt": False,
        },  # the log begins where the position was given
        "round_results": [],
        "result": None,
        "hand": ["Y6", "G5", "B1"],
        "out_of_round_own": [],
    }
    assert game.observation(1) == expected
    spectator = {k: v for k, v in expected.items() if k not in ("hand", "out_of_round_own")}
    assert game.observation(None) == {**spectator, "seat": None}


def test_r9_round_and_turn_counters_of_a_dealt_game() -> None:
    """R9 (observation.py): a dealt game is in round 1 with its first turn started."""
    game = Game(3, advanced=True, seed=11)
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["round"] == 1 and obs["turns"] == 1
        assert obs["step"] == "start" and obs["rule"] == "red" and obs["canvas"] == []
        assert obs["deck_size"] == 49 - 3 * 8 and obs["hand_sizes"] == [7, 7, 7]
        assert all(len(p) == 1 for p in obs["palettes"]) and obs["target"] == 35


def test_r9_history_and_round_results_are_public() -> None:
    """R9 (every choice made so far) + R8.2: seat 1 concedes; seat 0, alone, wins
    under Blue with O7 V2 (one card of each colour), 9 points, seen by everyone."""
    game = rich_position()
    game.apply("concede")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["history"] == [[1, "concede"]]
        assert obs["round_results"] == [{"winner": 0, "rule": "blue", "scored": ["O7", "V2"], "points": 9}]
        assert obs["scores"] == [10, 3, 0]
        assert obs["score_piles"] == [["O7", "V2", "V1"], ["G2", "G1"], []]
        assert obs["rule"] == "red" and obs["canvas"] == []  # next round (R8.4)
        assert obs["alive"] == [True, True, True]
        assert obs["deck_known_top"] == [] and obs["out_of_round_count"] == 0


def test_r9_finished_game_result() -> None:
    """R9 + R6.3: a finished basic game shows its result and no current player."""
    game = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]], current=1)
    game.apply("concede")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["current_player"] is None and obs["step"] == "over"
        assert obs["result"]["winners"] == [0] and obs["result"]["scores"] == [0, 0]
        assert obs["target"] is None


# --- known cards on top of the deck (R7.z) ---------------------------------------------


def test_r9_seven_tuck_is_public_and_drawn_card_known() -> None:
    """R7.7/R7.z/R9: seat 0 plays R7 (step seven, pending R7), moves O2 face down onto
    the deck: every viewer sees O2 on top. Seat 1 then plays G3 and draws it (R7.3):
    everyone sees O2 among seat 1's known hand cards and the known top is gone."""
    game = Game.from_position(
        [["R7", "B2"], ["G3", "I4"]],
        [["O2"], ["Y6"]],
        deck=["V5"],
        current=0,
        actions=True,
    )
    game.apply("play R7")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["step"] == "seven" and obs["pending"] == "R7"
    game.apply("move O2 deck")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["step"] == "after" and obs["pending"] is None
        assert obs["deck_known_top"] == ["O2"] and obs["deck_size"] == 2
        assert obs["palettes"][0] == ["R7"]
    game.apply("end")
    game.apply("play G3")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["deck_known_top"] == [] and obs["deck_size"] == 1
        assert obs["known_hand_cards"] == [[], ["O2"]]
        assert obs["hand_sizes"] == [1, 2]
    assert game.observation(1)["hand"] == ["I4", "O2"]
    assert "V5" not in mentioned(game.observation(0))


def test_r9_one_tuck_is_public_and_drawn_card_known() -> None:
    """R7.1/R7.z/R9: seat 0 plays B1 and takes Y7 from seat 1's palette onto the deck;
    everyone sees Y7 on top; seat 1's 3 draws it, and everyone sees that."""
    game = Game.from_position(
        [["B1", "G5"], ["G3"]],
        [["R6"], ["Y7", "V2"]],
        deck=["I4"],
        current=0,
        actions=True,
    )
    game.apply("play B1")
    assert game.observation(None)["step"] == "one"
    game.apply("take Y7")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["deck_known_top"] == ["Y7"] and obs["deck_size"] == 2
        assert obs["palettes"] == [["R6", "B1"], ["V2"]]
    game.apply("end")
    game.apply("play G3")
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["known_hand_cards"][1] == ["Y7"] and obs["deck_known_top"] == []
    assert game.observation(1)["hand"] == ["Y7"]
    assert "I4" not in mentioned(game.observation(0))


def test_r9_two_known_cards_listed_top_first() -> None:
    """R7.z: with two public cards on top (deck_known=2), both are listed, top
    first, and the unknown card under them is not."""
    game = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]], deck=["B4", "I2", "V6"], deck_known=2, current=0)
    for seat in viewers(game):
        obs = game.observation(seat)
        assert obs["deck_known_top"] == ["B4", "I2"]
        assert "V6" not in mentioned(obs)


# --- bad seats -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [5, -1, 2, 3])
def test_r9_observation_of_a_seat_not_in_play_raises(seat: int) -> None:
    """R9/R2.1: seats are 0..n-1; another number is a ValueError (GameError), not a view."""
    game = Game(2, seed=3)
    with pytest.raises(ValueError):
        game.observation(seat)
    with pytest.raises(GameError):
        game.observe(seat)


# --- games that differ only in hidden cards (explicit chance) ----------------------------


def dealt(order: list[str], players: int = 2, actions: bool = False) -> Game:
    """An explicit-chance game dealt ``order`` (R2.2: seven passes of one hand card per
    seat from seat 0, then one palette card per seat); the other cards form the deck."""
    game = Game(players=players, actions=actions, seed=0, explicit_chance=True)
    for card in order:
        game.apply_chance(card)
    return game


# Seat 0: R1 O2 Y3 G5 B6 I2 V4, palette R7 (the highest: seat 1 begins); seat 1: B3 ... V6,
# palette O7. The second deal swaps seat 1's B3 with the deck's Y6.
HAND_0 = ["R1", "O2", "Y3", "G5", "B6", "I2", "V4"]
HAND_1 = ["B3", "O3", "G3", "I3", "V3", "R2", "V6"]
ORDER = [card for pair in zip(HAND_0, HAND_1, strict=True) for card in pair] + ["R7", "O7"]


def test_r9_a_deal_that_differs_in_another_hand_looks_the_same() -> None:
    """R9: two deals that differ only in one card of seat 1's hand (swapped with a deck
    card) look the same to seat 0 and to a spectator, typed and byte for byte, and so
    do their events, through the first turns; seat 1 sees its own difference."""
    a = dealt(ORDER)
    b = dealt([("Y6" if c == "B3" else c) for c in ORDER])
    for game in (a, b):
        assert game.current_player == 1
    for step in ("play O3", "canvas V3", "play B6"):
        for seat in (0, None):
            assert a.observe(seat) == b.observe(seat)
            assert dump(a.observation(seat)) == dump(b.observation(seat))
        assert a.observe(1) != b.observe(1) and dump(a.observation(1)) != dump(b.observation(1))
        assert a.events_for(0) == b.events_for(0) and a.events_for(None) == b.events_for(None)
        a.apply(step)
        b.apply(step)


def test_r9_a_threes_unknown_draw_looks_the_same_to_the_others() -> None:
    """R7.3/R9: seat 1's 3 draws Y6 in one game and B4 in the other (explicit chance):
    seat 0 and a spectator cannot tell the games apart; seat 1 can."""
    games = [dealt(ORDER, actions=True) for _ in range(2)]
    for game, card in zip(games, ("Y6", "B4"), strict=True):
        game.apply("play O3")
        assert game.step is Step.DRAWING
        game.apply_chance(card)
        assert card in game.hand(1)
    a, b = games
    for seat in (0, None):
        assert a.observe(seat) == b.observe(seat)
        assert dump(a.observation(seat)) == dump(b.observation(seat))
        assert a.events_for(seat) == b.events_for(seat)
    assert a.observe(1).hand != b.observe(1).hand


# --- the typed observation and its JSON ---------------------------------------------------


@settings(max_examples=examples(25))
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**63 - 1),
    moves=st.integers(0, 150),
    explicit=st.booleans(),
)
def test_r9_observation_json_round_trip(config: Config, seed: int, moves: int, explicit: bool) -> None:
    """R9: at every decision point and chance node of a random game, for every seat and
    a spectator, observation(seat) is observe(seat).to_json(), plain JSON, and
    from_json reads it back to an equal Observation."""
    game = Game(config=config, seed=seed, explicit_chance=explicit)
    rnd = random.Random(seed)
    for _ in range(moves):
        for seat in viewers(game):
            obs = game.observe(seat)
            data = game.observation(seat)
            assert data == obs.to_json()
            assert Observation.from_json(json.loads(json.dumps(data))) == obs
        if game.is_over:
            break
        if game.is_chance_node:
            game.apply_chance(rnd.choice(game.chance_outcomes()))
        else:
            game.apply(rnd.choice(game.safe_actions() or game.legal_actions()))


def malformed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = Game(players=2, advanced=True, seed=3).observation(0)
    change(data)
    return data


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(malformed(lambda d: d.pop("hand")), id="seat-without-hand"),
        pytest.param(malformed(lambda d: d.pop("palettes")), id="missing-field"),
        pytest.param(malformed(lambda d: d.update(step="lunch")), id="unknown-step"),
        pytest.param(malformed(lambda d: d.update(rule="pink")), id="unknown-rule"),
        pytest.param(malformed(lambda d: d.update(hand=["R8"])), id="unknown-card"),
        pytest.param(malformed(lambda d: d.update(hand=["R7", "R7"])), id="repeated-card"),
        pytest.param(malformed(lambda d: d.update(canvas="R7")), id="canvas-not-a-list"),
        pytest.param(malformed(lambda d: d.update(players=5)), id="five-players"),
        pytest.param(malformed(lambda d: d.update(advanced="yes")), id="option-not-boolean"),
        pytest.param(malformed(lambda d: d.update(history=[[0, "fly"]])), id="unknown-decision"),
        pytest.param(malformed(lambda d: d.update(result={"winners": [0]})), id="incomplete-result"),
        pytest.param(malformed(lambda d: d.update(round_results=[{"winner": 0}])), id="incomplete-round"),
        pytest.param([1, 2], id="a-list"),
        pytest.param(None, id="null"),
    ],
)
def test_r9_observation_from_malformed_json_raises_game_error(data: Any) -> None:
    """Observation.from_json refuses data that is not an observation with GameError."""
    with pytest.raises(GameError, match="not an observation of red7"):
        Observation.from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(malformed(lambda d: d.update(players=3)), id="players-disagree-with-the-palettes"),
        pytest.param(malformed(lambda d: d.update(alive="yes")), id="alive-not-a-list"),
        pytest.param(malformed(lambda d: d.update(seat="x")), id="seat-not-a-number"),
        pytest.param(malformed(lambda d: d.update(deck_size=-5)), id="negative-deck"),
    ],
)
def test_r9_observation_from_ill_typed_json_raises_game_error(data: Any) -> None:
    """Observation.from_json refuses well-formed JSON whose values cannot be an
    observation (wrong types, per-seat lists that disagree with the player count)."""
    with pytest.raises(GameError):
        Observation.from_json(data)

"""Events (issue 9): what each decision caused, and what each seat may see of it (R9).

``apply``/``apply_id``/``apply_chance`` return the events a decision (or chance) caused
and the game keeps them in order; ``event.seen_by(seat)`` is what front ends broadcast.
The expected events below are worked out by hand from docs/rules.md.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import Action, Card, CardSet, Config, Game, GameError
from red7.core.cards import BLUE, INDIGO, RED
from red7.core.events import (
    EVENT_TYPES,
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    DrawDeclined,
    DrawReason,
    Event,
    GameOver,
    PlayerEliminated,
    RoundDealt,
    RoundOver,
    TurnEnded,
)
from tests.support.configs import CONFIGS
from tests.support.helpers import choose
from tests.support.tiers import examples


def c(name: str) -> Card:
    return Card.parse(name)


def position(hands: list[list[str]], palettes: list[list[str]], **kw: Any) -> Game:
    """A position with the action rules on unless told otherwise."""
    kw.setdefault("actions", True)
    return Game.from_position(hands, palettes, **kw)


def applied(game: Game, action: str) -> list[Event]:
    """Apply ``action`` and check that its returned events are what the log gained."""
    before = len(game.events)
    events = game.apply(action)
    assert list(game.events[before:]) == events
    return events


def deal_of(game: Game) -> RoundDealt:
    """The RoundDealt event the current round must have been dealt with (R2.2-R2.4)."""
    return RoundDealt(
        game.round,
        tuple(c(game.palette(s)[0]) for s in range(game.players)),
        tuple(CardSet(game.hand(s)) for s in range(game.players)),
        game.current_player if game.current_player is not None else -1,
    )


# --- each event where it belongs --------------------------------------------------------------


def test_a_new_game_starts_with_its_deal() -> None:
    """R2.2-R2.4: a seeded game's log starts with the round's deal: every palette card,
    every hand, and the first player (left of the highest palette card)."""
    game = Game(players=3, seed=8)
    assert game.events == (deal_of(game),)
    assert game.decisions == 0


def test_a_built_position_starts_with_an_empty_log() -> None:
    """from_position: a position given card by card has no past events."""
    game = Game.from_position([["R2"], ["O1"]], [["Y5"], ["G6"]], eliminated=None, deck=["B1"])
    assert game.events == () and game.events_for(0) == []


def test_a_play_and_a_canvas_play() -> None:
    """R4.2: a play is one CardPlayed; a canvas play (which ends the turn, R4.3, the
    player winning, R4.4) is CanvasPlayed then TurnEnded."""
    game = Game.from_position([["R2", "V4"], ["O1"]], [["Y5"], ["G6"]])
    assert applied(game, "play R2") == [CardPlayed(0, c("R2"))]
    assert applied(game, "canvas V4") == [CanvasPlayed(0, c("V4")), TurnEnded(0)]
    assert applied(game, "play O1") == [CardPlayed(1, c("O1"))]


def seven_position() -> Game:
    """Rule Orange; P0 palette R2 G2 Y2 B5, hand I7 G3; P1 palette O6 V6 (see test_r7)."""
    return position([["I7", "G3"], ["V3"]], [["R2", "G2", "Y2", "B5"], ["O6", "V6"]], canvas=["O1"])


@pytest.mark.parametrize("to_canvas", [True, False])
def test_a_sevens_move(to_canvas: bool) -> None:
    """R7.7: the 7's move of B5 to the canvas or onto the deck is one CardMoved; ending
    the turn then is TurnEnded."""
    game = seven_position()
    assert applied(game, "play I7") == [CardPlayed(0, c("I7"))]
    assert applied(game, f"move B5 {'canvas' if to_canvas else 'deck'}") == [CardMoved(0, c("B5"), to_canvas)]
    assert applied(game, "end") == [TurnEnded(0)]


def test_a_ones_take() -> None:
    """R7.1: P0's 1 takes R6 from P1's palette: CardTaken names the card and its owner."""
    game = position([["B1", "G6"], ["V5"], ["V6"]], [["G4"], ["R6", "O2"], ["Y5"]])
    assert applied(game, "play B1") == [CardPlayed(0, c("B1"))]
    assert applied(game, "take R6") == [CardTaken(0, c("R6"), 1)]


def test_a_threes_draw_of_an_unknown_card() -> None:
    """R7.3: the 3 draws O5, the unknown top card: a private CardDrawn."""
    game = position([["B3"], ["O2"]], [["G4"], ["V2"]], deck=["O5", "I6"])
    assert applied(game, "play B3") == [CardPlayed(0, c("B3")), CardDrawn(0, c("O5"), False, DrawReason.THREE)]


def test_a_threes_draw_of_a_public_card() -> None:
    """R7.z: a 7 put G2 on the deck in front of everyone; P1's 3 draws it: a public
    CardDrawn."""
    game = position([["R7", "B4"], ["Y3", "O5"]], [["G2"], ["O6"]], deck=["I1", "I2"])
    assert applied(game, "play R7") == [CardPlayed(0, c("R7"))]
    assert applied(game, "move G2 deck") == [CardMoved(0, c("G2"), False)]
    applied(game, "end")
    assert applied(game, "play Y3") == [CardPlayed(1, c("Y3")), CardDrawn(1, c("G2"), True, DrawReason.THREE)]


def draw_position() -> Game:
    """Advanced; canvas B6 (Blue: G, Y against R wins; 6 > 2 palette cards) earns the
    draw (R5.1); the deck's top is O3."""
    return position([["B6", "I1"], ["O1"]], [["G4", "Y2"], ["R6"]], deck=["O3", "O4"], advanced=True)


def test_the_advanced_draw() -> None:
    """R5.1: the canvas play stops at the draw step; 'draw' draws O3 and ends the turn."""
    game = draw_position()
    assert applied(game, "canvas B6") == [CanvasPlayed(0, c("B6"))]
    assert applied(game, "draw") == [CardDrawn(0, c("O3"), False, DrawReason.CANVAS), TurnEnded(0)]


def test_the_advanced_draw_declined() -> None:
    """R5.1: 'decline' draws nothing and ends the turn."""
    game = draw_position()
    applied(game, "canvas B6")
    assert applied(game, "decline") == [DrawDeclined(0), TurnEnded(0)]
    assert game.observe(None).deck_size == 2


def test_a_concession_is_no_turn_end() -> None:
    """R4.2: a concession eliminates its player (conceded=True) and no TurnEnded is
    emitted; with three players the round goes on."""
    game = position([["R2"], ["Y6"], ["B3"]], [["O7"], ["G6"], ["I2"]], current=1)
    assert applied(game, "concede") == [PlayerEliminated(1, True)]
    assert game.current_player == 2


def test_an_empty_hand_eliminates_at_the_turn_start() -> None:
    """R4.1: P0 emptied its hand with a 5 chain; when its turn comes, it is out
    (conceded=False), inside the decision that ended P2's turn."""
    game = position([["B5", "Y2"], ["R6", "V4"], ["O2", "Y3"]], [["G4"], ["I3"], ["V1", "I1"]])
    for action in ("play B5", "play Y2", "end", "play R6", "end"):
        applied(game, action)
    assert applied(game, "canvas O2") == [CanvasPlayed(2, c("O2")), TurnEnded(2), PlayerEliminated(0, False)]
    assert game.current_player == 1


def test_a_round_end_with_scoring_and_the_next_deal() -> None:
    """R6.2 + R8.2 + R8.4: P1 concedes; P0 wins under Blue and scores R6 O5 Y3 (14);
    the next round is dealt at once (RoundDealt of round 2, R8.5)."""
    game = Game.from_position(
        [["B1"], ["G2"]], [["R6", "R4", "O5", "Y3"], ["G7"]], canvas=["B2"], current=1, advanced=True
    )
    events = applied(game, "concede")
    assert events[:2] == [PlayerEliminated(1, True), RoundOver(1, 0, BLUE, CardSet(["R6", "O5", "Y3"]), 14)]
    assert events[2:] == [deal_of(game)] and game.round == 2


def test_a_round_end_without_scoring_ends_the_basic_game() -> None:
    """R6.3: in the basic game the round's winner scores nothing and wins the game."""
    game = Game.from_position([["B1"], ["G2"]], [["R6"], ["G7"]], current=1)
    assert applied(game, "concede") == [
        PlayerEliminated(1, True),
        RoundOver(1, 0, RED, CardSet([]), 0),
        GameOver((0,), (0, 0), 1),
    ]


def test_the_target_ends_the_match() -> None:
    """R8.3: P0 had 33 points, scores R7 under Red and reaches 40: RoundOver, then
    GameOver, no new deal."""
    game = Game.from_position(
        [["B1"], ["G2"]],
        [["R7"], ["G6"]],
        current=1,
        advanced=True,
        scores=[["V7", "I7", "B7", "G7", "Y5"], []],
    )
    assert applied(game, "concede") == [
        PlayerEliminated(1, True),
        RoundOver(1, 0, RED, CardSet(["R7"]), 7),
        GameOver((0,), (40, 0), 1),
    ]


# --- returns and the log ----------------------------------------------------------------------


@settings(max_examples=examples(30))
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**63 - 1), explicit=st.booleans())
def test_returned_events_are_exactly_the_log(config: Config, seed: int, explicit: bool) -> None:
    """apply, apply_id and apply_chance return exactly the events they add to the log:
    the deal's own events followed by every return, in order, are game.events."""
    game = Game(config=config, seed=seed, explicit_chance=explicit)
    log = list(game.events)
    rng = random.Random(seed)
    while not game.is_over:
        if game.is_chance_node:
            log += game.apply_chance(rng.choice(game.chance_outcomes()))
        elif rng.random() < 0.5:
            log += game.apply_id(choose(game, rng))
        else:
            log += game.apply(choose(game, rng))
        assert tuple(log) == game.events
    assert isinstance(game.events[-1], GameOver)
    assert sum(isinstance(e, RoundDealt) for e in log) == game.round
    assert sum(isinstance(e, RoundOver) for e in log) == len(game.round_results)


# --- seen_by --------------------------------------------------------------------------------


def test_an_unknown_draw_is_hidden_from_everyone_but_the_drawer() -> None:
    """R9: the 3's unknown draw is seen by its drawer; the other seats and a spectator
    see that P0 drew, not what."""
    game = position([["B3"], ["O2"], ["Y1"]], [["G4"], ["V2"], ["I1"]], deck=["O5", "I6"])
    drawn = applied(game, "play B3")[-1]
    assert drawn.seen_by(0) == CardDrawn(0, c("O5"), False, DrawReason.THREE)
    for viewer in (1, 2, None):
        assert drawn.seen_by(viewer) == CardDrawn(0, None, False, DrawReason.THREE)
        assert "O5" not in json.dumps([e.to_json() for e in game.events_for(viewer)])
    assert game.events_for(0)[-1] == drawn


def test_a_public_draw_is_seen_by_all() -> None:
    """R7.z: a drawn card everyone saw put on the deck is public to every viewer."""
    game = position([["R7", "B4"], ["Y3", "O5"]], [["G2"], ["O6"]], deck=["I1", "I2"])
    for action in ("play R7", "move G2 deck", "end"):
        applied(game, action)
    drawn = applied(game, "play Y3")[-1]
    for viewer in (0, 1, None):
        assert drawn.seen_by(viewer) == CardDrawn(1, c("G2"), True, DrawReason.THREE)


def test_a_deal_shows_each_seat_only_its_own_hand() -> None:
    """R9: RoundDealt shows everyone the palettes and the first player, each seat its
    own hand, and a spectator no hand."""
    game = Game(players=3, seed=2)
    (dealt,) = game.events
    assert isinstance(dealt, RoundDealt)
    for seat in range(3):
        mine = dealt.seen_by(seat)
        assert isinstance(mine, RoundDealt)
        assert mine.hands == tuple(CardSet(game.hand(s)) if s == seat else None for s in range(3))
        assert (mine.palettes, mine.first_player, mine.round) == (dealt.palettes, dealt.first_player, 1)
    assert dealt.seen_by(None) == RoundDealt(1, dealt.palettes, (None, None, None), dealt.first_player)


def test_public_events_look_the_same_to_everyone() -> None:
    """R9: events without hidden parts are seen as they are."""
    events: list[Event] = [
        CardPlayed(0, c("R7")),
        CanvasPlayed(1, c("B3")),
        CardMoved(0, c("G2"), True),
        CardTaken(1, c("O4"), 0),
        DrawDeclined(0),
        TurnEnded(1),
        PlayerEliminated(0, False),
        RoundOver(2, 1, "green", CardSet(["G2"]), 2),
        GameOver((0, 1), (7, 7), 64),
    ]
    for event in events:
        assert all(event.seen_by(viewer) == event for viewer in (0, 1, 2, None))


CARD = re.compile(r"\b[ROYGBIV][1-7]\b")


def mentioned(data: object) -> set[str]:
    """Every card named anywhere in JSON-ready data."""
    return set(CARD.findall(json.dumps(data)))


def public_cards(game: Game, viewer: int | None) -> set[str]:
    """The cards ``viewer``'s observation shows now, its list of past decisions aside."""
    data = game.observation(viewer)
    del data["history"]
    return mentioned(data)


@settings(max_examples=examples(25))
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**63 - 1), explicit=st.booleans())
def test_no_event_shows_a_seat_a_card_it_cannot_see(config: Config, seed: int, explicit: bool) -> None:
    """R9: every card named by an event as seat s (or a spectator) sees it was public
    when it happened: shown by s's observation just before or just after the decision
    (palettes, canvas, the known deck top, piles, round results), or named by the
    decision itself; or it is s's own: a card s drew is in s's hand afterwards (unless
    the turn it ended also ended the round)."""
    game = Game(config=config, seed=seed, explicit_chance=explicit)
    rng = random.Random(seed)
    viewers = [*range(config.players), None]
    after = {v: public_cards(game, v) for v in viewers}
    while not game.is_over:
        before, start, round_before = after, len(game.events), game.round
        named: set[str] = set()
        if game.is_chance_node:
            game.apply_chance(rng.choice(game.chance_outcomes()))
        else:
            action = Action.from_id(choose(game, rng))
            named = {str(action.card)} if action.card is not None else set()
            game.apply(action)
        after = {v: public_cards(game, v) for v in viewers}
        for v in viewers:
            public = before[v] | after[v] | named
            for event in game.events_for(v, start):
                if isinstance(event, CardDrawn) and event.seat == v and not event.public and event.card is not None:
                    assert str(event.card) in game.hand(v) or game.round != round_before
                    continue
                assert mentioned(event.to_json()) <= public, (v, event)


def test_events_for_starts_where_asked() -> None:
    """events_for(seat, start) is the log from event ``start`` on, as ``seat`` sees it."""
    game = position([["B3"], ["O2"]], [["G4"], ["V2"]], deck=["O5", "I6"])
    applied(game, "play B3")
    assert game.events_for(1, 1) == [CardDrawn(0, None, False, DrawReason.THREE)]
    assert game.events_for(0) == list(game.events)


# --- JSON -----------------------------------------------------------------------------------


def test_events_to_json() -> None:
    """to_json(): {"event": snake_case name, field: value...}, cards in notation, card
    sets highest card first, tuples as lists, hidden parts as null."""
    hands = (CardSet(["R1", "B7"]), None)
    assert RoundDealt(2, (c("O7"), c("V1")), hands, 1).to_json() == {
        "event": "round_dealt",
        "round": 2,
        "palettes": ["O7", "V1"],
        "hands": [["B7", "R1"], None],
        "first_player": 1,
    }
    assert CardPlayed(0, c("R7")).to_json() == {"event": "card_played", "seat": 0, "card": "R7"}
    assert CanvasPlayed(1, c("B3")).to_json() == {"event": "canvas_played", "seat": 1, "card": "B3"}
    assert CardMoved(0, c("G2"), False).to_json() == {
        "event": "card_moved",
        "seat": 0,
        "card": "G2",
        "to_canvas": False,
    }
    assert CardTaken(1, c("O4"), 0).to_json() == {"event": "card_taken", "seat": 1, "card": "O4", "owner": 0}
    assert CardDrawn(0, None, False, DrawReason.THREE).to_json() == {
        "event": "card_drawn",
        "seat": 0,
        "card": None,
        "public": False,
        "reason": "three",
    }
    assert CardDrawn(0, c("I2"), True, DrawReason.CANVAS).to_json() == {
        "event": "card_drawn",
        "seat": 0,
        "card": "I2",
        "public": True,
        "reason": "canvas",
    }
    assert DrawDeclined(1).to_json() == {"event": "draw_declined", "seat": 1}
    assert TurnEnded(0).to_json() == {"event": "turn_ended", "seat": 0}
    assert PlayerEliminated(2, True).to_json() == {"event": "player_eliminated", "seat": 2, "conceded": True}
    assert RoundOver(3, 1, INDIGO, CardSet(["I2", "G3"]), 5).to_json() == {
        "event": "round_over",
        "round": 3,
        "winner": 1,
        "rule": "indigo",
        "scored": ["G3", "I2"],
        "points": 5,
    }
    assert GameOver((0, 2), (30, 1, 30), 4).to_json() == {
        "event": "game_over",
        "winners": [0, 2],
        "scores": [30, 1, 30],
        "rounds": 4,
    }
    assert {t.__name__ for t in EVENT_TYPES} == {
        "RoundDealt",
        "CardPlayed",
        "CanvasPlayed",
        "CardMoved",
        "CardTaken",
        "CardDrawn",
        "DrawDeclined",
        "TurnEnded",
        "PlayerEliminated",
        "RoundOver",
        "GameOver",
    }


@pytest.mark.parametrize("config", CONFIGS[::3], ids=str)
def test_every_event_of_a_game_is_json(config: Config) -> None:
    """Every event of whole games, as every viewer sees it, survives a JSON round trip
    and carries its name."""
    for seed in range(5):
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply_id(choose(game, rng))
        for viewer in [*range(config.players), None]:
            for event in game.events_for(viewer):
                data = event.to_json()
                assert json.loads(json.dumps(data)) == data and data["event"] == event.name


@pytest.mark.parametrize("seat", [2, -1, "0", True])
def test_events_for_refuses_a_seat_that_is_not_at_the_table(seat: object) -> None:
    """R9: a view is a seat's or the spectator's (None); any other viewer is an error,
    as for observe(), not silently the spectator's view."""
    game = Game(players=2, seed=1)
    with pytest.raises(GameError, match="not one of 0..1"):
        game.events_for(seat)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="not one of 0..1"):
        game.observe(seat)  # type: ignore[arg-type]

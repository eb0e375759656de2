"""Decision notation (src/red7/actions.py) and the order of legal decisions.

Notation is fixed by R1.3 (cards are a colour letter ``R O Y G B I V`` and a value)
and by the table in actions.py; the decision kinds themselves come from R4.2
(play, canvas, concede), R4.6 (end), R5.1 (draw / decline), R7.7 (move) and R7.1 (take).
"""

from __future__ import annotations

import random

import pytest

from red7 import NUM_ACTIONS, Action, ActionError, Game
from red7.core.actions import to_action

COLOUR_LETTERS = "ROYGBIV"
ALL_CARD_NAMES = [c + str(v) for v in range(1, 8) for c in COLOUR_LETTERS]


def all_actions() -> list[Action]:
    return [Action.from_id(i) for i in range(NUM_ACTIONS)]


# --- the action space ------------------------------------------------------------


def test_action_space_has_249_ids() -> None:
    """5 card kinds x 49 cards (play, canvas, move->canvas, move->deck, take) + end,
    concede, draw, decline (R4.2, R4.6, R5.1, R7.7, R7.1)."""
    assert NUM_ACTIONS == 5 * 49 + 4 == 249


@pytest.mark.parametrize("action_id", range(249))
def test_every_id_prints_and_parses_back_to_the_same_instance(action_id: int) -> None:
    a = Action.from_id(action_id)
    assert a.id == action_id
    assert Action.from_id(a.id) is a
    assert Action.parse(str(a)) is a
    assert to_action(str(a)) is a and to_action(a.id) is a and to_action(a) is a


def test_all_texts_are_distinct_and_cover_every_notation_form() -> None:
    """Each of the 249 ids has its own text; the expected texts are built here from
    the notation (R1.3 card names), not read from the engine."""
    texts = [str(a) for a in all_actions()]
    assert len(set(texts)) == 249
    expected = set()
    for name in ALL_CARD_NAMES:
        expected |= {f"play {name}", f"canvas {name}", f"move {name} canvas", f"move {name} deck", f"take {name}"}
    expected |= {"end", "concede", "draw", "decline"}
    assert set(texts) == expected


def test_ids_of_known_decisions() -> None:
    """Ids are fixed (documented table): play 0..48 in card order (R1.2: V1 lowest,
    R7 highest), canvas 49.., move canvas 98.., move deck 147.., take 196.., then
    end 245, concede 246, draw 247, decline 248."""
    assert Action.parse("play V1").id == 0
    assert Action.parse("play R1").id == 6
    assert Action.parse("play V2").id == 7
    assert Action.parse("play R7").id == 48
    assert Action.parse("canvas V1").id == 49
    assert Action.parse("canvas R7").id == 97
    assert Action.parse("move V1 canvas").id == 98
    assert Action.parse("move V1 deck").id == 147
    assert Action.parse("take V1").id == 196
    assert Action.parse("take R7").id == 244
    assert [Action.parse(w).id for w in ("end", "concede", "draw", "decline")] == [245, 246, 247, 248]


def test_card_and_kind_attributes() -> None:
    a = Action.parse("move G2 deck")
    assert (a.kind, str(a.card), a.destination) == ("move", "G2", "deck")
    b = Action.parse("move G2 canvas")
    assert (b.kind, str(b.card), b.destination) == ("move", "G2", "canvas")
    c = Action.parse("take O4")
    assert (c.kind, str(c.card), c.destination) == ("take", "O4", None)
    assert Action.parse("concede").card is None


# --- tolerance ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PLAY r7", "play R7"),
        ("  play   R7  ", "play R7"),
        ("\tCanvas b3\n", "canvas B3"),
        ("move g2  Canvas", "move G2 canvas"),
        ("MOVE G2 DECK", "move G2 deck"),
        ("Take o4", "take O4"),
        (" END ", "end"),
        ("Concede\n", "concede"),
        ("DRAW", "draw"),
        ("decLine", "decline"),
    ],
)
def test_case_and_whitespace_are_tolerated(text: str, expected: str) -> None:
    """Words and cards are case-insensitive (R1.3 letters in any case); extra blanks ignored."""
    assert str(Action.parse(text)) == expected


# --- bad notation -------------------------------------------------------------------

SYNTAX_HINTS = ("play R7", "canvas", "move", "end", "concede")


@pytest.mark.parametrize(
    "text",
    ["play", "move R7 hand", "fly", "", "   ", "take", "play R7 R6", "end now", "move R7", "canvas", "R7", "playR7"],
)
def test_bad_syntax_raises_action_error_listing_the_allowed_forms(text: str) -> None:
    with pytest.raises(ActionError) as info:
        Action.parse(text)
    message = str(info.value)
    assert repr(text) in message
    for hint in SYNTAX_HINTS:
        assert hint in message


@pytest.mark.parametrize("text", ["play R8", "play X3", "canvas R0", "take 7", "move Q2 deck", "play R77"])
def test_unknown_card_raises_action_error_saying_how_cards_are_written(text: str) -> None:
    """R1.3: a card is a colour letter R O Y G B I V and a value 1-7."""
    with pytest.raises(ActionError) as info:
        Action.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "R O Y G B I V" in message and "1-7" in message


def test_action_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Action.parse("fly")


@pytest.mark.parametrize("bad", [None, 7, 1.5, ["play", "R7"]])
def test_parse_of_non_text_raises_action_error(bad: object) -> None:
    with pytest.raises(ActionError):
        Action.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 249, 10_000, "3", 2.0, None])
def test_from_id_outside_the_space_raises_action_error(bad: object) -> None:
    with pytest.raises(ActionError) as info:
        Action.from_id(bad)  # type: ignore[arg-type]
    assert "0..248" in str(info.value)


# --- order of legal decisions -------------------------------------------------------


def _positions(players: int, advanced: bool, actions: bool, seed: int, limit: int = 400) -> list[Game]:
    """Snapshots (clones) of a game driven by random legal decisions, mostly safe ones."""
    rng = random.Random(seed)
    game = Game(players, advanced, actions, seed=seed)
    out: list[Game] = []
    while not game.is_over and len(out) < limit:
        out.append(game.clone())
        safe = game.safe_actions()
        pool = safe if safe and rng.random() < 0.95 else game.legal_actions()
        game.apply(rng.choice(pool))
    return out


CONFIGS = [(2, False, False, 11), (3, False, True, 12), (4, True, True, 13), (2, True, True, 14)]


@pytest.mark.parametrize(("players", "advanced", "actions", "seed"), CONFIGS)
def test_legal_actions_are_in_strictly_increasing_id_order(
    players: int, advanced: bool, actions: bool, seed: int
) -> None:
    for game in _positions(players, advanced, actions, seed):
        ids = [a.id for a in game.legal_actions()]
        assert ids, "concede is always legal (R4.2.4) while the game runs"
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        assert Action.from_id(246) in game.legal_actions()  # R4.2.4: concede always allowed


@pytest.mark.parametrize(("players", "advanced", "actions", "seed"), CONFIGS)
def test_legal_actions_are_deterministic_across_calls_clones_and_replays(
    players: int, advanced: bool, actions: bool, seed: int
) -> None:
    """Same list twice, for a clone, and for a game rebuilt from seed + history
    (which has no cached list to share)."""
    for game in _positions(players, advanced, actions, seed, limit=120):
        first = game.legal_actions()
        assert game.legal_actions() == first
        assert game.clone().legal_actions() == first
        rebuilt = Game(players, advanced, actions, seed=seed)
        for _, action in game.history:
            rebuilt.apply(action)
        assert rebuilt.legal_actions() == first
        assert rebuilt.safe_actions() == game.safe_actions()


def test_legal_actions_of_a_finished_game_are_empty() -> None:
    game = Game(players=2, seed=5)
    game.apply("concede")
    assert game.is_over and game.legal_actions() == []

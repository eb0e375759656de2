"""The board's frames: why a card is greyed (for the mover only, worded by the same
function as the terminal game) and the last move's cards (never a card the receiver may
not see, R9). Built from positions, without a server."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7.core.cards import Card, bits_of
from red7.core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    DrawDeclined,
    Event,
    PlayerEliminated,
    RoundDealt,
    TurnEnded,
)
from red7.core.game import Game
from red7.core.model import Config
from red7.play.last_move import LastMove, last_move
from red7.play.session import Session
from red7.play.table import Seat, Table
from red7.ui.i18n import set_language, using
from red7.ui.words import unusable_reason
from red7.web.protocol import SERVER_FRAME
from red7.web.table.cache import FrameCache
from red7.web.table.live import LiveTable, SeatState
from red7.web.table.views import table_frame
from tests.support.configs import CONFIGS
from tests.support.helpers import make
from tests.support.tiers import examples

NAMES = ("Ana", "Bia")


def live_at(game: Game, lang: str = "en") -> LiveTable:
    """A web table playing ``game`` (Ana in seat 0, Bia in seat 1, both people)."""
    seats = [SeatState(name=n, token_hash=f"h{n}") for n in NAMES]
    session = Session(Table.around(game, [Seat(n) for n in NAMES]))
    return LiveTable(
        "t1", lang, Config(2, game.config.advanced, game.config.actions), seats, "playing", session=session
    )


def frame_of(live: LiveTable, seat: int | None) -> dict[str, Any]:
    frame = table_frame(live, seat)
    SERVER_FRAME.validate_python(frame, strict=True)  # the protocol's contract holds
    return frame


@pytest.fixture(autouse=True)
def english() -> Any:
    yield
    set_language("en")


def test_a_greyed_card_says_why_to_the_mover_only_in_the_terminal_games_words() -> None:
    """Ana's hand R7 B3 G1 against Bia's O6: each card no decision names carries the
    engine's refusal; a palette card says which action would move it. Bia and a
    spectator get none of it (it is the mover's turn, and its words)."""
    game = make(["R7 B3", "G1"], ["O6", "Y5"])
    live = live_at(game)
    table = live.table
    assert table is not None
    mine = frame_of(live, 0)["game"]
    usable = {option["card"] for option in mine["options"] if option["card"]}
    obs = table.observe(0)
    expected = {
        str(card): why
        for card in [*map(Card.parse, ["R7", "B3", "O6", "Y5"])]
        if str(card) not in usable and (why := unusable_reason(obs, card, table.check, list(NAMES))) is not None
    }
    assert mine["unusable"] == expected
    assert mine["unusable"]["O6"] == "O6 is in your palette: a card played to a palette stays there."
    assert mine["unusable"]["Y5"] == "Y5 is in Bia's palette: a card played to a palette stays there."
    assert not usable & set(mine["unusable"])
    assert frame_of(live, 1)["game"]["unusable"] == {}
    assert frame_of(live, None)["game"]["unusable"] == {}


@pytest.mark.parametrize(
    ("actions", "lang", "mine", "hers"),
    [
        (
            False,
            "pt-BR",
            "Lj6 está na sua Paleta: uma carta jogada numa Paleta fica nela.",
            "Am5 está na Paleta de Bia: uma carta jogada numa Paleta fica nela.",
        ),
        (
            True,
            "en",
            "O6 is in your palette: only a 7's action moves a palette card.",
            "Y5 is in Bia's palette: only a 1's action takes a card from another palette.",
        ),
        (
            True,
            "pt-BR",
            "Lj6 está na sua Paleta: só a ação do 7 move uma carta da Paleta.",
            "Am5 está na Paleta de Bia: só a ação do 1 pega uma carta de outra Paleta.",
        ),
    ],
)
def test_a_palette_cards_reason_speaks_of_action_cards_only_at_a_table_with_them(
    actions: bool, lang: str, mine: str, hers: str
) -> None:
    """Which action would move a palette card is said only where action cards are played;
    at a basic table the reason is that a card played stays (issue 48, item 4)."""
    live = live_at(make(["R7 B3", "G1"], ["O6", "Y5"], actions=actions), lang)
    reasons = frame_of(live, 0)["game"]["unusable"]
    assert (reasons["O6"], reasons["Y5"]) == (mine, hers)


def test_a_hand_card_the_engine_refuses_is_told_with_its_refusal_in_both_languages() -> None:
    """The 7's step (R7.7): the 7 cannot move itself; the frame says it as the terminal
    game does, in the table's language."""
    game = make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True)
    game.apply("play R7")
    live = live_at(game)
    assert frame_of(live, 0)["game"]["unusable"]["R7"] == (
        "R7 cannot be used now: The 7 moves another card of your palette, not R7 itself."
    )
    portuguese = live_at(make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True), "pt-BR")
    assert portuguese.table is not None
    portuguese.table.decide("play R7")
    why = frame_of(portuguese, 0)["game"]["unusable"]["R7"]
    assert why.startswith("Vm7 ") and "R7" not in why


def test_the_last_move_shows_a_threes_draw_to_the_drawer_only_R7_3_R9() -> None:
    """Ana plays G3 and draws R7 (R7.3): her frame's last move is G3 and R7; Bia's and
    a spectator's are G3 alone (the drawn card is Ana's)."""
    game = make(["G3 B1", "V2"], ["O6", "Y5"], deck="R7 V1", actions=True)
    live = live_at(game)
    assert live.table is not None
    live.table.decide("play G3")
    assert frame_of(live, 0)["game"]["last"] == {"seat": 0, "cards": ["G3", "R7"]}
    live.table.decide("end")
    assert frame_of(live, 0)["game"]["last"] == {"seat": 0, "cards": ["G3", "R7"]}
    assert frame_of(live, 1)["game"]["last"] == {"seat": 0, "cards": ["G3"]}
    assert frame_of(live, None)["game"]["last"] == {"seat": 0, "cards": ["G3"]}


def test_the_last_move_of_a_sevens_and_a_ones_action_R7_7_R7_1() -> None:
    """A 7 moving Y4 onto the deck, then a 1 taking a card: each turn's moved cards, in
    the order moved, for every viewer (they are public)."""
    game = make(["R7 B2", "I1 O3"], ["O5 Y4", "V6"], actions=True)
    game.apply("play R7")
    game.apply("move Y4 deck")
    game.apply("end")
    assert last_move(game.events_for(1)) == LastMove(0, (Card.parse("R7"), Card.parse("Y4")))
    game.apply("play I1")
    game.apply("take R7")
    assert last_move(game.events_for(None)) == LastMove(1, (Card.parse("I1"), Card.parse("R7")))


def test_no_last_move_before_the_first_turn_or_after_a_hidden_draw_alone() -> None:
    """Nothing moved yet: None. An advanced canvas draw of an unknown card is seen by
    the others as the canvas card alone (the drawn card is never named)."""
    game = make(["B7 G2", "Y4"], ["R6", "O5"], deck="V4 I2", advanced=True)
    assert last_move(game.events_for(0)) is None
    game.apply("canvas B7")
    game.apply("draw")
    assert last_move(game.events_for(0)) == LastMove(0, (Card.parse("B7"), Card.parse("V4")))
    assert last_move(game.events_for(1)) == LastMove(0, (Card.parse("B7"),))


MOVES = (CardPlayed, CanvasPlayed, CardMoved, CardTaken, CardDrawn)


def plain_last_move(events: Sequence[Event]) -> dict[str, Any] | None:
    """The frame's ``last``, read forwards from the first event, as docs/web.md says it:
    the cards that the latest turn with a move moved, as the viewer's events show them;
    a deal clears it, a turn ends at its ``TurnEnded`` or at another seat's event."""
    last: tuple[int, list[str]] | None = None
    open_turn = False
    for event in events:
        seat = getattr(event, "seat", None)
        if isinstance(event, RoundDealt):
            last, open_turn = None, False
        elif isinstance(event, TurnEnded) or (open_turn and seat is not None and last and seat != last[0]):
            open_turn = False
        if isinstance(event, (*MOVES, DrawDeclined, PlayerEliminated)):
            assert isinstance(seat, int)
            if not open_turn:
                last, open_turn = (seat, []), True
            assert last is not None
            if isinstance(event, MOVES) and event.card is not None:
                last[1].append(str(event.card))
    return {"seat": last[0], "cards": last[1]} if last is not None and last[1] else None


def plain_unusable(table: Table, seat: int, names: Sequence[str], named: set[str]) -> list[tuple[str, str]]:
    """The mover's greyed cards with the terminal game's words, a card at a time
    (:func:`~red7.ui.words.unusable_reason`), in the order a frame lists them: the
    hand, then each palette in seat order, each from its lowest card."""
    obs = table.observe(seat)
    cards = [Card(i) for mask in (obs.hand or 0, *obs.palettes) for i in bits_of(mask)]
    found = [(str(c), unusable_reason(obs, c, table.check, names)) for c in cards if str(c) not in named]
    return [(card, why) for card, why in found if why is not None]


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1), lang=st.sampled_from(["en", "pt-BR"]))
def test_every_frames_greyed_cards_and_last_move_are_their_plain_definitions(
    config: Config, seed: int, lang: str
) -> None:
    """A whole game of people, every seat's and a spectator's frame at every decision
    point, made as the server makes them (:class:`~red7.web.table.cache.FrameCache`): the
    mover's ``unusable`` is the terminal game's reason of each card no option names, in
    the hand-then-palettes order, and nobody else's has any; every ``last`` is the plain
    forward reading of that viewer's events. (The frames' content, kept when the server
    made both faster.)"""
    names = ["Ana", "Bia", "Caio", "Davi"][: config.players]
    seats = [SeatState(name=n, token_hash=f"h{n}") for n in names]
    table = Table([Seat(n) for n in names], config, seed=seed)
    live = LiveTable("t1", lang, config, seats, "playing", session=Session(table))
    cache, rng = FrameCache(), random.Random(seed)
    while True:
        for seat in [*range(config.players), None]:
            game = cache.view(live, seat).whole["game"]
            assert game["last"] == plain_last_move(table.events_for(seat))
            if seat is not None and seat == table.current:
                named = {option["card"] for option in game["options"] if option["card"]}
                with using(lang):
                    assert list(game["unusable"].items()) == plain_unusable(table, seat, names, named)
            else:
                assert game["unusable"] == {}
        if table.is_over:
            break
        options = table.options()
        safe = [o.action for o in options if o.safe]
        table.decide(rng.choice(safe) if safe and rng.random() < 0.95 else rng.choice(options).action)

"""A table (red7.play.table): people's staged turns, bots from observations, records."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from red7 import Game
from red7.bots import Bot, Option, make_bot
from red7.core.actions import Action
from red7.core.cards import Card, CardSet
from red7.core.events import CardDrawn, DrawReason
from red7.core.model import Config, GameError, IllegalActionError, RefusalCode, Step
from red7.core.observation import Observation
from red7.core.record import replay
from red7.play.records import load
from red7.play.table import Seat, Table
from tests.support.helpers import make


def person_vs(spec: str = "easy", seed: int = 1, config: Config | None = None) -> Table:
    return Table([Seat("Ana"), Seat("", make_bot(spec), spec)], config, seed=seed)


def test_a_person_plays_then_takes_the_turn_back() -> None:
    table = Table.around(make(["R7 B3", "G1"], ["O6", "Y5"], current=0), [Seat("Ana"), Seat("Bia")])
    before = table.game.fingerprint()
    table.decide("play R7")
    assert table.staged == [Action.parse("play R7")]
    assert table.game.palette(0) == ["R7", "O6"]
    assert table.take_back() is True
    assert table.game.fingerprint() == before
    assert table.staged == [] and table.take_back() is False


def test_a_staged_turn_is_its_movers_alone_until_it_is_committed_R9() -> None:
    """Bia and a spectator see the table as the turn began (board, log, hand sizes),
    also after Ana's play is taken back; Ana's committed turn reaches everyone whole."""
    table = Table.around(make(["R7 B3", "G1"], ["O6", "Y5"], current=0), [Seat("Ana"), Seat("Bia")])
    before = {seat: (table.observe(seat), table.events_for(seat)) for seat in (1, None)}
    table.decide("play R7")
    assert CardSet(table.observe(0).palettes[0]) == CardSet(["R7", "O6"])
    assert {seat: (table.observe(seat), table.events_for(seat)) for seat in (1, None)} == before
    table.take_back()
    assert {seat: (table.observe(seat), table.events_for(seat)) for seat in (1, None)} == before
    table.decide("play R7")
    table.decide("end")
    for seat in (1, None):
        assert CardSet(table.observe(seat).palettes[0]) == CardSet(["R7", "O6"])
        assert table.events_for(seat) == table.game.events_for(seat)


def test_a_copy_caught_up_shows_and_takes_back_what_the_original_does() -> None:
    """Another server process's copy of a table, caught up with a staged turn after it
    had one of its own (Ana's, since ended): every seat's view and the take-back are the
    original's, not those of the start of Ana's turn."""

    def copy() -> Table:
        return Table.around(make(["R7 B3", "G1 Y2"], ["O6", "Y5"], current=0), [Seat("Ana"), Seat("Bia")])

    original, other = copy(), copy()

    def catch_up() -> None:
        other.catch_up([action for _seat, action in original.game.history], original.committed)
        for seat in (0, 1, None):
            assert other.observe(seat) == original.observe(seat), seat
            assert other.events_for(seat) == original.events_for(seat), seat

    original.decide("play R7")
    catch_up()
    original.decide("end")
    original.decide("play G1")  # Bia's turn, staged
    catch_up()
    assert other.take_back() and original.take_back()
    assert other.game.fingerprint() == original.game.fingerprint()
    catch_up()


def test_the_turn_ending_decision_clears_the_stage() -> None:
    table = Table.around(make(["R7 B3", "G1"], ["O6", "Y5"], current=0), [Seat("Ana"), Seat("Bia")])
    table.decide("play R7")
    assert table.ends_turn("end") and table.ends_turn("canvas B3")  # basic game: the canvas ends the turn
    table.decide("end")
    assert table.current == 1 and table.staged == [] and table.take_back() is False


def test_an_advanced_canvas_with_a_draw_to_come_does_not_end_the_turn_R5_1() -> None:
    game = make(["B3 G1", "V2"], ["O6", "Y5"], deck="R7 V1", advanced=True)
    table = Table.around(game, [Seat("Ana"), Seat("Bia")])
    assert not table.ends_turn("canvas B3")  # 3 > 1 card in the palette: draw or decline follows
    table.decide("canvas B3")
    assert table.game.step is Step.DRAW and table.staged == [Action.parse("canvas B3")]
    assert table.ends_turn("decline") and table.ends_turn("draw")


def test_a_drawn_card_cannot_be_taken_back_R7_3() -> None:
    """Playing a 3 draws an unknown card: taking the turn back would let the player peek at the deck."""
    game = make(["Y3 B2", "G1"], ["O6", "Y5"], deck="R7 V1", actions=True)
    table = Table.around(game, [Seat("Ana"), Seat("Bia")])
    events = table.decide("play Y3")
    assert [e for e in events if isinstance(e, CardDrawn)] == [CardDrawn(0, Card.parse("R7"), False, DrawReason.THREE)]
    assert "R7" in table.game.hand(0)
    assert table.staged == [] and table.take_back() is False
    assert "R7" in table.game.hand(0)


def public_top() -> Table:
    """Ana's 3 would draw R7, which a 7 or a 1 put face down on top of the deck, so
    everyone knows it (R7.z)."""
    game = Game.from_position([["Y3", "B2"], ["G1"]], [["O6"], ["Y5"]], deck=["R7", "V1"], deck_known=1, actions=True)
    return Table.around(game, [Seat("Ana"), Seat("Bia")])


def test_a_public_draw_can_be_taken_back_R7_z() -> None:
    """A 3 that draws the public top card reveals nothing: the turn can still be taken back whole."""
    table = public_top()
    before = table.game.fingerprint()
    events = table.decide("play Y3")
    assert [e for e in events if isinstance(e, CardDrawn)] == [CardDrawn(0, Card.parse("R7"), True, DrawReason.THREE)]
    assert table.staged == [Action.parse("play Y3")]
    assert table.take_back() is True
    assert table.game.fingerprint() == before


def test_a_preview_never_shows_a_drawn_card() -> None:
    game = make(["Y3 B2", "G1"], ["O6", "Y5"], deck="R7 V1", actions=True)
    table = Table.around(game, [Seat("Ana"), Seat("Bia")])
    assert table.preview("play Y3") is None
    after = table.preview("play B2")
    assert after is not None and CardSet(after.palettes[0]) == CardSet(["O6", "B2"])
    assert table.game.palette(0) == ["O6"]  # previews change nothing


def test_a_preview_of_a_public_draw_is_shown_R7_z() -> None:
    """Drawing the public top card shows nothing new: the preview is given (it used to be
    refused because the deck got shorter)."""
    table = public_top()
    after = table.preview("play Y3")
    assert after is not None and after.hand is not None and "R7" in CardSet(after.hand)
    assert table.game.palette(0) == ["O6"] and "R7" not in table.game.hand(0)  # the preview changed nothing


def test_an_illegal_decision_changes_nothing() -> None:
    table = person_vs(seed=4)
    while not table.person_to_move:
        table.play_bot()
    before = table.game.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        table.decide("end")  # R4.6: no 'end' at the start of a turn
    assert err.value.refusal.code is RefusalCode.WRONG_STEP
    assert table.check("end") == err.value.refusal
    assert table.game.fingerprint() == before and table.staged == []


def test_people_cannot_move_for_bots_and_bots_not_for_people() -> None:
    table = person_vs(seed=4)
    if table.person_to_move:
        with pytest.raises(GameError):
            table.play_bot()
    else:
        with pytest.raises(GameError):
            table.decide(table.options()[0].action)


class Spy(Bot):
    """Remembers what it was given, and plays the first safe option."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Observation] = []
        self.offered: list[list[Option]] = []

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        self.seen.append(observation)
        self.offered.append(list(options))
        return next((o.action for o in options if o.safe), options[0].action)


def test_bots_receive_their_seats_observation_and_nothing_else() -> None:
    spy = Spy()
    table = Table([Seat("", spy, "spy"), Seat("", make_bot("easy"), "easy")], seed=9)
    while not table.is_over:
        seat = table.current
        turn = table.bot_turn()
        assert turn.seat == seat and turn.observation == table.game.observe(seat)
        # the options are the game's legal decisions with the engine's safety marks (R4.7)
        assert turn.options == table.game.options()
        assert [o.action for o in turn.options] == table.game.legal_actions()
        assert {o.action for o in turn.options if o.safe} == set(table.game.safe_actions())
        table.apply_bot(turn.choose())
    assert spy.seen and all(o.seat == 0 and isinstance(o, Observation) for o in spy.seen)


def test_the_same_seed_gives_the_same_bot_game() -> None:
    def bot_game(seed: int) -> tuple[object, ...]:
        table = Table([Seat("", make_bot("medium"), "medium"), Seat("", make_bot("easy"), "easy")], seed=seed)
        while not table.is_over:
            table.play_bot()
        return table.game.history

    assert bot_game(5) == bot_game(5)


def test_an_unseeded_table_draws_a_fresh_seed() -> None:
    seeds = {Table([Seat(), Seat("", make_bot("easy"), "easy")]).seed for _ in range(3)}
    assert len(seeds) == 3


def test_the_record_of_a_table_replays(tmp_path: Path) -> None:
    table = Table(
        [Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy")],
        Config(3, advanced=True, actions=True),
        seed=3,
    )
    while not table.is_over:
        table.play_bot()
    path = table.save(tmp_path / "deep" / "game.json")
    game = replay(load(path))
    assert isinstance(game, Game) and game.result == table.game.result


def test_a_table_needs_two_to_four_seats_matching_its_game() -> None:
    with pytest.raises(GameError, match="2 to 4"):
        Table([Seat("Ana")])
    with pytest.raises(GameError, match="3 seats"):
        Table.around(Game(2, seed=1), [Seat(), Seat(), Seat()])
    with pytest.raises(GameError, match="2 seats for a game of 3"):
        Table([Seat(), Seat()], Config(3))

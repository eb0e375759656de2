"""A table (red7.play.table): people's staged turns, bots from observations, records."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from helpers import make
from red7 import Game
from red7.bots import Bot, Option, make_bot
from red7.core.actions import Action
from red7.core.game import GameError, IllegalActionError
from red7.core.record import load, replay
from red7.play.table import Seat, Table


def person_vs(spec: str = "easy", seed: int = 1, **config: Any) -> Table:
    return Table([Seat("Ana"), Seat("", make_bot(spec), spec)], seed=seed, **config)


def test_a_person_plays_then_takes_the_turn_back() -> None:
    table = Table.around(make(["R7 B3", "G1"], ["O6", "Y5"], current=0), [Seat("Ana"), Seat("Bia")])
    before = table.game.fingerprint()
    table.decide("play R7")
    assert table.staged == [Action.parse("play R7")]
    assert table.game.palette(0) == ["R7", "O6"]
    assert table.take_back() is True
    assert table.game.fingerprint() == before
    assert table.staged == [] and table.take_back() is False


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
    assert table.game.step_name == "draw" and table.staged == [Action.parse("canvas B3")]
    assert table.ends_turn("decline") and table.ends_turn("draw")


def test_a_drawn_card_cannot_be_taken_back_R7_3() -> None:
    """Playing a 3 draws: taking the turn back would let the player peek at the deck."""
    game = make(["Y3 B2", "G1"], ["O6", "Y5"], deck="R7 V1", actions=True)
    table = Table.around(game, [Seat("Ana"), Seat("Bia")])
    table.decide("play Y3")
    assert "R7" in table.game.hand(0)
    assert table.staged == [] and table.take_back() is False
    assert "R7" in table.game.hand(0)


def test_a_preview_never_shows_a_drawn_card() -> None:
    game = make(["Y3 B2", "G1"], ["O6", "Y5"], deck="R7 V1", actions=True)
    table = Table.around(game, [Seat("Ana"), Seat("Bia")])
    assert table.preview("play Y3") is None
    after = table.preview("play B2")
    assert after is not None and after["palettes"][0] == ["O6", "B2"]
    assert table.game.palette(0) == ["O6"]  # previews change nothing


def test_an_illegal_decision_changes_nothing() -> None:
    table = person_vs(seed=4)
    while not table.person_to_move:
        table.play_bot()
    before = table.game.fingerprint()
    with pytest.raises(IllegalActionError):
        table.decide("end")  # R4.6: no 'end' at the start of a turn
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
        self.seen: list[dict[str, Any]] = []

    def choose(self, observation: dict[str, Any], options: Any, rng: random.Random) -> Action:
        self.seen.append(observation)
        return next((o.action for o in options if o.safe), options[0].action)


def test_bots_receive_their_seats_observation_and_nothing_else() -> None:
    spy = Spy()
    table = Table([Seat("", spy, "spy"), Seat("", make_bot("easy"), "easy")], seed=9)
    while not table.is_over:
        seat = table.current
        bot, obs, options, rng = table.bot_inputs()
        assert obs == table.game.observation(seat)
        assert all(isinstance(o, Option) for o in options)
        table.apply_bot(bot.choose(obs, options, rng))
    assert spy.seen and all(o["seat"] == 0 for o in spy.seen)


def test_the_same_seed_gives_the_same_bot_game() -> None:
    def bot_game(seed: int) -> list[Any]:
        table = Table([Seat("", make_bot("medium"), "medium"), Seat("", make_bot("easy"), "easy")], seed=seed)
        while not table.is_over:
            table.play_bot()
        return table.game.history

    assert bot_game(5) == bot_game(5)


def test_the_record_of_a_table_replays(tmp_path: Path) -> None:
    table = Table(
        [Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy")],
        advanced=True,
        actions=True,
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

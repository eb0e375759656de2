"""The previews of a decision point (Table.look_aheads) are worked out once and are what a
trial on a copy of the game gives, whatever moved the table there (decisions, staged turns
taken back, bots, catch-ups), in every configuration."""

from __future__ import annotations

import random

import pytest

from red7.core.actions import Kind
from red7.core.events import draws_unknown
from red7.core.game import Game
from red7.core.model import Config
from red7.play.session import Session
from red7.play.table import Seat, Table, ends_turn_of
from red7.web.table.live import LiveTable, SeatState
from red7.web.table.views import table_frame
from tests.support.configs import CONFIGS


def trial(game: Game, action_id: int) -> tuple[bool, object]:
    """What a fresh copy of ``game`` says ``action_id`` does: the reference the cache must equal."""
    seat = game.current_player
    assert seat is not None
    copy = game.clone()
    events = copy.apply(action_id)
    return ends_turn_of(seat, events), None if draws_unknown(events) else copy.observe(seat)


def check_point(table: Table) -> int:
    """Every legal decision's look-ahead equals a fresh trial's; how many were checked."""
    game = table.game
    options = table.options()
    for option in options:
        assert table.look_ahead(option.action) == trial(game, option.action.id), option.action
        assert table.ends_turn(option.action) == trial(game, option.action.id)[0]
    assert set(table.look_aheads()) == {o.action.id for o in options if o.action.kind is not Kind.CONCEDE}
    return len(options)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.advanced}-{c.actions}")
def test_the_previews_equal_a_trial_at_every_point_of_games_of_each_configuration(config: Config) -> None:
    rng = random.Random(f"previews {config}")
    points = caught_up = 0
    while points < 300:
        seats = [Seat("", None) for _ in range(config.players)]
        table = Table(seats, config, seed=rng.randrange(1 << 30))
        while not table.is_over:
            points += 1
            check_point(table)
            if table.staged and rng.random() < 0.2:
                table.take_back()  # the point before the staged turn, asked again or not
                if rng.random() < 0.5:
                    continue
                # another decision there, with as many decisions and events as the one taken back
                table.decide(rng.choice([o.action for o in table.options() if o.safe] or ["concede"]))
                continue
            if config.players > 2 and rng.random() < 0.02:
                table.decide("concede")
                continue
            table.decide(rng.choice([o.action for o in table.options() if o.safe] or ["concede"]))
            if rng.random() < 0.1:
                # another process's copy brought to this table's decisions: its previews are its own
                other = Table(seats, config, seed=table.seed)
                other.look_aheads()
                other.catch_up([a for _s, a in table.game.history], table.committed)
                caught_up += check_point(other) > 0
    assert caught_up > 0


def test_a_second_frame_of_the_same_point_does_no_trial(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config(4)
    table = Table([Seat("Ana"), Seat("Bia"), Seat("Caio"), Seat("Davi")], config, seed=7)
    seats = [SeatState(name=n) for n in ("Ana", "Bia", "Caio", "Davi")]
    live = LiveTable("t1", "en", config, seats, "playing", session=Session(table))
    clones = 0
    real = Game.clone

    def counted(game: Game) -> Game:
        nonlocal clones
        clones += 1
        return real(game)

    monkeypatch.setattr(Game, "clone", counted)
    mover = table.current
    assert mover is not None
    first = table_frame(live, mover)
    trials = len(table.options()) - 1  # one per option but the concession, once
    assert clones == trials
    assert table_frame(live, mover) == first
    for seat in (None, *range(4)):
        table_frame(live, seat)
    assert clones == trials  # the same point again, for every view: no new trial
    play = next(o["action"] for o in first["game"]["options"] if o["kind"] == "play" and o["safe"])
    table.decide(play)  # the point moves: its own previews, once
    clones = 0
    table_frame(live, mover)
    table_frame(live, mover)
    assert clones == len(table.options()) - 1  # (but the concession)

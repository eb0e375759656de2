"""The session (red7.play.session): the flow of a game that every interface drives.

Whole games through :meth:`Session.next` with bots only and with a scripted person;
each round's end and the game's end reported once; the record saved once; seat names
as data; the move log as one seat may see it (R9).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import make
from red7 import Game
from red7.bots import make_bot
from red7.core.events import CardDrawn, GameOver, RoundDealt, RoundOver
from red7.core.model import Config, GameError
from red7.core.record import replay
from red7.play.records import load
from red7.play.session import BotTurn, GameEnd, Moment, PersonTurn, RoundEnd, SeatKind, SeatName, Session
from red7.play.table import Seat, Table


def bots(n: int, spec: str = "easy") -> list[Seat]:
    return [Seat("", make_bot(spec), spec) for _ in range(n)]


def drive(session: Session, person: random.Random | None = None) -> list[Moment]:
    """Play the session's game to its end: bots answer for themselves, a person (if any)
    takes a random safe option (or concedes). Returns every moment reported."""
    moments: list[Moment] = []
    while True:
        moment = session.next()
        moments.append(moment)
        if isinstance(moment, GameEnd):
            return moments
        if isinstance(moment, BotTurn):
            assert moment.observation == session.table.observe(moment.seat)  # only its own view
            session.apply_bot(moment.choose())
        elif isinstance(moment, PersonTurn):
            assert person is not None, "a person's turn in a game of bots"
            options = session.table.options()
            safe = [o.action for o in options if o.safe] or [o.action for o in options]
            session.decide(person.choice(safe))


def test_a_bots_only_match_reports_each_round_end_once_and_saves_the_record(tmp_path: Path) -> None:
    """Advanced match with action cards (R8): one RoundEnd per RoundOver event but the last,
    which the GameEnd carries; the record is saved once and replays to the same result."""
    table = Table(bots(3), Config(3, advanced=True, actions=True), seed=3)
    session = Session(table, records=tmp_path)
    moments = drive(session)
    game = table.game
    overs = [e for e in game.events if isinstance(e, RoundOver)]
    ends = [m for m in moments if isinstance(m, RoundEnd)]
    end = moments[-1]
    assert isinstance(end, GameEnd) and len(overs) == len(game.round_results) > 1
    assert [e.over for e in ends] == overs[:-1] and end.last_round == overs[-1]
    assert [end.over] == [e for e in game.events if isinstance(e, GameOver)]
    assert end.over.winners == game.result.winners  # type: ignore[union-attr]
    # the scores after each round are the points scored so far (R8.2)
    for i, e in enumerate(ends, 1):
        assert sum(e.scores) == sum(o.points for o in overs[:i])
    # reported once: asking again gives the same end and saves nothing more
    assert session.next() is end and list(tmp_path.iterdir()) == [end.saved]
    assert end.saved is not None and end.saved.name.startswith("red7-") and end.saved.name.endswith("-3.json")
    assert replay(load(end.saved)).result == game.result


def test_a_basic_game_ends_without_a_round_end() -> None:
    """The basic game is one round (R6.3): its only round end comes with the game's end."""
    session = Session(Table(bots(2), seed=5))
    moments = drive(session)
    assert not any(isinstance(m, RoundEnd) for m in moments)
    end = moments[-1]
    assert isinstance(end, GameEnd) and end.saved is None and end.record is None
    assert end.last_round.winner == end.over.winners[0]


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_person_and_bots_play_a_match_through_the_session(seed: int, tmp_path: Path) -> None:
    table = Table([Seat("Ana"), *bots(2)], Config(3, advanced=True, actions=True), seed=seed)
    session = Session(table, save_to=tmp_path / "game.json")
    moments = drive(session, person=random.Random(seed))
    assert {m.seat for m in moments if isinstance(m, PersonTurn)} == {0}
    assert {m.seat for m in moments if isinstance(m, BotTurn)} <= {1, 2}
    assert sum(isinstance(m, RoundEnd) for m in moments) == len(table.game.round_results) - 1
    end = moments[-1]
    assert isinstance(end, GameEnd) and end.saved == tmp_path / "game.json"
    assert load(end.saved)["decisions"] == [str(a) for _, a in table.game.history]


def test_a_round_end_is_reported_after_a_take_back() -> None:
    """Events of staged decisions vanish with a take-back; the session still reports the
    round end that follows (advanced game: the round ends, the match goes on)."""
    game = make(["O5 B3 G1", "V2"], ["Y4", "R6"], deck="R1 R2 V1", advanced=True, actions=True)
    session = Session(Table.around(game, [Seat("Ana"), *bots(1)]))
    session.decide("play O5")  # a 5: one more card (R7.5)
    assert session.next() == PersonTurn(0)
    session.decide("play G1")
    assert session.next() == PersonTurn(0)
    assert session.take_back() is True and session.table.staged == []
    session.decide("concede")
    moment = session.next()
    assert isinstance(moment, RoundEnd) and moment.over.winner == 1 and moment.over.round == 1


def test_seat_names_are_data() -> None:
    session = Session(Table([Seat("Ana"), Seat(), Seat("", make_bot("hard"), "hard")], seed=1))
    assert session.names() == [
        SeatName(0, SeatKind.PLAYER, "Ana"),
        SeatName(1, SeatKind.PLAYER),
        SeatName(2, SeatKind.BOT, level="hard"),
    ]
    alone = Session(Table([Seat(), *bots(1)], seed=1)).names()
    assert [n.kind for n in alone] == [SeatKind.YOU, SeatKind.BOT] and alone[1].number == 2


def test_the_log_never_shows_another_seats_unknown_draw_R9() -> None:
    """A match with action cards (3s draw, R7.3) and advanced draws (R5.1): each seat's log
    is the game's events with the other seats' unknown draws hidden, and nothing else."""
    table = Table(bots(3), Config(3, advanced=True, actions=True), seed=11)
    session = Session(table)
    drive(session)
    everything = table.game.events
    draws = [e for e in everything if isinstance(e, CardDrawn)]
    assert any(not d.public for d in draws), "the seed must give unknown draws"
    for viewer in (0, 1, 2, None):
        log = session.log(viewer)
        assert len(log) == len(everything)
        for seen, event in zip(log, everything, strict=True):
            if isinstance(event, CardDrawn) and not event.public and event.seat != viewer:
                assert seen == CardDrawn(event.seat, None, False)
            elif isinstance(event, RoundDealt):  # each seat sees its own hand only
                assert isinstance(seen, RoundDealt) and seen.palettes == event.palettes
                assert seen.hands == tuple(h if s == viewer else None for s, h in enumerate(event.hands))
            else:
                assert seen == event
    assert session.log(0, len(everything) - 2) == table.game.events_for(0)[-2:]


def test_a_record_that_cannot_be_written_is_reported(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    session = Session(Table(bots(2), seed=5), save_to=tmp_path / "file" / "game.json")
    end = drive(session)[-1]
    assert isinstance(end, GameEnd) and end.saved is None
    assert isinstance(end.save_error, OSError) and end.record == tmp_path / "file" / "game.json"


def test_advice_is_what_a_bot_would_decide_from_for_the_person() -> None:
    table = Table.around(make(["R7 B3", "G1"], ["O6", "Y5"]), [Seat("Ana"), *bots(1)])
    session = Session(table)
    bot = make_bot("easy")
    first, again = session.advice(bot), session.advice(bot)
    assert first.seat == 0 and first.observation == table.observe(0) and first.options == table.options()
    assert first.choose() == again.choose()  # the hint's own stream: the same position, the same hint
    session.decide("play R7")
    session.decide("end")
    with pytest.raises(GameError):
        session.advice(bot)


def test_the_session_imports_no_interface_and_starts_no_thread() -> None:
    """The web game will drive it too: no UI toolkit, no threads in red7.play."""
    import subprocess
    import sys

    code = (
        "import sys, threading; import red7.play.session, red7.play.table;"
        "from red7.play.session import Session; from red7.play.table import Seat, Table;"
        "from red7.bots import make_bot;"
        "s = Session(Table([Seat('', make_bot('easy'), 'easy'), Seat('', make_bot('easy'), 'easy')], seed=1));"
        "m = s.next(); s.apply_bot(m.choose());"
        "assert not [n for n in sys.modules if n.startswith(('textual', 'rich', 'red7.ui'))], sys.modules;"
        "assert threading.active_count() == 1"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_game_that_is_not_dealt_by_the_session_still_flows() -> None:
    """A table around a position (Game.from_position: no events before it) ends normally."""
    game = Game.from_position([["R7"], ["G1"]], [["O6"], ["Y5"]])
    session = Session(Table.around(game, [Seat("Ana"), *bots(1)]))
    session.decide("concede")
    end = session.next()
    assert isinstance(end, GameEnd) and end.over.winners == (1,) and end.last_round.winner == 1

"""The session (red7.play.session): the flow of a game that every interface drives.

Whole games through :meth:`Session.next` with bots only and with a scripted person;
each round's end and the game's end reported once; the record saved once; seat names
as data; the move log as one seat may see it (R9).
"""

from __future__ import annotations

import builtins
import io
import os
import random
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest

from red7 import Game
from red7.bots import make_bot
from red7.core.actions import Action
from red7.core.events import CardDrawn, GameOver, RoundDealt, RoundOver
from red7.core.model import Config, GameError, IllegalActionError, RefusalCode
from red7.core.record import replay
from red7.play.records import load
from red7.play.saving import Saved, Saver
from red7.play.session import (
    BotTurn,
    Finished,
    GameEnd,
    Moment,
    PersonTurn,
    Progress,
    Refused,
    Role,
    RoundEnd,
    SeatKind,
    SeatName,
    Session,
    Stop,
)
from red7.play.table import Seat, Table
from tests.support.helpers import make


def bots(n: int, spec: str = "easy") -> list[Seat]:
    return [Seat("", make_bot(spec), spec) for _ in range(n)]


def drive(session: Session, person: random.Random | None = None, saver: Saver | None = None) -> list[Moment]:
    """Play the session's game to its end: bots answer for themselves, a person (if any)
    takes a random safe option (or concedes); ``saver`` writes what the session reports
    to persist, as the front ends do. Returns every moment reported."""
    moments: list[Moment] = []
    while True:
        moment = session.next()
        if saver is not None:
            saver.keep(session)
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
    session, saver = Session(table), Saver(records=tmp_path)
    moments = drive(session, saver=saver)
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
    saved = saver.finished
    assert saved is not None and saved.end is end
    assert session.next() is end and saver.keep(session) is None and list(tmp_path.iterdir()) == [saved.saved]
    assert saved.saved is not None and saved.saved.name.startswith("red7-") and saved.saved.name.endswith("-3.json")
    assert replay(load(saved.saved)).result == game.result


def test_a_basic_game_ends_without_a_round_end() -> None:
    """The basic game is one round (R6.3): its only round end comes with the game's end."""
    session, saver = Session(Table(bots(2), seed=5)), Saver()
    moments = drive(session, saver=saver)
    assert not any(isinstance(m, RoundEnd) for m in moments)
    end = moments[-1]
    assert isinstance(end, GameEnd) and saver.finished == Saved(end)  # saved nowhere
    assert saver.finished.saved is None and saver.finished.record is None
    assert end.last_round.winner == end.over.winners[0]


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_person_and_bots_play_a_match_through_the_session(seed: int, tmp_path: Path) -> None:
    table = Table([Seat("Ana"), *bots(2)], Config(3, advanced=True, actions=True), seed=seed)
    session, saver = Session(table), Saver(save_to=tmp_path / "game.json")
    moments = drive(session, person=random.Random(seed), saver=saver)
    assert {m.seat for m in moments if isinstance(m, PersonTurn)} == {0}
    assert {m.seat for m in moments if isinstance(m, BotTurn)} <= {1, 2}
    assert sum(isinstance(m, RoundEnd) for m in moments) == len(table.game.round_results) - 1
    end = moments[-1]
    assert isinstance(end, GameEnd) and saver.finished is not None
    assert saver.finished.saved == tmp_path / "game.json"
    assert load(saver.finished.saved)["decisions"] == [str(a) for _, a in table.game.history]


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
                assert seen == CardDrawn(event.seat, None, False, event.reason)
            elif isinstance(event, RoundDealt):  # each seat sees its own hand only
                assert isinstance(seen, RoundDealt) and seen.palettes == event.palettes
                assert seen.hands == tuple(h if s == viewer else None for s, h in enumerate(event.hands))
            else:
                assert seen == event
    assert session.log(0, len(everything) - 2) == table.game.events_for(0)[-2:]


def test_a_record_that_cannot_be_written_is_reported(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    session, saver = Session(Table(bots(2), seed=5)), Saver(save_to=tmp_path / "file" / "game.json")
    drive(session, saver=saver)
    saved = saver.finished
    assert saved is not None and saved.saved is None
    assert isinstance(saved.error, OSError) and saved.record == tmp_path / "file" / "game.json"


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


# --- the state machine's inputs: seats, sequence numbers, substitutes, new games ---------------


def ana_and_bot(spec: str = "easy") -> Session:
    """Ana (seat 0, to move) and a bot: "play R7" then "end" wins her the turn."""
    game = make(["R7 B3 G1", "Y2 O1"], ["O6", "Y5"])
    return Session(Table.around(game, [Seat("Ana"), Seat("", make_bot(spec), spec)]))


def test_a_decision_is_refused_without_a_game_out_of_turn_or_stale_and_changes_nothing() -> None:
    with pytest.raises(Refused) as no_game:
        Session().decide("play R7", 0, 0)
    assert no_game.value.stop is Stop.NO_GAME and not Session().started
    assert Session().mover() is None and Session().awaited() is None and Session().to_save() == []
    assert Session().back(0) is False and Session().seq_for(0) == 0
    session = ana_and_bot()
    table = session.table
    before = table.game.decisions
    seq = session.seq_for(0)
    for seat, stale_seq, stop in [(1, session.seq_for(1), Stop.NOT_YOUR_TURN), (0, seq + 1, Stop.STALE)]:
        with pytest.raises(Refused) as refused:
            session.decide("play R7", seat, stale_seq)
        assert refused.value.stop is stop
    for odd in (True, "0", 0.0):  # a bool, a text, a float: never a sequence number
        with pytest.raises(Refused) as refused:
            session.decide("play R7", 0, odd)
        assert refused.value.stop is Stop.STALE
    with pytest.raises(IllegalActionError) as illegal:  # the engine's refusal, worded by the front end
        session.decide("play Y2", 0, seq)
    assert illegal.value.refusal.code is RefusalCode.NOT_IN_HAND
    assert table.game.decisions == before and session.to_save() == []
    session.decide("play R7", 0, seq)
    assert table.staged == [Action.parse("play R7")]


def test_a_staged_turn_is_its_movers_until_committed_and_a_take_back_moves_the_number_on_R9() -> None:
    """Other seats see the table as the turn began (observation, log, sequence number);
    a take-back of n decisions moves the mover's number on by n, so everything sent
    before it is stale; nothing staged is to be saved."""
    session = ana_and_bot()
    table = session.table
    seen_by_bot, log_of_bot, log_of_all = table.observe(1), table.events_for(1), table.events_for(None)
    session.decide("play R7", 0, session.seq_for(0))
    assert session.staging == 0 and session.seq_for(0) == 1 and session.seq_for(1) == session.seq_for(None) == 0
    assert table.observe(1) == seen_by_bot and table.events_for(1) == log_of_bot
    assert table.events_for(None) == log_of_all and table.observe(None).palettes == seen_by_bot.palettes
    assert table.observe(0) != seen_by_bot and session.to_save() == []  # staged: nothing to keep
    assert session.take_back(0, 1) is True
    assert session.undone(0) == 1 and session.seq_for(0) == 2 and session.staging is None
    assert table.observe(1) == seen_by_bot
    for stale in (0, 1):  # the decision and the take-back sent before it
        with pytest.raises(Refused, match="stale"):
            session.take_back(0, stale)
    assert session.take_back(0, 2) is False  # nothing staged: the front end says so
    session.decide("play R7", 0, 2)
    session.decide("end", 0, 3)
    assert session.seq_for(1) == 2 and session.to_save() == [Progress(2)] and session.to_save() == []


def test_a_bots_answer_carries_its_sequence_number_and_a_late_one_is_ignored() -> None:
    session = ana_and_bot()
    session.decide("play R7")
    session.decide("end")
    turn = session.next()
    assert isinstance(turn, BotTurn) and turn.seat == 1 and turn.spec == "easy" and turn.seq == 2
    assert session.mover() == (1, Role.BOT)
    assert session.awaited() == turn and turn.observation == session.table.observe(1)  # its own view only
    action = turn.choose()
    assert session.apply_bot(action, replace(turn, seq=turn.seq - 1)) is None  # asked at a position gone by
    assert session.apply_bot(action, replace(turn, seat=0)) is None  # for a seat that is not to move
    assert session.apply_bot(action, replace(turn, game=turn.game - 1)) is None  # in a game gone by
    assert session.table.game.decisions == 2
    events = session.apply_bot(action, turn)
    assert events and session.table.game.decisions == 3
    assert session.apply_bot(action, turn) is None  # the same answer again: late now


def test_people_and_bots_alternate_through_seats_and_sequence_numbers() -> None:
    """Two people and a bot, every input carrying its seat and number, as the web's do:
    the game ends, every round end and the end reported once, each committed change
    reported to save, the game's end once."""
    table = Table([Seat("Ana"), Seat("Bia"), *bots(1)], Config(3, advanced=True), seed=4)
    session, rng = Session(table), random.Random(4)
    rounds, progress, finished = 0, 0, []
    while True:
        moment = session.next()
        for item in session.to_save():
            if isinstance(item, Progress):
                assert item.committed == table.committed
                progress += 1
            else:
                finished.append(item)
        if isinstance(moment, GameEnd):
            break
        if isinstance(moment, RoundEnd):
            rounds += 1
        elif isinstance(moment, BotTurn):
            assert session.role(moment.seat) is Role.BOT
            assert session.apply_bot(moment.choose(), moment) is not None
        else:
            assert session.role(moment.seat) is Role.PERSON
            options = [o.action for o in table.options() if o.safe] or [table.options()[-1].action]
            session.decide(rng.choice(options), moment.seat, session.seq_for(moment.seat))
    assert rounds == len(table.game.round_results) - 1 > 0 and progress > rounds
    assert finished == [Finished(moment)] and session.next() is moment and session.to_save() == []
    with pytest.raises(Refused, match="no-game"):
        session.decide("end", 0, session.seq_for(0))


def test_an_away_person_gets_a_substitute_whose_decisions_are_their_seats_until_they_are_back() -> None:
    """The front end's clock says Ana is away: her staged turn is taken back, a
    substitute bot plays her seat with a person's decisions (staged, takeable back);
    she is back: the substitute stops, and its answer in flight is late."""
    session = ana_and_bot()
    table = session.table
    session.decide("play R7", 0, 0)
    assert session.away(1, "easy") is False  # a bot's seat has nobody to be away
    assert session.away(0, "medium") is True and session.away(0, "medium") is False
    assert table.staged == [] and session.undone(0) == 1 and session.role(0) is Role.SUBSTITUTE
    turn = session.next()
    assert isinstance(turn, BotTurn) and turn.seat == 0 and turn.spec == "medium" and session.substitute(0) == "medium"
    assert turn.observation == table.observe(0) and turn.options == table.options()
    events = session.apply_bot("play R7", turn)  # (the answer the test gives it)
    assert events is not None and table.staged == [Action.parse("play R7")]  # as a person's decision
    again = session.next()
    assert isinstance(again, BotTurn) and again.seq == turn.seq + 1
    assert session.mover() == (0, Role.SUBSTITUTE)
    assert session.back(0) is True and session.back(0) is False and session.mover() == (0, Role.PERSON)
    assert session.apply_bot("end", again) is None  # late: she is back
    assert session.next() == PersonTurn(0) and table.staged == [Action.parse("play R7")]
    # a person who decides in her seat is back too
    session.away(0, "medium")
    session.decide("play R7", 0, session.seq_for(0))
    assert session.role(0) is Role.PERSON


def test_a_rematch_is_a_new_game_for_the_same_seats_from_the_seed_given() -> None:
    table = Table([Seat("Ana"), *bots(1)], seed=5)
    session = Session(table)
    with pytest.raises(Refused) as refused:
        session.rematch(6)
    assert refused.value.stop is Stop.NOT_OVER
    session.away(0, "easy")
    asked = session.next()
    assert isinstance(asked, BotTurn)
    drive(session)
    first_end = session.next()
    assert isinstance(first_end, GameEnd) and [type(i) for i in session.to_save()][-1] is Finished
    again = session.rematch(6)
    assert again is session.table and again is not table and again.seed == 6 and again.game.decisions == 0
    assert again.seat_records() == table.seat_records() and again.seats[1].bot is not table.seats[1].bot
    assert session.role(0) is Role.SUBSTITUTE  # who is away stays away: the front end's clock says when not
    assert session.back(0) and session.role(0) is Role.PERSON
    assert session.next() != first_end and session.to_save() == []
    assert session.games == 2 and session.apply_bot("end", asked) is None  # an old game's answer
    drive(session, random.Random(1))
    assert [type(i) for i in session.to_save()] == [Finished]


def test_a_copy_caught_up_reports_only_what_happens_next_and_no_end_twice() -> None:
    """Another copy of the table (another server process) made decisions: this copy
    takes them, staged turn included, without reporting what the other reported."""
    here = Session(Table([Seat("Ana"), *bots(1)], Config(2, advanced=True), seed=8))
    there = Session(Table([Seat("Ana"), *bots(1)], Config(2, advanced=True), seed=8))
    rng = random.Random(8)
    while not there.table.game.round_results:
        moment = there.next()
        if isinstance(moment, BotTurn):
            there.apply_bot(moment.choose())
        elif isinstance(moment, PersonTurn):
            options = [o.action for o in there.table.options() if o.safe] or [there.table.options()[-1].action]
            there.decide(rng.choice(options))
    decisions = [str(a) for _, a in there.table.game.history]
    here.catch_up(decisions, there.table.committed)
    assert here.table.observe(None) == there.table.observe(None)
    assert not isinstance(here.next(), (RoundEnd, GameEnd))  # the round's end was the other copy's to report
    drive(there, random.Random(9))
    here.catch_up([str(a) for _, a in there.table.game.history], there.table.committed)
    end = here.next()
    assert isinstance(end, GameEnd) and end.over == there.next().over  # type: ignore[union-attr]
    assert here.to_save() == []  # the other copy saved it


def test_a_session_resumed_from_a_record_reports_what_happens_next_and_saves_again(tmp_path: Path) -> None:
    """A game taken up from its file (:meth:`Table.resume`): the round ends already told
    are not told again, its first moment is the turn it stopped at, and the game in
    progress is reported to save at once (the file is rewritten as it goes on)."""
    table = Table([Seat("Ana"), *bots(1)], Config(2, advanced=True), seed=5)
    first, rng = Session(table), random.Random(5)
    while not (table.game.round_results and table.person_to_move):
        moment = first.next()
        if isinstance(moment, BotTurn):
            first.apply_bot(moment.choose(), moment)
        elif isinstance(moment, PersonTurn):
            options = [o.action for o in table.options() if o.safe] or [table.options()[-1].action]
            first.decide(rng.choice(options))
    resumed = Session(Table.resume(load(table.save(tmp_path / "g.json"))), resumed=True)
    assert resumed.next() == PersonTurn(0) and resumed.to_save() == [Progress(table.committed)]
    moments = drive(resumed, random.Random(6))
    rounds = [m for m in moments if isinstance(m, RoundEnd)]
    assert len(rounds) == len(resumed.table.game.round_results) - 1 - len(table.game.round_results)
    assert [type(item) for item in resumed.to_save()][-1] is Finished


def test_a_whole_match_through_the_session_opens_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """No I/O: a match with a person, bots, round ends and its end goes through the session
    with every way of opening a file refused; what is to be persisted is only reported."""
    table = Table([Seat("Ana"), *bots(2)], Config(3, advanced=True, actions=True), seed=5)
    session = Session(table)

    def refused(*_args: object, **_kwargs: object) -> NoReturn:
        raise AssertionError("the session opened a file")

    for owner, name in [(builtins, "open"), (io, "open"), (os, "open"), (Path, "open")]:
        monkeypatch.setattr(owner, name, refused)
    moments = drive(session, person=random.Random(5))
    monkeypatch.undo()
    assert isinstance(moments[-1], GameEnd) and any(isinstance(m, RoundEnd) for m in moments)
    assert [type(item) for item in session.to_save()] == [Finished]  # reported, not written

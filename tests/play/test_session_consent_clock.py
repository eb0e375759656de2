"""The session's consent to a rematch and its clock (red7.play.session): a rematch
needs every person seated (bots always agree), a person may decline it; a table with a
clock gives each person's turn a deadline, after which the away substitution plays that
one turn. Time is an input: the tests give it, nothing waits.
"""

from __future__ import annotations

import pytest

from red7.bots import make_bot
from red7.core.model import GameError
from red7.play.session import BotTurn, GameEnd, PersonTurn, Refused, Role, Session, Stop
from red7.play.table import Seat, Table
from tests.support.helpers import make


def finished(people: int, bots: int = 1, seed: int = 5) -> Session:
    """A session whose game is over: ``people`` persons (substitutes play them to the
    end) and ``bots`` easy bots."""
    seats = [Seat(f"P{n}") for n in range(people)] + [Seat("", make_bot("easy"), "easy") for _ in range(bots)]
    session = Session(Table(seats, seed=seed))
    for seat in range(people):
        session.away(seat, "easy")
    while not isinstance(moment := session.next(), GameEnd):
        assert isinstance(moment, BotTurn)
        session.apply_bot(moment.choose(), moment)
    return session


def test_a_rematch_starts_when_every_person_agreed_and_bots_always_agree() -> None:
    session = finished(people=2, bots=1)
    assert session.agreed is None and not session.consented
    assert session.agree(1) is False  # the proposal: the others see it
    assert session.agreed == {1} and session.declined is None
    assert session.agree(0) is True and session.consented  # the bot never has to
    session.rematch(9)
    assert session.agreed is None and session.playing and session.games == 2


def test_a_person_alone_with_bots_consents_by_proposing() -> None:
    session = finished(people=1, bots=2)
    assert session.agree(0) is True


def test_a_decline_ends_the_proposal_and_says_who() -> None:
    session = finished(people=2)
    with pytest.raises(Refused) as nothing:
        session.decline(0)
    assert nothing.value.stop is Stop.NO_PROPOSAL
    session.agree(0)
    session.decline(1)
    assert session.agreed is None and session.declined == 1 and not session.consented
    assert session.agree(1) is False and session.declined is None  # a new proposal, by the one who declined
    assert session.agreed == {1}


def test_consent_is_refused_twice_during_a_game_without_one_and_for_a_bot() -> None:
    with pytest.raises(Refused) as no_game:
        Session().agree(0)
    assert no_game.value.stop is Stop.NO_GAME
    playing = Session(Table([Seat("Ana"), Seat("", make_bot("easy"), "easy")], seed=1))
    for call in (playing.agree, playing.decline):
        with pytest.raises(Refused) as not_over:
            call(0)
        assert not_over.value.stop is Stop.NOT_OVER
    session = finished(people=2)
    session.agree(0)
    with pytest.raises(Refused) as twice:
        session.agree(0)
    assert twice.value.stop is Stop.AGREED and session.agreed == {0}
    with pytest.raises(GameError):
        session.agree(2)  # the bot's seat: nobody there to ask
    with pytest.raises(GameError):
        session.decline(2)


def test_a_rematch_without_consent_is_still_a_local_front_ends_call() -> None:
    """On one device consent is implicit (the terminal game): rematch() needs none."""
    session = finished(people=1)
    assert session.rematch(3).game.decisions == 0


def ana_and_bot() -> Session:
    """Ana (seat 0, to move) and a bot: "play R7" then "end" wins her the turn."""
    game = make(["R7 B3 G1", "Y2 O1"], ["O6", "Y5"])
    return Session(Table.around(game, [Seat("Ana"), Seat("", make_bot("easy"), "easy")]))


def test_without_a_clock_there_is_no_deadline() -> None:
    session = ana_and_bot()
    assert session.timed(100.0) is None and session.expire(10**9, "medium") is None
    assert session.role(0) is Role.PERSON


def test_a_turns_clock_starts_once_per_turn_and_a_decision_within_the_turn_does_not_restart_it() -> None:
    session = ana_and_bot()
    session.clock = 60.0
    assert session.timed(100.0) == 160.0
    assert session.timed(130.0) == 160.0  # still her turn: the same deadline
    session.decide("play R7", 0, session.seq_for(0))
    assert session.timed(140.0) == 160.0  # a staged decision does not end the turn
    session.decide("end", 0, session.seq_for(0))
    assert session.deadline is None
    assert session.timed(150.0) is None  # the bot's turn: no clock runs for a bot


def test_the_end_of_the_time_brings_the_substitute_for_that_turn_only() -> None:
    session = ana_and_bot()
    session.clock = 60.0
    session.timed(0.0)
    session.decide("play R7", 0, session.seq_for(0))
    assert session.expire(59.9, "medium") is None and session.role(0) is Role.PERSON
    assert session.expire(60.0, "medium") == 0
    assert session.role(0) is Role.SUBSTITUTE and session.table.staged == []  # her staged turn taken back
    assert session.expire(61.0, "medium") is None  # once
    for late in (
        lambda: session.decide("play R7", 0, session.seq_for(0)),
        lambda: session.take_back(0, session.seq_for(0)),
    ):
        with pytest.raises(Refused) as time_up:  # her time is over: the substitute plays this turn
            late()
        assert time_up.value.stop is Stop.TIME_UP
    assert session.back(0) is False and session.role(0) is Role.SUBSTITUTE
    turn = session.next()
    assert isinstance(turn, BotTurn) and turn.seat == 0 and turn.spec == "medium"
    while session.mover() == (0, Role.SUBSTITUTE):  # the substitute plays her turn to its end
        moment = session.next()
        assert isinstance(moment, BotTurn)
        session.apply_bot(moment.choose(), moment)
    assert session.substitute(0) is None and session.deadline is None  # her next turn is hers again
    while session.playing and session.mover() != (0, Role.PERSON):  # the bot's turn
        moment = session.next()
        assert isinstance(moment, BotTurn)
        session.apply_bot(moment.choose(), moment)
    if session.playing:  # her next turn has its own minute
        assert session.timed(70.0) == 130.0


def test_a_stored_clock_and_proposal_are_taken_back_as_they_were() -> None:
    session = finished(people=2)
    copy = finished(people=2)
    session.agree(1)
    copy.load_rematch(session.agreed, session.declined)
    assert copy.agreed == {1} and copy.agree(0) is True
    playing = ana_and_bot()
    playing.load_clock(180.0, 1234.0)
    assert playing.clock == 180.0 and playing.deadline == 1234.0 and playing.next() == PersonTurn(0)
    assert playing.expire(1234.0, "medium") == 0

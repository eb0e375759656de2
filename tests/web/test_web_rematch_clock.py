"""The web game's rematch with consent and its clocks (issue 35), through HTTP and the
WebSocket only (the server's truth is read, never changed, to check the frames).

A rematch starts when every person seated agreed (bots always do); a person may decline
it. A table's clock gives each person's turn a deadline, shown to every seat and
spectator; when it passes, the away substitution plays that turn. The clocks read a
clock the test moves by hand (``Settings.wall``): no test waits for the time to pass,
only for the server's watch (once a second) to see the time the test set.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from red7.web.protocol import read
from red7.web.table.clocks import CLOCKS
from red7.web.table.frames import TurnsPage
from red7.web.table.requests import ClockSeconds
from tests.support.web_client import (
    Clock,
    Conn,
    Frame,
    add_bot,
    careful,
    join,
    make_app,
    my_turn,
    new_table,
    play_out,
    start,
    tables_of,
)

PORTUGUESE = {"Accept-Language": "pt-BR,pt;q=0.9"}


@pytest.fixture
def wall() -> Iterator[Clock]:
    """The tables' clock (seconds since the epoch), stopped: the test moves it."""
    clock = Clock(time.time)
    clock.stop()
    yield clock


def wait_for(conn: Conn, predicate: Callable[[Frame], bool], timeout: float = 60.0) -> Frame:
    """The first table frame of ``conn`` (the newest one it has, or one to come) that
    satisfies ``predicate``."""
    if conn.last is not None and predicate(conn.last):
        return conn.last
    return conn.until(lambda f: f["type"] == "table" and predicate(f), timeout)


def over(frame: Frame) -> bool:
    return bool(frame["game"] and frame["game"]["over"])


def two_people_and_a_bot(client: TestClient, **table: Any) -> tuple[str, str, str]:
    """A 3-seat table: Ana (0), Bia (1) and an easy bot (2), not started."""
    table_id, ana = new_table(client, players=3, name="Ana", **table)
    bia = join(client, table_id, 1, "Bia")
    add_bot(client, table_id, ana, 2, "easy")
    return table_id, ana, bia


# --- rematch with consent -------------------------------------------------------------


def test_the_next_game_starts_once_every_person_agreed_and_abuse_changes_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table_id, ana_token, bia_token = two_people_and_a_bot(client)
        with (
            Conn(client, table_id, ana_token, 0) as ana,
            Conn(client, table_id, bia_token, 1) as bia,
            Conn(client, table_id) as watcher,
        ):
            start(client, table_id, ana_token)
            play_out([ana, bia], careful(random.Random(7)))
            wait_for(watcher, over)
            assert ana.last is not None and ana.last["rematch"] is None
            ana.send({"type": "again", "game": 1})  # the proposal
            for conn in (ana, bia, watcher):
                frame = wait_for(conn, lambda f: f["rematch"] is not None)
                assert frame["rematch"] == {"agreed": [0], "declined": None} and frame["table"]["game"] == 1
            # abuse: agree twice, agree from a spectator, about another game; a forged seat is a token's
            ana.send({"type": "again"})
            assert ana.error()["code"] == "agreed"
            watcher.send({"type": "again"})
            assert watcher.error()["code"] == "spectator"
            bia.send({"type": "again", "game": 0})
            assert bia.error()["code"] == "stale"
            for forged in ({"type": "again", "seat": 1}, {"type": "again", "game": "1"}, {"type": "again", "game": -1}):
                ana.send(forged)
                assert ana.error()["code"] in ("unknown-field", "stale")
            assert tables_of(app).live[table_id].game_number == 1
            assert sorted(tables_of(app).live[table_id].session.agreed) == [0]
            bia.send({"type": "again", "game": 1})  # the last person agrees: game 2
            for conn in (ana, bia, watcher):
                frame = wait_for(conn, lambda f: f["table"]["game"] == 2)
                assert frame["rematch"] is None and frame["table"]["status"] == "playing"


def test_a_message_of_an_earlier_game_is_stale_in_the_next_whatever_its_seq(tmp_path: Path) -> None:
    """Game 1 ends with a concession at its first decision; in game 2, at the same
    ``seq``, that concession, a take-back and a hint naming game 1 (messages of game 1
    delayed, or sent again) are refused as stale and change nothing; naming game 2 they
    are the mover's. A message naming no game (a client of before ``game``; the pages
    name it) is the game being played's (docs/protocol.md)."""
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table_id, ana_token = new_table(client, players=2, name="Ana")
        bia_token = join(client, table_id, 1, "Bia")
        with Conn(client, table_id, ana_token, 0) as ana, Conn(client, table_id, bia_token, 1) as bia:
            start(client, table_id, ana_token)
            people = {0: ana, 1: bia}
            first = wait_for(ana, lambda f: f["game"] is not None)
            mover = people[first["game"]["current"]]
            seq = wait_for(mover, my_turn)["seq"]
            mover.send({"type": "decide", "seq": seq, "action": "concede"})  # game 1 ends
            conceded = {"type": "decide", "seq": seq, "action": "concede", "game": 1}
            for conn in people.values():
                wait_for(conn, over)
                conn.send({"type": "again", "game": 1})
            second = wait_for(ana, lambda f: f["table"]["game"] == 2 and f["game"] is not None and not over(f))
            mover = people[second["game"]["current"]]
            frame = wait_for(mover, lambda f: f["table"]["game"] == 2 and my_turn(f))
            assert frame["seq"] == seq  # the same point of another game
            live = tables_of(app).live[table_id]
            for stale in (
                conceded,
                {"type": "take_back", "seq": seq, "game": 1},
                {"type": "hint", "seq": seq, "game": 1},
            ):
                mover.send(stale)
                assert mover.error()["code"] == "stale", stale
            assert (live.game_number, live.status, live.seq_for(mover.seat)) == (2, "playing", seq)
            assert mover.last is frame and all(f["type"] == "error" for f in mover.drain())
            mover.send({"type": "hint", "seq": seq})  # no game named: the one being played
            hint = mover.until(lambda f: f["type"] == "hint")
            assert (hint["game"], hint["seq"]) == (2, seq)
            mover.send({**conceded, "game": 2})
            assert wait_for(mover, over)["table"]["game"] == 2


def test_a_decline_ends_the_proposal_for_everyone(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table_id, ana_token, bia_token = two_people_and_a_bot(client)
        with Conn(client, table_id, ana_token, 0) as ana, Conn(client, table_id, bia_token, 1) as bia:
            start(client, table_id, ana_token)
            bia.send({"type": "decline"})  # nothing to decline: the game is played
            assert bia.error()["code"] == "not-over"
            play_out([ana, bia], careful(random.Random(8)))
            bia.send({"type": "decline"})
            assert bia.error()["code"] == "no-proposal"
            ana.send({"type": "again"})
            wait_for(bia, lambda f: f["rematch"] is not None)
            bia.send({"type": "decline", "game": 1})
            for conn in (ana, bia):
                frame = wait_for(conn, lambda f: f["rematch"] == {"agreed": [], "declined": 1})
                assert frame["table"]["game"] == 1 and over(frame)
            # a new proposal, by the one who declined: Ana agrees, the game starts
            bia.send({"type": "again"})
            wait_for(ana, lambda f: f["rematch"] == {"agreed": [1], "declined": None})
            ana.send({"type": "again"})
            wait_for(ana, lambda f: f["table"]["game"] == 2)


def test_a_person_alone_with_bots_plays_again_at_once(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table_id, token = new_table(client, players=2)
        add_bot(client, table_id, token, 1)
        with Conn(client, table_id, token, 0) as ana:
            start(client, table_id, token)
            play_out([ana], careful(random.Random(2)))
            ana.send({"type": "again"})
            wait_for(ana, lambda f: f["table"]["game"] == 2)


# --- clocks ---------------------------------------------------------------------------


def test_a_per_turn_clock_shows_its_countdown_to_all_and_its_end_brings_the_substitute(
    tmp_path: Path, wall: Clock
) -> None:
    app = make_app(tmp_path, wall=wall)
    with TestClient(app) as client:
        table_id, token = new_table(client, players=2, clock=60)
        add_bot(client, table_id, token, 1)
        with Conn(client, table_id, token, 0) as ana, Conn(client, table_id) as watcher:
            start(client, table_id, token)
            frame = wait_for(ana, lambda f: my_turn(f) and f["clock"] is not None)
            assert frame["table"]["clock"] == 60
            assert frame["clock"] == {"seat": 0, "kind": "turn", "seconds": 60, "remaining": 60}
            seen = wait_for(watcher, lambda f: f["clock"] is not None and f["seq"] == frame["seq"])
            assert seen["clock"] == frame["clock"]  # the spectators see it too
            live = tables_of(app).live[table_id]
            deadline = live.session.deadline
            assert deadline == pytest.approx(wall() + 60)
            wall.advance(30)  # within the time: nothing happens, a frame made now says 30 s
            ana.send({"type": "take_back", "seq": frame["seq"]})
            assert ana.error()["code"] == "nothing-staged"
            assert live.session.role(0).value == "person"
            decisions = live.table.game.decisions
            wall.advance(31)  # the minute is over: the substitute plays her turn
            late = wait_for(ana, lambda f: f["seats"][0]["away"] or f["game"]["final"] > decisions)
            if late["seats"][0]["away"]:  # (before the substitute ended her turn) her decision is too late
                ana.send({"type": "decide", "seq": late["seq"], "action": "concede"})
                assert ana.error()["code"] in ("time-up", "stale")
            wait_for(watcher, lambda f: bool(f["game"]) and f["game"]["final"] > decisions)
            assert live.table.game.decisions > decisions
            # her next turn is hers again, with a new minute from when it began
            back = wait_for(ana, lambda f: (my_turn(f) and f["seq"] > frame["seq"]) or over(f))
            if not over(back):
                assert back["clock"] is not None and back["clock"]["seat"] == 0
                assert back["clock"]["remaining"] == 60 and not back["seats"][0]["away"]


def test_a_correspondence_clock_survives_a_restart(tmp_path: Path, wall: Clock) -> None:
    with TestClient(make_app(tmp_path, wall=wall)) as client:
        table_id, token = new_table(client, players=2, clock=86_400)
        add_bot(client, table_id, token, 1)
        with Conn(client, table_id, token, 0) as ana:
            start(client, table_id, token)
            frame = wait_for(ana, lambda f: my_turn(f) and f["clock"] is not None)
            assert frame["clock"]["kind"] == "correspondence" and frame["clock"]["remaining"] == 86_400
            seq = frame["seq"]
        deadline = tables_of(client.app).live[table_id].session.deadline  # type: ignore[attr-defined]
    wall.advance(3_600)  # an hour later, the server restarted
    app = make_app(tmp_path, wall=wall)
    with TestClient(app) as client:
        live = tables_of(app).live[table_id]
        assert live.session.clock == 86_400 and live.session.deadline == deadline
        with Conn(client, table_id) as watcher:
            frame = wait_for(watcher, lambda f: f["clock"] is not None)
            assert frame["clock"] == {"seat": 0, "kind": "correspondence", "seconds": 86_400, "remaining": 82_800}
            wall.advance(82_800)  # the day is over
            wait_for(watcher, lambda f: bool(f["game"]) and f["game"]["final"] > seq)


def test_the_patience_with_an_absent_person_shows_its_countdown(tmp_path: Path) -> None:
    app = make_app(tmp_path, patience=3600.0)
    with TestClient(app) as client:
        table_id, token = new_table(client, players=2)
        add_bot(client, table_id, token, 1)
        start(client, table_id, token)  # nobody connected in seat 0
        with Conn(client, table_id) as watcher:
            frame = wait_for(watcher, lambda f: f["clock"] is not None)
            assert frame["clock"]["seat"] == 0 and frame["clock"]["kind"] == "away"
            assert frame["clock"]["seconds"] == 3600 and 3500 < frame["clock"]["remaining"] <= 3600
        with Conn(client, table_id, token, 0) as ana:  # she is here: no countdown
            frame = wait_for(ana, my_turn)
            assert frame["clock"] is None


@pytest.mark.parametrize("clock", [1, 59, 3600, -60, 10**9])
def test_a_clock_not_on_the_menu_is_refused_in_the_askers_language(tmp_path: Path, clock: int) -> None:
    with TestClient(make_app(tmp_path)) as client:
        for headers, word in (({}, "seconds"), (PORTUGUESE, "segundos")):
            answer = client.post("/api/tables", json={"players": 2, "clock": clock}, headers=headers)
            assert answer.status_code == 400 and answer.json()["code"] == "bad-clock", answer.text
            assert word in answer.json()["message"]
        assert client.get("/api/tables").json()["total"] == 0


def test_the_protocol_offers_the_clocks_the_server_has() -> None:
    assert get_args(ClockSeconds) == CLOCKS


# --- your turn ------------------------------------------------------------------------


def turns(client: TestClient, seats: list[dict[str, str]]) -> list[dict[str, Any]]:
    answer = client.post("/api/turns", json={"seats": seats})
    assert answer.status_code == 200, answer.text
    return read(TurnsPage, answer.text)["tables"]


def test_your_turn_lists_the_tables_awaiting_the_seat_of_each_token(tmp_path: Path, wall: Clock) -> None:
    app = make_app(tmp_path, wall=wall)
    with TestClient(app) as client:
        mine, token = new_table(client, players=2, clock=86_400)
        add_bot(client, mine, token, 1)
        waiting, other = new_table(client, players=2)  # not started: nobody's turn
        start(client, mine, token)
        live = tables_of(app).live[mine]
        with Conn(client, mine, token, 0) as ana:
            wait_for(ana, my_turn)
        assert live.session.mover() is not None and live.session.mover()[0] == 0  # type: ignore[index]
        asked = [{"table": mine, "token": token}, {"table": waiting, "token": other}]
        assert turns(client, asked) == [
            {
                "id": mine,
                "seat": 0,
                "name": "Ana's table",
                "settings": "2 players · basic game",
                "clock": 86_400,
                "remaining": 86_400,
            }
        ]
        # in the asker's language, whatever the table's (as the lobby)
        answer = client.post("/api/turns", json={"seats": asked}, headers={"Accept-Language": "pt-BR"})
        row = read(TurnsPage, answer.text)["tables"][0]
        assert (row["name"], row["settings"]) == ("Mesa de Ana", "2 jogadores · modo básico")
        # another's token, a made-up one, a table that does not exist: left out, nothing said of them
        forged = [
            {"table": mine, "token": other},
            {"table": mine, "token": "x" * 32},
            {"table": "nope", "token": token},
        ]
        assert turns(client, forged) == []
        assert turns(client, [asked[0], asked[0]]) == turns(client, asked)  # each pair once


@pytest.mark.parametrize(
    "body",
    [
        {"seats": [{"table": "t", "token": "x"}] * 51},
        {"seats": [{"table": "t" * 33, "token": "x"}]},
        {"seats": [{"table": "t", "token": "x" * 201}]},
        {"seats": [{"table": "t"}]},
        {"seats": "all"},
        {"tokens": []},
    ],
)
def test_your_turn_refuses_a_malformed_or_oversized_question(tmp_path: Path, body: dict[str, Any]) -> None:
    with TestClient(make_app(tmp_path)) as client:
        answer = client.post("/api/turns", json=body)
        assert answer.status_code == 400 and answer.json()["code"] in ("bad-turns", "unknown-field"), answer.text


def test_your_turn_is_rate_limited_and_takes_no_token_in_its_address(tmp_path: Path) -> None:
    clock = Clock()
    clock.stop()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        assert client.get("/api/turns").status_code == 405
        for _ in range(10):
            assert client.post("/api/turns", json={"seats": []}).status_code == 200
        limited = client.post("/api/turns", json={"seats": []})
        assert limited.status_code == 429 and limited.json()["code"] == "too-many"
        assert int(limited.headers["Retry-After"]) >= 1
        clock.advance(5)
        assert client.post("/api/turns", json={"seats": []}).status_code == 200

"""The database away for a moment (PostgreSQL restarting: issue 46, defects 9 and 10), in
process: the store's writes and reads are made to fail as a restarting PostgreSQL makes
them fail (``AdminShutdown`` on a connection it ended), before or after the change went
in. The whole restart, on two processes sharing a real PostgreSQL, is
tests/web/services/test_web_db_restart.py.

What must hold: a write whose connection was lost is made again and goes in once (the
table's compare and set refuses a second apply; one that went in before its answer was
lost is found so); a change the database cannot take is refused in words
(``db-unavailable``, in the table's language), over HTTP and on the WebSocket, whose
connection goes on, nothing of it kept; a bot's answer is written again until it goes
in, and a process alone asks a bot's turn nobody is answering; the outage is one
warning line in the log.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError
from sqlalchemy.exc import OperationalError as SQLAlchemyOperationalError

from red7.web.accounts.accounts import Accounts
from red7.web.storage.outage import Outage, Unavailable, lost
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredTable
from tests.support.web_client import Conn, add_bot, join, make_app, my_turn, new_table, start, tables_of
from tests.web.test_web_store import CHANGES


def shutdown() -> psycopg.OperationalError:
    """What a statement on a connection PostgreSQL ended, restarting, raises."""
    return psycopg.errors.AdminShutdown("terminating connection due to administrator command")


class Database:
    """The database as every store of the test finds it: up, unless ``away`` (every write
    and table read raises :func:`shutdown`, nothing written); the next ``dropping`` writes
    raise before anything is sent, the next ``losing`` ones go in and then raise (their
    answer lost with their connection); ``away_next``: away once the next write went in."""

    def __init__(self) -> None:
        self.away = False
        self.dropping = 0
        self.losing = 0
        self.away_next = False
        self.failed = 0
        """Writes that raised."""


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> Iterator[Database]:
    """Every store's writes (its transaction, :meth:`Store.commit`: on SQLite, every change)
    and table reads, failing as :class:`Database` says."""
    state = Database()
    commit, table = Store.commit, Store.table

    def write(store: Store, before: StoredTable, after: StoredTable) -> StoredTable | None:
        if state.away or state.dropping:
            state.dropping = max(0, state.dropping - 1)
            state.failed += 1
            raise shutdown()
        written = commit(store, before, after)
        if state.losing:
            state.losing -= 1
            state.failed += 1
            raise shutdown()
        if state.away_next:
            state.away, state.away_next = True, False
        return written

    def read(store: Store, *args: Any) -> StoredTable | None:
        if state.away:
            raise shutdown()
        return table(store, *args)

    monkeypatch.setattr(Store, "commit", write)
    monkeypatch.setattr(Store, "table", read)
    yield state


def test_the_errors_of_a_restart_are_an_outage_and_others_are_not() -> None:
    assert lost(shutdown())
    assert lost(psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"))
    assert lost(psycopg.errors.CannotConnectNow("the database system is starting up"))
    assert lost(SQLAlchemyOperationalError("SELECT 1", {}, shutdown()))
    assert not lost(psycopg.errors.UniqueViolation("duplicate key"))
    assert not lost(psycopg.errors.SerializationFailure("could not serialize"))
    assert not lost(sqlite3.OperationalError("database is locked"))
    assert not lost(SQLAlchemyOperationalError("SELECT 1", {}, sqlite3.OperationalError("database is locked")))
    assert not lost(ValueError("no"))


def test_an_outage_is_one_warning_line(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage()
    with caplog.at_level(logging.INFO, logger="red7.web"):
        for _ in range(5):
            outage.down(shutdown())
        outage.up()
        outage.up()
        outage.down(shutdown())
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert [level for level, _ in lines] == ["WARNING", "INFO", "WARNING"]
    assert "AdminShutdown" in lines[0][1] and "back" in lines[1][1]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback


def store_of(folder: Path) -> Store:
    store = Store(f"sqlite:///{folder / 'store.sqlite3'}")
    store.upgrade()
    return store


@pytest.mark.parametrize("fault", ["losing", "dropping"])
def test_a_write_whose_connection_was_lost_goes_in_once(tmp_path: Path, database: Database, fault: str) -> None:
    """Every kind of change: its first try's connection ends, after the change went in
    (``losing``: the second try is refused by the compare and set, and the change found
    in the database) or before (``dropping``); the database holds it once, as returned."""

    async def run() -> None:
        store = store_of(tmp_path)
        saved = store.create_table("t1", 2, False, False, "en")
        try:
            for what, _appends, change in CHANGES:
                setattr(database, fault, 1)
                written = await store.write(saved, change(saved))
                assert written is not None and written.version == saved.version + 1, what
                assert store.table("t1") == written, what
                saved = written
            assert database.failed == len(CHANGES)
        finally:
            store.close()

    asyncio.run(run())


def test_a_write_lost_twice_is_unavailable_and_never_goes_in_twice(tmp_path: Path, database: Database) -> None:
    async def run() -> None:
        store = store_of(tmp_path)
        saved = store.create_table("t1", 2, False, False, "en")
        try:
            for what, _appends, change in CHANGES:
                after = change(saved)
                database.dropping = 2  # away: nothing goes in
                with pytest.raises(Unavailable):
                    await store.write(saved, after)
                assert store.table("t1") == saved, what
                database.losing = 2  # in, but both answers lost: not known to be in
                with pytest.raises(Unavailable):
                    await store.write(saved, after)
                written = store.table("t1")
                assert written is not None and written.version == saved.version + 1, what
                # made again from where it was made: refused by its compare and set, written once
                assert await store.write(saved, after) is None, what
                assert store.table("t1") == written, what
                saved = written
        finally:
            store.close()

    asyncio.run(run())


OPENS = 3
"""A deal where the person in seat 0 plays first and can end that turn without conceding
(another deal may give the bot the first turn and leave her only the concession)."""


def end_turn(conn: Conn, before_last: Any = None) -> tuple[int, str]:
    """``conn``'s seat decides until its turn ends (``before_last()`` is called before the
    decision that ends it); that decision's ``seq`` and notation."""
    while True:
        frame = conn.last if my_turn(conn.last) else conn.until(my_turn)
        assert frame is not None
        options = [o for o in frame["game"]["options"] if o["kind"] != "concede"]
        ending = [o for o in options if o["ends_turn"]]
        if ending:
            if before_last is not None:
                before_last()
            conn.decide(ending[0]["action"])
            return frame["seq"], ending[0]["action"]
        conn.decide(options[0]["action"])
        while conn.last is frame:  # until the frame of the decision staged
            conn.recv()


def bot_answered(store: Store, table_id: str, seq: int, action: str) -> bool:
    """Whether the stored game has the person's decision ``action`` once, as decision
    ``seq``, and after it the bot's, each once (none of them written twice)."""
    stored = store.game(table_id, 1)
    assert stored is not None
    after = stored.decisions[seq + 1 :]
    return stored.decisions[seq] == (0, action) and len(after) > 0 and all(seat == 1 for seat, _ in after)


UNSAVED = "The server cannot save your move right now: try again in a moment."


def test_a_change_the_database_cannot_take_is_refused_in_words_and_the_socket_goes_on(
    tmp_path: Path, database: Database
) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table_id, ana = new_table(client, 2, name="Ana")
        bia = join(client, table_id, 1, "Bia")
        waiting = {lang: new_table(client, 2, lang=lang)[0] for lang in ("en", "pt-BR")}
        with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b:
            start(client, table_id, ana)
            while not (my_turn(a.last) or my_turn(b.last)):
                a.drain(), b.drain()
            mover = a if my_turn(a.last) else b
            assert mover.last is not None
            seq = mover.last["seq"]
            action = next(o["action"] for o in mover.last["game"]["options"] if o["kind"] != "concede")
            database.away = True
            mover.decide(action)
            refused = mover.error()
            assert (refused["code"], refused["message"]) == ("db-unavailable", UNSAVED)
            # over HTTP too, in the table's language: a seat taken while the database is away
            for lang, words in (("en", UNSAVED), ("pt-BR", "O servidor")):
                r = client.post(f"/api/tables/{waiting[lang]}/seats/1", json={"name": "Cy"})
                assert r.status_code == 503 and r.json()["code"] == "db-unavailable", r.text
                assert r.json()["message"].startswith(words)
            # nothing of the decision kept; the sockets go on
            live = tables_of(app).live[table_id]
            assert live.seq_for(mover.seat) == seq and live.session.staging is None
            database.away = False
            mover.decide(action, seq)
            mover.until(lambda f: f["type"] == "table" and f["seq"] > seq)
            assert a.closed is None and b.closed is None and mover.errors == [refused]
            stored = tables_of(app).store.game(table_id, 1)
            assert stored is not None and stored.decisions == ((mover.seat, action),)


def test_a_bots_answer_the_database_could_not_take_is_written_again_once_it_is_back(
    tmp_path: Path, database: Database
) -> None:
    """Alone, a person against a bot: the database goes away once the person's turn is
    in; the bot's answer, refused, is tried again until the database is back, then goes
    in, once."""
    app = make_app(tmp_path, seeds=lambda: OPENS)
    with TestClient(app) as client:
        table_id, ana = new_table(client, 2, name="Ana")
        add_bot(client, table_id, ana, 1, "easy")
        with Conn(client, table_id, ana, 0) as a:
            start(client, table_id, ana)
            seq, action = end_turn(a, lambda: setattr(database, "away_next", True))
            deadline = time.monotonic() + 60
            while database.failed < 4:  # two tries of the bot's answer, each made twice
                assert time.monotonic() < deadline, "the bot's answer was not tried again"
                a.drain()
            database.away = False
            a.until(lambda f: my_turn(f) and f["seq"] > seq + 1)
            assert a.errors == [] and a.closed is None
            assert bot_answered(tables_of(app).store, table_id, seq, action)


@pytest.mark.slow
def test_alone_a_bots_turn_nobody_answers_is_asked(tmp_path: Path, database: Database) -> None:
    """Alone, a person against a bot: the person's decision goes in but both answers are
    lost (refused as unsaved; the table here as before it); sent again, it finds the table
    moved (refused as stale, the bot's turn read back, which no write here asked): the
    bot is asked all the same, and plays."""
    app = make_app(tmp_path, seeds=lambda: OPENS)
    with TestClient(app) as client:
        table_id, ana = new_table(client, 2, name="Ana")
        add_bot(client, table_id, ana, 1, "easy")
        with Conn(client, table_id, ana, 0) as a:
            start(client, table_id, ana)
            seq, action = end_turn(a, lambda: setattr(database, "losing", 2))
            assert a.error()["code"] == "db-unavailable"
            a.decide(action, seq)
            assert a.error()["code"] == "stale"
            a.until(lambda f: my_turn(f) and f["seq"] > seq + 1)
            assert a.closed is None
            assert bot_answered(tables_of(app).store, table_id, seq, action)


def test_a_room_meeting_the_database_away_refuses_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A room that calls the database in a thread of its own (accounts: a login) meets
    PostgreSQL restarting: 503 ``db-unavailable`` in the browser's language, no traceback;
    any other database error is still the server's (500)."""
    failure: list[BaseException] = [SQLAlchemyOperationalError("SELECT", {}, shutdown())]

    def login(*_: Any) -> Any:
        raise failure[0]

    monkeypatch.setattr(Accounts, "login", login)
    with TestClient(make_app(tmp_path)) as client:
        for lang, words in (("en", UNSAVED), ("pt-BR", "O servidor")):
            r = client.post(
                "/api/account/login",
                json={"username": "ana", "password": "a long password"},
                headers={"Accept-Language": lang},
            )
            assert r.status_code == 503 and r.json()["code"] == "db-unavailable", r.text
            assert r.json()["message"].startswith(words)
        failure[0] = IntegrityError("INSERT", {}, psycopg.errors.UniqueViolation("duplicate key"))
        with pytest.raises(IntegrityError):
            client.post("/api/account/login", json={"username": "ana", "password": "a long password"})

"""The chat of a table (red7.web.chat.chat) through the WebSocket protocol, in process: who
says and reads what (players, spectators, the host's ``separate`` or ``off``), the
history a reload gets, the canned reactions in the table's language, and hostile input:
text too long or too large, control characters, markup, a flood, a message naming a
seat, malformed messages. Every frame is validated against the protocol (web_client.Conn).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient

from red7.web.chat import chat as chat_module
from red7.web.chat.chat import BURST, HISTORY, RATE, REACTIONS, clean
from red7.web.chat.store import add_line, recent_lines
from red7.web.chat.wire import MAX_CHAT, Say
from red7.web.storage.store import Store, alembic_config
from red7.web.table import views
from tests.support.web_client import HEAD, Clock, Frame, add_bot, hello, join, make_app, new_table, start, tables_of
from tests.support.web_client import Conn as PlainConn


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, clock: Clock) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("chat"), clock=clock)) as client:
        yield client


@pytest.fixture
def stopped(clock: Clock) -> Iterator[Clock]:
    """The rate limit's clock, stopped for the test (it runs on after it)."""
    clock.stop()
    yield clock
    clock.run()


def create(client: TestClient, spectator_chat: str | None = None, lang: str = "en") -> tuple[str, str, str]:
    """A 2-player table (Ana in seat 0, Bia in seat 1): its id and the two tokens."""
    body: dict[str, Any] = {"players": 2, "lang": lang, "name": "Ana"}
    if spectator_chat is not None:
        body["spectator_chat"] = spectator_chat
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    table_id, ana = r.json()["id"], r.json()["token"]
    return table_id, ana, join(client, table_id, 1, "Bia")


class Conn(PlainConn):
    """A connection that shows the chat (its hello says ``"chat": true``, as the page's does)."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None, seat: int | None = None) -> None:
        super().__init__(client, table_id, token, seat, greet=False)
        self.session.send_text(hello(token, chat=True))


def history(conn: Conn) -> Frame:
    """The chat history a connection gets after its first table frame."""
    return conn.until(lambda f: f["type"] == "chat" and f["history"])


def line(conn: Conn) -> dict[str, Any]:
    """The next chat line ``conn`` is sent."""
    frame = conn.until(lambda f: f["type"] == "chat" and not f["history"])
    assert len(frame["lines"]) == 1
    result: dict[str, Any] = frame["lines"][0]
    return result


def say(conn: Conn, text: str | None = None, **more: Any) -> None:
    conn.send({"type": "chat", **({} if text is None else {"text": text}), **more})


def stored(client: TestClient, table_id: str) -> list[Any]:
    tables = tables_of(client.app)
    return recent_lines(tables.store, table_id, ("players", "spectators"), 1000)


def quiet(conn: Conn) -> list[Frame]:
    """The chat frames ``conn`` has waiting (none expected: checked by the caller)."""
    return [f for f in conn.drain() if f["type"] == "chat"]


# --- saying and reading ----------------------------------------------------------------------


def test_players_and_spectators_read_a_players_line_as_it_is_said(client: TestClient) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b, Conn(client, table_id) as w:
        for conn in (a, b, w):
            first = history(conn)
            assert first["lines"] == [] and first["spectators"] == "separate" and first["can_post"]
            assert [r["id"] for r in first["reactions"]] == list(REACTIONS)
            assert first["words"]["chat"] == "Chat"
        say(a, "good luck, Bia")
        for conn in (a, b, w):
            got = line(conn)
            assert (got["seat"], got["name"], got["channel"], got["text"]) == (0, "Ana", "players", "good luck, Bia")
            assert got["reaction"] is None and got["at"].endswith("+00:00")


def test_a_reaction_is_said_in_the_tables_language(client: TestClient) -> None:
    table_id, ana, bia = create(client, lang="pt-BR")
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b:
        words = history(b)
        assert {r["id"]: r["text"] for r in words["reactions"]}["gg"] == "Bom jogo"
        assert words["words"]["chat_send"] == "Enviar"
        history(a)
        say(a, reaction="gg")
        got = line(b)
        assert (got["reaction"], got["text"], got["name"]) == ("gg", "Bom jogo", "Ana")


def test_spectators_talk_among_themselves_and_players_never_read_them(client: TestClient) -> None:
    table_id, ana, bia = create(client, "separate")
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id) as w1, Conn(client, table_id) as w2:
        for conn in (a, w1, w2):
            history(conn)
        say(w1, "who wins this?")
        for conn in (w1, w2):
            got = line(conn)
            assert (got["seat"], got["name"], got["channel"]) == (None, "", "spectators")
        say(a, "hi all")  # Ana's next line is the first chat she reads: the spectators' never came
        assert line(a)["text"] == "hi all"
        assert [x["channel"] for f in a.frames if f["type"] == "chat" for x in f["lines"]] == ["players"]
    with Conn(client, table_id, bia, 1) as b, Conn(client, table_id) as w3:
        assert [x["text"] for x in history(b)["lines"]] == ["hi all"]  # a player's history has no spectator line
        assert [x["text"] for x in history(w3)["lines"]] == ["who wins this?", "hi all"]


def test_with_spectators_chat_off_a_spectator_reads_the_players_but_cannot_post(client: TestClient) -> None:
    table_id, ana, _bia = create(client, "off")
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id) as w:
        first = history(w)
        assert first["spectators"] == "off" and first["can_post"] is False
        assert history(a)["can_post"] is True
        say(w, "psst")
        refusal = w.error()
        assert refusal["code"] == "chat-off" and "off" in refusal["message"]
        say(w, reaction="gg")
        assert w.error()["code"] == "chat-off"
        say(a, "still here")
        assert line(w)["text"] == "still here"
    assert [x.text for x in stored(client, table_id)] == ["still here"]


def test_a_reload_and_a_restart_show_the_history(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as first:
        table_id, ana, bia = create(first)
        with Conn(first, table_id, ana, 0) as a:
            history(a)
            for n in range(3):
                say(a, f"line {n}")
                line(a)
        with Conn(first, table_id, bia, 1) as b:  # a reload
            assert [x["text"] for x in history(b)["lines"]] == ["line 0", "line 1", "line 2"]
    with TestClient(make_app(tmp_path)) as second, Conn(second, table_id, bia, 1) as b:  # a new server process
        lines = history(b)["lines"]
        assert [(x["seat"], x["name"], x["text"]) for x in lines] == [(0, "Ana", f"line {n}") for n in range(3)]


def test_the_history_is_the_last_lines(client: TestClient, stopped: Clock) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a:
        history(a)
        for n in range(HISTORY + 5):
            stopped.advance(1 / RATE)
            say(a, f"n{n}")
            line(a)
    with Conn(client, table_id, bia, 1) as b:
        texts = [x["text"] for x in history(b)["lines"]]
    assert texts == [f"n{n}" for n in range(5, HISTORY + 5)]


def test_chat_works_before_during_and_after_a_game(client: TestClient) -> None:
    table_id, ana = new_table(client)
    with Conn(client, table_id, ana, 0) as a:
        history(a)
        say(a, "waiting for a bot")
        assert line(a)["text"] == "waiting for a bot"
        add_bot(client, table_id, ana, 1)
        start(client, table_id, ana)
        a.until(lambda f: f["type"] == "table" and f["game"] is not None)
        say(a, reaction="hello")
        assert line(a)["text"] == "Hello!"


# --- hostile input ---------------------------------------------------------------------------


def test_markup_is_kept_as_text_and_control_characters_are_dropped(client: TestClient) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b:
        history(a), history(b)
        say(a, '<img src=x onerror="alert(1)"> <b>hi</b>')
        assert line(b)["text"] == '<img src=x onerror="alert(1)"> <b>hi</b>'  # text: the page shows it as text
        say(a, "a\u0000b\u202ec\u200bd\ne\tf\u0007 \U0001f468\u200d\U0001f469")
        assert line(b)["text"] == "abcd e f \U0001f468\u200d\U0001f469"
        say(a, "\u0000\u0001 \n\u202e")
        assert a.error()["code"] == "bad-chat"
    assert [x.text for x in stored(client, table_id)][-1] == "abcd e f \U0001f468\u200d\U0001f469"


def test_clean() -> None:
    assert clean("  two   words ") == "two words"
    assert clean("\u2066isolate\u2069") == "isolate"
    assert clean("ção ✓ 漢字") == "ção ✓ 漢字"


@pytest.mark.parametrize(("lang", "words"), [("en", "up to 200 characters"), ("pt-BR", "até 200 caracteres")])
def test_a_long_message_is_refused_and_nothing_is_kept(client: TestClient, lang: str, words: str) -> None:
    table_id, ana, bia = create(client, lang=lang)
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b:
        history(a), history(b)
        say(a, "x" * (MAX_CHAT + 1))
        refusal = a.error()
        assert refusal["code"] == "chat-too-long" and words in refusal["message"]
        say(a, "x" * 10_000)  # 10 KB: over what a message may weigh
        assert a.error()["code"] == "too-large"
        say(a, "y" * MAX_CHAT)  # the longest allowed
        assert line(b)["text"] == "y" * MAX_CHAT
        assert quiet(b) == []
    assert [x.text for x in stored(client, table_id)] == ["y" * MAX_CHAT]


def test_a_flood_is_refused_and_nothing_of_it_is_kept(client: TestClient, stopped: Clock) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id, bia, 1) as b:
        history(a), history(b)
        for n in range(BURST):
            say(a, f"burst {n}")
            line(a)
        for _ in range(20):
            say(a, "flood")
            refusal = a.error()
            assert refusal["code"] == "chat-too-fast" and refusal["retry_after"] > 0
            assert "wait 2 s" in refusal["message"]
        stopped.advance(1 / RATE)  # a steady rate passes
        say(a, "after a breath")
        assert line(a)["text"] == "after a breath"
        say(a, "again")
        assert a.error()["code"] == "chat-too-fast"
    with Conn(client, table_id, ana, 0) as a2:  # a second connection of the same seat shares its limit
        history(a2)
        say(a2, "from another tab")
        assert a2.error()["code"] == "chat-too-fast"
    texts = [x.text for x in stored(client, table_id)]
    assert texts == [f"burst {n}" for n in range(BURST)] + ["after a breath"]
    assert [f for f in b.frames if f["type"] == "chat" and f["lines"] and f["lines"][0]["text"] == "flood"] == []


def test_a_spectator_cannot_speak_as_a_seat(client: TestClient) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a, Conn(client, table_id) as w:
        history(a), history(w)
        for forged in (
            {"type": "chat", "text": "I resign", "seat": 0},
            {"type": "chat", "text": "I resign", "name": "Ana"},
            {"type": "chat", "text": "I resign", "channel": "players"},
            {"type": "chat", "text": "I resign", "token": ana[:4]},
        ):
            w.send(forged)
            assert w.error()["code"] == "unknown-field"
        say(w, "I resign")  # said, as a spectator, in the spectators' channel
        got = line(w)
        assert (got["seat"], got["name"], got["channel"]) == (None, "", "spectators")
        assert quiet(a) == []
    assert [(x.seat, x.channel) for x in stored(client, table_id)] == [(None, "spectators")]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "chat"}, "bad-chat"),
        ({"type": "chat", "text": "hi", "reaction": "gg"}, "bad-chat"),
        ({"type": "chat", "text": ""}, "bad-chat"),
        ({"type": "chat", "text": 7}, "chat-too-long"),
        ({"type": "chat", "reaction": "<script>"}, "bad-reaction"),
        ({"type": "chat", "reaction": None, "text": None}, "bad-chat"),
        ({"type": "chat", "text": ["a"]}, "chat-too-long"),
        ({"type": "chats", "text": "hi"}, "bad-type"),
        ("[1, 2]", "bad-json"),
    ],
)
def test_malformed_chat_messages_are_refused(client: TestClient, message: Any, code: str) -> None:
    table_id, ana, _bia = create(client)
    with Conn(client, table_id, ana, 0) as a:
        history(a)
        a.send(message if isinstance(message, str) else json.dumps(message))
        assert a.error()["code"] == code
    assert stored(client, table_id) == []


@pytest.mark.parametrize("choice", ["on", "", 1, None, "Separate"])
def test_a_table_with_a_bad_spectator_chat_is_refused(client: TestClient, choice: Any) -> None:
    r = client.post("/api/tables", json={"players": 2, "spectator_chat": choice}, headers={"Accept-Language": "pt-BR"})
    assert r.status_code == 400 and r.json()["code"] == "bad-settings"
    assert "separado" in r.json()["message"] or "desligado" in r.json()["message"]


def test_a_connection_that_does_not_show_the_chat_gets_no_chat_frame(client: TestClient) -> None:
    table_id, ana, bia = create(client)
    with Conn(client, table_id, ana, 0) as a, PlainConn(client, table_id, bia, 1) as b:
        history(a)
        b.until(lambda f: f["type"] == "table")
        say(b, "said without reading")  # (a program may still say a line)
        assert line(a)["text"] == "said without reading"
        say(a, "answer")
        line(a)
        assert [f for f in b.drain() if f["type"] == "chat"] == []


def test_the_pages_chat_script_sends_the_fields_of_the_model() -> None:
    """chat.js writes the fields of :class:`~red7.web.chat.wire.Say`, and table.js's hello asks for the chat."""
    script = (Path(chat_module.__file__).parent / "static" / "chat.js").read_text()
    table = (Path(views.__file__).parent / "static" / "table.js").read_text()
    assert set(Say.model_fields) == {"type", "text", "reaction"}
    assert 'type: "chat", ...message' in script and "say({ text })" in script and "say({ reaction: r.id })" in script
    assert "lang: askedLanguage(), chat: true" in table
    assert ".innerHTML" not in script  # lines are text, never markup


# --- the migration ---------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres").create_database())
    return f"sqlite:///{tmp_path / 'at-0004.sqlite3'}"


def test_migration_0006_chat_upgrades_a_database_with_tables_and_downgrades(database_url: str) -> None:
    store = Store(database_url)
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0004")
    meta = sa.MetaData()
    with store.engine.begin() as connection:
        tables, seats = (sa.Table(name, meta, autoload_with=connection) for name in ("tables", "seats"))
        connection.execute(
            tables.insert().values(
                id="before",
                created=datetime.now(UTC),
                players=2,
                advanced=False,
                actions=False,
                lang="en",
                status="open",
            )
        )
        connection.execute(
            seats.insert(),
            [{"table_id": "before", "seat": 0, "name": "Ana"}, {"table_id": "before", "seat": 1, "name": ""}],
        )
    store.upgrade()
    assert store.revision() == HEAD
    table = store.table("before")
    assert table is not None and table.spectator_chat == "separate"  # a table made before chat keeps today's rule
    line = add_line(store, "before", "players", 0, "Ana", None, "hello")
    assert recent_lines(store, "before", ("players",), 10) == [line]
    made = store.create_table("after", 2, False, False, "pt-BR", spectator_chat="off")
    assert store.table("after") == made and made.spectator_chat == "off"
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0004")
    assert store.revision() == "0004"
    with store.engine.connect() as connection:
        assert "chat" not in sa.inspect(connection).get_table_names()
        assert "spectator_chat" not in {c["name"] for c in sa.inspect(connection).get_columns("tables")}
    store.close()


# --- mute follows the person ------------------------------------------------------------------


def said_by(conn: Conn, speaker: Conn, text: str) -> dict[str, Any]:
    """``speaker`` says ``text``; the line as ``conn`` reads it."""
    speaker.send({"type": "chat", "text": text})
    frame = conn.until(lambda f: f["type"] == "chat" and not f["history"] and f["lines"][0]["text"] == text)
    result: dict[str, Any] = frame["lines"][0]
    return result


def test_a_line_says_who_said_it_whichever_seat_and_never_a_token(client: TestClient) -> None:
    """A line's ``who`` (what a page mutes) is the person's, not the seat's: Bia who
    leaves seat 1 and sits in seat 2 is the same Bia; Cy in Bia's old seat is not Bia.
    The seats of the table frames say who sits there, in the same words."""
    r = client.post("/api/tables", json={"players": 3, "name": "Ana"})
    table_id, ana = r.json()["id"], r.json()["token"]
    bia = join(client, table_id, 1, "Bia")
    with Conn(client, table_id, ana, 0) as anas_page, Conn(client, table_id) as spectator:
        history(anas_page)
        history(spectator)
        with Conn(client, table_id, bia, 1) as bias_page:
            history(bias_page)
            first = said_by(anas_page, bias_page, "hi from seat 2")
        assert (first["seat"], first["who"]) == (1, "g:bia")
        assert said_by(spectator, anas_page, "hello")["who"] == "g:ana"
        assert client.post(f"/api/tables/{table_id}/leave", json={"token": bia}).status_code == 200
        bia = join(client, table_id, 2, "BIA")  # the same name, as the table folds it
        cy = join(client, table_id, 1, "Cy")
        frame = anas_page.until(lambda f: f["type"] == "table" and f["seats"][1]["taken"] and f["seats"][2]["taken"])
        assert [s["who"] for s in frame["seats"]] == ["g:ana", "g:cy", "g:bia"]
        with Conn(client, table_id, bia, 2) as bias_page, Conn(client, table_id, cy, 1) as cys_page:
            history(bias_page)
            history(cys_page)
            moved = said_by(anas_page, bias_page, "I moved")
            assert (moved["seat"], moved["who"]) == (2, "g:bia")
            taken = said_by(anas_page, cys_page, "my seat now")
            assert (taken["seat"], taken["who"]) == (1, "g:cy")
        assert said_by(spectator, spectator, "watching")["who"] is None
    with Conn(client, table_id) as reloaded:  # the history says who too
        lines = history(reloaded)["lines"]
        assert [line["who"] for line in lines[-5:]] == ["g:bia", "g:ana", "g:bia", "g:cy", None]
    tables = tables_of(client.app)
    hashes = {s.token_hash for s in tables.live[table_id].seats}
    for line in lines:  # a person's who is made of their name: no token, no hash of one
        assert not any(h and line["who"] and h[:8] in line["who"] for h in hashes)


def test_a_registered_persons_lines_say_their_username(tmp_path: Path) -> None:
    """Dora, logged in, is ``u:dora`` wherever she sits; a guest who calls herself Dora
    at another table is ``g:dora``, someone else."""
    from red7.web.accounts.login_limits import LoginRules

    rules = LoginRules(per_minute=1e6, burst=10**6)
    with TestClient(make_app(tmp_path, password_cost=(1, 8, 1), login_rules=rules)) as dora:
        r = dora.post("/api/account/register", json={"username": "Dora", "password": "correct horse battery"})
        assert r.status_code == 200, r.text
        r = dora.post("/api/tables", json={"players": 2, "name": "ignored"})
        table_id, token = r.json()["id"], r.json()["token"]
        with Conn(dora, table_id, token, 0) as page:
            frame = page.until(lambda f: f["type"] == "table")
            assert frame["seats"][0]["who"] == "u:dora" and frame["seats"][1]["who"] is None
            history(page)
            assert said_by(page, page, "hello")["who"] == "u:dora"
        dora.cookies.clear()  # a guest now, on the same browser
        r = dora.post("/api/tables", json={"players": 2, "name": "Dora"})
        other, guest = r.json()["id"], r.json()["token"]
        with Conn(dora, other, guest, 0) as page:
            history(page)
            assert said_by(page, page, "hello")["who"] == "g:dora"


def test_migration_0011_keeps_older_lines_saying_nobody_and_downgrades(tmp_path: Path) -> None:
    """A line kept before lines said who (migration 0011) says nobody (null: no page can
    mute it); the migration goes down and up again."""
    store = Store(f"sqlite:///{tmp_path / 'who.sqlite3'}")
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0010")
    with store.engine.begin() as connection:  # (as 0010 has it: this release's rows have more columns)
        connection.execute(
            sa.text(
                "INSERT INTO tables (id, created, players, advanced, actions, lang, status, version) "
                "VALUES ('t0010', :at, 2, 0, 0, 'en', 'open', 0)"
            ),
            {"at": datetime.now(UTC)},
        )
        connection.execute(
            sa.text(
                "INSERT INTO chat (table_id, channel, seat, name, reaction, text, at) "
                "VALUES ('t0010', 'players', 0, 'Ana', NULL, 'old words', :at)"
            ),
            {"at": datetime.now(UTC)},
        )
    store.upgrade()
    assert store.revision() == HEAD
    (old,) = recent_lines(store, "t0010", ("players",), 10)
    assert (old.text, old.who) == ("old words", None)
    new = add_line(store, "t0010", "players", 1, "Bia", None, "new words", "g:bia")
    assert recent_lines(store, "t0010", ("players",), 10) == [old, new]
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0010")
        assert "who" not in {c["name"] for c in sa.inspect(connection).get_columns("chat")}
    store.upgrade()
    assert [line.who for line in recent_lines(store, "t0010", ("players",), 10)] == [None, None]
    store.close()

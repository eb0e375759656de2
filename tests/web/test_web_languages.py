"""Each person's own language at any table (docs/web.md, "Language at a table"), over the
WebSocket protocol, in process: a connection reads every word — frames, refusals, chat,
hints — in the language its hello asks for (else its browser's, else the table's),
whatever the table's; spectators too. Its frames are exactly those a table created in
that language would send it; the words are made once per language, not per connection;
the lobby and the replays speak the reader's language too. Every frame is validated
against the protocol (web_client.Conn)."""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.ui.i18n import using
from red7.web.table.cache import FrameCache
from red7.web.table.live import LiveTable
from red7.web.table.views import table_frame
from tests.support.web_client import Conn, Frame, careful, hello, join, make_app, my_turn, play_out, start, tables_of

PORTUGUESE = {"Accept-Language": "pt-BR,pt;q=0.9"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("languages"))) as client:
        yield client


@pytest.fixture
def opened() -> Iterator[contextlib.ExitStack]:
    """The test's connections, closed when it ends, passed or failed (an open one would hold the app's teardown)."""
    with contextlib.ExitStack() as stack:
        yield stack


def connect(
    client: TestClient,
    table_id: str,
    token: str | None = None,
    seat: int | None = None,
    headers: dict[str, str] | None = None,
    **said: Any,
) -> Conn:
    """A connection whose hello says ``said`` besides its token (``lang``, ``chat``), as the page's does."""
    conn = Conn(client, table_id, token, seat, greet=False, headers=headers)
    conn.session.send_text(hello(token, **said))
    return conn


def english_table(client: TestClient, actions: bool = True) -> tuple[str, str, str]:
    """Ana's English 2-player table, Bia seated: its id, Ana's and Bia's tokens."""
    r = client.post("/api/tables", json={"players": 2, "actions": actions, "lang": "en", "name": "Ana"})
    assert r.status_code == 200, r.text
    table_id, ana = r.json()["id"], r.json()["token"]
    return table_id, ana, join(client, table_id, 1, "Bia")


def live_of(client: TestClient, table_id: str) -> LiveTable:
    return tables_of(client.app).get(table_id)


def as_if_created_in(live: LiveTable, lang: str, seat: int | None) -> Frame:
    """The frame ``seat`` would be sent now had ``live`` been created in ``lang`` (its
    ``table.lang`` aside): what a reader of ``lang`` must be sent at any table."""
    other = copy.copy(live)  # (the same game, seats and session: only the table's language differs)
    other.lang = lang
    with using(lang):
        other.name = live.title()  # (a default name is made in the table's language)
    frame: Frame = dict(table_frame(other, seat, words=False))
    frame["table"] = {**frame["table"], "lang": live.lang}
    return frame


def whole(frame: Frame) -> Frame:
    """A frame as a page holds it (web_client.Conn: the whole log), without the page's words."""
    shown = {key: value for key, value in frame.items() if key != "ui"}
    if shown["game"] is not None:
        shown["game"] = {**shown["game"], "log_from": 0}
    return shown


def table_frames(conn: Conn) -> list[Frame]:
    return [frame for frame in conn.frames if frame["type"] == "table"]


# --- the frames -----------------------------------------------------------------------------------


def test_a_portuguese_person_and_an_english_spectator_each_read_one_game_in_their_own_language(
    client: TestClient, opened: contextlib.ExitStack
) -> None:
    """At Ana's English table, Bia (her page asks pt-BR) reads every frame in Portuguese,
    exactly as at a table created in Portuguese, from the first to the game's end; a
    spectator whose browser asks Portuguese reads it so too, and one asking English reads English."""
    table_id, ana, bia = english_table(client)
    a = opened.enter_context(connect(client, table_id, ana, 0, lang="en"))
    b = opened.enter_context(connect(client, table_id, bia, 1, lang="pt-BR"))
    w_en = opened.enter_context(connect(client, table_id, None, None, lang="en"))
    w_pt = opened.enter_context(connect(client, table_id, None, None, headers=PORTUGUESE))
    conns = [a, b, w_en, w_pt]
    start(client, table_id, ana)
    live = live_of(client, table_id)
    compared = 0
    rng = random.Random(7)
    pick = careful(rng)

    def choose(frame: Frame) -> str:
        # the mover's turn, its frames all read: the table stands still until it decides
        nonlocal compared
        conn = b if frame["you"] == 1 else a
        assert whole(frame) == as_if_created_in(live, "pt-BR" if conn is b else "en", frame["you"])
        compared += 1
        return pick(frame)

    play_out(conns, choose, done=lambda c: bool(c.last and c.last["game"] and c.last["game"]["over"]))
    assert compared > 2
    for conn, lang in ((a, "en"), (b, "pt-BR"), (w_en, "en"), (w_pt, "pt-BR")):
        frames = table_frames(conn)
        assert {frame["lang"] for frame in frames} == {lang}
        assert {frame["table"]["lang"] for frame in frames} == {"en"}  # the table's own stays English
        assert whole(frames[-1]) == as_if_created_in(live, lang, conn.seat), lang
    first_pt, first_en = table_frames(b)[0], table_frames(w_en)[0]
    assert (first_pt["ui"]["language"], first_en["ui"]["language"]) == ("Idioma", "Language")
    over_pt, over_en = b.last, w_en.last
    assert over_pt is not None and over_en is not None
    assert over_pt["table"]["settings"].startswith("2 jogadores")
    assert over_en["table"]["settings"].startswith("2 players")
    assert over_pt["game"]["rule"]["name"] != over_en["game"]["rule"]["name"]


def test_a_hello_without_a_language_reads_its_browsers_else_the_tables(client: TestClient) -> None:
    """The hello's ``lang`` (the page's choice) first, then the browser's Accept-Language,
    then the table's: the table's language is the default of its invitation."""
    table_id, ana, _bia = english_table(client)
    r = client.post("/api/tables", json={"players": 2, "lang": "pt-BR", "name": "Júlia"})
    pt_table = r.json()["id"]
    cases = [
        (table_id, {"lang": "pt"}, None, "pt-BR"),  # (``pt`` reads as pt-BR)
        (table_id, {}, PORTUGUESE, "pt-BR"),
        (table_id, {"lang": "en"}, PORTUGUESE, "en"),  # the page's choice over the browser's
        (table_id, {}, None, "en"),
        (pt_table, {}, None, "pt-BR"),
        (pt_table, {"lang": "fr"}, {"Accept-Language": "de"}, "pt-BR"),  # none spoken here: the table's
        (pt_table, {"lang": "fr"}, {"Accept-Language": "de, en;q=0.5"}, "en"),
    ]
    for table, said, headers, lang in cases:
        with connect(client, table, None, None, headers=headers, **said) as conn:
            first = conn.until(lambda f: f["type"] == "table")
            assert first["lang"] == lang, (table, said, headers)
    del ana


# --- refusals, chat and hints -----------------------------------------------------------------------


def test_refusals_chat_lines_and_hints_come_in_each_connections_language(
    client: TestClient, opened: contextlib.ExitStack
) -> None:
    table_id, ana, bia = english_table(client)
    a = opened.enter_context(connect(client, table_id, ana, 0, lang="en", chat=True))
    b = opened.enter_context(connect(client, table_id, bia, 1, lang="pt-BR", chat=True))
    w_en = opened.enter_context(connect(client, table_id, None, None, lang="en", chat=True))
    w_pt = opened.enter_context(connect(client, table_id, None, None, lang="pt-BR", chat=True))
    conns = [a, b, w_en, w_pt]
    histories = [conn.until(lambda f: f["type"] == "chat" and f["history"]) for conn in conns]
    assert [h["words"]["chat_send"] for h in histories] == ["Send", "Enviar", "Send", "Enviar"]
    assert [{r["id"]: r["text"] for r in h["reactions"]}["gg"] for h in histories] == [
        "Good game",
        "Bom jogo",
        "Good game",
        "Bom jogo",
    ]
    # a reaction said in English is read in each reader's language, here and in the history
    a.send({"type": "chat", "reaction": "gg"})
    lines = [conn.until(lambda f: f["type"] == "chat" and not f["history"])["lines"][0] for conn in conns]
    assert [line["text"] for line in lines] == ["Good game", "Bom jogo", "Good game", "Bom jogo"]
    with connect(client, table_id, None, None, lang="pt-BR", chat=True) as late:
        again = late.until(lambda f: f["type"] == "chat" and f["history"])
        assert [line["text"] for line in again["lines"]] == ["Bom jogo"]
    # the spectators' refusals, each in its own
    for conn in (w_en, w_pt):
        conn.send({"type": "decide", "seq": 0, "action": "draw"})
    assert w_en.error()["message"] == "Spectators cannot play: take a seat to play."
    assert w_pt.error()["message"] == "Espectadores não jogam: ocupe um lugar para jogar."
    start(client, table_id, ana)
    for conn in (a, b):
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
    mover, other = (a, b) if my_turn(a.last) else (b, a)  # (their first frames of the game: nobody moved yet)
    assert other.last is not None and other.last["game"]["current"] == mover.seat
    # the person who may not move is refused in their language
    other.decide("draw")
    refusal = other.error()
    assert refusal["code"] == "not-your-turn"
    assert refusal["message"] == ("Não é a sua vez." if other is b else "It is not your turn.")
    # the mover's stale decision, its hint: in the mover's
    assert my_turn(mover.last)
    mover.decide("draw", seq=10_000)
    stale = mover.error()
    assert stale["code"] == "stale"
    assert stale["message"].startswith("A mesa mudou" if mover is b else "The table changed")
    assert mover.last is not None
    mover.send({"type": "hint", "seq": mover.last["seq"]})
    hint = mover.until(lambda f: f["type"] in ("hint", "error"))
    assert hint["type"] == "hint", hint
    assert hint["text"].startswith("Dica: " if mover is b else "Hint: "), hint


def test_a_connection_changes_its_language_without_connecting_again(
    client: TestClient, opened: contextlib.ExitStack
) -> None:
    """Bia, seated and reading in English mid-game, switches to Portuguese (the page's
    control): the same connection is sent the table whole again (the page's words, the
    whole log) and the chat's history, in Portuguese, and is refused in it from then on;
    her seat never stops being here; a language the server does not speak is refused."""
    table_id, ana, bia = english_table(client, actions=False)
    a = opened.enter_context(connect(client, table_id, ana, 0, lang="en"))
    b = opened.enter_context(connect(client, table_id, bia, 1, lang="en", chat=True))
    b.until(lambda f: f["type"] == "chat" and f["history"])
    start(client, table_id, ana)
    for conn in (a, b):
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
    play_out([a, b], careful(random.Random(1)), done=lambda _c: bool(b.last and b.last["game"]["log"]))  # a turn
    english = b.last
    assert english is not None and english["lang"] == "en"
    live = tables_of(client.app).live[table_id]  # type: ignore[attr-defined]
    assert live.seats[1].here == 1

    b.send({"type": "lang", "lang": "pt"})
    again = b.until(lambda f: f["type"] == "table")
    assert again["lang"] == "pt-BR" and again["ui"]["play"] == "Jogar"
    assert again["seq"] == english["seq"] and again["game"]["log_from"] == 0
    assert len(again["game"]["log"]) == len(english["game"]["log"]) >= 1
    history = b.until(lambda f: f["type"] == "chat" and f["history"])
    assert history["words"]["chat_send"] == "Enviar"
    assert live.seats[1].here == 1  # the seat stayed connected throughout
    b.decide("draw", seq=10_000)
    assert b.error()["message"].startswith("A mesa mudou")
    b.send({"type": "lang", "lang": "fr"})
    refused = b.error()
    assert (refused["code"], refused["message"]) == ("bad-lang", "Idiomas: en, pt-BR.")
    b.send({"type": "lang", "lang": "en"})
    assert b.until(lambda f: f["type"] == "table")["ui"]["play"] == "Play"


def test_an_unseated_person_is_told_in_their_language(client: TestClient) -> None:
    """The notice that a connection no longer holds its seat (its host removed its person:
    ``removed``), and its frames after it, as a spectator's, in its language."""
    r = client.post("/api/tables", json={"players": 2, "lang": "en", "name": "Ana"})
    table_id, ana = r.json()["id"], r.json()["token"]
    bia = join(client, table_id, 1, "Bia")
    with connect(client, table_id, bia, 1, lang="pt-BR") as b:
        b.until(lambda f: f["type"] == "table")
        r = client.post(f"/api/tables/{table_id}/seats/1/remove", json={"token": ana})
        assert r.status_code == 200, r.text
        notice = b.error()
        assert notice["code"] == "removed"
        assert notice["message"] == (
            "Quem criou a mesa tirou você dela: você pode assistir, mas não sentar nela de novo."
        )
        later = b.until(lambda f: f["type"] == "table")
        assert (later["lang"], later["you"], later["ui"]["language"]) == ("pt-BR", None, "Idioma")


def test_the_table_pages_requests_are_refused_in_the_askers_language(client: TestClient) -> None:
    """The page sends the language chosen as Accept-Language: a seat taken, a start with
    a seat free, a token this table does not know, each said in it; a program that names
    none is told in the table's."""
    r = client.post("/api/tables", json={"players": 3, "lang": "en", "name": "Ana"})
    table_id, ana = r.json()["id"], r.json()["token"]
    cases = [
        (f"/api/tables/{table_id}/seats/0", {"name": "Bia"}, "seat-taken", "Esse lugar já está ocupado."),
        (
            f"/api/tables/{table_id}/start",
            {"token": ana},
            "seats-free",
            "Cada lugar precisa de um jogador ou de um bot antes de o jogo começar.",
        ),
    ]
    for path, body, code, words in cases:
        refused = client.post(path, json=body, headers=PORTUGUESE)
        assert (refused.json()["code"], refused.json()["message"]) == (code, words)
        english = client.post(path, json=body)
        assert english.json()["code"] == code and english.json()["message"] != words
    stranger = client.post(f"/api/tables/{table_id}/leave", json={"token": "x" * 43}, headers=PORTUGUESE)
    assert stranger.json()["code"] == "bad-token"
    assert stranger.json()["message"] == "Este código de lugar não abre nenhum lugar nesta mesa."


# --- frames stay cheap ----------------------------------------------------------------------------------


def test_a_view_is_made_once_per_seat_and_language_not_per_connection(client: TestClient) -> None:
    table_id, ana, _bia = english_table(client)
    live = live_of(client, table_id)
    cache = FrameCache()
    views = [cache.view(live, None, lang) for lang in ("pt-BR", "en", "pt-BR", "en", "pt-BR")]
    assert cache.builds == 2
    assert views[0] is views[2] is views[4] and views[1] is views[3]
    assert views[0].whole["lang"] == "pt-BR" and views[1].whole["lang"] == "en"
    assert cache.view(live, 0, None).whole["lang"] == "en"  # (none named: the table's)
    assert cache.builds == 3
    del ana


# --- the lobby and the replay ---------------------------------------------------------------------------


def test_the_lobby_speaks_one_language_in_every_row(client: TestClient) -> None:
    """ "2 players · basic game" and its status in the same language, whatever the table's."""
    r = client.post("/api/tables", json={"players": 2, "lang": "pt-BR", "name": "Júlia", "table_name": "Mesa da Júlia"})
    pt_table = r.json()["id"]
    r = client.post("/api/tables", json={"players": 2, "lang": "en", "name": "Ana", "table_name": "Ana's table"})
    en_table = r.json()["id"]

    def rows(query: str = "", headers: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
        r = client.get(f"/api/tables?limit=100{query}", headers=headers)
        assert r.status_code == 200, r.text
        return {row["id"]: row for row in r.json()["tables"]}

    english, portuguese, browser = rows("&lang=en"), rows("&lang=pt-BR"), rows(headers=PORTUGUESE)
    for table in (pt_table, en_table):
        assert english[table]["settings"] == "2 players · basic game"
        assert portuguese[table]["settings"] == browser[table]["settings"] == "2 jogadores · modo básico"
    assert english[pt_table]["lang"] == portuguese[pt_table]["lang"] == "pt-BR"  # (the table's own)
    assert rows("&lang=en", PORTUGUESE)[pt_table]["settings"] == "2 players · basic game"  # the page's choice first
    assert english[pt_table]["name"] == portuguese[pt_table]["name"] == "Mesa da Júlia"  # (a name given stays)


def test_a_default_table_name_is_worded_for_each_reader(client: TestClient, opened: contextlib.ExitStack) -> None:
    """Bia's English table, named by nobody: "Bia's table" to an English reader, "Mesa
    de Bia" to a Portuguese one, in the lobby and in the table's frames; a table whose
    host gave no name either is "Red7 table" / "Mesa de Red7"."""
    r = client.post("/api/tables", json={"players": 2, "lang": "en", "name": "Bia"})
    table_id, bia = r.json()["id"], r.json()["token"]
    r = client.post("/api/tables", json={"players": 2, "lang": "pt-BR", "name": ""})
    unnamed = r.json()["id"]
    for lang, names in (("en", ("Bia's table", "Red7 table")), ("pt-BR", ("Mesa de Bia", "Mesa de Red7"))):
        listed = {row["id"]: row["name"] for row in client.get(f"/api/tables?limit=100&lang={lang}").json()["tables"]}
        assert (listed[table_id], listed[unnamed]) == names
    for lang, name in (("pt-BR", "Mesa de Bia"), ("en", "Bia's table")):
        conn = opened.enter_context(connect(client, table_id, bia if lang == "en" else None, lang=lang))
        assert conn.until(lambda f: f["type"] == "table")["table"]["name"] == name


def test_a_replay_is_read_in_the_language_asked(client: TestClient, opened: contextlib.ExitStack) -> None:
    table_id, ana, bia = english_table(client, actions=False)
    conns = [
        opened.enter_context(connect(client, table_id, ana, 0)),
        opened.enter_context(connect(client, table_id, bia, 1)),
    ]
    start(client, table_id, ana)
    play_out(conns, careful(random.Random(3)))
    path = f"/api/tables/{table_id}/games/1/replay"
    replays = {
        "pt-BR": client.get(f"{path}?lang=pt-BR").json()["frames"],
        "en": client.get(path).json()["frames"],
        "browser": client.get(path, headers=PORTUGUESE).json()["frames"],
    }
    assert {frame["lang"] for frame in replays["pt-BR"]} == {"pt-BR"}
    assert {frame["lang"] for frame in replays["en"]} == {"en"}
    assert replays["browser"] == replays["pt-BR"]
    assert replays["pt-BR"][0]["ui"]["language"] == "Idioma"
    assert replays["pt-BR"][-1]["table"]["settings"] == "2 jogadores · modo básico"

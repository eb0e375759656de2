"""The web game's typed protocol (red7.web.protocol): its schema published and current,
what the pages send accepted, what is malformed refused with a sentence in the request's
language (never Pydantic's English), and what the server sends valid against its models.

(Every frame every other web test receives through ``web_client.Conn`` is validated too,
and every frame, live and replayed, of the wire-level leak test's games:
tests/web/test_web_leaks.py.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from red7.bots import LEVELS
from red7.core.actions import Kind as ActionKind
from red7.core.cards import COLOURS
from red7.ui.i18n import LANGUAGES
from red7.web import protocol
from red7.web.http.wire import PROTOCOL_VERSION, REFUSALS, Language, Refusal
from red7.web.protocol import CLIENT_MESSAGE, SERVER_FRAME, read
from red7.web.reviews.wire import Hint
from red7.web.table import frames
from red7.web.table.frames import LobbyPage, Replay, UiWords
from red7.web.table.requests import (
    AddBot,
    Again,
    CreateTable,
    Decide,
    Decline,
    Hello,
    StartGame,
    TakeBack,
    TakeSeat,
    YourTurn,
)
from tests.support.web_client import Conn, add_bot, join, make_app, new_table, start

SCHEMA_FILE = Path(__file__).parents[2] / "docs" / "protocol.schema.json"
PORTUGUESE = {"Accept-Language": "pt-BR,pt;q=0.9"}
PYDANTIC_WORDS = re.compile(r"Input should|Field required|validation error|Extra inputs|pydantic", re.IGNORECASE)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("protocol"))) as client:
        yield client


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_file_is_the_one_the_models_make() -> None:
    """docs/protocol.schema.json is written by ``python -m red7.web.protocol docs/protocol.schema.json``:
    a model changed without writing it again fails here."""
    assert SCHEMA_FILE.read_text(encoding="utf-8") == protocol.schema_text(), (
        "docs/protocol.schema.json is stale: run python -m red7.web.protocol docs/protocol.schema.json"
    )


def test_the_schema_is_served_with_its_version(client: TestClient) -> None:
    answer = client.get("/api/protocol")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/schema+json")
    assert answer.text == SCHEMA_FILE.read_text(encoding="utf-8")
    schema = answer.json()
    assert schema["version"] == PROTOCOL_VERSION and schema["$id"].endswith(f":{PROTOCOL_VERSION}")
    assert str(PROTOCOL_VERSION) in schema["title"]
    # every request and answer points at a model of $defs, and each model is in it
    for ref in [*schema["requests"].values(), *schema["answers"].values()]:
        assert ref["$ref"].removeprefix("#/$defs/") in schema["$defs"], ref
    assert {"CreateTable", "Hello", "Decide", "TableFrame", "ErrorFrame", "GameView"} <= set(schema["$defs"])
    assert schema["$defs"]["Decide"]["additionalProperties"] is False  # requests name every field they may have


def test_the_frames_carry_the_protocols_version(client: TestClient) -> None:
    for frame in (frames.TableFrame, frames.ErrorFrame):
        assert get_args(get_type_hints(frame)["v"]) == (PROTOCOL_VERSION,)
    table_id, _token = new_table(client)
    with Conn(client, table_id) as watcher:
        assert watcher.recv()["v"] == PROTOCOL_VERSION


def test_the_models_name_what_the_game_has() -> None:
    """The enums of the protocol are the game's own: levels, colours, kinds, languages."""
    assert set(get_args(frames.Level)) == set(LEVELS)
    assert get_args(frames.Colour) == tuple(COLOURS)
    assert set(get_args(frames.Kind)) == {kind.value for kind in ActionKind}
    assert set(get_args(get_args(Language)[0])) == set(LANGUAGES)


# --- what the pages send ---------------------------------------------------------------------------

PAGE_REQUESTS: list[tuple[type[BaseModel] | None, dict[str, Any]]] = [
    # static/lobby.js: a new table; a seat taken from the lobby
    (CreateTable, {"players": 3, "advanced": True, "actions": False, "lang": "pt-BR", "name": "Ana"}),
    (CreateTable, {"players": 2, "advanced": False, "actions": True, "lang": "en", "name": ""}),
    (TakeSeat, {"name": "Bia"}),
    # static/table.js: a seat, a bot, the start; the WebSocket's hello and messages
    (AddBot, {"token": "tok", "seat": 2, "level": "medium"}),
    (StartGame, {"token": "tok"}),
    (Hello, {"type": "hello", "token": "tok", "lang": "pt-BR"}),
    (Hello, {"type": "hello", "token": None, "lang": "fr-FR"}),  # a spectator; a language the server ignores
    (None, {"type": "decide", "seq": 12, "action": "play R7", "game": 1}),
    (None, {"type": "decide", "seq": 12, "action": "move O7 deck", "game": 2}),
    (None, {"type": "take_back", "seq": 13, "game": 1}),
    (None, {"type": "hint", "seq": 13, "game": 1}),
    (None, {"type": "again", "game": 1}),
    (None, {"type": "decline", "game": 1}),
    (None, {"type": "decide", "seq": 12, "action": "play R7"}),  # a client that names no game
]
"""What the pages' scripts send (static/*.js: ``api(...)`` bodies and ``send(...)``
messages), one of each shape; None: a message after the hello (:data:`~red7.web.protocol.ClientMessage`)."""


@pytest.mark.parametrize(("model", "request_body"), PAGE_REQUESTS)
def test_what_the_pages_send_is_the_protocols(model: type[BaseModel] | None, request_body: dict[str, Any]) -> None:
    text = json.dumps(request_body)
    if model is None:
        assert CLIENT_MESSAGE.validate_json(text).type == request_body["type"]
    else:
        assert model.model_validate_json(text).model_dump(exclude_unset=True).keys() == request_body.keys()


def test_the_pages_scripts_send_the_fields_of_the_models() -> None:
    """The fields the scripts write in what they send are the models' (a field renamed in
    one and not the other fails here)."""
    static = Path(frames.__file__).parent / "static"
    lobby, table = (static / "lobby.js").read_text(), (static / "table.js").read_text()
    for field in CreateTable.model_fields:
        assert re.search(rf"\b{field}:", lobby), field
    assert re.search(r'type: "hello", token, lang:', table)
    # every message about a game names it (the pages always send the optional field)
    for sent in (
        'type: "decide", seq, action: option.action, game }',
        'type: "take_back", seq: frame.seq, game: frame.table.game }',
        'type: "hint", seq: frame.seq, game }',
        'type: "again", game: frame.table.game }',
        'type: "decline", game: frame.table.game }',
    ):
        assert sent in table, sent
    for model in (Decide, TakeBack, Hint, Again, Decline):
        assert "game" in model.model_fields, model
    assert "{ token, seat: s, level:" in table and "{ token }" in table and "{ name, invite }" in table
    assert "lang: askedLanguage(), chat: true, invite }" in table


# --- refusals of what the models refuse ------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "english", "portuguese"),
    [
        ({"players": 9}, "bad-settings", "2 to 4 players", "2 a 4 jogadores"),
        ({"advanced": 1}, "bad-settings", "true or false", "verdadeiro ou falso"),
        ({"lang": "xx"}, "bad-settings", "en, pt-BR", "en, pt-BR"),
        ({"name": ["Ana"]}, "bad-name", "24 characters", "24 caracteres"),
        ({"name": "Ana", "colour": "red"}, "unknown-field", "colour", "colour"),
        ({"rated": "yes"}, "bad-settings", "rated is true or false", "rated é verdadeiro ou falso"),
    ],
)
def test_a_malformed_body_is_refused_in_the_askers_language(
    client: TestClient, body: dict[str, Any], code: str, english: str, portuguese: str
) -> None:
    for headers, words in (({}, english), (PORTUGUESE, portuguese)):
        answer = client.post("/api/tables", json=body, headers=headers)
        assert answer.status_code == 400, answer.text
        refusal = read(Refusal, answer.text)
        assert refusal["code"] == code and words in refusal["message"], refusal
        assert not PYDANTIC_WORDS.search(refusal["message"]), refusal


def test_every_field_of_a_request_says_what_it_takes_when_wrong() -> None:
    """A wrong value of a field the protocol knows is never told "this server does not
    know the field": each request's model names what each of its fields is told
    (``Request.refusals``, or the fields every request shares). The hello and the "your
    turn" list are refused as a whole (``bad-hello``, ``bad-turns``)."""
    whole = {Hello, YourTurn}
    for model in set(protocol.REQUESTS.values()) - whole:
        for field in model.model_fields:
            assert field in model.refusals or field in REFUSALS, (model.__name__, field)


def test_a_malformed_request_to_a_table_is_refused_in_the_tables_language(client: TestClient) -> None:
    table_id, token = new_table(client, 3, lang="pt-BR", name="Júlia")
    bots = f"/api/tables/{table_id}/bots"
    for body, code in (
        ({"token": token, "seat": True, "level": "easy"}, "bad-seat"),
        ({"token": token, "seat": 1, "level": "godlike"}, "bad-level"),
        ({"token": 7, "seat": 1, "level": "easy"}, "bad-token"),
    ):
        answer = client.post(bots, json=body)
        refusal = read(Refusal, answer.text)
        assert refusal["code"] == code and not PYDANTIC_WORDS.search(refusal["message"]), refusal
        assert re.search(r"[ãçéêíóõ]|assento|Níveis", refusal["message"]), refusal  # Portuguese, as the table is
    answer = client.post(f"/api/tables/{table_id}/start", json={})
    assert answer.status_code == 403 and answer.json()["code"] == "bad-token"


def test_a_bad_address_is_refused_without_pydantics_english(client: TestClient) -> None:
    table_id, _token = new_table(client)
    for path in (f"/api/tables/{table_id}/games/one/replay", "/api/tables?limit=1000", f"/t/{table_id}/replay/-1"):
        for headers in ({}, PORTUGUESE):
            answer = client.get(path, headers=headers)
            refusal = read(Refusal, answer.text)
            assert answer.status_code == 422 and refusal["code"] == "bad-request", refusal
            assert not PYDANTIC_WORDS.search(refusal["message"]), refusal
    message = client.get("/api/tables?limit=1000", headers=PORTUGUESE).json()["message"]
    assert "limit" in message and "endereço" in message, message


def test_a_malformed_message_is_refused_in_the_tables_language(client: TestClient) -> None:
    table_id, token = new_table(client, 2, lang="pt-BR", name="Júlia")
    add_bot(client, table_id, token, 1)
    start(client, table_id, token)
    with Conn(client, table_id, token, 0) as julia:
        frame = julia.until(lambda f: f["type"] == "table" and f["game"] is not None)
        for message, code in (
            ({"type": "decide", "seq": "1", "action": "concede"}, "stale"),
            ({"type": "decide", "seq": frame["seq"], "action": ["concede"]}, "bad-decision"),
            ({"type": "take_back", "seq": True}, "stale"),
            ({"type": "again", "please": True}, "unknown-field"),
            ({"type": "hello"}, "bad-type"),
        ):
            julia.send(message)
            error = julia.error()
            assert error["code"] == code and not PYDANTIC_WORDS.search(error["message"]), (message, error)
            assert re.search(r"[ãçéêíóõ]|campo|Tipo", error["message"]), error  # Portuguese, as the table is


def test_the_server_knows_no_field_it_does_not_declare() -> None:
    """Requests forbid unknown fields; each field's type is strict (no bool for an int,
    no string for a number)."""
    with pytest.raises(ValidationError):
        CreateTable.model_validate_json('{"players": "3"}')
    with pytest.raises(ValidationError):
        CreateTable.model_validate_json('{"players": true}')
    with pytest.raises(ValidationError):
        AddBot.model_validate_json('{"token": "t", "seat": 1, "level": "easy", "admin": true}')
    with pytest.raises(ValidationError):
        CLIENT_MESSAGE.validate_json(json.dumps({"type": "decide", "seq": 2**31, "action": "end"}))


# --- what the server sends --------------------------------------------------------------------------


def test_the_lobbys_answers_are_the_protocols(client: TestClient) -> None:
    table_id, token = new_table(client, 3, name="Ana")  # (web_client checks the answers of these)
    join(client, table_id, 1, "Bia")
    add_bot(client, table_id, token, 2)
    read(LobbyPage, client.get("/api/tables").text)
    for lang in ("en", "pt-BR"):
        read(UiWords, client.get(f"/api/ui?lang={lang}").text)
    start(client, table_id, token)
    page = read(LobbyPage, client.get("/api/tables").text)
    assert any(row["id"] == table_id and row["status"] == "playing" for row in page["tables"])
    replay = read(Replay, client.get(f"/api/tables/{table_id}/games/1/replay").text)
    assert replay["frames"][0].get("ui") is not None and replay["frames"][0]["you"] is None


def test_every_error_frame_is_the_protocols(client: TestClient) -> None:
    """Refusals of a connection (before and after its hello) are error frames of the
    protocol, closed with their codes; a refused hello is told why."""
    table_id, _token = new_table(client)
    with Conn(client, table_id, greet=False) as conn:
        conn.send('{"type": "hello", "token": 5}')
        error = conn.recv()
        assert error["type"] == "error" and error["code"] == "bad-hello"
        assert conn.recv() == {"type": "closed", "code": 4400}
    with Conn(client, table_id) as watcher:
        watcher.recv()
        watcher.send({"type": "again"})
        assert SERVER_FRAME.validate_python(watcher.error(), strict=True)["type"] == "error"

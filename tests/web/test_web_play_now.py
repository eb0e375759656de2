"""The lobby's "Play now against a bot" (``POST /api/play-now``, issue 47): one request
makes a table whose other seats are bots, deals its game and seats the person, with the
lobby's defaults (2 players, the basic game, ``medium`` bots) or the person's choices;
refused in words like a table made by hand, and counted against the client's tables.
In process (FastAPI's TestClient)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.web.http.limits import UNLIMITED
from red7.web.protocol import read
from red7.web.table.frames import Created
from red7.web.table.live import LiveTable
from tests.support.web_client import Conn, make_app, tables_of


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("web"))) as client:
        yield client


def play_now(client: TestClient, **body: Any) -> Created:
    r = client.post("/api/play-now", json=body)
    assert r.status_code == 200, r.text
    return read(Created, r.text)  # the protocol's answer, exactly


def live(client: TestClient, table_id: str) -> LiveTable:
    table: LiveTable = tables_of(client.app).live[table_id]  # type: ignore[attr-defined]
    return table


def test_play_now_seats_the_person_against_a_medium_bot_in_a_started_basic_game(client: TestClient) -> None:
    made = play_now(client, name="Ana")
    table = live(client, made["id"])
    assert made["seat"] == 0 and made.get("invite") is None
    assert (table.config.players, table.config.advanced, table.config.actions) == (2, False, False)
    assert [s.bot for s in table.seats] == [None, "medium"] and table.seats[0].name == "Ana"
    assert table.status == "playing" and table.lang == "en" and not table.private and table.hints
    with Conn(client, made["id"], made["token"], 0) as conn:  # the person's seat, with a hand dealt
        frame = conn.until(lambda f: f["type"] == "table")
        assert frame["you"] == 0 and frame["game"] is not None and len(frame["game"]["hand"]) == 7


def test_play_now_takes_the_persons_choices_and_language(client: TestClient) -> None:
    made = play_now(client, players=4, advanced=True, actions=True, level="hard", lang="pt-BR", name="Bia")
    table = live(client, made["id"])
    assert (table.config.players, table.config.advanced, table.config.actions) == (4, True, True)
    assert [s.bot for s in table.seats] == [None, "hard", "hard", "hard"]
    assert table.lang == "pt-BR" and table.status == "playing"
    listed = {row["id"]: row for row in client.get("/api/tables").json()["tables"]}
    assert listed[made["id"]]["status"] == "playing"  # a public table: others may watch it


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"level": "expert"}, "bad-level", "Níveis"),
        ({"players": 5}, "bad-settings", "2 a 4"),
        ({"lang": "xx"}, "bad-settings", "Idiomas"),
        ({"name": "x" * 30}, "bad-name", "24"),
        ({"name": "Bot 2"}, "reserved-name", None),  # a name the table gives its seats
        ({"seat": 1}, "unknown-field", None),  # no unknown field
    ],
)
def test_play_now_refuses_in_words(client: TestClient, body: dict[str, Any], code: str, words: str | None) -> None:
    before = set(tables_of(client.app).live)  # type: ignore[attr-defined]
    r = client.post("/api/play-now", json=body, headers={"Accept-Language": "pt-BR"})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == code
    if words is not None:
        assert words in r.json()["message"]
    assert set(tables_of(client.app).live) == before  # type: ignore[attr-defined]  # nothing made


def test_play_now_counts_against_the_clients_tables(tmp_path: Path) -> None:
    limits = replace(UNLIMITED, table_burst=2, tables_per_hour=1)
    with TestClient(make_app(tmp_path, limits=limits)) as client:
        play_now(client)
        play_now(client)
        r = client.post("/api/play-now", json={}, headers={"Accept-Language": "pt-BR"})
        assert r.status_code == 429 and r.json()["code"] == "too-many-tables", r.text
        assert "espere" in r.json()["message"] and int(r.headers["Retry-After"]) > 0
        assert client.post("/api/tables", json={"name": "Ana"}).status_code == 429  # one count for both

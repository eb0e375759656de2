"""Tables a club chooses (issue 35): a table's name, public and private tables and their
invitations, removing and leaving a seat before the start, and the lobby's filters, in
process (FastAPI's TestClient) with the abuse each new input must survive.

A private table is reachable only with its invitation secret (sent in a body, a hello
or the ``X-Red7-Invite`` header: never in an address) or a seat token of the table: its
lobby row, page data, frames, records and replays stay hidden from a stranger. A seat
emptied before the start (by the host, or by the person leaving) takes its token's
power away at once, including from a connection already open with it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import astuple
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from red7.core.model import Config
from red7.web.protocol import read
from red7.web.storage.rows import SeatRow, TableRow
from red7.web.storage.store import Store
from red7.web.table.frames import Created
from red7.web.table.hosting import TABLE_NAME_LENGTH
from red7.web.table.live import LiveTable, SeatState
from red7.web.table.lobby import Filters
from tests.support.configs import CONFIGS
from tests.support.web_client import (
    Conn,
    Frame,
    add_bot,
    careful,
    join,
    make_app,
    new_table,
    play_out,
    start,
    tables_of,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("web"))) as client:
        yield client


def create(client: TestClient, **body: Any) -> Created:
    """A new table of ``body`` (a :class:`CreateTable`'s fields), answered exactly as the protocol says."""
    r = client.post("/api/tables", json={"name": "Ana", **body})
    assert r.status_code == 200, r.text
    return read(Created, r.text)


def live(client: TestClient, table_id: str) -> LiveTable:
    """The server's own table (the truth, for checks only)."""
    table: LiveTable = tables_of(client.app).live[table_id]  # type: ignore[attr-defined]
    return table


def seats(client: TestClient, table_id: str) -> list[tuple[str, str | None, str | None]]:
    return [(s.name, s.token_hash, s.bot) for s in live(client, table_id).seats]


def listed_ids(client: TestClient, query: str = "") -> list[str]:
    """Every table id the lobby lists with ``query`` (its filters), page after page."""
    ids: list[str] = []
    while True:
        r = client.get(f"/api/tables?offset={len(ids)}&limit=100{query}")
        assert r.status_code == 200, r.text
        page = r.json()
        ids += [row["id"] for row in page["tables"]]
        if not page["tables"] or len(ids) >= page["total"]:
            return ids


def first_frame(conn: Conn) -> Frame:
    return conn.until(lambda f: f["type"] in ("table", "error", "closed"))


def hello(conn: Conn, token: str | None = None, invite: str | None = None) -> Frame:
    """Say ``conn``'s hello with ``invite``; its first frame."""
    message: dict[str, Any] = {"type": "hello", "token": token}
    if invite is not None:
        message["invite"] = invite
    conn.send(message)
    return first_frame(conn)


# --- names -----------------------------------------------------------------------------------


def test_a_table_is_named_after_its_creator_unless_named(client: TestClient) -> None:
    english = create(client)
    portuguese = create(client, lang="pt-BR", name="Bia")
    nameless = create(client, name="")
    chosen = create(client, table_name="  Quinta   no clube ")
    names = {row["id"]: row["name"] for row in client.get("/api/tables?limit=100").json()["tables"]}
    assert names[english["id"]] == "Ana's table"
    assert names[portuguese["id"]] == "Bia's table"  # (worded for the reader: "Mesa de Bia" in Portuguese)
    assert names[nameless["id"]] == "Red7 table"
    assert names[chosen["id"]] == "Quinta no clube"  # spaces folded, as a seat's name
    with Conn(client, chosen["id"], chosen["token"], 0) as conn:
        table = conn.until(lambda f: f["type"] == "table")["table"]
    assert (table["name"], table["private"]) == ("Quinta no clube", False)


def test_a_name_with_html_is_kept_as_text(client: TestClient) -> None:
    name = '<img src=x onerror="alert(1)">'
    created = create(client, table_name=name)
    row = next(r for r in client.get("/api/tables?limit=100").json()["tables"] if r["id"] == created["id"])
    assert row["name"] == name  # the pages render it with textContent: it is inert there


@pytest.mark.parametrize(
    ("table_name", "code"),
    [
        ("x" * (TABLE_NAME_LENGTH + 1), "bad-table-name"),
        ("x" * 201, "bad-table-name"),  # past the protocol's longest text
        ("a\u0000b", "bad-table-name"),
        ("line\u200bbreak\u2028", "bad-table-name"),
        (["a list"], "bad-table-name"),
        (12, "bad-table-name"),
    ],
)
def test_a_bad_table_name_is_refused_and_nothing_is_made(client: TestClient, table_name: Any, code: str) -> None:
    before = len(tables_of(client.app).live)  # type: ignore[attr-defined]
    r = client.post("/api/tables", json={"name": "Ana", "table_name": table_name})
    assert r.status_code == 400 and r.json()["code"] == code
    assert "40" in r.json()["message"]
    assert len(tables_of(client.app).live) == before  # type: ignore[attr-defined]


def test_a_bad_table_name_is_refused_in_portuguese(client: TestClient) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "lang": "pt-BR", "table_name": "x" * 41})
    assert r.status_code == 400 and r.json()["message"] == "Dê à mesa um nome de até 40 caracteres."


def test_private_must_be_true_or_false(client: TestClient) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "private": "yes"})
    assert r.status_code == 400 and r.json()["code"] == "bad-settings"


# --- private tables and invitations ---------------------------------------------------------


def test_a_private_table_is_not_in_the_lobby_and_its_creator_gets_the_invitation(client: TestClient) -> None:
    public = create(client)
    private = create(client, private=True)
    assert public["invite"] is None
    assert private["invite"] is not None and len(private["invite"]) >= 32
    ids = listed_ids(client)
    assert public["id"] in ids and private["id"] not in ids
    assert live(client, private["id"]).invite_hash != private["invite"]  # only its hash is kept
    stored = tables_of(client.app).store.table(private["id"])  # type: ignore[attr-defined]
    assert stored.private and stored.invite_hash not in (None, private["invite"])
    assert private["invite"] not in json.dumps(stored.__dict__, default=str)


def test_a_stranger_cannot_join_watch_or_read_a_private_table(client: TestClient) -> None:
    private = create(client, players=2, private=True)
    assert private["invite"] is not None
    for body in (
        {"name": "Eve"},
        {"name": "Eve", "invite": "forged"},
        {"name": "Eve", "invite": private["invite"][:-1]},
    ):
        r = client.post(f"/api/tables/{private['id']}/seats/1", json=body)
        assert r.status_code == 403 and r.json()["code"] == "private", body
        assert "invitation link" in r.json()["message"]
    r = client.post(f"/api/tables/{private['id']}/seats/1", json={"name": "Eve", "invite": "x" * 5000})
    assert r.status_code in (403, 413)
    for invite in (None, "forged", ""):
        with Conn(client, private["id"], greet=False) as conn:
            frame = hello(conn, None, invite)
            assert frame["type"] == "error" and frame["code"] == "private"
            assert conn.until(lambda f: f["type"] == "closed")["code"] == 4403
            assert conn.last is None  # no table frame at all
    assert seats(client, private["id"])[1] == ("", None, None)


def test_an_invited_person_joins_and_a_spectator_watches_with_the_invitation(client: TestClient) -> None:
    private = create(client, players=3, private=True)
    assert private["invite"] is not None
    r = client.post(f"/api/tables/{private['id']}/seats/1", json={"name": "Bia", "invite": private["invite"]})
    assert r.status_code == 200, r.text
    bia = r.json()["token"]
    with Conn(client, private["id"], bia, 1) as conn:  # a seat token alone opens it
        frame = conn.until(lambda f: f["type"] == "table")
        assert frame["you"] == 1 and frame["table"]["private"] is True
    with Conn(client, private["id"], greet=False) as spectator:
        frame = hello(spectator, None, private["invite"])
        assert frame["type"] == "table" and frame["you"] is None


def test_a_private_tables_games_are_read_with_a_token_or_the_invitation(client: TestClient) -> None:
    private = create(client, players=2, private=True)
    assert private["invite"] is not None
    add_bot(client, private["id"], private["token"], 1)
    start(client, private["id"], private["token"])
    with Conn(client, private["id"], private["token"], 0) as conn:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
        play_out([conn], careful(random.Random(3)))
    paths = [f"/api/tables/{private['id']}/games/1/record", f"/api/tables/{private['id']}/games/1/replay"]
    for path in paths:
        refused = client.get(path)
        assert refused.status_code == 403 and refused.json()["code"] == "private"
        forged = client.get(path, headers={"X-Red7-Invite": "forged"})
        assert forged.status_code == 403 and forged.json()["code"] == "private"
        in_address = client.get(f"{path}?invite={private['invite']}")
        assert in_address.status_code == 400 and in_address.json()["code"] == "token-in-url"
        assert client.get(path, headers={"X-Red7-Invite": private["invite"]}).status_code == 200
        assert client.get(path, headers={"Authorization": f"Bearer {private['token']}"}).status_code == 200


def test_a_public_tables_games_need_nothing(client: TestClient) -> None:
    public = create(client, players=2)
    add_bot(client, public["id"], public["token"], 1)
    start(client, public["id"], public["token"])
    with Conn(client, public["id"], public["token"], 0) as conn:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
        play_out([conn], careful(random.Random(4)))
    assert client.get(f"/api/tables/{public['id']}/games/1/record").status_code == 200


# --- removing and leaving a seat ------------------------------------------------------------


def test_the_host_removes_a_bot_and_a_person_whose_token_then_opens_nothing(client: TestClient) -> None:
    table_id, host = new_table(client, players=3)
    bia = join(client, table_id, 1, "Bia")
    add_bot(client, table_id, host, 2)
    with Conn(client, table_id, bia, 1) as bias_page, Conn(client, table_id, host, 0) as hosts_page:
        bias_page.until(lambda f: f["type"] == "table")
        hosts_page.until(lambda f: f["type"] == "table")
        r = client.post(f"/api/tables/{table_id}/seats/2/remove", json={"token": host})
        assert r.status_code == 200 and r.json() == {"ok": True}
        assert seats(client, table_id)[2] == ("", None, None)
        hosts_page.until(lambda f: f["type"] == "table" and not f["seats"][2]["taken"])
        r = client.post(f"/api/tables/{table_id}/seats/1/remove", json={"token": host})
        assert r.status_code == 200
        told = bias_page.until(lambda f: f["type"] == "error")
        assert told["code"] == "removed" and "The host removed you" in told["message"]
        frame = bias_page.until(lambda f: f["type"] == "table")
        assert frame["you"] is None and not frame["seats"][1]["taken"]  # a spectator's frame now
        # Bia's old page sends a decision: refused as a spectator's
        bias_page.send({"type": "again"})
        assert bias_page.until(lambda f: f["type"] == "error")["code"] == "spectator"
        # Cy sits where Bia was: Bia's page never sees Cy's frames as Cy's
        cy = join(client, table_id, 1, "Cy")
        frame = bias_page.until(lambda f: f["type"] == "table" and f["seats"][1]["taken"])
        assert frame["you"] is None and all(not s["you"] for s in frame["seats"])
    assert live(client, table_id).seats[1].here == 0
    # Bia's token opens nothing: not her old seat, not a bot's, not the start
    r = client.post(f"/api/tables/{table_id}/bots", json={"token": bia, "seat": 2, "level": "easy"})
    assert r.status_code == 403 and r.json()["code"] == "bad-token"
    with Conn(client, table_id, bia) as conn:
        assert conn.error()["code"] == "bad-token"
    assert seats(client, table_id)[1][0] == "Cy" and cy


def test_a_person_removed_may_not_sit_at_the_table_again_even_after_a_restart(tmp_path: Path) -> None:
    """Issue 48, item 2: the host removes Bia, then a bot: Bia may not sit at that table
    again under her name (in any case, spaces around it), through this process or another
    on the same database, and is told why in her language; anyone else may sit, in her
    seat or the bot's (a bot removed bars nobody)."""
    with TestClient(make_app(tmp_path)) as first:
        table_id, host = new_table(first, players=3)
        join(first, table_id, 1, "Bia")
        add_bot(first, table_id, host, 2)
        for seat in (1, 2):
            assert first.post(f"/api/tables/{table_id}/seats/{seat}/remove", json={"token": host}).status_code == 200
        again = first.post(
            f"/api/tables/{table_id}/seats/1", json={"name": "BIA"}, headers={"Accept-Language": "pt-BR"}
        )
        assert again.status_code == 403 and again.json()["code"] == "removed"
        assert again.json()["message"].startswith("Quem criou a mesa tirou você dela")
    with TestClient(make_app(tmp_path)) as second:  # another process, or the same one restarted
        again = second.post(f"/api/tables/{table_id}/seats/2", json={"name": " bia "})
        assert again.status_code == 403 and again.json()["code"] == "removed"
        assert join(second, table_id, 1, "Cy")  # someone else sits
        assert join(second, table_id, 2, "Duda")


def test_a_person_leaves_their_seat_and_their_token_opens_nothing(client: TestClient) -> None:
    table_id, host = new_table(client, players=2)
    bia = join(client, table_id, 1, "Bia")
    with Conn(client, table_id, bia, 1) as page:
        page.until(lambda f: f["type"] == "table")
        r = client.post(f"/api/tables/{table_id}/leave", json={"token": bia})
        assert r.status_code == 200
        assert page.until(lambda f: f["type"] == "error")["code"] == "unseated"
    assert seats(client, table_id)[1] == ("", None, None)
    again = client.post(f"/api/tables/{table_id}/leave", json={"token": bia})
    assert again.status_code == 403 and again.json()["code"] == "bad-token"
    assert join(client, table_id, 1, "Bia")  # the seat is free again (for anyone who may open the table)


@pytest.mark.parametrize(
    ("who", "seat", "status", "code"),
    [
        ("bia", 2, 403, "not-host"),  # only the host removes
        ("host", 0, 409, "host-seat"),  # the host's own seat stays
        ("host", 3, 409, "seat-free"),  # nobody there
        ("host", 7, 400, "bad-seat"),
        ("host", -1, 400, "bad-seat"),
        ("forged", 1, 403, "bad-token"),
        ("", 1, 403, "bad-token"),
    ],
)
def test_a_removal_not_allowed_is_refused_and_changes_nothing(
    client: TestClient, who: str, seat: int, status: int, code: str
) -> None:
    table_id, host = new_table(client, players=4)
    bia = join(client, table_id, 1, "Bia")
    add_bot(client, table_id, host, 2)
    tokens = {"host": host, "bia": bia, "forged": "x" * 32, "": ""}
    before = seats(client, table_id)
    r = client.post(f"/api/tables/{table_id}/seats/{seat}/remove", json={"token": tokens[who]})
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert r.json()["message"]
    assert seats(client, table_id) == before


def test_the_host_cannot_leave_and_nobody_changes_seats_after_the_start(client: TestClient) -> None:
    table_id, host = new_table(client, players=3, lang="pt-BR")
    bia = join(client, table_id, 1, "Bia")
    r = client.post(f"/api/tables/{table_id}/leave", json={"token": host})
    assert r.status_code == 409 and r.json()["code"] == "host-seat"
    assert r.json()["message"] == "O anfitrião fica na sua mesa: o lugar do anfitrião não pode ser esvaziado."
    add_bot(client, table_id, host, 2)
    start(client, table_id, host)
    before = seats(client, table_id)
    for path, token in (("seats/2/remove", host), ("seats/1/remove", host), ("leave", bia)):
        r = client.post(f"/api/tables/{table_id}/{path}", json={"token": token})
        assert r.status_code == 409 and r.json()["code"] == "started", path
        assert r.json()["message"] == "O jogo começou: os lugares não mudam mais."
    assert seats(client, table_id) == before


@pytest.mark.parametrize(
    "body",
    [b"", b"not json", b"[]", b'{"token": 5}', b'{"token": "a", "seat": 1}', b'{"token": "' + b"a" * 5000 + b'"}'],
)
def test_a_malformed_removal_or_leaving_is_refused(client: TestClient, body: bytes) -> None:
    table_id, host = new_table(client, players=2)
    bia = join(client, table_id, 1, "Bia")
    before = seats(client, table_id)
    headers = {"Content-Type": "application/json"}
    for path in (f"/api/tables/{table_id}/seats/1/remove", f"/api/tables/{table_id}/leave"):
        r = client.post(path, content=body, headers=headers)
        assert 400 <= r.status_code < 500 and r.json()["code"], (path, r.text)
    assert client.post(f"/api/tables/{table_id}/seats/x/remove", json={"token": host}).status_code == 422
    assert client.post("/api/tables/nope/leave", json={"token": bia}).status_code == 404
    assert seats(client, table_id) == before


# --- the lobby's filters --------------------------------------------------------------------


def test_the_lobby_filters_by_configuration_and_free_seats(tmp_path_factory: pytest.TempPathFactory) -> None:
    with TestClient(make_app(tmp_path_factory.mktemp("filters"))) as client:
        made: dict[tuple[int, bool, bool], str] = {}
        for config in CONFIGS:
            table_id, _token = new_table(client, config.players, config.advanced, config.actions)
            made[astuple(config)] = table_id
        full_id, host = new_table(client, players=2)
        add_bot(client, full_id, host, 1)
        private = create(client, players=2, private=True)
        everything = listed_ids(client)
        assert private["id"] not in everything and len(everything) == len(made) + 1
        for query, wanted in [
            ("&players=3", {k for k in made if k[0] == 3}),
            ("&advanced=true", {k for k in made if k[1]}),
            ("&advanced=false&actions=true", {k for k in made if not k[1] and k[2]}),
            ("&players=4&advanced=true&actions=false", {(4, True, False)}),
        ]:
            assert set(listed_ids(client, query)) - {full_id} == {made[k] for k in wanted}, query
        assert full_id in listed_ids(client, "&players=2") and full_id not in listed_ids(client, "&free=true")
        assert set(listed_ids(client, "&free=true")) == set(made.values())
        page = client.get("/api/tables?players=2&limit=2").json()
        assert page["total"] == 5 and len(page["tables"]) == 2
        assert {row["players"] for row in page["tables"]} == {2}
        for bad in ("players=5", "players=x", "advanced=maybe", "free=2x", "limit=0", "offset=-1"):
            r = client.get(f"/api/tables?{bad}", headers={"Accept-Language": "pt-BR"})
            assert r.status_code == 422 and r.json()["code"] == "bad-request", bad
            assert r.json()["message"].startswith("Uma parte do endereço")


def test_a_filter_passes_only_its_tables() -> None:
    table = LiveTable("t", "en", Config(3, True, False), [SeatState("Ana", "h"), SeatState(), SeatState(bot="easy")])
    assert Filters().passes(table) and Filters(3, True, False, True).passes(table)
    assert not Filters(players=2).passes(table) and not Filters(advanced=False).passes(table)
    assert not Filters(actions=True).passes(table)
    table.seats[1] = SeatState(bot="easy")
    assert not Filters(free=True).passes(table)
    table.seats[1] = SeatState()
    table.status = "playing"  # a seat is free only before the start
    assert not Filters(free=True).passes(table)


@pytest.mark.slow
def test_five_thousand_tables_are_paged_and_filtered_correctly(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The lobby API with 5,000 tables in the store (written at once, then loaded as a
    restarted server loads them): every page and filter answers exactly the tables it
    should. (The timings are benchmarks/web_lobby.py's, in docs/results/web.md: never a
    timed assertion.)"""
    configs = [astuple(c) for c in CONFIGS]
    folder = tmp_path_factory.mktemp("many")
    store = Store(f"sqlite:///{folder}/db.sqlite3")
    store.upgrade()
    rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    for i in range(5000):
        players, advanced, actions = configs[i % len(configs)]
        private, full = i % 10 == 0, i % 7 == 0
        table_id = f"t{i:05}"
        rows.append(
            {
                "id": table_id,
                "created": datetime.now(UTC),
                "players": players,
                "advanced": advanced,
                "actions": actions,
                "lang": "en",
                "status": "open",
                "version": 1,
                "name": f"Table {i}",
                "private": private,
                "invite_hash": "h" * 64 if private else None,
            }
        )
        seat_rows += [
            {
                "table_id": table_id,
                "seat": seat,
                "name": "Ana" if seat == 0 else "",
                "token_hash": "a" * 64 if seat == 0 else None,
                "bot": "easy" if seat and full else None,
                "undone": 0,
            }
            for seat in range(players)
        ]
    with store.engine.begin() as connection:
        connection.execute(insert(TableRow), rows)
        connection.execute(insert(SeatRow), seat_rows)
    store.close()
    with TestClient(make_app(folder)) as client:
        everything = listed_ids(client)
        assert len(everything) == 4500 and len(set(everything)) == 4500  # the private tenth is left out
        assert everything[0] == "t04999"  # newest first
        query = "&players=3&advanced=true&actions=false&free=true"
        filtered = listed_ids(client, query)
        expected = [
            f"t{i:05}"
            for i in reversed(range(5000))
            if i % 10 and i % 7 and configs[i % len(configs)] == (3, True, False)
        ]
        assert filtered == expected and len(expected) > 200
        page = client.get(f"/api/tables?offset=100&limit=50{query}").json()
        assert page["total"] == len(expected) and [row["id"] for row in page["tables"]] == expected[100:150]
        assert all(row["name"] == f"Table {int(row['id'][1:])}" for row in page["tables"])


def test_the_created_answer_has_the_invitation_only_for_a_private_table(client: TestClient) -> None:
    r = client.post("/api/tables", json={"name": "Ana"})
    assert r.json()["invite"] is None
    r = client.post("/api/tables", json={"name": "Ana", "private": True})
    assert isinstance(r.json()["invite"], str)


def test_no_invitation_reaches_the_servers_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("DEBUG"):
        private = create(client, private=True)
        assert private["invite"] is not None
        client.post(f"/api/tables/{private['id']}/seats/1", json={"name": "Bia", "invite": private["invite"]})
        client.get(f"/api/tables/{private['id']}/games/1/record", headers={"X-Red7-Invite": private["invite"]})
    assert private["invite"] not in caplog.text


def test_a_replayed_removal_and_another_tables_token_change_nothing(client: TestClient) -> None:
    table_id, host = new_table(client, players=3)
    other_id, other_host = new_table(client, players=3)
    join(client, table_id, 1, "Bia")
    add_bot(client, table_id, host, 2)
    removal = {"token": host}
    assert client.post(f"/api/tables/{table_id}/seats/1/remove", json=removal).status_code == 200
    before = seats(client, table_id)
    replayed = client.post(f"/api/tables/{table_id}/seats/1/remove", json=removal)
    assert replayed.status_code == 409 and replayed.json()["code"] == "seat-free"
    # the host of another table is nobody here (their seat 0 is not this table's)
    r = client.post(f"/api/tables/{table_id}/seats/2/remove", json={"token": other_host})
    assert r.status_code == 403 and r.json()["code"] == "bad-token"
    r = client.post(f"/api/tables/{table_id}/leave", json={"token": other_host})
    assert r.status_code == 403 and r.json()["code"] == "bad-token"
    assert seats(client, table_id) == before and seats(client, other_id)[0][0] == "Ana"


def test_one_tables_invitation_opens_no_other_table(client: TestClient) -> None:
    first = create(client, private=True)
    second = create(client, private=True)
    r = client.post(f"/api/tables/{second['id']}/seats/1", json={"name": "Eve", "invite": first["invite"]})
    assert r.status_code == 403 and r.json()["code"] == "private"
    with Conn(client, second["id"], greet=False) as conn:
        assert hello(conn, None, first["invite"])["code"] == "private"

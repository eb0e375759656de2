"""A private table's invitation renewed or revoked by its host, and the rate limit on
taking and leaving seats (issue 35), in process (FastAPI's TestClient), with the abuse
each new request must survive.

Renewing makes a new secret: the old link opens nothing (joining, watching, reading the
games), and whoever watched through it is told why and stops seeing the table. Revoking
leaves the table to its seated people. Seated people keep their seats either way (their
seat tokens open them). Only the host asks: anyone else is refused and nothing changes.
Across two processes: tests/web/services/test_web_cluster_tables.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.web.http.limits import UNLIMITED, Limits
from red7.web.protocol import read
from red7.web.table.frames import Created, Invitation
from red7.web.table.live import LiveTable
from tests.support.web_client import Clock, Conn, Frame, add_bot, careful, make_app, play_out, start, tables_of

PORTUGUESE = {"Accept-Language": "pt-BR"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("invitations"))) as client:
        yield client


def create(client: TestClient, **body: Any) -> Created:
    r = client.post("/api/tables", json={"name": "Ana", "private": True, **body})
    assert r.status_code == 200, r.text
    return read(Created, r.text)


def live(client: TestClient, table_id: str) -> LiveTable:
    """The server's own table (the truth, for checks only)."""
    table: LiveTable = tables_of(client.app).live[table_id]  # type: ignore[attr-defined]
    return table


def change(client: TestClient, table_id: str, token: str, revoke: bool = False) -> str | None:
    """The host renews (or revokes) the invitation: the new secret (None: revoked), exactly as the protocol says."""
    r = client.post(f"/api/tables/{table_id}/invite", json={"token": token, "revoke": revoke})
    assert r.status_code == 200, r.text
    return read(Invitation, r.text)["invite"]


def join_with(client: TestClient, table_id: str, seat: int, name: str, invite: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name, "invite": invite})


def watch(client: TestClient, table_id: str, invite: str | None, token: str | None = None) -> Conn:
    """A connection saying its hello with ``invite`` (and ``token``)."""
    conn = Conn(client, table_id, greet=False)
    conn.send({"type": "hello", "token": token, "invite": invite, "chat": True})
    return conn


def first(conn: Conn) -> Frame:
    return conn.until(lambda f: f["type"] in ("table", "error", "closed"))


def test_renewing_makes_a_new_link_and_the_old_one_opens_nothing(client: TestClient) -> None:
    table = create(client, players=3)
    old = table["invite"]
    assert old is not None
    before = live(client, table["id"]).invite_hash
    new = change(client, table["id"], table["token"])
    assert new is not None and new != old and len(new) >= 32
    hashed = live(client, table["id"]).invite_hash
    assert hashed not in (None, before, new)  # only the new secret's hash is kept
    stored = tables_of(client.app).store.table(table["id"])  # type: ignore[attr-defined]
    assert stored.invite_hash == hashed  # written: a restart, another process, read it
    # the old secret: no seat, no watching, no games, in words that say why
    r = join_with(client, table["id"], 1, "Eve", old)
    assert r.status_code == 403 and r.json()["code"] == "private"
    assert "renewed or revoked" in r.json()["message"]
    with watch(client, table["id"], old) as conn:
        frame = first(conn)
        assert frame["type"] == "error" and frame["code"] == "private" and "renewed" in frame["message"]
        assert conn.until(lambda f: f["type"] == "closed")["code"] == 4403
        assert conn.last is None
    # the new one opens it
    r = join_with(client, table["id"], 1, "Bia", new)
    assert r.status_code == 200, r.text
    with watch(client, table["id"], new) as conn:
        frame = first(conn)
        assert frame["type"] == "table" and frame["table"]["invitation"] is True and frame["you"] is None


def test_spectators_by_the_old_invitation_stop_watching_and_seated_people_stay(client: TestClient) -> None:
    table = create(client, players=3)
    old = table["invite"]
    r = join_with(client, table["id"], 1, "Bia", old)
    bia = r.json()["token"]
    with (
        Conn(client, table["id"], table["token"], 0) as host,
        watch(client, table["id"], old, bia) as bias_page,  # her page sends the link's secret too
        watch(client, table["id"], old) as spectator,
    ):
        for conn in (host, bias_page, spectator):
            first(conn)
        new = change(client, table["id"], table["token"])
        told = spectator.until(lambda f: f["type"] == "error")
        assert told["code"] == "invite-changed" and "renewed or revoked" in told["message"]
        assert spectator.until(lambda f: f["type"] == "closed")["code"] == 4403
        # the seated keep their seats and their frames
        add_bot(client, table["id"], table["token"], 2)
        assert host.until(lambda f: f["type"] == "table" and f["seats"][2]["taken"])["you"] == 0
        frame = bias_page.until(lambda f: f["type"] == "table" and f["seats"][2]["taken"])
        assert frame["you"] == 1
        assert not any(f["type"] == "error" for f in bias_page.frames)
        # one who watches by the new invitation is not ended by a change that is not made
        with watch(client, table["id"], new) as newcomer:
            assert first(newcomer)["type"] == "table"
            start(client, table["id"], table["token"])
            frame = newcomer.until(lambda f: f["type"] == "table" and f["game"] is not None)
            assert frame["you"] is None
    assert live(client, table["id"]).seats[1].name == "Bia"


def test_revoking_leaves_the_table_to_its_seated_people(client: TestClient) -> None:
    table = create(client, players=2)
    old = table["invite"]
    bia = join_with(client, table["id"], 1, "Bia", old).json()["token"]
    with Conn(client, table["id"], table["token"], 0) as host, watch(client, table["id"], old) as spectator:
        first(host)
        first(spectator)
        assert change(client, table["id"], table["token"], revoke=True) is None
        assert spectator.until(lambda f: f["type"] == "error")["code"] == "invite-changed"
        frame = host.until(lambda f: f["type"] == "table" and f["table"]["invitation"] is False)
        assert frame["you"] == 0
    assert live(client, table["id"]).invite_hash is None and live(client, table["id"]).private
    for secret in (old, None, "forged"):
        with watch(client, table["id"], secret) as conn:
            assert first(conn)["code"] == "private"
    with Conn(client, table["id"], bia, 1) as bias_page:  # her token opens her seat
        assert first(bias_page)["you"] == 1
    # the private table stays out of the lobby; a new invitation opens it again
    ids = [row["id"] for row in client.get("/api/tables?limit=100").json()["tables"]]
    assert table["id"] not in ids
    again = change(client, table["id"], table["token"])
    assert again is not None
    with watch(client, table["id"], again) as conn:
        assert first(conn)["table"]["invitation"] is True


def test_the_old_invitation_no_longer_reads_the_games(client: TestClient) -> None:
    table = create(client, players=2)
    old = table["invite"]
    assert old is not None
    add_bot(client, table["id"], table["token"], 1)
    start(client, table["id"], table["token"])
    with Conn(client, table["id"], table["token"], 0) as conn:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
        play_out([conn], careful(random.Random(5)))
    path = f"/api/tables/{table['id']}/games/1/replay"
    assert client.get(path, headers={"X-Red7-Invite": old}).status_code == 200
    new = change(client, table["id"], table["token"])
    assert new is not None
    refused = client.get(path, headers={"X-Red7-Invite": old})
    assert refused.status_code == 403 and refused.json()["code"] == "private"
    assert client.get(path, headers={"X-Red7-Invite": new}).status_code == 200
    assert client.get(path, headers={"Authorization": f"Bearer {table['token']}"}).status_code == 200


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("bia", {}, 403, "not-host"),  # another seat's person
        ("bia", {"revoke": True}, 403, "not-host"),
        ("forged", {}, 403, "bad-token"),  # a stranger's forged token
        ("", {}, 403, "bad-token"),
        ("invite", {}, 403, "bad-token"),  # the invitation is no seat token
        ("host", {"revoke": "yes"}, 400, None),
        ("host", {"revoke": True, "invite": "x"}, 400, None),  # no field the protocol does not know
        (None, {}, 403, "bad-token"),  # no token at all (a spectator has none)
    ],
)
def test_a_change_asked_by_anyone_but_the_host_is_refused_and_changes_nothing(
    client: TestClient, who: str | None, body: dict[str, Any], status: int, code: str | None
) -> None:
    table = create(client, players=3)
    bia = join_with(client, table["id"], 1, "Bia", table["invite"]).json()["token"]
    tokens = {"host": table["token"], "bia": bia, "forged": "f" * 43, "": "", "invite": table["invite"]}
    before = live(client, table["id"]).invite_hash
    version = live(client, table["id"]).version
    sent = dict(body) if who is None else {"token": tokens[who], **body}
    r = client.post(f"/api/tables/{table['id']}/invite", json=sent)
    assert r.status_code == status, r.text
    if code is not None:
        assert r.json()["code"] == code
    assert live(client, table["id"]).invite_hash == before and live(client, table["id"]).version == version
    assert join_with(client, table["id"], 2, "Cy", table["invite"]).status_code == 200  # the link still opens it


def test_a_public_table_has_no_invitation_to_change(client: TestClient) -> None:
    r = client.post("/api/tables", json={"name": "Ana"})
    public = read(Created, r.text)
    r = client.post(f"/api/tables/{public['id']}/invite", json={"token": public["token"]}, headers=PORTUGUESE)
    assert r.status_code == 409 and r.json()["code"] == "not-private"
    assert live(client, public["id"]).invite_hash is None and not live(client, public["id"]).private


def test_the_refusals_are_in_the_tables_language(client: TestClient) -> None:
    table = create(client, players=2, lang="pt-BR", name="Bia")
    old = table["invite"]
    r = client.post(f"/api/tables/{table['id']}/invite", json={"token": "f" * 43})
    assert r.status_code == 403 and r.json()["code"] == "bad-token"
    with watch(client, table["id"], old) as spectator:
        first(spectator)
        change(client, table["id"], table["token"])
        told = spectator.until(lambda f: f["type"] == "error")
        assert told["code"] == "invite-changed" and "Peça" in told["message"], told
    r = join_with(client, table["id"], 1, "Eve", old)
    assert r.status_code == 403 and "convite" in r.json()["message"]


def test_replaying_a_renewal_makes_yet_another_secret_and_the_earlier_ones_stay_closed(client: TestClient) -> None:
    table = create(client, players=2)
    secrets = [table["invite"]] + [change(client, table["id"], table["token"]) for _ in range(3)]
    assert len(set(secrets)) == 4
    for old in secrets[:-1]:
        assert join_with(client, table["id"], 1, "Eve", old).status_code == 403
    assert join_with(client, table["id"], 1, "Bia", secrets[-1]).status_code == 200


# --- the rate limit on seats ------------------------------------------------------------------


@pytest.fixture
def limited(tmp_path: Any) -> Iterator[tuple[TestClient, TestClient, Clock]]:
    """A server whose clients may take or leave 4 seats at once, then one a minute (its
    clock stopped: the test moves it), and two clients at two addresses."""
    clock = Clock()
    clock.stop()
    limits = Limits(**{**UNLIMITED.__dict__, "joins_per_hour": 60.0, "join_burst": 4})
    app = make_app(tmp_path, limits=limits, clock=clock)
    with TestClient(app, client=("203.0.113.5", 5000)) as eve, TestClient(app, client=("198.51.100.7", 5000)) as ann:
        yield eve, ann, clock


def test_a_flood_of_joins_and_leaves_is_refused_and_changes_no_table(
    limited: tuple[TestClient, TestClient, Clock],
) -> None:
    eve, ann, clock = limited
    r = ann.post("/api/tables", json={"name": "Ana", "players": 4})
    table = read(Created, r.text)
    tables = tables_of(eve.app)
    # four asks at once: join, leave, join, leave
    for _ in range(2):
        r = eve.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Eve"})
        assert r.status_code == 200, r.text
        assert eve.post(f"/api/tables/{table['id']}/leave", json={"token": r.json()["token"]}).status_code == 200
    version = tables.live[table["id"]].version
    for path, body in [(f"/api/tables/{table['id']}/seats/1", {"name": "Eve"})] * 5 + [
        (f"/api/tables/{table['id']}/leave", {"token": table["token"]})
    ]:
        r = eve.post(path, json=body)
        assert r.status_code == 429 and r.json()["code"] == "too-many-joins", r.text
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "wait" in r.json()["message"]
    assert tables.live[table["id"]].version == version  # nothing changed at the table
    assert [s.name for s in tables.live[table["id"]].seats] == ["Ana", "", "", ""]
    # another client is served as usual, and Eve again once the clock moved on
    r = ann.post(f"/api/tables/{table['id']}/seats/2", json={"name": "Bia"})
    assert r.status_code == 200, r.text
    clock.advance(61)
    assert eve.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Eve"}).status_code == 200
    assert eve.post(f"/api/tables/{table['id']}/seats/3", json={"name": "Eve2"}).status_code == 429


def test_a_join_refused_for_its_rate_is_said_in_the_tables_language(
    limited: tuple[TestClient, TestClient, Clock],
) -> None:
    eve, ann, _clock = limited
    r = ann.post("/api/tables", json={"name": "Bia", "players": 2, "lang": "pt-BR"})
    table = read(Created, r.text)
    codes = [eve.post(f"/api/tables/{table['id']}/seats/1", json={"name": ""}).status_code for _ in range(5)]
    assert codes[-1] == 429  # (the four before: refused for the name, or taken: each counted)
    r = eve.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Eve"})
    assert r.status_code == 429 and "espere" in r.json()["message"]


@pytest.mark.parametrize(
    ("option", "value"), [("joins_per_hour", 0.0), ("joins_per_hour", -1.0), ("join_burst", 0), ("join_burst", 10**10)]
)
def test_a_join_limit_that_is_not_one_is_refused(option: str, value: float) -> None:
    with pytest.raises(ValueError, match="--join"):
        Limits(**{option: value})

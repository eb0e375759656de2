"""Private tables, removing and leaving a seat, and the lobby's filters across two
``red7 serve`` processes sharing PostgreSQL and Redis (as tests/web/services/test_web_cluster.py):
a change made through one process reaches the other's clients, and a token taken away
through one opens nothing through the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support import local_services as services
from tests.support.web_live import Client, post, until
from tests.support.web_server import WebServer

pytestmark = pytest.mark.services


@pytest.fixture
def pair(postgres: services.Postgres, redis_url: str, tmp_path: Path) -> Iterator[tuple[WebServer, WebServer]]:
    """Two server processes on a fresh PostgreSQL database and the session's Redis."""
    database = postgres.create_database()
    with (
        WebServer(tmp_path / "a", bot_delay=0, database_url=database, redis_url=redis_url) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database, redis_url=redis_url) as b,
    ):
        yield a, b


def refused(server: WebServer, path: str, body: dict[str, object]) -> tuple[int, str]:
    r = httpx.post(f"{server.url}{path}", json=body, timeout=60, trust_env=False)
    return r.status_code, str(r.json().get("code"))


def listed(server: WebServer, query: str = "") -> list[str]:
    page = httpx.get(f"{server.url}/api/tables?limit=100{query}", timeout=60, trust_env=False).json()
    return [row["id"] for row in page["tables"]]


def test_remove_and_leave_through_either_process(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    created = post(a, "/api/tables", {"players": 4, "name": "Ana", "private": True, "table_name": "Clube"})
    table, host, invite = created["id"], created["token"], created["invite"]
    # Bia and Cy take their seats through B, with the invitation; a stranger cannot
    bia = post(b, f"/api/tables/{table}/seats/1", {"name": "Bia", "invite": invite})["token"]
    cy = post(b, f"/api/tables/{table}/seats/2", {"name": "Cy", "invite": invite})["token"]
    assert refused(a, f"/api/tables/{table}/seats/3", {"name": "Eve"}) == (403, "private")
    assert refused(b, f"/api/tables/{table}/seats/3", {"name": "Eve", "invite": "forged"}) == (403, "private")
    post(b, f"/api/tables/{table}/bots", {"token": host, "seat": 3, "level": "easy"})
    hosts = Client(a, table, host, 0)
    bias = Client(b, table, bia, 1)
    cys = Client(a, table, cy, 2)
    watcher = Client(b, table, None, None, invite=invite)
    for client in (hosts, bias, cys, watcher):
        client.until(lambda c: c.last is not None and all(s["taken"] for s in c.last["seats"]))
    assert watcher.last is not None and watcher.last["table"]["name"] == "Clube"

    # the host, on A, removes Bia (on B) and the bot: B's clients see it; Bia's page is a spectator's
    post(a, f"/api/tables/{table}/seats/1/remove", {"token": host})
    bias.until(lambda c: any(e.get("code") == "removed" for e in c.errors))
    bias.until(lambda c: c.last is not None and c.last["you"] is None and not c.last["seats"][1]["taken"])
    post(b, f"/api/tables/{table}/seats/3/remove", {"token": host})
    hosts.until(lambda c: c.last is not None and not c.last["seats"][3]["taken"])
    assert refused(a, f"/api/tables/{table}/leave", {"token": bia}) == (403, "bad-token")
    assert refused(b, f"/api/tables/{table}/bots", {"token": bia, "seat": 1, "level": "easy"}) == (403, "bad-token")

    # Cy, connected to A, leaves through B
    post(b, f"/api/tables/{table}/leave", {"token": cy})
    cys.until(lambda c: any(e.get("code") == "unseated" for e in c.errors))
    watcher.until(lambda c: c.last is not None and not c.last["seats"][2]["taken"])
    assert refused(a, f"/api/tables/{table}/leave", {"token": cy}) == (403, "bad-token")
    # refusals through either process: not the host, the host's seat, after the start
    dan = post(a, f"/api/tables/{table}/seats/1", {"name": "Dan", "invite": invite})["token"]
    assert refused(b, f"/api/tables/{table}/seats/0/remove", {"token": dan}) == (403, "not-host")
    assert refused(b, f"/api/tables/{table}/leave", {"token": host}) == (409, "host-seat")
    for seat in (2, 3):
        post(b, f"/api/tables/{table}/bots", {"token": dan, "seat": seat, "level": "easy"})
    post(a, f"/api/tables/{table}/start", {"token": host})
    assert refused(b, f"/api/tables/{table}/seats/1/remove", {"token": host}) == (409, "started")
    assert refused(a, f"/api/tables/{table}/leave", {"token": dan}) == (409, "started")
    for client in (hosts, bias, cys, watcher):
        client.close()


def test_a_private_table_stays_hidden_through_either_process(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    private = post(a, "/api/tables", {"players": 2, "name": "Ana", "private": True})
    public = post(a, "/api/tables", {"players": 3, "advanced": True, "name": "Bia"})
    until(lambda: public["id"] in listed(b))  # B learns of A's tables over the bus (or at its next look)
    listed_b = listed(b)
    assert public["id"] in listed_b and private["id"] not in listed_b
    assert listed(b, "&players=3&advanced=true&free=true") == [public["id"]]
    assert listed(b, "&players=2") == []
    stranger = Client(b, private["id"], None, None)
    frame = stranger.recv(60)
    assert frame is not None and frame["type"] == "error" and frame["code"] == "private"
    with pytest.raises(ConnectionClosed):
        stranger.recv(60)
    invited = Client(b, private["id"], None, None, invite=private["invite"])
    assert invited.first()["table"]["private"] is True
    invited.close()


def test_the_host_renews_and_revokes_the_invitation_through_either_process(pair: tuple[WebServer, WebServer]) -> None:
    """The host renews the invitation through A: a spectator watching through B by the
    old one is told why and its connection ends; the old secret opens nothing through B
    (a seat, a look), the new one does; seated people on either process keep their seats.
    Revoked through B: the spectator by the new invitation, on A, is ended too. Nobody but
    the host may ask, through either process."""
    a, b = pair
    created = post(a, "/api/tables", {"players": 3, "name": "Ana", "private": True})
    table, host, old = created["id"], created["token"], created["invite"]
    bia = post(b, f"/api/tables/{table}/seats/1", {"name": "Bia", "invite": old})["token"]
    hosts = Client(a, table, host, 0, invite=old)
    bias = Client(b, table, bia, 1, invite=old)
    watcher = Client(b, table, None, None, invite=old)
    for client in (hosts, bias, watcher):
        client.until(lambda c: c.last is not None and c.last["seats"][1]["taken"])

    assert refused(b, f"/api/tables/{table}/invite", {"token": bia}) == (403, "not-host")
    assert refused(a, f"/api/tables/{table}/invite", {"token": "f" * 43}) == (403, "bad-token")
    assert refused(b, f"/api/tables/{table}/invite", {"token": old, "revoke": True}) == (403, "bad-token")
    new = post(a, f"/api/tables/{table}/invite", {"token": host})["invite"]
    assert new not in (None, old)
    watcher.until(lambda c: any(e.get("code") == "invite-changed" for e in c.errors))
    with pytest.raises(ConnectionClosed):
        while True:
            watcher.recv(60)
    assert refused(b, f"/api/tables/{table}/seats/2", {"name": "Eve", "invite": old}) == (403, "private")
    stale = Client(b, table, None, None, invite=old)
    frame = stale.recv(60)
    assert frame is not None and frame["code"] == "private"
    late = Client(b, table, None, None, invite=new)
    assert late.first()["table"]["invitation"] is True

    # the seated stay, in both processes: a bot sat down through B reaches them all
    post(b, f"/api/tables/{table}/bots", {"token": host, "seat": 2, "level": "easy"})
    for client in (hosts, bias, late):
        client.until(lambda c: c.last is not None and c.last["seats"][2]["taken"])
    assert bias.last is not None and bias.last["you"] == 1
    assert not any(
        e.get("code") in ("invite-changed", "unseated", "removed", "seat-revoked") for e in hosts.errors + bias.errors
    )

    # revoked through B: the spectator by the new invitation, on B, is ended; the seated stay
    assert post(b, f"/api/tables/{table}/invite", {"token": host, "revoke": True})["invite"] is None
    late.until(lambda c: any(e.get("code") == "invite-changed" for e in c.errors))
    hosts.until(lambda c: c.last is not None and c.last["table"]["invitation"] is False)
    assert refused(a, f"/api/tables/{table}/seats/2", {"name": "Eve", "invite": new}) == (403, "private")
    again = Client(a, table, bia, 1)  # a seat token still opens its seat
    assert again.first()["you"] == 1
    for client in (hosts, bias, again, stale):
        client.close()

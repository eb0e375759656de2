"""The web server's edges against a hostile client, on a real ``red7 serve`` process
(tests/support/web_server.py): what reaches its logs, requests from other sites and other host
names, one client taking more than its share, links to tables that are not there,
numbers past any bound, names, oversized messages. (Several processes, nginx and Redis:
tests/web/services/test_web_cluster.py; the pages in Chromium: tests/web/browser/test_web_browser.py.)

Every refusal is checked for its status, its stable ``code`` and its sentence, in
English and in Portuguese.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import random
import re
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from red7.cli import main
from red7.web.http.wire import MAX_FRAME, MAX_NUMBER
from tests.support.web_live import Client, Game_, new_game, play, post, settle, until, waiting_for
from tests.support.web_server import WebServer

PORTUGUESE = {"Accept-Language": "pt-BR,pt;q=0.9"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server for the tests that change nothing of the others': every request in its
    log (``--access-log``), two more host names (one a domain's, by environment variable)."""
    folder = tmp_path_factory.mktemp("edges")
    env = {"RED7_ALLOWED_HOST": "red7.test,*.club.test"}
    with WebServer(folder, bot_delay=0, env=env, options=["--access-log"]) as running:
        yield running


def call(server: WebServer, method: str, path: str, **options: Any) -> httpx.Response:
    return httpx.request(method, f"{server.url}{path}", timeout=60, trust_env=False, **options)


def refused(response: httpx.Response, status: int, code: str) -> str:
    """Check a refusal; its sentence."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    message: str = body["message"]
    assert len(message) > 15 and message[0].isupper(), message
    return message


def socket_to(server: WebServer, table: str, *, host: str | None = None, **options: Any) -> ClientConnection:
    """A WebSocket to ``table``'s game, not yet greeted (``host``: the name in its URL and
    ``Host`` header; the connection still goes to the server)."""
    name = host or f"127.0.0.1:{server.port}"
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    return connect(f"ws://{name}/ws/{table}", sock=sock, proxy=None, open_timeout=60, legacy=True, **options)


def greet(ws: ClientConnection, token: str | None = None, **more: Any) -> None:
    """Say the hello a page says first (the server may have closed the socket already)."""
    with contextlib.suppress(ConnectionClosed):
        ws.send(json.dumps({"type": "hello", "token": token, **more}))


def closed_after(ws: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """The frames ``ws`` receives until the server closes it, and the close code."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=60)))
    except ConnectionClosed as closed:
        return frames, closed.rcvd.code if closed.rcvd else None


def open_table(server: WebServer, name: str = "Ana", **settings: Any) -> tuple[str, str]:
    created = post(server, "/api/tables", {"players": 2, "name": name, **settings})
    return created["id"], created["token"]


# --- 9. no secret in an address or a log ------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("style", ["text", "json"])
def test_no_token_of_a_played_game_reaches_the_servers_log(tmp_path: Path, style: str) -> None:
    """A game of two people and a bot, a spectator, the replay of each seat, a seat
    token forged: every request is logged (``--access-log``), and no token of the game
    is in the log, nor its hash. The log has the requests' lines, WebSockets' included,
    so a token in an address would be there."""
    options = ["--access-log", "--log-format", style]
    with WebServer(tmp_path, bot_delay=0, options=options) as server:
        game = new_game(server, 3, False, True, people=2, level="easy")
        play(game.clients, random.Random(9))
        settle(game.clients)
        for seat, token in game.tokens.items():
            frames = call(server, "GET", f"/api/tables/{game.id}/games/1/replay", headers=bearer(token)).json()
            assert frames["frames"][0]["you"] == seat
        refused(
            call(server, "GET", f"/api/tables/{game.id}/games/1/replay", headers=bearer("forged")), 403, "bad-token"
        )
        assert call(server, "GET", f"/api/tables/{game.id}/games/1/record").status_code == 200
        game.close()
    log = server.log()
    assert f"/api/tables/{game.id}/games/1/record" in log and f"/ws/{game.id}" in log, log[-2000:]
    if style == "json":
        assert all(json.loads(line) for line in log.splitlines() if line.startswith("{"))
    leaked = [token for token in game.tokens.values() if token in log or token_hash(token) in log]
    assert leaked == [], f"seat tokens in the server's log: {leaked}"


@pytest.mark.parametrize("style", ["text", "json"])
def test_a_secret_put_in_an_address_is_hidden_in_the_log(tmp_path: Path, style: str) -> None:
    """A seat token or an invitation put in an address by a careless client is refused
    (400, a WebSocket 4400), or answered where the address needs no secret (a page), and
    either way the access log (``--access-log``) writes the request with the secret's
    value hidden: any case or percent-encoding of its name, the login cookie's name and
    a password too."""
    with WebServer(tmp_path, bot_delay=0, options=["--access-log", "--log-format", style]) as server:
        table, token = open_table(server, private=True)
        invite = post(server, f"/api/tables/{table}/invite", {"token": token})["invite"]
        secrets = [token, invite, *(f"s3cret{n}x" for n in range(5))]
        replay = f"/api/tables/{table}/games/1/replay"
        for path, status in (
            (f"{replay}?token={token}", 400),
            (f"/api/tables/{table}/games/1/record?hands=all&invite={invite}", 400),
            (f"{replay}?%74oken={secrets[2]}", 400),  # "token", percent-encoded
            (f"/t/{table}?watch&Invite={secrets[3]}", 200),
            (f"/api/tables?password={secrets[4]}", 200),
            (f"/api/tables?limit=1&red7_login={secrets[5]}&offset=0", 200),
        ):
            assert call(server, "GET", path).status_code == status, path
        ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/{table}?token={secrets[6]}", proxy=None, open_timeout=60, legacy=True
        )
        greet(ws, token)
        assert closed_after(ws)[1] == 4400
        until(lambda: f"/ws/{table}?token=" in server.log())
    log = server.log()
    assert f"{replay}?token=***" in log and "&invite=***" in log and "?%74oken=***" in log, log[-3000:]
    assert "?watch&Invite=***" in log and "?password=***" in log and "&red7_login=***&offset=0" in log, log[-3000:]
    if style == "json":
        assert all(json.loads(line) for line in log.splitlines() if line.startswith("{"))
    leaked = [n for n, secret in enumerate(secrets) if secret in log]
    assert leaked == [], f"secrets (by their place in the list) in the server's log: {leaked}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_hash(token: str) -> str:
    from red7.web.storage.stored import token_hash as digest

    return digest(token)


def test_a_token_in_an_address_is_refused(server: WebServer) -> None:
    """Addresses reach logs (this server's, a proxy's): a token there is refused, said
    so, and opens nothing."""
    table, token = open_table(server)
    message = refused(call(server, "GET", f"/api/tables/{table}/games/1/replay?token={token}"), 400, "token-in-url")
    assert "address" in message
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}", proxy=None, open_timeout=60, legacy=True)
    greet(ws, token)
    frames, code = closed_after(ws)
    assert code == 4400 and [f["code"] for f in frames] == ["token-in-url"], frames


# --- 10. requests from other sites, other host names ------------------------------------------


def test_only_json_from_the_servers_own_pages_changes_anything(server: WebServer) -> None:
    before = lobby_ids(server)
    own = f"http://127.0.0.1:{server.port}"
    body = json.dumps({"players": 2, "name": "Eve"})
    plain = {"Content-Type": "text/plain", "Origin": "http://evil.example"}
    # the repro: a text/plain POST from another site's page (no CORS preflight)
    assert refused(call(server, "POST", "/api/tables", content=body, headers=plain), 403, "cross-origin")
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {"Content-Type": content_type} if content_type else {}
        refused(call(server, "POST", "/api/tables", content=body, headers=headers), 415, "not-json")
    for origin in (
        "http://evil.example",
        f"https://127.0.0.1:{server.port}",  # another scheme
        f"http://127.0.0.1:{server.port + 1}",  # another port
        f"http://localhost:{server.port}",  # another host (of this machine, but another origin)
        "null",
    ):
        headers = {"Content-Type": "application/json", "Origin": origin}
        refused(call(server, "POST", "/api/tables", content=body, headers=headers), 403, "cross-origin")
    table, token = open_table(server)
    for path, data in (
        (f"/api/tables/{table}/seats/1", {"name": "Bia"}),
        (f"/api/tables/{table}/bots", {"token": token, "seat": 1, "level": "easy"}),
        (f"/api/tables/{table}/start", {"token": token}),
    ):
        headers = {"Origin": "http://evil.example"}
        refused(call(server, "POST", path, json=data, headers=headers), 403, "cross-origin")
        refused(
            call(server, "POST", path, content=json.dumps(data), headers={"Content-Type": "text/plain"}),
            415,
            "not-json",
        )
    assert lobby_ids(server) == before | {table}
    message = refused(
        call(server, "POST", "/api/tables", content=body, headers=plain | PORTUGUESE), 403, "cross-origin"
    )
    assert "outro site" in message
    # the server's own page: its origin, JSON
    headers = {"Content-Type": "application/json", "Origin": own}
    assert call(server, "POST", "/api/tables", content=body, headers=headers).status_code == 200


def lobby_ids(server: WebServer) -> set[str]:
    ids: set[str] = set()
    while True:
        page = call(server, "GET", f"/api/tables?offset={len(ids)}&limit=100").json()
        ids |= {row["id"] for row in page["tables"]}
        if not page["tables"] or len(ids) >= page["total"]:
            return ids


def test_a_websocket_from_another_site_is_told_why_and_closed(server: WebServer) -> None:
    table, token = open_table(server)
    for origin in ("http://evil.example", f"https://127.0.0.1:{server.port}", f"http://127.0.0.1:{server.port + 1}"):
        ws = socket_to(server, table, origin=Origin(origin))
        greet(ws, token)
        frames, code = closed_after(ws)
        assert code == 4403 and [f["code"] for f in frames] == ["cross-origin"], (origin, frames)
        assert origin in frames[0]["message"] and "another site" in frames[0]["message"]
    ws = socket_to(server, table, origin=Origin(f"http://127.0.0.1:{server.port}"))
    greet(ws, token)
    assert json.loads(ws.recv(timeout=60))["you"] == 0
    ws.close()


def test_the_server_answers_only_to_its_own_names(server: WebServer) -> None:
    """The DNS-rebinding shape: another site's name pointed at the server, its pages then
    same-origin with it. Only the listening address, localhost and the names allowed
    (``RED7_ALLOWED_HOST``: a name, a domain's names) are answered; the operations
    endpoints answer any (probes name a server by its address)."""
    table, token = open_table(server)
    port = server.port
    for host in (f"evil.example:{port}", "evil.example", f"red7.test.evil.example:{port}", f"club.test:{port}"):
        headers = {"Host": host}
        message = refused(call(server, "GET", "/api/tables", headers=headers), 400, "bad-host")
        assert "--allowed-host" in message and host.split(":")[0] in message
        refused(call(server, "GET", "/", headers=headers), 400, "bad-host")
        origin = {"Origin": f"http://{host}", "Host": host}
        refused(call(server, "POST", "/api/tables", json={"name": "Eve"}, headers=origin), 400, "bad-host")
        # the WebSocket of the repro (Host and Origin agreeing): no 101
        with pytest.raises(InvalidStatus) as denied:
            socket_to(server, table, host=host, origin=Origin(f"http://{host}"))
        assert denied.value.response.status_code == 400
        assert json.loads(denied.value.response.body or b"{}")["code"] == "bad-host"
    for probe in ("/healthz", "/readyz", "/metrics"):
        assert call(server, "GET", probe, headers={"Host": f"10.1.2.3:{port}"}).status_code == 200
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"red7.test:{port}", f"tables.club.test:{port}"):
        assert call(server, "GET", "/api/tables", headers={"Host": host}).status_code == 200, host
        ws = socket_to(server, table, host=host, origin=Origin(f"http://{host}"))
        greet(ws, token)
        assert json.loads(ws.recv(timeout=60))["you"] == 0
        ws.close()
    assert "não responde" in refused(
        call(server, "GET", "/", headers={"Host": "evil.example"} | PORTUGUESE), 400, "bad-host"
    )


# --- 11. one client's share ---------------------------------------------------------------------


def test_one_client_gets_its_share_of_tables_and_sockets(tmp_path: Path) -> None:
    """A client may hold so many open tables, create so many tables an hour, and hold so
    many WebSockets; past each it gets a 429 (a refused WebSocket: told why, when to
    come back, and closed), while another client is served as usual. (Clients are told
    apart by the address a trusted proxy names: ``X-Forwarded-For``.)"""
    options = ["--open-tables", "3", "--table-burst", "4", "--tables-per-hour", "1", "--sockets", "3"]
    with WebServer(tmp_path, bot_delay=0, limits=True, options=options) as server:
        eve, ann = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "198.51.100.7"}
        body = {"players": 2, "name": "Eve"}
        made = [call(server, "POST", "/api/tables", json=body, headers=eve).json() for _ in range(3)]
        refusal = call(server, "POST", "/api/tables", json=body, headers=eve)
        assert "3 tables" in refused(refusal, 429, "too-many-tables")
        assert 1 <= int(refusal.headers["Retry-After"]) <= 3600
        assert call(server, "POST", "/api/tables", json=body, headers=ann).status_code == 200
        # a table started is no longer open: another may be made, until the hour's are used up
        table = made[0]
        post(server, f"/api/tables/{table['id']}/bots", {"token": table["token"], "seat": 1, "level": "easy"})
        post(server, f"/api/tables/{table['id']}/start", {"token": table["token"]})
        assert call(server, "POST", "/api/tables", json=body, headers=eve).status_code == 200
        table = made[1]
        post(server, f"/api/tables/{table['id']}/bots", {"token": table["token"], "seat": 1, "level": "easy"})
        post(server, f"/api/tables/{table['id']}/start", {"token": table["token"]})
        refusal = call(server, "POST", "/api/tables", json=body, headers=eve | PORTUGUESE)
        assert "espere" in refused(refusal, 429, "too-many-tables")
        assert 1000 <= int(refusal.headers["Retry-After"]) <= 3600  # one table an hour
        # WebSockets: three at once, then refused with when to come back; one closed, one more
        sockets = [socket_to(server, made[2]["id"], additional_headers=eve) for _ in range(3)]
        for ws in sockets:
            greet(ws)
            assert json.loads(ws.recv(timeout=60))["type"] == "table"
        extra = socket_to(server, made[2]["id"], additional_headers=eve)
        frames, code = closed_after(extra)
        assert code == 4429 and frames[0]["code"] == "too-many" and frames[0]["retry_after"] > 0, frames
        other = socket_to(server, made[2]["id"], additional_headers=ann)
        greet(other)
        assert json.loads(other.recv(timeout=60))["type"] == "table"
        sockets.pop().close()

        def one_more() -> bool:
            ws = socket_to(server, made[2]["id"], additional_headers=eve)
            greet(ws)
            kind = json.loads(ws.recv(timeout=60))["type"]
            ws.close()
            return kind == "table"

        until(one_more)  # once the server has seen the socket close
        for ws in [*sockets, other]:
            ws.close()
        metrics = call(server, "GET", "/metrics").text
        assert 'red7_refused_total{reason="open-tables"} 1.0' in metrics
        assert 'red7_refused_total{reason="sockets"} 1.0' in metrics


def test_one_client_gets_its_share_of_seats_taken_and_left(tmp_path: Path) -> None:
    """``red7 serve --join-burst 3 --joins-per-hour 1``: a client takes and leaves seats
    three times at once, then gets a 429 with ``Retry-After`` (in the table's language)
    and nothing changes at the table; another client takes a seat as usual."""
    options = ["--join-burst", "3", "--joins-per-hour", "1"]
    with WebServer(tmp_path, bot_delay=0, limits=True, options=options) as server:
        eve, ann = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "198.51.100.7"}
        table = call(server, "POST", "/api/tables", json={"players": 4, "name": "Ana", "lang": "pt-BR"}, headers=ann)
        table_id = table.json()["id"]
        seat = f"/api/tables/{table_id}/seats/1"
        token = call(server, "POST", seat, json={"name": "Eve"}, headers=eve).json()["token"]
        assert call(server, "POST", f"/api/tables/{table_id}/leave", json={"token": token}, headers=eve).is_success
        assert call(server, "POST", seat, json={"name": "Eve"}, headers=eve).is_success
        refusal = call(server, "POST", f"/api/tables/{table_id}/seats/2", json={"name": "Eve 2"}, headers=eve)
        assert "espere" in refused(refusal, 429, "too-many-joins")
        assert 1000 <= int(refusal.headers["Retry-After"]) <= 3600  # one an hour
        assert call(server, "POST", f"/api/tables/{table_id}/seats/2", json={"name": "Bia"}, headers=ann).is_success
        seats = call(server, "GET", "/api/tables?limit=100").json()["tables"][0]["seats"]
        assert seats == ["Ana", "Eve", "Bia", None]
        assert 'red7_refused_total{reason="joins"} 1.0' in call(server, "GET", "/metrics").text


@pytest.mark.parametrize(
    ("argv", "env", "words"),
    [
        (["--sockets", "0"], {}, "--sockets must be between 1"),
        (["--open-tables", "-3"], {}, "--open-tables must be between 1"),
        (["--tables-per-hour", "nan"], {}, "--tables-per-hour must be a positive number"),
        (["--expire-open", "-1"], {}, "--expire-open must be 0 (never)"),
        (["--allowed-host", "red7.example.org/evil"], {}, "--allowed-host must be a host name"),
        (["--allow-origin", "red7.example.org"], {}, "--allow-origin must be an origin"),
        (["--trusted-proxy", "proxy.example.org"], {}, "--trusted-proxy must be an IP address"),
        ([], {"RED7_TABLE_BURST": "many"}, "RED7_TABLE_BURST='many' is not valid"),
        (["--rate-look", "0"], {}, "--rate-look must be between 1 and 86400 seconds, not 0.0"),
        (["--rate-look", "nan"], {}, "--rate-look must be between 1 and 86400 seconds, not nan"),
        ([], {"RED7_RATE_LOOK": "90000"}, "--rate-look must be between 1 and 86400 seconds, not 90000.0"),
        ([], {"RED7_RATE_LOOK": "soon"}, "RED7_RATE_LOOK='soon' is not valid"),
        ([], {"RED7_ACCESS_LOG": "perhaps"}, "RED7_ACCESS_LOG='perhaps' is not valid"),
        ([], {"RED7_ALLOWED_HOST": "ok.example.org, a b"}, "--allowed-host must be a host name"),
    ],
)
def test_red7_serve_refuses_a_bad_limit_or_name(
    argv: list[str],
    env: dict[str, str],
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every limit and name, as an option or an environment variable, is checked before
    the server starts: a clear error, no traceback, no server."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--port", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err, err


@pytest.mark.slow
def test_an_open_table_nobody_is_at_expires(tmp_path: Path) -> None:
    """``--expire-open``: an open table with nobody connected expires (gone from the lobby,
    its link says there is no such table); one with someone at it stays, and expires once
    they have left."""
    with WebServer(tmp_path, bot_delay=0, options=["--expire-open", "2"]) as server:
        kept, kept_token = open_table(server, "Ana")
        ana = Client(server, kept, kept_token, 0)
        ana.first()
        left, _token = open_table(server, "Bia")  # created after the other: it expires no sooner
        assert {kept, left} <= lobby_ids(server)
        until(lambda: left not in lobby_ids(server))
        assert kept in lobby_ids(server)  # someone is at it
        ws = socket_to(server, left)
        greet(ws)
        frames, code = closed_after(ws)
        assert code == 4404 and frames[0]["code"] == "no-table"
        refused(call(server, "POST", f"/api/tables/{left}/seats/1", json={"name": "Cid"}), 404, "no-table")
        ana.close()
        until(lambda: kept not in lobby_ids(server))
        assert "expired" in server.log()


def test_the_lobby_comes_a_page_at_a_time(server: WebServer) -> None:
    mine = [open_table(server, f"P{n}")[0] for n in range(5)]
    page = call(server, "GET", "/api/tables?limit=3").json()
    assert [row["id"] for row in page["tables"]] == mine[::-1][:3]  # the newest open tables first
    assert page["offset"] == 0 and page["limit"] == 3 and page["total"] >= 5
    assert lobby_ids(server) >= set(mine)
    for query in ("limit=0", "limit=101", "offset=-1", f"offset={MAX_NUMBER + 1}", "limit=x"):
        refused(call(server, "GET", f"/api/tables?{query}"), 422, "bad-request")


@pytest.mark.slow  # thousands of tables made, three rounds of decisions timed
def test_a_flood_leaves_another_tables_round_trip_unchanged(tmp_path: Path) -> None:
    """The issue's flood, with the server's default limits. Thousands of tables are made
    (by as many clients: one client is refused past its share), then one client creates
    tables as fast as it can (refused) while ten lobby pages poll every second, from
    another process (the test's own must not slow the clients it times). Another table's
    decisions are timed before, during and after (one run: a ratio): the round trip
    during the flood stays within a few times the quiet one (the issue's: 68 times, the
    lobby being the whole list, built on the event loop at every poll). The figures are
    printed (``pytest -s``)."""
    with WebServer(tmp_path, bot_delay=0, limits=True) as server:
        duel = new_game(server, 2, False, False, people=2, level="easy")
        settle(duel.clients)
        quiet = timed_decisions(duel, 40)
        made = make_tables(server, 2000)
        spawn = multiprocessing.get_context("spawn")
        stop, counts = spawn.Event(), spawn.Array("q", 3)  # refusals, lobby pages, largest page's bytes
        flood = spawn.Process(target=flood_and_poll, args=(server.url, stop, counts))
        flood.start()
        try:
            until(lambda: counts[0] > 0 and counts[1] > 0)
            flooded = timed_decisions(duel, 40)
        finally:
            stop.set()
            flood.join(60)
        refusals, pages, largest = counts[:]
        calm = timed_decisions(duel, 40)
        duel.close()
        total = call(server, "GET", "/api/tables").json()["total"]
    before, during = statistics.median(quiet + calm), statistics.median(flooded)
    print(
        f"\nround trip p50: {1000 * before:.1f} ms quiet, {1000 * during:.1f} ms flooded (x{during / before:.2f}); "
        f"{made} tables made by other clients, {refusals} refusals of the flooder, "
        f"{pages} lobby pages of {largest} bytes at most, {total} tables listed"
    )
    assert flood.exitcode == 0 and total >= 2000 and refusals > 0
    assert largest < 30_000  # a page, not the whole list (the issue's: 700 KB)
    assert during < 3 * before + 0.005, (before, during)


def flood_and_poll(url: str, stop: Any, counts: Any) -> None:
    """One client creating tables as fast as it can, and ten lobby pages polling every
    second, until ``stop``; counting the flood's refusals, the pages and their largest size."""

    def one_client() -> None:
        with httpx.Client(base_url=url, trust_env=False, timeout=60) as http:
            while not stop.is_set():
                r = http.post("/api/tables", json={"name": "Flood"}, headers={"X-Forwarded-For": "203.0.113.9"})
                counts[0] += r.status_code == 429

    def lobby_page() -> None:
        with httpx.Client(base_url=url, trust_env=False, timeout=60) as http:
            while not stop.wait(1.0):
                size = len(http.get("/api/tables").content)
                with counts.get_lock():
                    counts[1] += 1
                    counts[2] = max(counts[2], size)

    threads = [threading.Thread(target=one_client), *(threading.Thread(target=lobby_page) for _ in range(10))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def make_tables(server: WebServer, count: int) -> int:
    """``count`` tables, each made by a client of its own (no client's share runs out),
    over two connections at once; how many were made."""
    made = [0, 0]

    def make(worker: int) -> None:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=60) as http:
            for n in range(worker, count, 2):
                forwarded = {"X-Forwarded-For": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"}
                made[worker] += http.post("/api/tables", json={"name": "Many"}, headers=forwarded).status_code == 200

    threads = [threading.Thread(target=make, args=(worker,)) for worker in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(made)


def timed_decisions(game: Game_, count: int) -> list[float]:
    """The round trips of ``count`` decisions at ``game`` (a table of two people): from the
    send to the sender's frame of the next sequence number; a game over is played again."""
    rng = random.Random(count)
    times = []
    while len(times) < count:
        settle(game.clients)
        mover = waiting_for(game.clients)
        if mover is None:  # the game is over: another one, once every person agreed
            for person in game.clients:
                if person.seat is not None:
                    person.send({"type": "again"})
            until(lambda: waiting_for_any(game))
            continue
        assert mover.last is not None
        seq, number = mover.last["seq"], mover.last["table"]["game"]
        options = mover.last["game"]["options"]
        safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
        sent = time.perf_counter()
        mover.send({"type": "decide", "seq": seq, "action": rng.choice(safe) if safe else "concede"})
        mover.until(lambda c: c.last is not None and (c.last["table"]["game"], c.last["seq"]) != (number, seq))  # noqa: B023
        times.append(time.perf_counter() - sent)
        assert mover.errors == [], mover.errors
    return times


def waiting_for_any(game: Game_) -> bool:
    for c in game.clients:
        c.recv(0.05)
    return waiting_for(game.clients) is not None


# --- 12. a table that is not there ----------------------------------------------------------


def test_a_missing_table_is_said_to_a_real_websocket(server: WebServer) -> None:
    """Not an HTTP 403 at the handshake (a browser's WebSocket shows nothing of it): the
    socket opens, is told there is no such table, in the page's language, and closed
    with 4404."""
    for lang, words in (("en", "There is no table nope"), ("pt-BR", "nope")):
        ws = connect(f"ws://127.0.0.1:{server.port}/ws/nope", proxy=None, open_timeout=60, legacy=True)
        greet(ws, lang=lang)
        frames, code = closed_after(ws)
        assert code == 4404 and [f["code"] for f in frames] == ["no-table"], frames
        assert words in frames[0]["message"]
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/nope", proxy=None, open_timeout=60, legacy=True)
    ws.send("not a hello")
    frames, code = closed_after(ws)
    assert code == 4400 and frames[0]["code"] == "bad-hello"


# --- 13. numbers past any bound -------------------------------------------------------------------


@pytest.mark.parametrize("number", [2**63, 2**63 - 1, 2**64, MAX_NUMBER + 1, -1, 10**30])
def test_a_number_past_any_bound_in_an_address_is_refused(server: WebServer, number: int) -> None:
    table, _token = open_table(server)
    for path in (f"/api/tables/{table}/games/{number}/record", f"/api/tables/{table}/games/{number}/replay"):
        refused(call(server, "GET", path), 422, "bad-request")
    refused(call(server, "GET", f"/t/{table}/replay/{number}"), 422, "bad-request")
    refused(call(server, "POST", f"/api/tables/{table}/seats/{number}", json={"name": "Bia"}), 400, "bad-seat")
    refused(call(server, "GET", f"/api/tables/{table}/games/{MAX_NUMBER}/record"), 404, "no-game")


def test_numbers_in_bodies_and_messages_are_bounded(server: WebServer) -> None:
    table, token = open_table(server)
    for seat in (2**63, -(2**63), 1e308, "1"):
        refused(call(server, "POST", f"/api/tables/{table}/bots", json={"token": token, "seat": seat}), 400, "bad-seat")
    refused(call(server, "POST", "/api/tables", json={"players": 2**64}), 400, "bad-settings")
    refused(
        call(server, "POST", "/api/tables", content="[" * 4000, headers={"Content-Type": "application/json"}),
        400,
        "bad-json",
    )
    ws = socket_to(server, table)
    greet(ws, token)
    json.loads(ws.recv(timeout=60))
    for message in ({"type": "decide", "seq": 2**80, "action": "concede"}, {"type": "take_back", "seq": -(2**80)}):
        ws.send(json.dumps(message))
        # refused by the protocol (red7.web.protocol.Number) before the table is looked at:
        # no table ever has such a sequence number
        assert json.loads(ws.recv(timeout=60))["code"] == "stale"
    ws.send("[" * 3000)
    assert json.loads(ws.recv(timeout=60))["code"] == "bad-json"
    ws.close()


# --- 16. names -----------------------------------------------------------------------------------


def test_names_are_unique_at_a_table_and_the_bots_names_reserved(server: WebServer) -> None:
    for name in ("Bot 3", "bot", "BOT2", "Player 2", "Jogador 1", "You", "Você", "Ｂｏｔ ３"):
        message = refused(call(server, "POST", "/api/tables", json={"name": name}), 400, "reserved-name")
        assert "bots" in message
    table, _token = open_table(server, "Ana")
    for name in ("Ana", "ana", " ANA ", "Ａｎａ"):
        message = refused(call(server, "POST", f"/api/tables/{table}/seats/1", json={"name": name}), 409, "name-taken")
        assert "Someone at this table" in message
    refused(call(server, "POST", f"/api/tables/{table}/seats/1", json={"name": "Bot 1"}), 400, "reserved-name")
    post(server, f"/api/tables/{table}/seats/1", {"name": "Bia"})
    ws = socket_to(server, table)
    greet(ws)
    assert [seat["name"] for seat in json.loads(ws.recv(timeout=60))["seats"]] == ["Ana", "Bia"]
    ws.close()
    # at a Portuguese table, in Portuguese; people with no name are told apart by their seat
    pt, _token = open_table(server, "Júlia", players=3, lang="pt-BR")
    post(server, f"/api/tables/{pt}/seats/1", {"name": ""})
    assert "já se chama" in refused(
        call(server, "POST", f"/api/tables/{pt}/seats/2", json={"name": "júlia"}), 409, "name-taken"
    )
    assert "escolha outro nome" in refused(
        call(server, "POST", f"/api/tables/{pt}/seats/2", json={"name": "Jogador 3"}), 400, "reserved-name"
    )
    post(server, f"/api/tables/{pt}/seats/2", {"name": ""})


# --- 17. messages too large; the API's description ---------------------------------------------


def test_a_message_too_large_is_refused_up_to_the_frame_limit(server: WebServer) -> None:
    """Any message up to :data:`MAX_FRAME` bytes is read and refused as too large, the
    socket staying open; past it the socket is closed (1009), as documented."""
    table, _token = open_table(server)
    ws = socket_to(server, table)
    greet(ws)
    json.loads(ws.recv(timeout=60))
    for size in (5000, 64 * 1024 + 1, 200_000, MAX_FRAME - 100):
        ws.send(json.dumps({"type": "decide", "pad": "x" * size}))
        frame = json.loads(ws.recv(timeout=60))
        assert frame["code"] == "too-large", (size, frame)
    ws.send(json.dumps({"type": "again"}))
    assert json.loads(ws.recv(timeout=60))["code"] == "spectator"  # still open, still served
    try:
        ws.send("x" * (MAX_FRAME + 1))
    except ConnectionClosed as closed:  # the server may close before the last byte is sent
        assert closed.rcvd is not None and closed.rcvd.code == 1009
    else:
        frames, code = closed_after(ws)
        assert code == 1009 and frames == []


def test_the_api_has_no_description_served(server: WebServer) -> None:
    for path in ("/openapi.json", "/docs", "/redoc"):
        refused(call(server, "GET", path), 404, "not-found")
    message = refused(call(server, "GET", "/openapi.json", headers=PORTUGUESE), 404, "not-found")
    assert re.search(r"[ãçéê]", message), message
    refused(call(server, "DELETE", "/api/tables", headers={"Content-Type": "application/json"}), 405, "bad-method")

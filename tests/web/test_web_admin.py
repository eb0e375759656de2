"""The admin's tools (red7.web.admin.routes, ``red7 admin``): the command line that makes
admins, the admin API refused to guests, members and other sites' pages, and each
action: close a table (its game ends, its players see why), revoke a seat's token (its
holder is disconnected, the host seats them again), ban, unban and remove an account,
end its login sessions; in one process, and (full tier) across two processes on
PostgreSQL and Redis.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from red7.web.accounts.accounts import COOKIE, Accounts
from red7.web.admin.wire import AdminView
from red7.web.protocol import read
from red7.web.storage.rows import SeatRow, TableRow
from red7.web.storage.store import Store
from red7.web.storage.stored import ACCOUNT_REVOKED, StoredSeat, token_hash
from tests.support import local_services as services
from tests.support.web_client import Conn, make_app, new_table
from tests.support.web_live import Client, new_game, post, until
from tests.support.web_server import WebServer, red7_command
from tests.web.test_web_accounts import CHEAP, OPEN, PASSWORD, login, register, who

ADMIN = "Clube"


def add_admin(url: str, name: str = ADMIN) -> None:
    """An admin account in the database at ``url`` (as ``red7 admin add`` makes one)."""
    store = Store(url)
    try:
        store.upgrade()
        Accounts(store, PasswordHasher(*CHEAP)).add(name, PASSWORD, admin=True)
    finally:
        store.close()


def admin_app(tmp_path: Path) -> TestClient:
    add_admin(f"sqlite:///{tmp_path}/db.sqlite3")
    return TestClient(make_app(tmp_path, password_cost=CHEAP, login_rules=OPEN))


def red7_admin(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*red7_command(), "admin", *args], input=stdin, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_the_command_line_adds_grants_and_revokes_admins(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/db.sqlite3"
    added = red7_admin("add", ADMIN, "--password-stdin", "--database-url", url, stdin=PASSWORD + "\n")
    assert added.returncode == 0, added.stderr
    assert f"{ADMIN} is an admin" in added.stdout
    assert PASSWORD not in added.stdout + added.stderr
    again = red7_admin("add", "clube", "--password-stdin", "--database-url", url, stdin=PASSWORD + "\n")
    assert again.returncode == 2 and "taken" in again.stderr and "Traceback" not in again.stderr
    short = red7_admin("add", "Other", "--password-stdin", "--database-url", url, stdin="short\n")
    assert short.returncode == 2 and "8 to 256" in short.stderr
    common = red7_admin("add", "Other", "--password-stdin", "--database-url", url, stdin="12345678\n")
    assert common.returncode == 2 and "most common" in common.stderr and "12345678" not in common.stderr
    unknown = red7_admin("grant", "Nobody", "--database-url", url)
    assert unknown.returncode == 2 and "no account Nobody" in unknown.stderr
    with TestClient(make_app(tmp_path, login_rules=OPEN)) as client:  # the server's own argon2 cost
        assert register(client, "Bia").status_code == 200
        assert client.get("/api/account").json() == {"username": "Bia", "admin": False}
        assert red7_admin("grant", "bia", "--database-url", url).returncode == 0
        assert client.get("/api/account").json() == {"username": "Bia", "admin": True}  # at once: read at each request
        listed = red7_admin("list", "--database-url", url)
        assert listed.stdout.splitlines() == ["Bia admin", f"{ADMIN} admin"]  # by name, whatever the case
        assert red7_admin("revoke", "Bia", "--database-url", url).returncode == 0
        assert client.get("/api/account").json()["admin"] is False
        client.cookies.clear()
        r = login(client, ADMIN.upper())
        assert r.json() == {"username": ADMIN, "admin": True}


def test_the_admin_api_is_refused_to_guests_members_and_other_sites(tmp_path: Path) -> None:
    with admin_app(tmp_path) as client:
        table_id, _token = new_table(client, 2)
        calls = [("GET", "/api/admin"), ("POST", f"/api/admin/tables/{table_id}/close")]
        calls += [
            ("POST", f"/api/admin/tables/{table_id}/seats/0/revoke"),
            ("POST", f"/api/admin/accounts/{ADMIN}/logout"),
        ]
        for who_is_it in ("guest", "member"):
            if who_is_it == "member":
                assert register(client, "Bia").status_code == 200
            for method, path in calls:
                r = client.request(method, path, json={} if method == "POST" else None)
                assert (r.status_code, r.json()["code"]) == (403, "not-admin"), (who_is_it, path)
            page = client.get("/admin", follow_redirects=False)
            assert page.status_code == 303 and page.headers["location"] == "/account"
        client.cookies.clear()
        assert login(client, ADMIN).status_code == 200
        assert client.get("/admin").status_code == 200
        # another site's page: its origin, or a body it can send without asking (a form's)
        r = client.post(f"/api/admin/tables/{table_id}/close", json={}, headers={"Origin": "https://evil.example"})
        assert (r.status_code, r.json()["code"]) == (403, "cross-origin")
        r = client.post(f"/api/admin/tables/{table_id}/close", content=b"{}", headers={"Content-Type": "text/plain"})
        assert (r.status_code, r.json()["code"]) == (415, "not-json")
        for body in (b"[]", b'{"really": true}', b"{" * 5000):
            r = client.post(
                f"/api/admin/tables/{table_id}/close", content=body, headers={"Content-Type": "application/json"}
            )
            assert r.status_code in (400, 413), body[:20]
        r = client.post("/api/admin/accounts/Nobody/ban", json={})
        assert (r.status_code, r.json()["code"]) == (404, "no-account")
        r = client.post(f"/api/admin/accounts/{ADMIN}/ban", json={})
        assert (r.status_code, r.json()["code"]) == (409, "is-admin")
        r = client.post("/api/admin/accounts/Bia/promote", json={})
        assert r.status_code == 404
        r = client.post(f"/api/admin/accounts/{'x' * 100}/ban", json={})
        assert r.status_code == 422
        r = client.post("/api/admin/tables/nosuchtable/close", json={})
        assert (r.status_code, r.json()["code"]) == (404, "no-table")
        r = client.post(f"/api/admin/tables/{table_id}/seats/1/revoke", json={})
        assert (r.status_code, r.json()["code"]) == (409, "no-person")  # an empty seat
        r = client.post(f"/api/admin/tables/{table_id}/seats/9/revoke", json={})
        assert r.status_code == 422
        # nothing of all that changed the table
        assert client.get("/api/tables").json()["tables"][0]["status"] == "open"


def test_an_admin_sees_the_tables_and_closes_one_whose_players_see_why(tmp_path: Path) -> None:
    with admin_app(tmp_path) as admin, TestClient(admin.app) as player:
        assert login(admin, ADMIN).status_code == 200
        table_id, token = new_table(player, 2)
        r = player.post(f"/api/tables/{table_id}/bots", json={"token": token, "seat": 1, "level": "easy"})
        assert r.status_code == 200
        other_id, _other = new_table(player, 3, name="Bia")
        assert player.post(f"/api/tables/{table_id}/start", json={"token": token}).status_code == 200
        with Conn(player, table_id, token, 0) as ana, Conn(player, table_id, None) as watcher:
            ana.until(lambda f: f["type"] == "table" and f["game"] is not None)
            view = read(AdminView, admin.get("/api/admin").text)
            rows = {t["id"]: t for t in view["tables"]}
            assert set(rows) == {table_id, other_id}
            assert rows[table_id]["connected"] == 2 and rows[table_id]["status"] == "playing"  # Ana and the watcher
            assert [seat["name"] for seat in rows[table_id]["seats"]] == ["Ana", "Bot 2"]
            assert [seat["person"] for seat in rows[table_id]["seats"]] == [True, False]
            assert [seat["person"] for seat in rows[other_id]["seats"]] == [True, False, False]  # empty seats
            assert view["connected"] == 2
            assert view["metrics"]["red7_connected_clients"] == 2
            assert [a["username"] for a in view["accounts"]] == [ADMIN]

            assert admin.post(f"/api/admin/tables/{table_id}/close", json={}).status_code == 200
            for conn in (ana, watcher):
                closed = conn.until(lambda f: f["type"] == "table" and f["table"]["status"] == "closed")
                assert closed["game"]["prompt"] == "An admin of this server closed this table: the game ended here."
                assert closed["game"]["options"] == []
            ana.send({"type": "decide", "seq": ana.last["seq"] if ana.last else 0, "action": "play R7"})
            refused = ana.error()
            assert refused["code"] == "closed"
        lobby = {t["id"] for t in player.get("/api/tables").json()["tables"]}
        assert lobby == {other_id}
        assert [t["id"] for t in read(AdminView, admin.get("/api/admin").text)["tables"]] == [other_id]
        r = player.post(f"/api/tables/{table_id}/start", json={"token": token})
        assert r.json()["code"] == "closed"
        # closing twice is no error; an open table closes too, and says so to who opens it
        assert admin.post(f"/api/admin/tables/{table_id}/close", json={}).status_code == 200
        assert admin.post(f"/api/admin/tables/{other_id}/close", json={}).status_code == 200
        r = player.post(f"/api/tables/{other_id}/seats/1", json={"name": "Carla"})
        assert (r.status_code, r.json()["code"]) == (409, "closed")
        with Conn(player, other_id, None) as late:
            assert late.recv()["table"]["status"] == "closed"


def test_a_revoked_seat_is_disconnected_and_the_host_seats_its_person_again(tmp_path: Path) -> None:
    with admin_app(tmp_path) as admin, TestClient(admin.app) as player:
        assert login(admin, ADMIN).status_code == 200
        table_id, host = new_table(player, 2)
        bia = player.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bia"}).json()["token"]
        with Conn(player, table_id, bia, 1) as conn:
            conn.recv()
            assert admin.post(f"/api/admin/tables/{table_id}/seats/1/revoke", json={}).status_code == 200
            error = conn.error()
            assert error["code"] == "seat-revoked" and "host" in error["message"]
            assert conn.recv()["code"] == 4403
        with Conn(player, table_id, bia, 1) as old:
            assert old.error()["code"] == "bad-token"
        r = player.post(f"/api/tables/{table_id}/start", json={"token": bia})
        assert (r.status_code, r.json()["code"]) == (403, "bad-token")
        # only the host seats them again, and a token revoked cannot
        r = player.post(f"/api/tables/{table_id}/seats/1/reseat", json={"token": bia})
        assert (r.status_code, r.json()["code"]) == (403, "bad-token")
        r = player.post(f"/api/tables/{table_id}/seats/0/reseat", json={"token": host})
        assert (r.status_code, r.json()["code"]) == (403, "not-host")
        r = player.post(f"/api/tables/{table_id}/seats/1/reseat", json={"token": host})
        assert r.status_code == 200, r.text
        fresh = r.json()["token"]
        with Conn(player, table_id, fresh, 1) as back:
            frame = back.recv()
            assert frame["you"] == 1 and frame["seats"][1]["name"] == "Bia"
        r = player.post(f"/api/tables/{table_id}/seats/1/reseat", json={"token": host, "seat": 1})
        assert (r.status_code, r.json()["code"]) == (400, "unknown-field")


def test_a_banned_account_cannot_log_in_and_its_sessions_end(tmp_path: Path) -> None:
    with admin_app(tmp_path) as admin, TestClient(admin.app) as bia:
        assert login(admin, ADMIN).status_code == 200
        assert register(bia, "Bia").status_code == 200
        kept = bia.cookies[COOKIE]
        assert admin.post("/api/admin/accounts/bia/ban", json={}).status_code == 200
        assert who(bia) is None
        bia.cookies.clear()
        r = login(bia, "Bia")
        assert (r.status_code, r.json()["code"]) == (403, "banned")
        wrong = login(bia, "Bia", "not the password")
        assert wrong.json()["code"] == "bad-login"  # the ban is said only with the right password
        view = read(AdminView, admin.get("/api/admin").text)
        assert [(a["username"], a["banned"]) for a in view["accounts"]] == [("Bia", True), (ADMIN, False)]  # by name
        assert admin.post("/api/admin/accounts/Bia/unban", json={}).status_code == 200
        bia.cookies.set(COOKIE, kept)
        assert who(bia) is None  # the sessions the ban ended stay ended
        bia.cookies.clear()
        assert login(bia, "Bia").status_code == 200 and who(bia) == "Bia"
        # end its login sessions; then remove it: its name is free again
        assert admin.post("/api/admin/accounts/Bia/logout", json={}).status_code == 200
        assert who(bia) is None
        assert admin.post("/api/admin/accounts/Bia/remove", json={}).status_code == 200
        bia.cookies.clear()
        assert login(bia, "Bia").json()["code"] == "bad-login"
        assert register(bia, "bia").status_code == 200


def test_a_ban_and_a_removal_revoke_the_accounts_seats_at_every_table(tmp_path: Path) -> None:
    """Bia sits at an open table and at a game being played, a socket open at each;
    Cid at the game too. Banning Bia ends both her sockets (``account-revoked``, 4403)
    and no other; her tokens open nothing, her host cannot seat her again (nor after an
    admin revokes the seat once more, nor after the ban is lifted), and banning her
    twice changes nothing. Removing Cid's account ends his the same way."""
    with admin_app(tmp_path) as admin, TestClient(admin.app) as bia, TestClient(admin.app) as cid:
        assert login(admin, ADMIN).status_code == 200
        assert register(bia, "Bia").status_code == 200 and register(cid, "Cid").status_code == 200
        waiting, waiting_host = new_table(admin, 2)
        playing, host = new_table(admin, 3)
        seats = {
            (table, n): who.post(f"/api/tables/{table}/seats/{n}", json={"name": "x"}).json()["token"]
            for table, n, who in ((waiting, 1, bia), (playing, 1, bia), (playing, 2, cid))
        }
        assert admin.post(f"/api/tables/{playing}/start", json={"token": host}).status_code == 200
        with (
            Conn(bia, waiting, seats[waiting, 1], 1) as first,
            Conn(bia, playing, seats[playing, 1], 1) as second,
            Conn(cid, playing, seats[playing, 2], 2) as third,
        ):
            for conn in (first, second, third):
                conn.recv()
            assert admin.post("/api/admin/accounts/Bia/ban", json={}).status_code == 200
            for conn in (first, second):
                error = conn.error()
                assert error["code"] == "account-revoked" and "banned" in error["message"]
                assert conn.error()["code"] == 4403
            assert third.closed is None and third.errors == []
            assert admin.post("/api/admin/accounts/Bia/ban", json={}).status_code == 200  # again: nothing more
            assert admin.post("/api/admin/accounts/Cid/remove", json={}).status_code == 200
            assert third.error()["code"] == "account-revoked" and third.error()["code"] == 4403
        for (table, n), token in seats.items():
            with Conn(bia, table, token, n) as old:
                assert old.error()["code"] == "bad-token"
        for table, token in ((waiting, waiting_host), (playing, host)):
            r = admin.post(f"/api/tables/{table}/seats/1/reseat", json={"token": token})
            assert (r.status_code, r.json()["code"]) == (409, "account-revoked")
        assert admin.post(f"/api/admin/tables/{playing}/seats/1/revoke", json={}).status_code == 200
        assert admin.post("/api/admin/accounts/Bia/unban", json={}).status_code == 200
        r = admin.post(f"/api/tables/{playing}/seats/1/reseat", json={"token": host})
        assert (r.status_code, r.json()["code"]) == (409, "account-revoked")  # the ban took the seats for good
        # the seats keep their people: the host's seat and the game are as they were
        with Conn(admin, playing, host, 0) as hosting:
            frame = hosting.recv()
            assert [seat["name"] for seat in frame["seats"]] == [ADMIN, "Bia", "Cid"]
            assert frame["table"]["status"] == "playing"


def test_the_database_revokes_an_accounts_seats_once_at_tables_not_expired(tmp_path: Path) -> None:
    """What ``red7 admin ban`` does with no server: every seat of the account at a table
    not expired opens to no token any more and says why; each such table moves to its
    next version (a server reads it back); a second time changes nothing."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        store.upgrade()
        for table_id, status in (("t1", "playing"), ("t2", "expired"), ("t3", "over")):
            store.create_table(table_id, 2, False, False, "en")
            with store.engine.begin() as connection:
                connection.execute(sa.update(TableRow).where(TableRow.id == table_id).values(status=status))
                for seat, account in ((0, 7), (1, 8)):
                    connection.execute(
                        sa.update(SeatRow)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                        .values(name=f"p{seat}", token_hash=token_hash(f"{table_id}{seat}"), account_id=account)
                    )
        assert store.revoke_account_seats(7) == {"t1": 1, "t3": 1}
        assert store.revoke_account_seats(7) == {}
        for table_id, version in (("t1", 1), ("t3", 1), ("t2", 0)):
            stored = store.table(table_id)
            assert stored is not None and stored.version == version
            ana, other = stored.seats
            assert other == StoredSeat("p1", token_hash(f"{table_id}1"), account=8)
            if version:
                assert ana.revoked == ACCOUNT_REVOKED and ana.token_hash != token_hash(f"{table_id}0")
                assert (ana.name, ana.account) == ("p0", 7)
            else:
                assert ana == StoredSeat("p0", token_hash(f"{table_id}0"), account=7)
    finally:
        store.close()


@pytest.mark.services
def test_admin_actions_hold_across_two_processes(postgres: services.Postgres, redis_url: str, tmp_path: Path) -> None:
    """Two processes on PostgreSQL and Redis: an admin logged in on A closes a table
    played through B, revokes a seat connected to B, and bans an account logged in on B;
    B's clients see each at once, B refuses the banned account's session and ends its
    socket, and neither process seats its token."""
    database = postgres.create_database()
    add_admin(database)
    with (
        WebServer(tmp_path / "a", bot_delay=0, database_url=database, redis_url=redis_url) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database, redis_url=redis_url) as b,
        httpx.Client(base_url=a.url, timeout=60, trust_env=False) as admin,
        httpx.Client(base_url=b.url, timeout=60, trust_env=False) as member,
    ):
        assert login(admin, ADMIN).status_code == 200
        assert register(member, "Bia").status_code == 200
        assert member.get("/api/account").json()["username"] == "Bia"
        game = new_game(b, 3, False, False, people=2, level="easy")
        watcher = game.clients[-1]
        until(lambda: any(t["id"] == game.id for t in admin.get("/api/admin").json()["tables"]))

        # revoke seat 1's token through A: its client on B is told and disconnected
        assert admin.post(f"/api/admin/tables/{game.id}/seats/1/revoke", json={}).status_code == 200
        seat1 = next(c for c in game.clients if c.seat == 1)
        seat1.until(lambda c: any(e["code"] == "seat-revoked" for e in c.errors))
        fresh = post(b, f"/api/tables/{game.id}/seats/1/reseat", {"token": game.tokens[0]})["token"]
        back = Client(a, game.id, fresh, 1)
        assert back.first()["you"] == 1

        # close it through A: every client on B sees it closed
        assert admin.post(f"/api/admin/tables/{game.id}/close", json={}).status_code == 200
        watcher.until(lambda c: bool(c.last and c.last["table"]["status"] == "closed"))
        back.until(lambda c: bool(c.last and c.last["table"]["status"] == "closed"))
        until(lambda: all(t["id"] != game.id for t in member.get("/api/tables").json()["tables"]))

        # ban through A: B refuses the session at once, and the login; Bia's socket on B is
        # told why and closed, and her token opens nothing through either process
        made = post(a, "/api/tables", {"players": 2, "name": "Ana"})
        bias = member.post(f"/api/tables/{made['id']}/seats/1", json={"name": "Bia"}).json()["token"]
        seated = Client(b, made["id"], bias, 1)
        seated.first()
        assert admin.post("/api/admin/accounts/Bia/ban", json={}).status_code == 200
        assert member.get("/api/account").json()["username"] is None
        member.cookies.clear()
        assert login(member, "Bia").json()["code"] == "banned"
        seated.until(lambda c: any(e["code"] == "account-revoked" for e in c.errors))
        for server in (a, b):
            again = Client(server, made["id"], bias, 1)
            again.until(lambda c: bool(c.errors))
            assert again.errors[0]["code"] == "bad-token"
            again.close()
        for c in (back, seated):
            c.close()
        game.close()

"""Accounts of the web server (red7.web.accounts.accounts, red7.web.accounts.routes): registering,
logging in and out, the login cookie's flags, username rules, no user enumeration, the
waits of an address failing to log in (per name and per address, growing, for every
process; never the name from another address), a flood told once; the rate of a
client's tries; a logged-in person's seats under their username and their profile, a banned account; no
password or login session id in the server's log; and migration 0007 over a database
of release 0004.

Passwords are hashed at a tiny argon2 cost here (``password_cost``): what is tested is
the flow, not the hash's cost.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from red7.web.accounts.accounts import COOKIE, Accounts
from red7.web.accounts.login_limits import LoginRules
from red7.web.accounts.throttle import LoginThrottle, ThrottleRow, ThrottleRules, counted
from red7.web.accounts.wire import AccountView, Profile
from red7.web.http.metrics import Metrics
from red7.web.http.refusals import Limited, Refused
from red7.web.protocol import read
from red7.web.storage.store import Store, alembic_config
from tests.support.web_client import HEAD, Clock, Conn, careful, make_app, new_table, play_out
from tests.support.web_server import WebServer

CHEAP = (1, 8, 1)
"""argon2's cheapest cost: one pass over 8 KiB."""
PASSWORD = "correct horse battery"


class Wall:
    """A wall clock a test moves (login sessions and the waits of failed logins read it)."""

    def __init__(self) -> None:
        self.now = 2_000_000_000.0

    def __call__(self) -> float:
        return self.now


OPEN = LoginRules(per_minute=1e6, burst=10**6)
"""No limit on one client's logins (they have a test of their own)."""


def app_client(tmp_path: Path, base_url: str = "http://testserver", **settings: Any) -> TestClient:
    settings.setdefault("password_cost", CHEAP)
    settings.setdefault("login_rules", OPEN)
    return TestClient(make_app(tmp_path, **settings), base_url=base_url)


def register(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/register", json={"username": username, "password": password})


def login(client: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/login", json={"username": username, "password": password})


def who(client: httpx.Client) -> str | None:
    r = client.get("/api/account")
    assert r.status_code == 200, r.text
    return read(AccountView, r.text)["username"]


def set_cookie(response: httpx.Response) -> str:
    cookies = [value for name, value in response.headers.multi_items() if name.lower() == "set-cookie"]
    assert len(cookies) == 1, cookies
    return cookies[0]


def cookie_flags(header: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}


def test_register_log_out_and_in_with_a_cookie_no_script_reads(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        assert who(client) is None  # a guest
        r = register(client, "Ana")
        assert r.status_code == 200, r.text
        assert read(AccountView, r.text) == {"username": "Ana", "admin": False}
        header = set_cookie(r)
        assert header.startswith(f"{COOKIE}=")
        assert {"httponly", "path", "samesite", "max-age"} <= cookie_flags(header)
        assert "samesite=lax" in header.lower() and "path=/" in header.lower()
        assert "secure" not in cookie_flags(header)  # plain HTTP: a Secure cookie would never come back
        session_id = client.cookies[COOKIE]
        assert who(client) == "Ana"

        r = client.post("/api/account/logout", json={})
        assert r.status_code == 200 and r.json() == {"username": None, "admin": False}
        assert who(client) is None
        client.cookies.set(COOKIE, session_id)  # the old session's id, kept by someone
        assert who(client) is None  # ended for good
        client.cookies.clear()

        assert login(client, "ana").status_code == 200  # any case
        assert who(client) == "Ana"


def test_the_cookie_is_secure_over_https(tmp_path: Path) -> None:
    with app_client(tmp_path, base_url="https://testserver") as client:
        r = register(client, "Bia")
        assert r.status_code == 200, r.text
        assert "secure" in cookie_flags(set_cookie(r))
        assert who(client) == "Bia"


def test_usernames_are_unique_whatever_their_case_and_follow_rules(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        assert register(client, "Ana").status_code == 200
        for taken in ("ana", "ANA", "aNa"):
            r = register(httpx_fresh(client), taken)
            assert (r.status_code, r.json()["code"]) == (409, "username-taken"), taken
        bad = ["ab", "a" * 21, "ana maria", "Zé", "_ana", "ana<b>", "", "ana\n"]
        for name in bad:
            r = register(client, name)
            assert (r.status_code, r.json()["code"]) == (400, "bad-username"), name
        for name in ("admin", "ADMIN", "root", "Bot7", "bot", "Player2", "Jogador3", "expert"):
            r = register(client, name)
            assert (r.status_code, r.json()["code"]) == (400, "reserved-username"), name
        for password in ("short", "x" * 257):
            r = register(client, "Carla", password)
            assert (r.status_code, r.json()["code"]) == (400, "bad-password")
        r = client.post("/api/account/register", json={"username": "Carla", "password": 12345678})
        assert (r.status_code, r.json()["code"]) == (400, "bad-password")
        r = client.post("/api/account/register", json={"username": "Carla", "password": PASSWORD, "admin": True})
        assert (r.status_code, r.json()["code"]) == (400, "unknown-field")
        r = client.post("/api/account/register", content=b"{", headers={"Content-Type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (400, "bad-json")
        pt = client.post(
            "/api/account/register",
            json={"username": "a b", "password": PASSWORD},
            headers={"Accept-Language": "pt-BR"},
        )
        assert pt.json()["message"].startswith("Um nome de usuário")


def httpx_fresh(client: TestClient) -> TestClient:
    """The same app as another browser (no cookie)."""
    client.cookies.clear()
    return client


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        assert register(client, "Ana").status_code == 200
        client.cookies.clear()
        wrong = login(client, "Ana", "not the password")
        unknown = login(client, "Nobody", "not the password")
        malformed = login(client, "no body!", "not the password")
        assert wrong.status_code == unknown.status_code == malformed.status_code == 401
        assert wrong.content == unknown.content == malformed.content
        assert wrong.json()["code"] == "bad-login"
        assert "set-cookie" not in wrong.headers and who(client) is None


def test_failed_logins_slow_their_address_down_with_growing_waits(tmp_path: Path) -> None:
    """One address (the test client's) failing on one name waits after three failures,
    a wait doubling at each failure after; the right password waits too (whoever is at
    that address); logging in clears the count. Other names are not slowed until the
    address has failed on enough of them."""
    wall = Wall()
    rules = ThrottleRules(name_free=3, address_free=10, first_wait=60.0, longest_wait=600.0, forget=3600.0)
    with app_client(tmp_path, wall=wall, throttle=rules) as client:
        assert register(client, "Ana").status_code == 200
        client.cookies.clear()
        for _ in range(3):
            assert login(client, "Ana", "guess guess").status_code == 401
        for name, password in (("Ana", "guess guess"), ("ANA", PASSWORD)):
            r = login(client, name, password)
            assert (r.status_code, r.json()["code"], r.headers["Retry-After"]) == (429, "login-wait", "60"), r.text
            assert r.json()["message"] == "Too many failed logins of this name from your address: wait 60 s."
        pt = client.post(
            "/api/account/login", json={"username": "Ana", "password": PASSWORD}, headers={"Accept-Language": "pt-BR"}
        )
        assert pt.json()["message"].startswith("Tentativas")
        for wait, said in ((120, "2 min"), (240, "4 min"), (480, "8 min"), (600, "10 min")):
            wall.now += 59
            assert login(client, "Ana", "guess guess").status_code == 429  # not yet
            wall.now += 1
            assert login(client, "Ana", "guess guess").status_code == 401  # one more failure...
            r = login(client, "Ana", PASSWORD)
            assert r.headers["Retry-After"] == str(wait) and r.json()["message"].endswith(f"wait {said}.")
            wall.now += wait - 60
        wall.now += 60
        assert login(client, "Ana").status_code == 200
        client.cookies.clear()
        for _ in range(2):  # the count of Ana's name from this address started again
            assert login(client, "Ana", "guess guess").status_code == 401
        # the address's 10th failure, on any name: it waits for any name
        assert login(client, "Bia", "guess guess").status_code == 401
        r = login(client, "Dora", "guess guess")
        assert (r.status_code, r.json()["message"]) == (429, "Too many failed logins from your address: wait 60 s.")


def test_an_unknown_name_is_slowed_as_a_registered_one_is(tmp_path: Path) -> None:
    wall = Wall()
    rules = ThrottleRules(name_free=2, address_free=100, first_wait=60.0)
    with app_client(tmp_path, wall=wall, throttle=rules) as client:
        assert register(client, "Ana").status_code == 200
        client.cookies.clear()
        answers = {name: [login(client, name, "guess guess") for _ in range(3)] for name in ("Ana", "Nobody")}
        known, unknown = answers["Ana"], answers["Nobody"]
        assert [r.status_code for r in known] == [r.status_code for r in unknown] == [401, 401, 429]
        assert [r.content for r in known] == [r.content for r in unknown]
        assert known[2].headers["Retry-After"] == unknown[2].headers["Retry-After"]


def accounts_of(tmp_path: Path, wall: Wall, rules: ThrottleRules) -> tuple[Accounts, Metrics]:
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.upgrade()
    metrics = Metrics()
    return Accounts(store, PasswordHasher(*CHEAP), wall, LoginThrottle(store.engine, rules, wall, metrics)), metrics


def fail(accounts: Accounts, name: str, client: str) -> str:
    """The code of a wrong login of ``name`` from ``client``."""
    with pytest.raises(Refused) as refused:
        accounts.login(name, "guess guess", client)
    return refused.value.code


def test_failing_at_one_address_never_slows_the_name_at_another(tmp_path: Path) -> None:
    wall = Wall()
    accounts, metrics = accounts_of(tmp_path, wall, ThrottleRules())
    accounts.add("Ana", PASSWORD)
    codes = [fail(accounts, "ana", "203.0.113.66") for _ in range(8)]
    assert codes == ["bad-login"] * 5 + ["login-wait"] * 3
    account, _session = accounts.login("Ana", PASSWORD, "198.51.100.7")  # the owner, elsewhere
    assert account.username == "Ana"
    assert fail(accounts, "Ana", "203.0.113.66") == "login-wait"  # her login cleared nothing of the attacker's
    assert fail(accounts, "Ana", "198.51.100.7") == "bad-login"
    assert metrics.registry.get_sample_value("red7_login_failures_total") == 6


def test_a_count_is_forgotten_a_day_after_its_last_failure(tmp_path: Path) -> None:
    wall = Wall()
    rules = ThrottleRules(name_free=2, first_wait=60.0, longest_wait=900.0, forget=86400.0)
    accounts, _metrics = accounts_of(tmp_path, wall, rules)
    assert [fail(accounts, "Ana", "a") for _ in range(3)] == ["bad-login", "bad-login", "login-wait"]
    wall.now += 86399
    assert fail(accounts, "Ana", "a") == "bad-login"  # the 3rd failure: a wait of 2 min
    assert fail(accounts, "Ana", "a") == "login-wait"
    wall.now += 86401
    assert [fail(accounts, "Ana", "a") for _ in range(3)] == ["bad-login", "bad-login", "login-wait"]
    with Session(accounts.store.engine) as s:  # forgotten counts are deleted as others are written
        wall.now += 86401
        fail(accounts, "Bia", "b")
        assert len(s.scalars(select(ThrottleRow)).all()) == 3  # Bia's three counts, none of Ana's


def test_a_flood_is_told_once_in_the_log_and_the_metrics(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Seven addresses fail three times each on Ana's name: the 20th failure starts a
    flood of the name, told once, naming the account; an unregistered name's flood names
    its hash; one address failing on 20 names starts a flood of the address."""
    wall = Wall()
    accounts, metrics = accounts_of(tmp_path, wall, ThrottleRules(name_free=3, address_free=20, flood=20))
    accounts.add("Ana", PASSWORD)
    caplog.set_level(logging.WARNING, logger="red7.web")
    for n in range(7):
        for _ in range(3):
            assert fail(accounts, "Ana", f"192.0.2.{n}") == "bad-login"
            wall.now += 1
    for n in range(7):  # seven more addresses, hours later: the same flood (no day without a failure)
        wall.now += 3600
        for _ in range(3):
            fail(accounts, "Ana", f"192.0.2.{n + 10}")
    for n in range(20):
        assert fail(accounts, "Nobody", f"198.51.100.{n}") == "bad-login"
        assert fail(accounts, f"name{n}", "203.0.113.66") == "bad-login"
    floods = [r.getMessage() for r in caplog.records if "login flood" in r.getMessage()]
    assert floods == [
        "login flood: 20 failed logins of the account Ana since 2033-05-18T03:33:20+00:00",
        f"login flood: 20 failed logins of an unregistered name (key {counted('name', 'nobody')[:12]}) since "
        "2033-05-18T10:33:41+00:00",
        "login flood: 20 failed logins from 203.0.113.66 since 2033-05-18T10:33:41+00:00",
    ]
    floods_total = metrics.registry.get_sample_value
    assert floods_total("red7_login_floods_total", {"kind": "name"}) == 2
    assert floods_total("red7_login_floods_total", {"kind": "address"}) == 1
    assert "guess guess" not in caplog.text


def test_a_wait_says_its_whole_seconds_whatever_the_clock_reads(tmp_path: Path) -> None:
    """A wait of 300 s asks for 300 s at once, not 301: at this clock reading
    ``(t + 300.0) - t`` is 300.0000000000291, whose ceiling would be 301."""
    t = 262131.90478483363
    assert (t + 300.0) - t > 300.0
    wall = Wall()
    wall.now = t
    accounts, _metrics = accounts_of(tmp_path, wall, ThrottleRules(name_free=1, first_wait=300.0))
    fail(accounts, "Ana", "a")
    with pytest.raises(Limited) as limited:
        accounts.login("Ana", PASSWORD, "a")
    assert limited.value.retry_after == 300


def test_a_client_gets_so_many_tries_a_minute(tmp_path: Path) -> None:
    clock = Clock()
    clock.stop()
    rules = LoginRules(per_minute=6.0, burst=4)
    with app_client(tmp_path, clock=clock, login_rules=rules) as client:
        for _ in range(4):
            assert login(client, "Nobody", "guess guess").status_code == 401
        r = login(client, "Nobody", "guess guess")
        assert r.status_code == 429 and r.json()["code"] == "too-many-logins"
        assert int(r.headers["Retry-After"]) == 10  # a try every 10 s on average
        r = register(client, "Ana")
        assert r.status_code == 429  # registrations too
        clock.advance(10)
        assert register(client, "Ana").status_code == 200


def test_a_logged_in_person_sits_as_their_username_and_their_games_are_listed(tmp_path: Path) -> None:
    app = make_app(tmp_path, password_cost=CHEAP, login_rules=OPEN)
    with TestClient(app) as ana, TestClient(app) as bia:
        assert register(ana, "Ana").status_code == 200
        assert register(bia, "Bia").status_code == 200
        table_id, token = new_table(ana, 2, name="Someone else")
        r = bia.post(f"/api/tables/{table_id}/seats/1", json={"name": "Whatever"})
        assert r.status_code == 200, r.text
        other = r.json()["token"]
        assert ana.post(f"/api/tables/{table_id}/start", json={"token": token}).status_code == 200
        with Conn(ana, table_id, token, 0) as first, Conn(bia, table_id, other, 1) as second:
            first.recv()
            second.recv()
            assert first.last is not None
            assert [seat["name"] for seat in first.last["seats"]] == ["Ana", "Bia"]
            play_out([first, second], careful(random.Random(4)))
            over = first.last
        assert over is not None and over["game"]["over"]
        winners = over["game"]["over"]["winners"]
        r = ana.get("/api/account/games")
        assert r.status_code == 200, r.text
        profile = read(Profile, r.text)
        assert profile["username"] == "Ana" and len(profile["games"]) == 1
        game = profile["games"][0]
        assert (game["table"], game["number"], game["seat"], game["players"]) == (table_id, 1, 0, 2)
        assert game["won"] == (0 in winners) and game["replay"] == f"/t/{table_id}/replay/1"
        assert ana.get(game["replay"]).status_code == 200
        assert game["review"] == f"/t/{table_id}/review/1" and ana.get(game["review"]).status_code == 200
        review = ana.get(f"/api/tables/{table_id}/games/1/review")
        assert review.status_code == 200 and review.json()["status"] in ("working", "done"), review.text
        assert read(Profile, bia.get("/api/account/games").text)["games"][0]["seat"] == 1
        bia.cookies.clear()
        r = bia.get("/api/account/games")
        assert (r.status_code, r.json()["code"]) == (401, "not-logged-in")
        assert ana.get("/account").status_code == 200


def test_no_password_or_login_session_reaches_the_servers_log(tmp_path: Path) -> None:
    """Behind a trusted proxy that says the request came over HTTPS, the cookie is
    Secure; every request is logged (``--access-log``, JSON), and no password, login
    session id nor its hash is in the log."""
    options = ["--access-log", "--log-format", "json", "--trusted-proxy", "127.0.0.1"]
    passwords = ["first secret pass", "second secret pass", "a wrong password"]
    sessions: list[str] = []
    with WebServer(tmp_path, options=options) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        proxied = {"X-Forwarded-Proto": "https"}
        r = client.post("/api/account/register", json={"username": "Ana", "password": passwords[0]}, headers=proxied)
        assert r.status_code == 200, r.text
        assert "secure" in cookie_flags(set_cookie(r))
        sessions.append(r.cookies[COOKIE])
        r = client.post("/api/account/register", json={"username": "Bia", "password": passwords[1]})
        assert "secure" not in cookie_flags(set_cookie(r))  # plain HTTP, no proxy saying otherwise
        sessions.append(r.cookies[COOKIE])
        assert client.post("/api/account/login", json={"username": "Ana", "password": passwords[2]}).status_code == 401
        r = client.post("/api/account/login", json={"username": "ana", "password": passwords[0]})
        sessions.append(r.cookies[COOKIE])
        client.cookies.set(COOKIE, sessions[-1])
        assert client.get("/api/account").json()["username"] == "Ana"
        assert client.post("/api/account/logout", json={}).status_code == 200
    log = server.log()
    assert "/api/account/login" in log and "/api/account/logout" in log, log[-2000:]
    secrets = passwords + sessions + [hashlib.sha256(s.encode()).hexdigest() for s in sessions]
    leaked = [secret for secret in secrets if secret in log]
    assert leaked == [], "secrets in the server's log"


def test_migration_0007_keeps_a_0004_database_and_links_no_seat(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0004")
        connection.execute(
            sa.text(
                "INSERT INTO tables (id, created, players, advanced, actions, lang, status, version) "
                "VALUES ('t1', '2026-12-01 10:00:00', 2, 0, 0, 'en', 'open', 1)"
            )
        )
        connection.execute(
            sa.text("INSERT INTO seats (table_id, seat, name, token_hash, undone) VALUES ('t1', 0, 'Ana', 'ab', 0)")
        )
    engine.dispose()
    store = Store(url)
    try:
        store.upgrade()
        assert store.revision() == HEAD
        stored = store.table("t1")
        assert stored is not None and stored.seats[0].name == "Ana" and stored.seats[0].account is None
        with store.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM accounts")).scalar_one() == 0
        with store.engine.begin() as connection:  # and back down
            command.downgrade(alembic_config(connection), "0004")
        with store.engine.connect() as connection:
            names = sa.inspect(connection).get_table_names()
            assert "accounts" not in names and "logins" not in names
            assert "account_id" not in {c["name"] for c in sa.inspect(connection).get_columns("seats")}
    finally:
        store.close()


def test_the_account_page_and_its_words_in_both_languages(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        page = client.get("/account")
        assert page.status_code == 200 and 'src="/static/account.js"' in page.text
        en = client.get("/api/account/ui?lang=en").json()
        pt = client.get("/api/account/ui?lang=pt-BR").json()
        assert en["ui"]["login"] == "Log in" and pt["ui"]["login"] != "Log in"
        assert set(en["ui"]) == set(pt["ui"])
        assert re.search(r"\{name\}", pt["ui"]["logged_in_as"])
        assert client.get("/api/account/ui?lang=xx").status_code == 400


def play_a_game(ana: TestClient, bia: TestClient, private: bool = False) -> str:
    """A 2-player game of Ana (seat 0) and Bia (seat 1), played to its end; the table's id."""
    r = ana.post("/api/tables", json={"players": 2, "name": "Ana", "private": private})
    assert r.status_code == 200, r.text
    table_id, token, invite = r.json()["id"], r.json()["token"], r.json().get("invite")
    r = bia.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bia", "invite": invite})
    assert r.status_code == 200, r.text
    assert ana.post(f"/api/tables/{table_id}/start", json={"token": token}).status_code == 200
    with Conn(ana, table_id, token, 0) as first, Conn(bia, table_id, r.json()["token"], 1) as second:
        first.recv()
        second.recv()
        play_out([first, second], careful(random.Random(6)))
        assert first.last is not None and first.last["game"]["over"]
    return table_id


def test_a_public_profile_shows_the_games_of_public_tables_to_anyone(tmp_path: Path) -> None:
    app = make_app(tmp_path, password_cost=CHEAP, login_rules=OPEN)
    with TestClient(app) as ana, TestClient(app) as bia, TestClient(app) as stranger:
        assert register(ana, "Ana").status_code == 200 and register(bia, "Bia").status_code == 200
        public = play_a_game(ana, bia)
        private = play_a_game(ana, bia, private=True)
        assert len(read(Profile, ana.get("/api/account/games").text)["games"]) == 2  # her own: both
        for name in ("Ana", "ana", "ANA"):  # (a username is one whatever its case)
            r = stranger.get(f"/api/players/{name}")
            assert r.status_code == 200, r.text
            profile = read(Profile, r.text)
            assert profile["username"] == "Ana" and profile["rating"] is None  # no rated game
            assert [(g["table"], g["seat"]) for g in profile["games"]] == [
                (public, 0)
            ]  # the private table's: not shown
            assert private not in r.text
        assert stranger.get(profile["games"][0]["replay"]).status_code == 200
        assert stranger.get("/players/Ana").status_code == 200  # the page, whose script asks the above
        assert [g["seat"] for g in read(Profile, stranger.get("/api/players/Bia").text)["games"]] == [1]
        # Cid, registered, has played at no public table: the answer of a name nobody has
        assert register(stranger, "Cid").status_code == 200
        nobody = stranger.get("/api/players/Nobody")
        assert (nobody.status_code, nobody.json()["code"]) == (404, "no-account")
        cid = stranger.get("/api/players/Cid")
        assert (cid.status_code, cid.json()) == (404, {**nobody.json(), "message": "There is no account Cid."})


def test_a_public_profile_of_nobody_or_of_a_banned_account_is_not_found(tmp_path: Path) -> None:
    app = make_app(tmp_path, password_cost=CHEAP, login_rules=OPEN)
    with TestClient(app) as client:
        assert register(client, "Bia").status_code == 200
        store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
        Accounts(store, PasswordHasher(*CHEAP)).ban("Bia")
        store.close()
        pt = {"Accept-Language": "pt-BR"}
        for name in ("Bia", "Nobody", "x" * 5000, "%00", "Ana%20Bia", "🂡", "..%2F..%2Fetc"):
            r = client.get(f"/api/players/{name}", headers=pt)
            assert r.status_code == 404, (name, r.text)
            if "%2F" in name:  # (a "/" in it: no such address at all)
                assert r.json() == {"code": "not-found", "message": "Não há nada neste endereço."}
            else:
                assert r.json()["code"] == "no-account" and r.json()["message"].startswith("Não há conta")
            assert len(r.text) < 300  # (a long name is not echoed whole)

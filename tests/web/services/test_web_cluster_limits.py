"""One client's limits across two ``red7 serve`` processes on one PostgreSQL and Redis
(:mod:`red7.web.http.client_limits`): its tables created and open, seats taken, WebSockets,
``POST /api/turns`` and logins are counted once for the club, whichever process each
request reaches (a proxy spreads them; here the test alternates, and names the client in
``X-Forwarded-For``, as the proxy would). Before, each process counted its own: a client
got each limit once per process. With Redis stopped, both processes still serve and each
counts its own clients, saying so in its log (once) and in ``red7_limits_shared``; with
Redis back, they count together again."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import local_services as services
from tests.support.web_live import post, until
from tests.support.web_server import WebServer
from tests.web.services.test_web_cluster import metric
from tests.web.test_web_edges import call, closed_after, greet, refused, socket_to

pytestmark = pytest.mark.services

LIMITS = ["--open-tables", "3", "--table-burst", "4", "--tables-per-hour", "1", "--sockets", "3"]
LIMITS += ["--join-burst", "3", "--joins-per-hour", "1"]
AWAY = "limits: Redis is away"


@pytest.fixture
def club(postgres: services.Postgres, tmp_path: Path) -> Iterator[tuple[WebServer, WebServer, services.Redis]]:
    """Two processes with the limits above, on a fresh PostgreSQL database and a Redis of
    the test's own (it stops and starts it)."""
    database = postgres.create_database()
    with services.Redis() as redis:
        options: dict[str, Any] = {"database_url": database, "redis_url": redis.url, "limits": True, "options": LIMITS}
        with (
            WebServer(tmp_path / "a", bot_delay=0, **options) as a,
            WebServer(tmp_path / "b", bot_delay=0, **options) as b,
        ):
            yield a, b, redis


def client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def create(server: WebServer, who: dict[str, str]) -> Any:
    return call(server, "POST", "/api/tables", json={"players": 2, "name": "Eve"}, headers=who)


@dataclass
class Asked:
    allowed: int
    """Requests answered (not refused)."""
    codes: set[str]
    """The codes of the refusals."""
    seconds: float
    """From the first request to the last (a refused bucket fills again meanwhile)."""


def until_both_refuse(both: tuple[WebServer, WebServer], ask: Callable[[WebServer, int], httpx.Response]) -> Asked:
    """Ask through each process in turn until both have refused (a 429) once."""
    allowed, codes, refusing, start = 0, set(), set(), time.monotonic()
    for i in range(200):
        answer = ask(both[i % 2], i)
        if answer.status_code == 429:
            codes.add(answer.json()["code"])
            refusing.add(i % 2)
            if len(refusing) == 2:
                break
        else:
            assert answer.is_success or answer.status_code == 401, answer.text
            allowed += 1
    return Asked(allowed, codes, time.monotonic() - start)


def opens_a_socket(server: WebServer, table: str, who: dict[str, str]) -> Any:
    """A WebSocket of ``who`` greeted and answered by ``server``'s table frame; None if refused (4429)."""
    ws = socket_to(server, table, additional_headers=who)
    greet(ws)
    frame = json.loads(ws.recv(timeout=60))
    if frame["type"] == "table":
        return ws
    frames, code = closed_after(ws)
    assert frame["code"] == "too-many" and code == 4429, (frame, frames, code)
    return None


def test_one_clients_limits_hold_across_both_processes(club: tuple[WebServer, WebServer, services.Redis]) -> None:
    a, b, _redis = club
    eve, ann = client("203.0.113.5"), client("198.51.100.7")
    both = (a, b)
    # open tables: three in all, whichever process made them
    made = [create(both[i % 2], eve).json() for i in range(3)]
    assert all("id" in table for table in made)
    for server in both:
        assert "3 tables" in refused(create(server, eve), 429, "too-many-tables")
    assert create(b, ann).status_code == 200  # another client is served
    # a table started through A is no longer open for B either: one more, then the
    # burst of four tables is used up, through either process
    post(a, f"/api/tables/{made[0]['id']}/bots", {"token": made[0]["token"], "seat": 1, "level": "easy"})
    post(a, f"/api/tables/{made[0]['id']}/start", {"token": made[0]["token"]})
    until(lambda: create(b, eve).status_code == 200)  # once B has heard the start
    post(b, f"/api/tables/{made[1]['id']}/bots", {"token": made[1]["token"], "seat": 1, "level": "easy"})
    post(b, f"/api/tables/{made[1]['id']}/start", {"token": made[1]["token"]})
    until(lambda: refused(create(a, eve), 429, "too-many-tables").startswith("You have created many"))
    # seats taken and left: three in all
    table = made[2]["id"]
    for i in range(3):
        seat = call(both[i % 2], "POST", f"/api/tables/{table}/seats/1", json={"name": "Eve"}, headers=eve)
        assert seat.status_code in (200, 409), seat.text  # the second time the seat is taken: counted all the same
    for server in both:
        refused(
            call(server, "POST", f"/api/tables/{table}/seats/1", json={"name": "Eve"}, headers=eve),
            429,
            "too-many-joins",
        )
    # WebSockets: three open in all, the fourth refused by either process; one closed, one more
    sockets = [opens_a_socket(both[i % 2], table, eve) for i in range(3)]
    assert None not in sockets
    assert opens_a_socket(a, table, eve) is None and opens_a_socket(b, table, eve) is None
    assert opens_a_socket(b, table, ann) is not None
    sockets.pop().close()

    def one_more() -> bool:
        ws = opens_a_socket(a, table, eve)
        if ws is not None:
            ws.close()
        return ws is not None

    until(one_more)  # once the closing process has counted it closed
    for ws in sockets:
        ws.close()
    # "your turn?" (ten at once, one each 5 s) and logins (ten at once, one each 6 s): asked
    # through either process until both refuse, at most the club's ten and what came back
    # meanwhile (counted per process: ten through each before either refused)
    asked = until_both_refuse(
        both, lambda server, _: call(server, "POST", "/api/turns", json={"seats": []}, headers=eve)
    )
    assert asked.codes == {"too-many"} and asked.allowed <= 10 + asked.seconds / 5 + 1, asked

    def log_in(server: WebServer, i: int) -> Any:  # each name another: five failures of one name lock it
        wrong = {"username": f"nobody{i}", "password": "not the password"}
        return call(server, "POST", "/api/account/login", json=wrong, headers=eve)

    tried = until_both_refuse(both, log_in)
    assert tried.codes == {"too-many-logins"} and tried.allowed <= 10 + tried.seconds / 6 + 1, tried
    for server in both:
        assert metric(server, "red7_limits_shared") == 1


def test_with_redis_away_each_process_serves_and_counts_its_own(
    club: tuple[WebServer, WebServer, services.Redis],
) -> None:
    a, b, redis = club
    redis.stop()
    eve = client("203.0.113.5")
    for server in (a, b):  # each process: its own three open tables, then refused
        for _ in range(3):
            assert create(server, eve).status_code == 200
        assert "3 tables" in refused(create(server, eve), 429, "too-many-tables")
        assert metric(server, "red7_limits_shared") == 0
        assert server.log().count(AWAY) == 1, server.log()[-3000:]
    redis.start()
    for server in (a, b):
        until(lambda: metric(server, "red7_limits_shared") == 1)  # noqa: B023
        assert server.log().count(AWAY) == 1 and "limits: Redis is back" in server.log()
    ann = client("198.51.100.7")  # counted together again
    for i in range(3):
        assert create((a, b)[i % 2], ann).status_code == 200
    for server in (a, b):
        refused(create(server, ann), 429, "too-many-tables")

"""The search pool (red7.web.reviews.pool) and each client's share of it (issue 46, defect 1:
one client's hints starved everyone's accounts and readiness).

Hints and reviews are worked out in a pool of their own: with every one of its workers
held busy (and more work waiting), the readiness probe, a login and a person's decision
are answered, and the hints held come once the test lets them go. A client (an address,
as a trusted proxy names it) has at most its share of the pool being worked out at once
and asks so many hints a minute over all its seats and tables; past either it is refused
in words, with when to ask again, while another client is served. Reviews take at most
the pool's share too. In-process apps (the pool in threads, so that a test holds its
work on an event: no timing), the pool in processes (the server's own configuration),
and the flood of the issue against a real ``red7 serve``, whose worker processes end
with it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from websockets.sync.client import ClientConnection, connect

from red7.play.session import Session, TurnHint
from red7.web.reviews.hints import CLIENT_WAIT, Hints
from red7.web.reviews.pool import SearchPool
from tests.support.web_client import Conn, add_bot, careful, join, make_app, my_turn, new_table, start
from tests.support.web_live import post, until
from tests.support.web_server import WebServer, left_in_group

EVE, ANN = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "198.51.100.7"}
"""Two clients, told apart by the address their (trusted) proxy names."""
SHARE_CODES = ("hints-busy-address", "too-many-hints-address")
"""The refusals of a client past its share of hints (its seats' own are other codes)."""


@pytest.fixture
def app(tmp_path: Path) -> Any:
    """An app whose search pool has two threads (a client's share: one)."""
    return make_app(tmp_path, search_workers=2)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    """Its TestClient, behind a proxy every request's ``X-Forwarded-For`` is believed from."""
    proxied: Any = ProxyHeadersMiddleware(app, trusted_hosts="*")  # (uvicorn's ASGI types, not Starlette's)
    with TestClient(proxied) as client:
        yield client


@pytest.fixture
def opened(client: TestClient) -> Iterator[list[Conn]]:
    """Where a test puts its connections: closed after it, failed or not (an open one
    would keep the TestClient from stopping)."""
    conns: list[Conn] = []
    yield conns
    for conn in conns:
        conn.close()


def against_a_bot(client: TestClient, opened: list[Conn], headers: dict[str, str], lang: str = "en") -> Conn:
    """A started table of a person against an easy bot, made from ``headers``' address: the
    person's connection (from there too), once it is their turn."""
    r = client.post("/api/tables", json={"players": 2, "name": "Eve", "lang": lang, "hints": True}, headers=headers)
    assert r.status_code == 200, r.text
    table_id, token = r.json()["id"], r.json()["token"]
    add_bot(client, table_id, token, 1)
    start(client, table_id, token)
    conn = Conn(client, table_id, token, 0, headers=headers)
    opened.append(conn)
    conn.until(lambda f: my_turn(f))
    return conn


def ask(conn: Conn) -> None:
    assert conn.last is not None
    conn.send({"type": "hint", "seq": conn.last["seq"]})


def answer(conn: Conn) -> dict[str, Any]:
    """The answer to a hint asked: its frame, or the refusal."""
    return conn.until(lambda f: f["type"] in ("hint", "error"))


class Held:
    """Search work held until the test lets it go: each call of :meth:`wrap`'s function
    waits for :attr:`release` (for :data:`HOLD` seconds at most: then it is counted in
    :attr:`overdue`, and goes on)."""

    def __init__(self) -> None:
        self.started = threading.Semaphore(0)
        self.release = threading.Event()
        self.overdue = 0
        self.threads: list[str] = []

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def held(*args: Any, **kwargs: Any) -> Any:
            self.threads.append(threading.current_thread().name)
            self.started.release()
            if not self.release.wait(HOLD):
                self.overdue += 1
            return real(*args, **kwargs)

        return held


HOLD = 120.0
"""Seconds held work waits for the test at most. The test lets it go once it has seen
what it waits for answered; where that cannot be answered before (68d268a: the probe
queued behind the held work), the work goes on after this and the test fails."""
FLOOD = min(32, (os.cpu_count() or 1) + 4) + 1
"""Hints held at once, each from an address of its own: more than the app's search
workers (2), and than the threads of the event loop's default pool (``min(32, cores +
4)``), where 68d268a worked hints out, with its accounts' calls and its readiness probe's."""


def test_readiness_a_login_and_a_decision_are_answered_while_every_search_worker_is_held(
    client: TestClient, opened: list[Conn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints from many addresses hold every worker of the search pool (and more wait for
    one): meanwhile ``/readyz``, a registration, a login and another table's decision
    are answered, and no hint has come; once the work is let go, every hint comes."""
    held = Held()
    monkeypatch.setattr(TurnHint, "plan", held.wrap(TurnHint.plan))
    flood = [against_a_bot(client, opened, {"X-Forwarded-For": f"192.0.2.{i + 1}"}) for i in range(FLOOD)]
    table_id, token = new_table(client)  # (a table of two people, made before the flood)
    bia = join(client, table_id, 1, "Bia")
    people = [Conn(client, table_id, token, 0), Conn(client, table_id, bia, 1)]
    opened.extend(people)
    start(client, table_id, token)
    for conn in people:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
    for conn in flood:
        ask(conn)
    try:
        for _ in range(2):
            assert held.started.acquire(timeout=60)  # both workers hold a hint now
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text
        account = {"username": "Ana", "password": secrets.token_urlsafe(16)}
        assert client.post("/api/account/register", json=account, headers=ANN).status_code == 200
        client.cookies.clear()
        login = client.post("/api/account/login", json=account, headers=ANN)
        assert login.status_code == 200 and login.json()["username"] == "Ana", login.text
        assert client.get("/api/account").json()["username"] == "Ana"
        mover = next(conn for conn in people if my_turn(conn.last))
        assert mover.last is not None
        before = mover.last["seq"]
        mover.decide(careful(random.Random(1))(mover.last))
        assert mover.until(lambda f: f["type"] in ("table", "error"))["seq"] > before
        assert mover.errors == []
        assert held.overdue == 0, "an answer came only after the held hints went on"
        assert [f for conn in flood for f in conn.drain() if f["type"] in ("hint", "error")] == []
    finally:
        held.release.set()
    assert [answer(conn)["type"] for conn in flood] == ["hint"] * FLOOD
    assert {name.rsplit("_", 1)[0] for name in held.threads} == {"red7-search"}


def test_a_review_is_worked_out_in_the_search_pool_within_its_share(
    client: TestClient, opened: list[Conn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished game's review is marked in the search pool, as a hint: while one is
    worked out, another game's review waits (``reviews-busy``), so that reviews never
    take every worker from the hints; once the first is done, the second is started."""
    held = Held()
    monkeypatch.setattr(Session, "review", held.wrap(Session.review))
    games = []
    for _ in range(2):
        table_id, token = new_table(client)
        conns = [Conn(client, table_id, token, 0), Conn(client, table_id, join(client, table_id, 1, "Bia"), 1)]
        opened.extend(conns)
        start(client, table_id, token)
        mover = next(c for c in conns if my_turn(c.until(lambda f: f["type"] == "table" and f["game"] is not None)))
        mover.decide("concede")
        mover.until(lambda f: f["type"] == "table" and f["game"]["over"] is not None)
        games.append(f"/api/tables/{table_id}/games/1/review")
    try:
        assert client.get(games[0]).json()["status"] == "working"
        assert held.started.acquire(timeout=60)
        busy = client.get(games[1])
        assert busy.status_code == 429 and busy.json()["code"] == "reviews-busy", busy.text
    finally:
        held.release.set()
    for path in games:
        until(lambda path=path: client.get(path).json()["status"] != "working", 120)  # type: ignore[misc]
        done = client.get(path).json()
        assert done["status"] == "done" and done["done"] == done["total"] >= 1 and done["text"], done
    assert held.overdue == 0 and [name.rsplit("_", 1)[0] for name in held.threads] == ["red7-search"] * 2


def test_one_address_has_at_most_its_share_of_the_search_pool_at_once(
    client: TestClient, opened: list[Conn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eve's first hint is held in the pool (the test lets it go): her hint at another
    table is refused in that table's language, with when to ask again, while Ann (another
    address) gets hers; once Eve's is done, she may ask again."""
    held = Held()
    real_plan = TurnHint.plan
    monkeypatch.setattr(TurnHint, "plan", held.wrap(real_plan))
    first = against_a_bot(client, opened, EVE)
    second, ann = against_a_bot(client, opened, EVE, "pt-BR"), against_a_bot(client, opened, ANN)
    try:
        ask(first)
        assert held.started.acquire(timeout=60)
        monkeypatch.setattr(TurnHint, "plan", real_plan)  # the first hint asked only is held
        ask(second)
        refusal = answer(second)
        assert refusal["code"] == "hints-busy-address" and refusal["retry_after"] == CLIENT_WAIT, refusal
        assert refusal["message"] == "Outras dicas pedidas do seu endereço estão sendo calculadas: peça de novo em 2 s."
        ask(ann)
        assert answer(ann)["type"] == "hint"
    finally:
        held.release.set()
    assert answer(first)["type"] == "hint" and held.overdue == 0
    ask(second)
    assert answer(second)["type"] == "hint"


@pytest.mark.slow
def test_one_address_asks_so_many_hints_over_all_its_tables(app: Any, client: TestClient, opened: list[Conn]) -> None:
    """Here two at once and (practically) none more: Eve's third hint, at a third table,
    is refused with when to ask again; Ann's is not."""
    app.state.parts.add(Hints, Hints(client_rate=1e-6, client_burst=2))
    tables = [against_a_bot(client, opened, EVE) for _ in range(3)]
    for conn in tables[:2]:
        ask(conn)
        assert answer(conn)["type"] == "hint"
    ask(tables[2])
    refusal = answer(tables[2])
    assert refusal["code"] == "too-many-hints-address" and refusal["retry_after"] > 60, refusal
    assert refusal["message"].startswith("Many hints were asked from your address in a short time: wait ")
    ann = against_a_bot(client, opened, ANN)
    ask(ann)
    assert answer(ann)["type"] == "hint"


def counted(total: int, progress: Any) -> int:
    """Work in a worker process: telling how far it is, ``total`` times."""
    for done in range(1, total + 1):
        progress(done, total)
    return total


def test_the_pool_in_processes_answers_and_relays_progress() -> None:
    """Work pickled to a worker process and back; its progress comes back through the
    pool's queue, to a thread of this process."""
    pool = SearchPool(1)
    seen: list[tuple[int, int]] = []

    async def run() -> int:
        return await pool.submit(counted, 3, holder="eve", progress=lambda done, total: seen.append((done, total)))

    try:
        assert asyncio.run(run()) == 3
        until(lambda: len(seen) == 3)
        assert seen == [(1, 3), (2, 3), (3, 3)] and pool.held("eve") == 0
    finally:
        pool.close()


def test_a_search_worker_that_dies_is_replaced() -> None:
    """A worker process killed (say, out of memory) fails the jobs it had; the next jobs
    are worked out by a new worker, not refused for ever by a broken pool."""
    pool = SearchPool(1)

    async def run() -> tuple[int, int]:
        first = await pool.submit(os.getpid)
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while True:
            try:
                return first, await pool.submit(os.getpid)
            except BrokenExecutor:  # (submitted before the pool saw its worker die)
                assert time.monotonic() < deadline, "no new worker"

    try:
        first, second = asyncio.run(run())
        assert second != first
    finally:
        pool.close()


def test_a_hint_and_a_review_are_worked_out_in_the_search_processes(tmp_path: Path) -> None:
    """The server's own configuration: the pool in a worker process (pickled there and back)."""
    with TestClient(make_app(tmp_path, search_threads=False, search_workers=1)) as client:
        table_id, ana = new_table(client)
        bia = join(client, table_id, 1, "Bia")
        with Conn(client, table_id, ana, 0) as first, Conn(client, table_id, bia, 1) as second:
            start(client, table_id, ana)
            for conn in (first, second):
                conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
            mover = first if my_turn(first.last) else second
            ask(mover)
            hint = answer(mover)
            assert hint["type"] == "hint" and hint["text"].startswith("Hint: the hard bot would "), hint
            mover.decide("concede")
            mover.until(lambda f: f["type"] == "table" and f["game"]["over"] is not None)

        def review() -> dict[str, Any]:
            found: dict[str, Any] = client.get(f"/api/tables/{table_id}/games/1/review").json()
            return found

        until(lambda: review()["status"] != "working", 120)
        done = review()
        assert done["status"] == "done" and done["done"] == done["total"] >= 1 and done["text"], done


# --- against a real red7 serve (its search pool in processes) ------------------------------------


def table_against_a_bot(
    server: WebServer, sockets: ExitStack, headers: dict[str, str], lang: str = "en"
) -> ClientConnection:
    """A started table of a person against an easy bot, made from ``headers``' address:
    the person's socket (from there too; closed with ``sockets``)."""
    body = {"players": 2, "name": "Eve", "lang": lang, "hints": True}
    created = httpx.post(f"{server.url}/api/tables", json=body, headers=headers, timeout=60, trust_env=False)
    assert created.status_code == 200, created.text
    table_id, token = created.json()["id"], created.json()["token"]
    post(server, f"/api/tables/{table_id}/bots", {"token": token, "seat": 1, "level": "easy"})
    post(server, f"/api/tables/{table_id}/start", {"token": token})
    url = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
    ws = sockets.enter_context(connect(url, proxy=None, open_timeout=60, additional_headers=headers))
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def turn_of(ws: ClientConnection) -> dict[str, Any]:
    """The table frame asking this seat to decide."""
    while not my_turn(frame := json.loads(ws.recv(timeout=60))):
        pass
    turn: dict[str, Any] = frame
    return turn


def hint_answer(ws: ClientConnection) -> dict[str, Any]:
    while (frame := json.loads(ws.recv(timeout=120)))["type"] not in ("hint", "error"):
        pass
    answered: dict[str, Any] = frame
    return answered


@pytest.mark.slow
def test_one_address_asking_hints_at_twenty_tables_gets_its_share_and_another_is_served(tmp_path: Path) -> None:
    """The issue's flood: one address asks a hint at each of its 20 tables against bots, all
    at once. Its share (one hint being worked out of the two workers') is served, the
    rest refused in each table's language with when to ask again (all but the first,
    unless a hint is done before the next ask is read); another address's hint, asked
    meanwhile, is answered; the refusals are counted in the metrics. (68d268a worked them
    all out, in the threads its accounts and readiness probe wait in.)"""
    with WebServer(tmp_path, bot_delay=0, options=["--search-workers", "2"]) as server, ExitStack() as sockets:
        flood = []
        for i in range(20):
            lang = ("en", "pt-BR")[i % 2]
            ws = table_against_a_bot(server, sockets, EVE, lang)
            flood.append((lang, ws, turn_of(ws)))
        ann = table_against_a_bot(server, sockets, ANN)
        ann_turn = turn_of(ann)
        for _lang, ws, frame in flood:  # every ask sent before any answer is read
            ws.send(json.dumps({"type": "hint", "seq": frame["seq"]}))
        ann.send(json.dumps({"type": "hint", "seq": ann_turn["seq"]}))
        answers = [(lang, hint_answer(ws)) for lang, ws, _frame in flood]
        assert hint_answer(ann)["type"] == "hint"
        refusals = [(lang, a) for lang, a in answers if a["type"] == "error"]
        assert refusals and len(answers) > len(refusals), answers
        words = {"en": "your address", "pt-BR": "seu endereço"}
        for lang, refusal in refusals:
            assert refusal["code"] in SHARE_CODES and refusal["retry_after"] > 0, refusal
            assert words[lang] in refusal["message"], refusal
        metrics = httpx.get(f"{server.url}/metrics", timeout=60, trust_env=False).text  # the admin sees the flood
        shown = sum(float(m) for m in re.findall(r'red7_refused_total\{reason="[a-z-]+-address"\} (\S+)', metrics))
        assert shown == len(refusals), metrics


@pytest.mark.slow  # a server process killed
def test_a_killed_servers_search_workers_end_with_it(tmp_path: Path) -> None:
    """A hint starts the server's search worker process: killed with SIGKILL (no shutdown
    code runs), the server leaves no worker behind."""
    with WebServer(tmp_path, bot_delay=0, options=["--search-workers", "1"]) as server:
        with ExitStack() as sockets:
            ws = table_against_a_bot(server, sockets, EVE)
            ws.send(json.dumps({"type": "hint", "seq": turn_of(ws)["seq"]}))
            assert hint_answer(ws)["type"] == "hint"
        group = server.kill(alone=True)
    left = left_in_group(group)
    assert left == [], f"processes of the killed server still run: {left}"

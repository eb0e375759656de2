"""Several ``red7 serve`` processes sharing one PostgreSQL database and one Redis (both
started by the tests on loopback: tests.support.local_services), with people at one table
connected to different processes.

What must hold: every decision goes in once, in order, whichever process it came
through; every client sees the same game and every event once, in order; a bot's turn
is taken once (by one process); no frame shows a card its receiver may not see; a
process killed with SIGKILL loses nothing, the game goes on through the other and the
killed one, restarted, rejoins; and without Redis, PostgreSQL's LISTEN/NOTIFY carries
the messages.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from red7.core.record import replay
from tests.support import local_services as services
from tests.support.browser_driver import People, launched, play_until, round_over
from tests.support.web_live import (
    Client,
    Endpoint,
    Game_,
    comparable,
    new_game,
    newest,
    play,
    post,
    settle,
    until,
    waiting_for,
)
from tests.support.web_server import WebServer, free_port
from tests.web.test_web_leaks import CONFIGS, Tally, check_frame, truth

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def pair(postgres: services.Postgres, redis_url: str, tmp_path: Path) -> Iterator[tuple[WebServer, WebServer]]:
    """Two server processes on a fresh PostgreSQL database and the session's Redis."""
    database = postgres.create_database()
    with (
        WebServer(tmp_path / "a", bot_delay=0, database_url=database, redis_url=redis_url) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database, redis_url=redis_url) as b,
    ):
        yield a, b


def metric(server: WebServer, name: str, labels: str = "") -> float:
    """A counter or gauge of ``server``'s /metrics (0 if not there yet)."""
    text = httpx.get(f"{server.url}/metrics", trust_env=False).text
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def record_of(server: Endpoint, game: Game_) -> dict[str, Any]:
    number = newest(game.clients)["table"]["game"]
    r = httpx.get(f"{server.url}/api/tables/{game.id}/games/{number}/record", trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def frames(client: Client) -> list[dict[str, Any]]:
    """The table frames ``client`` got once the game was dealt (with their whole logs)."""
    return [f for f in client.frames if f["type"] == "table" and f["game"]]


def test_people_on_two_processes_play_one_table_to_its_end(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    # Ana and a spectator on A, P1 and another spectator on B (two spectator clients:
    # the second added by hand), a medium bot in seat 2; P1 starts the game through B
    game = new_game(lambda seat: a if seat in (0, None) else b, 3, True, True, people=2, level="medium")
    watcher_b = Client(b, game.id, None, None)
    watcher_b.first()
    game.clients.append(watcher_b)
    play(game.clients, random.Random(3))
    settle(game.clients)
    for c in game.clients:
        assert c.errors == [], c.errors
        assert c.last is not None and c.last["game"]["over"]

    record = record_of(a, game)
    assert record == record_of(b, game)
    assert record["result"] is not None
    # the same game seen through both processes: the spectators' last frames are equal
    watcher_a = next(c for c in game.clients if c.seat is None and c.server is a)
    assert comparable(frames(watcher_a)[-1]) == comparable(frames(watcher_b)[-1])
    # every event once, in order: each frame's log is the start of the final one, and
    # the sequence numbers never go back (nobody took a turn back)
    for c in game.clients:
        seen = frames(c)
        logs = [f["game"]["log"] for f in seen]
        assert all(later["seq"] >= earlier["seq"] for earlier, later in zip(seen, seen[1:], strict=False))
        assert all(log == logs[-1][: len(log)] for log in logs), "a frame changed the past"
        assert len(logs[-1]) > len(record["decisions"]) // 2
    # the bot's turns were taken once: by one process each, none lost to a conflict
    bot_moves = sum(1 for seat, _action in replay(record).history if seat == 2)
    by_bots = metric(a, "red7_decisions_total", '{by="bot"}') + metric(b, "red7_decisions_total", '{by="bot"}')
    assert by_bots == bot_moves > 0
    people = metric(a, "red7_decisions_total", '{by="person"}') + metric(b, "red7_decisions_total", '{by="person"}')
    assert people == len(record["decisions"]) - bot_moves
    assert metric(a, "red7_conflicts_total") == metric(b, "red7_conflicts_total") == 0
    game.close()


def test_a_decision_sent_through_both_processes_at_once_goes_in_once(pair: tuple[WebServer, WebServer]) -> None:
    """The same decision (same sequence number) through A and B at the same moment: one
    goes in, the other is refused and changes nothing; then a stale one is refused."""
    a, b = pair
    game = new_game(a, 2, False, False, people=2, level="easy")
    settle(game.clients)
    mover = waiting_for(game.clients)
    assert mover is not None and mover.last is not None and mover.token is not None
    twin = Client(b, game.id, mover.token, mover.seat)
    twin.first()
    frame = mover.last
    seq = frame["seq"]
    playable = [o for o in frame["game"]["options"] if o["kind"] != "concede"]
    chosen = next((o for o in playable if o["ends_turn"]), playable[0])
    action = chosen["action"]
    message = json.dumps({"type": "decide", "seq": seq, "action": action})
    go = threading.Barrier(2)

    def send(client: Client) -> None:
        go.wait()
        client.ws.send(message)

    threads = [threading.Thread(target=send, args=(c,)) for c in (mover, twin)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    settle([*game.clients, twin])
    refused = mover.errors + twin.errors
    assert [e["code"] for e in refused] in (["stale"], ["not-your-turn"]), refused
    assert mover.last["seq"] == twin.last["seq"] == seq + 1  # type: ignore[index]
    # a decision against the old sequence number, through either process: refused
    for client in (mover, twin):
        client.send({"type": "decide", "seq": seq, "action": action})
        assert client.recv(10) is not None
    assert [e["code"] for e in (mover.errors + twin.errors)[1:]] == ["stale", "stale"]
    if chosen["ends_turn"]:  # written as final: the replay has the deal and each decision once
        replay_frames = httpx.get(f"{a.url}/api/tables/{game.id}/games/1/replay", trust_env=False).json()["frames"]
        assert len(replay_frames) == seq + 2
    else:  # staged once
        assert mover.last["game"]["staged"] == [action]  # type: ignore[index]
    twin.close()
    game.close()


@pytest.mark.parametrize(
    ("players", "advanced", "actions"),
    CONFIGS,
    ids=[f"{p}p-{'advanced' if adv else 'basic'}{'-actions' if act else ''}" for p, adv, act in CONFIGS],
)
def test_no_frame_through_either_process_shows_a_hidden_card(
    pair: tuple[WebServer, WebServer], players: int, advanced: bool, actions: bool
) -> None:
    """The wire leak test of the web game (tests/web/test_web_leaks.py) with the seats and a
    spectator on different processes."""
    a, b = pair
    game = new_game(lambda seat: a if (seat or 0) % 2 == 0 else b, players, advanced, actions, people=2, level="easy")
    play(game.clients, random.Random(players))
    settle(game.clients)
    record = record_of(b, game)
    steps = truth(record)
    tally = Tally()
    for c in game.clients:
        assert c.errors == []
        for raw in c.raw:
            check_frame(raw, c.seat, steps, record["seed"], tally)
    # (a staged decision makes a frame for its mover only; an unchanged frame is not sent)
    assert tally.frames > len(record["decisions"])
    assert tally.hidden_checked > 10 * tally.frames
    game.close()


def test_abuse_is_refused_through_either_process(pair: tuple[WebServer, WebServer]) -> None:
    """Two people (no bot: nothing moves unless they do, so what each client sees is
    known): a token of another table, a seat already taken, a spectator's decision, a
    message that is not JSON, a decision out of turn, an illegal one, an oversized one, a
    WebSocket from another site; each refused through either process, changing nothing."""
    a, b = pair
    game = new_game(a, 2, False, False, people=2, level="easy")
    other = new_game(b, 2, False, False, people=1, level="easy")
    # a token of one table opens no seat at the other, through either process
    for server in (a, b):
        r = httpx.post(
            f"{server.url}/api/tables/{other.id}/start", json={"token": game.tokens[0]}, trust_env=False, timeout=60
        )
        assert r.status_code == 403 and r.json()["code"] == "bad-token"
    # a seat taken through A cannot be taken again through B
    fresh = post(a, "/api/tables", {"players": 2, "name": "Ana"})
    post(a, f"/api/tables/{fresh['id']}/seats/1", {"name": "Bia"})
    r = httpx.post(f"{b.url}/api/tables/{fresh['id']}/seats/1", json={"name": "Cid"}, trust_env=False, timeout=60)
    assert r.status_code == 409 and r.json()["code"] == "seat-taken"
    # a spectator on B cannot play; a message that is not JSON changes nothing
    settle(game.clients)
    before = next(c.last for c in game.clients if c.seat is None)  # as a spectator sees it
    assert before is not None
    watcher = Client(b, game.id, None, None)
    assert comparable(watcher.first()) == comparable(before)
    watcher.send({"type": "decide", "seq": before["seq"], "action": "concede"})
    watcher.ws.send("{not json")
    watcher.until(lambda c: len(c.errors) >= 2)
    assert [e["code"] for e in watcher.errors] == ["spectator", "bad-json"]
    watcher.close()
    # each person's second connection, on B: out of turn, illegal, oversized, all refused
    mover = waiting_for(game.clients)
    assert mover is not None and mover.token is not None
    waiting = next(c for c in game.clients if c.seat is not None and c is not mover)
    assert waiting.token is not None
    twins = [Client(b, game.id, person.token, person.seat) for person in (mover, waiting)]
    for twin in twins:
        assert twin.first()["seq"] == before["seq"]
    mover_twin, waiting_twin = twins
    mover_twin.send({"type": "decide", "seq": before["seq"], "action": "play R9"})  # no such card in hand
    waiting_twin.send({"type": "decide", "seq": before["seq"], "action": "concede"})
    for twin in twins:
        twin.send({"type": "decide", "seq": before["seq"], "action": "concede", "pad": "x" * 5000})
    for twin, expected in zip(twins, (["bad-decision", "too-large"], ["not-your-turn", "too-large"]), strict=True):
        twin.until(lambda c: len(c.errors) >= 2)
        assert [e["code"] for e in twin.errors] == expected, twin.errors
        twin.close()
    # nothing changed: a new connection sees the same frame, and the game goes on
    check = Client(a, game.id, None, None)
    assert comparable(check.first()) == comparable(before)
    check.close()
    assert all(c.errors == [] for c in game.clients)
    # a WebSocket opened by another site's page, on either process: told why, then closed
    # with a code the page reads (an HTTP 403 at the handshake, a browser shows nothing of)
    for server in (a, b):
        url = f"ws://127.0.0.1:{server.port}/ws/{game.id}"
        evil = connect(url, origin=Origin("http://evil.example"), proxy=None, open_timeout=60, legacy=True)
        with contextlib.suppress(ConnectionClosed):  # refused at once: before its hello, perhaps
            evil.send(json.dumps({"type": "hello", "token": game.tokens[0]}))
        told = json.loads(evil.recv(timeout=60))
        assert told["type"] == "error" and told["code"] == "cross-origin", told
        with pytest.raises(ConnectionClosed) as closed:
            evil.recv(timeout=60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    game.close()
    other.close()


def test_a_killed_process_loses_nothing_and_rejoins(pair: tuple[WebServer, WebServer]) -> None:
    """SIGKILL A mid-game: its clients reconnect to B, where the game goes on (the bots A
    was asking are taken over); A, restarted, shows the same table and serves it again."""
    a, b = pair
    rng = random.Random(8)
    game = new_game(lambda seat: a if seat in (0, None) else b, 3, False, True, people=2, level="easy")
    play(game.clients, rng, until=6)
    settle(game.clients)
    before = comparable(newest(game.clients))
    a.kill()
    for c in game.clients:
        c.close()
    game.connect(b)  # the reverse proxy would send A's clients to B
    assert comparable(newest(game.clients)) == before
    play(game.clients, rng, until=before["seq"] + 4)
    settle(game.clients)
    middle = newest(game.clients)
    assert middle["seq"] > before["seq"]

    a.start()
    watcher = Client(a, game.id, None, None)
    again = watcher.first()
    spectator_b = next(c for c in game.clients if c.seat is None)
    assert spectator_b.last is not None and comparable(again) == comparable(spectator_b.last)
    game.clients.append(watcher)
    play(game.clients, rng)
    settle(game.clients)
    for c in game.clients:
        assert c.errors == [], c.errors
        assert c.last is not None and c.last["game"]["over"]
    assert record_of(a, game) == record_of(b, game)
    game.close()


def test_without_redis_postgresql_carries_the_messages(postgres: services.Postgres, tmp_path: Path) -> None:
    database = postgres.create_database()
    with (
        WebServer(tmp_path / "a", bot_delay=0, database_url=database) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database) as b,
    ):
        assert httpx.get(f"{a.url}/readyz", trust_env=False).json()["status"] == "ready"
        game = new_game(lambda seat: a if seat in (0, None) else b, 2, False, False, people=2, level="easy")
        play(game.clients, random.Random(5))
        settle(game.clients)
        for c in game.clients:
            assert c.errors == [] and c.last is not None and c.last["game"]["over"]
        assert record_of(a, game) == record_of(b, game)
        # each process heard every change the other wrote over PostgreSQL (not only
        # found it on its periodic look at the database)
        for here, there in ((a, b), (b, a)):
            written = metric(there, "red7_decisions_total", '{by="person"}')
            until(lambda: metric(here, "red7_changes_heard_total") >= written > 0)  # noqa: B023
        game.close()


@pytest.mark.browser
def test_a_browser_on_each_process_plays_a_table_to_its_end(pair: tuple[WebServer, WebServer]) -> None:
    """Ana's browser on A, Bia's on B, an easy bot: the 3-player game from the seats'
    page to its end, the host's start made through B (Bia's page says the host starts it)."""
    a, b = pair
    created = post(a, "/api/tables", {"players": 3, "name": "Ana"})
    table = created["id"]
    bia = post(b, f"/api/tables/{table}/seats/1", {"name": "Bia"})["token"]
    post(a, f"/api/tables/{table}/bots", {"token": created["token"], "seat": 2, "level": "easy"})
    with launched() as browser:
        crowds = [People(browser, a), People(browser, b)]
        try:
            ana_page = crowds[0].seated(table, created["token"])
            bia_page = crowds[1].seated(table, bia)
            expect(ana_page.locator(".setup .seatlist li").nth(1)).to_contain_text("Bia")
            expect(bia_page.locator(".setup .waiting-host")).to_be_visible()
            started = httpx.post(
                f"{b.url}/api/tables/{table}/start", json={"token": created["token"]}, trust_env=False, timeout=60
            )
            assert started.status_code == 200, started.text
            pages = [ana_page, bia_page]
            for page in pages:
                expect(page.locator(".hand .card")).to_have_count(7)
            play_until(pages, lambda: all(round_over(page) for page in pages))
            ends = [page.locator("dialog.round-end[open]").inner_text() for page in pages]
            assert ends[0] == ends[1] and any(name in ends[0] for name in ("Ana", "Bia", "Bot 3"))
        finally:
            for crowd in crowds:
                crowd.close()
        assert not crowds[0].errors + crowds[1].errors


def example_proxy(a: WebServer, b: WebServer, listen: str) -> str:
    """docs/deploy/nginx.conf with only its upstreams (A and B) and its ``listen 80;``
    line (``listen``) changed."""
    config = (ROOT / "docs" / "deploy" / "nginx.conf").read_text()
    changes = {"127.0.0.1:8001": f"127.0.0.1:{a.port}", "127.0.0.1:8002": f"127.0.0.1:{b.port}", "listen 80;": listen}
    for old, new in changes.items():
        assert old in config
        config = config.replace(old, new)
    return config


def test_the_nginx_example_spreads_a_table_over_both_processes(pair: tuple[WebServer, WebServer]) -> None:
    """docs/deploy/nginx.conf, only its ports changed, in front of A and B: four people
    and a spectator connect through it (round robin: some to each process) and play."""
    a, b = pair
    port = free_port()
    with services.Nginx(example_proxy(a, b, f"listen 127.0.0.1:{port};"), port=port) as proxy:
        game = new_game(proxy, 4, False, True, people=4, level="easy")
        assert metric(a, "red7_connected_clients") > 0 and metric(b, "red7_connected_clients") > 0
        play(game.clients, random.Random(4))
        settle(game.clients)
        for c in game.clients:
            assert c.errors == [] and c.last is not None and c.last["game"]["over"]
        assert record_of(proxy, game) == record_of(a, game)
        game.close()


def tokens_in(text: str, game: Game_) -> list[str]:
    """The seat tokens of ``game`` (or their hashes, which the database keeps) in ``text``."""
    from red7.web.storage.stored import token_hash

    return [token for token in game.tokens.values() if token in text or token_hash(token) in text]


def test_no_seat_token_reaches_any_log_with_a_process_down(pair: tuple[WebServer, WebServer], tmp_path: Path) -> None:
    """The issue's repro: docs/deploy/nginx.conf in front of A and B, B down. nginx's error
    log, at ``info``, writes the request line of every request it could not pass to B
    (``request: "GET /ws/..."``), and its access log every request. A game of two people
    and a bot is played through nginx, every seat reconnecting, and a seat's replay read:
    no seat token of the game is in any log (nginx's two, A's, B's)."""
    a, b = pair
    port = free_port()
    errors, access = tmp_path / "nginx-error.log", tmp_path / "nginx-access.log"
    config = example_proxy(a, b, f"listen 127.0.0.1:{port}; error_log {errors} info; access_log {access};")
    b.kill()
    with services.Nginx(config, port=port) as proxy:
        game = new_game(proxy, 3, False, True, people=2, level="easy")
        play(game.clients, random.Random(11))
        settle(game.clients)
        assert all(c.errors == [] for c in game.clients)
        number = newest(game.clients)["table"]["game"]
        for token in game.tokens.values():
            r = httpx.get(
                f"{proxy.url}/api/tables/{game.id}/games/{number}/replay",
                headers={"Authorization": f"Bearer {token}"},
                trust_env=False,
                timeout=60,
            )
            assert r.status_code == 200, r.text
        game.close()

        def a_seat_refused_by_b_is_logged() -> bool:
            # B is tried again 5 s after it failed (max_fails=1 fail_timeout=5s): seats
            # reconnect until one of their WebSockets was among nginx's failed requests
            for seat, token in game.tokens.items():
                again = Client(proxy, game.id, token, seat)
                again.first()
                again.close()
            return re.search(rf'request: "GET /ws/{game.id}\S* HTTP/1.1"', errors.read_text()) is not None

        until(a_seat_refused_by_b_is_logged, timeout=120)
        logs = {"nginx error log": errors.read_text(), "nginx access log": access.read_text()}
    logs |= {"A's log": a.log(), "B's log": b.log()}
    leaks = {name: tokens_in(text, game) for name, text in logs.items()}
    assert all(found == [] for found in leaks.values()), f"seat tokens in the logs: {leaks}"
    assert f"/ws/{game.id}" in logs["nginx access log"] and "upstream" in logs["nginx error log"]


def test_without_redis_every_process_stays_ready_and_says_it_is_degraded(
    postgres: services.Postgres, tmp_path: Path
) -> None:
    """Redis down: each process still serves every table through PostgreSQL (the truth:
    it finds the other's changes at its looks at the database), so ``/readyz`` stays 200
    (an orchestrator must not take the club offline); ``/healthz`` and ``/metrics`` say the
    bus is down, and up again once Redis is back."""
    database = postgres.create_database()
    redis = services.Redis()
    with (
        redis,
        WebServer(tmp_path / "a", bot_delay=0, database_url=database, redis_url=redis.url) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database, redis_url=redis.url) as b,
    ):
        game = new_game(lambda seat: a if seat in (0, None) else b, 2, False, False, people=2, level="easy")
        settle(game.clients)

        def health(server: WebServer) -> dict[str, Any]:
            answer: dict[str, Any] = httpx.get(f"{server.url}/healthz", trust_env=False, timeout=60).json()
            return answer

        def ready(server: WebServer) -> httpx.Response:
            return httpx.get(f"{server.url}/readyz", trust_env=False, timeout=60)

        for server in (a, b):
            assert health(server)["status"] == "ok" and ready(server).status_code == 200
        redis.stop()
        for server in (a, b):
            until(lambda: health(server)["status"] != "ok" or ready(server).status_code != 200)  # noqa: B023
            answer = ready(server)
            assert answer.status_code == 200, answer.text  # the issue's: 503 on every process
            assert answer.json()["status"] == "ready" and "redis" in " ".join(answer.json()["degraded"])
            assert health(server)["status"] == "degraded" and health(server)["bus"]["connected"] is False
            assert metric(server, "red7_bus_connected", '{kind="redis"}') == 0
        # and they serve: decisions sent through either process reach both
        start = newest(game.clients)["seq"]
        play(game.clients, random.Random(3), until=start + 4, timeout=180)
        settle(game.clients, timeout=180)
        assert all(c.errors == [] for c in game.clients)
        assert newest(game.clients)["seq"] >= start + 4 or newest(game.clients)["game"]["over"]
        redis.start()
        for server in (a, b):
            until(lambda: health(server)["status"] == "ok")  # noqa: B023
            assert metric(server, "red7_bus_connected", '{kind="redis"}') == 1
        game.close()

"""Rematch with consent and clocks across two ``red7 serve`` processes sharing one
PostgreSQL database and one Redis: a proposal made through one process is seen, agreed
to and declined through the other, and a clocked table's countdown is the same through
both (its deadline is the table's, stored, not a process's)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import local_services as services
from tests.support.web_live import Client, new_game, play, post, settle
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


def test_consent_is_given_through_each_process(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    # Ana and a spectator on A, P1 on B, an easy bot in seat 2
    game = new_game(lambda seat: a if seat in (0, None) else b, 3, False, False, people=2, level="easy")
    play(game.clients, random.Random(5))
    settle(game.clients)
    ana, p1, watcher = game.clients
    assert ana.seat == 0 and p1.seat == 1 and watcher.seat is None
    ana.send({"type": "again", "game": 1})  # the proposal, through A
    for c in game.clients:
        c.until(lambda c: c.last is not None and c.last["rematch"] == {"agreed": [0], "declined": None})
    p1.send({"type": "decline", "game": 1})  # declined through B
    for c in game.clients:
        c.until(lambda c: c.last is not None and c.last["rematch"] == {"agreed": [], "declined": 1})
    p1.send({"type": "again", "game": 1})  # proposed again through B, agreed through A
    ana.until(lambda c: c.last is not None and c.last["rematch"] == {"agreed": [1], "declined": None})
    p1.send({"type": "again", "game": 1})  # twice: refused, nothing changes
    p1.until(lambda c: any(e["code"] == "agreed" for e in c.errors))
    ana.send({"type": "again", "game": 1})
    for c in game.clients:
        c.until(lambda c: c.last is not None and c.last["table"]["game"] == 2 and c.last["rematch"] is None)
    assert [e["code"] for c in game.clients for e in c.errors] == ["agreed"]
    game.close()


def test_a_clocked_tables_countdown_is_the_same_through_both_processes(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    created = post(a, "/api/tables", {"players": 2, "name": "Ana", "clock": 180})
    table, token = created["id"], created["token"]
    post(a, f"/api/tables/{table}/bots", {"token": token, "seat": 1, "level": "easy"})
    ana = Client(a, table, token, 0)
    ana.first()
    post(b, f"/api/tables/{table}/start", {"token": token})
    ana.until(lambda c: c.last is not None and c.last["clock"] is not None)
    watcher = Client(b, table, None, None)  # a spectator through B, after the clock started
    watcher.until(lambda c: c.last is not None and c.last["clock"] is not None)
    mine, seen = ana.last["clock"], watcher.last["clock"]  # type: ignore[index]
    assert mine["seat"] == seen["seat"] == 0 and mine["kind"] == seen["kind"] == "turn"
    assert mine["seconds"] == seen["seconds"] == 180
    # the deadline is the table's: B counts from the same one (its frame made a little later)
    assert 0 <= mine["remaining"] - seen["remaining"] <= 30
    ana.close()
    watcher.close()


def test_every_person_agreeing_at_once_through_both_processes_starts_the_next_game(
    pair: tuple[WebServer, WebServer],
) -> None:
    """Four people, two on each process, answer the rematch at the same moment, game after
    game: answers that cross in the database are applied again to the table read back
    (an agreement holds whatever the others did), so no one is told ``stale`` and every
    next game starts (before, a crossed answer was refused and that table waited)."""
    a, b = pair
    game = new_game(lambda seat: a if seat in (0, 2, None) else b, 4, False, False, people=4, level="easy")
    people = [c for c in game.clients if c.seat is not None]
    assert len(people) == 4
    for number in range(1, 6):
        play(game.clients, random.Random(number))
        settle(game.clients)
        for person in people:  # back to back, nobody waiting for the others' frames
            person.send({"type": "again", "game": number})
        for c in game.clients:
            c.until(lambda c, n=number: c.last is not None and c.last["table"]["game"] == n + 1)
    assert [e for c in game.clients for e in c.errors] == []
    game.close()

"""No database call runs on the server's event loop: every one of the store's blocking
calls is made in one of its threads, so a slow database holds up no other table.

The store's blocking methods are wrapped here so that a call from a thread running an
event loop raises (and is recorded); once the server has started (its start-up loads
the tables before it serves), a whole game, its record, its replay, spectators and
another process's tables are served, and no call may have come from the loop.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.core.game import Game
from red7.core.model import Config
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredGame, StoredSeat
from red7.web.table.cluster import Cluster
from red7.web.table.records import played, record
from red7.web.table.tables import Tables
from tests.support.web_client import Conn, SilentBus, add_bot, careful, join, make_app, new_table, play_out, start

BLOCKING = ("commit", "create_table", "tables", "versions", "table", "game", "ping")
"""The store's methods that wait for the database (``write`` is awaited on the loop:
it runs :meth:`~red7.web.storage.store.Store.commit` in a thread, or one asynchronous statement)."""


class Guard:
    """Records every blocking store call made on an event loop's thread once armed."""

    def __init__(self) -> None:
        self.armed = False
        self.on_loop: list[str] = []
        self.off_loop: list[str] = []

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if self.armed:
                try:
                    asyncio.get_running_loop()
                except RuntimeError:
                    self.off_loop.append(name)
                else:
                    self.on_loop.append(name)
                    raise AssertionError(f"Store.{name} called on the event loop")
            return method(*args, **kwargs)

        return guarded


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[Guard]:
    guard = Guard()
    for name in BLOCKING:
        monkeypatch.setattr(Store, name, guard.wrap(name, getattr(Store, name)))
    yield guard
    assert guard.on_loop == []


def test_a_game_its_record_and_replay_make_no_database_call_on_the_loop(tmp_path: Path, guard: Guard) -> None:
    with TestClient(make_app(tmp_path)) as client:
        guard.armed = True  # started: from here on the loop serves
        table_id, token = new_table(client, 3, name="Ana")
        bia = join(client, table_id, 1, "Bia")
        add_bot(client, table_id, token, 2, "easy")
        with Conn(client, table_id, token, 0) as ana, Conn(client, table_id, bia, 1) as bea, Conn(client, table_id):
            start(client, table_id, token)
            assert play_out([ana, bea], careful(random.Random(3))) > 0
            assert ana.errors == [] and bea.errors == []
        record = client.get(f"/api/tables/{table_id}/games/1/record")
        assert record.status_code == 200 and record.json()["result"] is not None
        replay = client.get(f"/api/tables/{table_id}/games/1/replay")
        assert replay.status_code == 200 and len(replay.json()["frames"]) == len(record.json()["decisions"]) + 1
        assert client.get(f"/api/tables/{table_id}/games/2/record").status_code == 404
        assert client.get("/readyz").status_code == 200
        guard.armed = False
    assert guard.on_loop == []
    assert {"create_table", "game"} <= set(guard.off_loop)  # the calls were made, in threads


def test_another_process_s_tables_are_read_off_the_loop(tmp_path: Path, guard: Guard) -> None:
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.upgrade()
    tables = Tables(store, bus=SilentBus())
    tables.load()
    # another process makes a table, then a finished game the previous release left without its result
    other = Store(store.url)
    made = other.create_table("new1", 2, False, False, "en")
    config, game = Config(2), Game(config=Config(2), seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice([o.action for o in game.options() if o.safe] or ["concede"]))
    decisions = tuple((seat, str(action)) for seat, action in game.history)
    unfinished = StoredGame(None, 1, config.as_dict(), 5, None, decisions, len(decisions))
    empty = other.create_table("old1", 2, False, False, "en")
    seats = (StoredSeat("Ana", "0" * 64), StoredSeat(bot="easy"))
    assert other.commit(empty, replace(empty, status="playing", seats=seats, game=unfinished)) is not None

    async def served() -> None:
        guard.armed = True
        assert (await tables.find("new1")).version == made.version  # asked for before it was heard of
        await Cluster(tables).look()  # every few seconds: the versions, and the tables changed unseen
        assert tables.live["old1"].status == "over"
        assert (await record(tables, "old1", 1))["result"] == game.result.as_dict()  # type: ignore[union-attr]
        assert (await played(tables, "old1", 1)).status == "over"
        guard.armed = False

    asyncio.run(served())
    assert guard.on_loop == []
    assert {"table", "versions", "commit", "game"} <= set(guard.off_loop)
    assert store.table("old1").status == "over"  # type: ignore[union-attr]
    other.close()
    store.close()

"""The web server's writes (red7.web.storage.store) on SQLite and on PostgreSQL (started by the
tests: tests.support.local_services), through both ways a change is written: :meth:`Store.write`,
as the server writes (on PostgreSQL, a change that only adds decisions is the one
statement ``APPEND`` on an asynchronous connection; any other change a transaction in a
thread), and :meth:`Store.commit`, the transaction alone.

A table goes through every kind of change (seats, a game started, decisions final and
staged, a take-back, a game's end, a new game) and, after each, the database holds
exactly what the write returned; a write made against a version the table has left
writes nothing, whichever way it goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from red7.core.seeds import LEGACY_DEAL
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredGame, StoredSeat, StoredTable
from red7.web.storage.stored import appends as only_appends
from tests.support import local_services as services

CONFIG = {"players": 2, "advanced": False, "actions": False}


def game_of(table: StoredTable) -> StoredGame:
    assert table.game is not None
    return table.game


def add(table: StoredTable, decisions: tuple[tuple[int, str], ...], final: bool) -> StoredTable:
    """``table`` with ``decisions`` added to its game (final ones, or staged)."""
    game = game_of(table)
    moves = game.decisions + decisions
    return replace(table, game=replace(game, decisions=moves, committed=len(moves) if final else game.committed))


CHANGES: list[tuple[str, bool, Callable[[StoredTable], StoredTable]]] = [
    # (what, whether it only adds decisions: APPEND's case on PostgreSQL, the change)
    ("seats", False, lambda t: replace(t, seats=(StoredSeat("Ana", "a" * 64), StoredSeat(bot="easy")))),
    ("start", False, lambda t: replace(t, status="playing", game=StoredGame(None, 1, CONFIG, 7, None, (), 0))),
    ("two final", True, lambda t: add(t, ((0, "play R7"), (1, "play B2")), final=True)),
    ("staged", True, lambda t: add(t, ((0, "play G3"),), final=False)),
    ("staged, then final", True, lambda t: add(t, ((0, "canvas O4"),), final=True)),
    ("staged again", True, lambda t: add(t, ((1, "play I5"),), final=False)),
    ("taken back", False, lambda t: replace(t, game=replace(game_of(t), decisions=game_of(t).decisions[:-1]))),
    (
        "the end",
        True,
        lambda t: replace(
            add(t, ((1, "play Y6"), (0, "concede")), final=True),
            status="over",
            game=replace(game_of(add(t, ((1, "play Y6"), (0, "concede")), final=True)), result={"winners": [1]}),
        ),
    ),
    # a game dealt by random.Random, as every game stored before migration 0004: its generator is kept
    (
        "a new game",
        False,
        lambda t: replace(t, status="playing", game=StoredGame(None, 2, CONFIG, 8, None, (), 0, LEGACY_DEAL)),
    ),
    ("its first", True, lambda t: add(t, ((1, "play V1"),), final=True)),
]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        postgres: services.Postgres = request.getfixturevalue("postgres")
        return postgres.create_database()
    return f"sqlite:///{tmp_path / 'store.sqlite3'}"


@pytest.mark.parametrize("way", ["write", "commit"])
def test_every_change_is_written_as_returned_and_a_stale_one_not_at_all(url: str, way: str) -> None:
    async def run() -> None:
        store = Store(url)
        store.upgrade()
        await store.open()
        try:
            saved = store.create_table("t1", 2, False, False, "en")
            history = [saved]
            for what, appends, change in CHANGES:
                after = change(saved)
                assert (only_appends(saved, after) is not None) == appends, what
                written = await store.write(saved, after) if way == "write" else store.commit(saved, after)
                assert written is not None, what
                assert written.version == saved.version + 1
                assert store.table("t1") == written, what
                saved = written
                history.append(saved)
            # a change made against any version the table has left writes nothing
            for old, (what, _appends_only, change) in zip(history[:-1], CHANGES, strict=True):
                stale = await store.write(old, change(old)) if way == "write" else store.commit(old, change(old))
                assert stale is None, what
                assert store.table("t1") == saved, what
            first = store.game("t1", 1)
            assert first is not None and first.result == {"winners": [1]} and first.committed == 6
            assert first.decisions[-1] == (0, "concede")
        finally:
            await store.aclose()
            store.close()

    asyncio.run(run())


def test_every_table_read_at_once_is_each_table_read_alone(url: str) -> None:
    """:meth:`Store.tables` (four queries for every table, as a server starts) reads what
    :meth:`Store.table` reads table by table: seats, the latest game of several, its
    final and staged decisions, names and privacy; tables of other statuses left out."""
    store = Store(url)
    store.upgrade()
    try:
        for number, table_id in enumerate(("a", "b", "c", "d")):
            saved = store.create_table(
                table_id, 2, False, False, "en", name=f"Mesa {number}", invite_hash="h" * 64 if number else None
            )
            for _what, _appends_only, change in CHANGES[: 3 + 3 * number]:
                written = store.commit(saved, change(saved))
                assert written is not None
                saved = written
        expired = store.commit(saved, replace(saved, status="expired"))
        assert expired is not None and expired.id == "d"
        every = store.tables()
        assert [table.id for table in every] == ["a", "b", "c"]
        assert every == [store.table(table_id) for table_id in ("a", "b", "c")]
        assert [table.game.number if table.game else None for table in every] == [1, 1, 2]  # c has had two games
        assert [table.private for table in every] == [False, True, True] and every[1].name == "Mesa 1"
        assert store.tables(("expired",)) == [store.table("d")]
    finally:
        store.close()

"""The writes and calls a server awaits on its event loop (:class:`Writes`), and what they
do when PostgreSQL restarts.

A change at every decision is one statement on an asynchronous connection (:data:`APPEND`);
any other change, and every change on SQLite, and every read, runs in one of the store's
threads. **PostgreSQL restarting** ends every connection: a change written on an
asynchronous one PostgreSQL ended is sent once more on a fresh connection (the compare and
set on the version makes a second apply of one change impossible); while it is away, a call
raises :class:`~red7.web.storage.outage.Unavailable`, said once in the log
(:class:`~red7.web.storage.outage.Outage`). The store (:class:`~red7.web.storage.store.Store`)
gives its synchronous side through :class:`Database`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any, Final, Protocol, TypeVar

from .outage import Outage, Unavailable, lost, reason
from .rows import now
from .stored import StoredTable, appends, same_change

log = logging.getLogger("red7.web")
T = TypeVar("T")

WAIT: Final = 3.0
"""Seconds a change waits for an asynchronous connection (PostgreSQL away: the pool has
none) before it is refused as :class:`~red7.web.storage.outage.Unavailable`."""
RECONNECT: Final = 2.0
"""Seconds the asynchronous pool tries to replace a connection it lost before it leaves
that to the next change needing one: so a change made once PostgreSQL is back connects at
once, never waiting out the pool's growing pauses between tries."""

APPEND = """
WITH moved AS (
    UPDATE tables SET version = %(version)s, status = %(status)s,
        deadline = %(deadline)s, agreed = %(agreed)s, declined = %(declined)s
    WHERE id = %(table)s AND version = %(base)s
    RETURNING id
), game AS (
    UPDATE games SET result = %(result)s, committed = %(committed)s
    WHERE id = %(game)s AND %(game_changed)s AND EXISTS (SELECT FROM moved)
), added AS (
    INSERT INTO decisions (game_id, seq, seat, action, at)
    SELECT %(game)s, %(keep)s + d.n - 1, d.seat, d.action, %(at)s
    FROM unnest(%(seats)s::integer[], %(actions)s::text[]) WITH ORDINALITY AS d(seat, action, n)
    WHERE EXISTS (SELECT FROM moved)
)
SELECT count(*) FROM moved
"""
"""PostgreSQL's one statement for a change that adds decisions to a game (psycopg's
parameters): the compare and set of the table's version and, only if it moved, the
game's result and final count and the new decisions, numbered from ``keep``. Every
part runs, in the statement's one transaction (PostgreSQL runs a data-modifying ``WITH``
part whether the query reads it or not); the count of tables moved (0 or 1) says
whether the change went in."""


class Database(Protocol):
    """What :class:`Writes` asks of the store: its threads, how many write at once, a
    change committed in a transaction (None: the table had moved) and a table read back."""

    @property
    def executor(self) -> Executor: ...

    @property
    def writers(self) -> int: ...

    def commit(self, before: StoredTable, after: StoredTable) -> StoredTable | None: ...

    def table(self, table_id: str, newer_than: int | None = None) -> StoredTable | None: ...


class Writes:
    """The writes and calls of ``database`` awaited on the event loop; ``address``: its
    PostgreSQL server as libpq reads it (None: SQLite, every write in a thread)."""

    def __init__(self, database: Database, address: str | None) -> None:
        self.database = database
        self.address = address
        self.outage = Outage()
        """Whether the database is away, as :meth:`run` and :meth:`write` last found it."""
        self._appenders: Any = None
        """:meth:`open`'s asynchronous connections (a psycopg_pool.AsyncConnectionPool)."""

    async def open(self) -> None:
        """Open what :meth:`write` needs on the running event loop: on PostgreSQL, a pool
        of the database's ``writers`` asynchronous psycopg connections (autocommit)."""
        if self.address is not None and self._appenders is None:
            from psycopg_pool import AsyncConnectionPool

            self._appenders = AsyncConnectionPool(
                self.address,
                min_size=self.database.writers,
                max_size=self.database.writers,
                kwargs={"autocommit": True},
                open=False,
                timeout=WAIT,
                reconnect_timeout=RECONNECT,
            )
            await self._appenders.open(wait=True, timeout=30)

    async def aclose(self) -> None:
        """Close what :meth:`open` opened."""
        if self._appenders is not None:
            await self._appenders.close()
            self._appenders = None

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` (a call on the database) in one of the store's threads, off the
        event loop; :class:`~red7.web.storage.outage.Unavailable` if the database could not
        be reached."""
        try:
            answer = await asyncio.get_running_loop().run_in_executor(self.database.executor, call, *args)
        except Exception as err:
            if not lost(err):
                raise
            self.outage.down(err)
            raise Unavailable(reason(err)) from err
        self.outage.up()
        return answer

    async def write(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """The database's ``commit``, awaited on the server's event loop, which serves the
        other tables meanwhile (how: :meth:`_write`).

        A write whose connection was lost (PostgreSQL restarted, and ended it) is made once
        more on a fresh connection. It cannot go in twice: if the first went in after all
        (its connection ended after its commit), the second finds the version moved and
        writes nothing, and the table read back then says whether it holds this change
        (:meth:`landed`). :class:`~red7.web.storage.outage.Unavailable` if the second fails
        too, or no connection was had in :data:`WAIT` seconds: the change may be in or not
        (a change made again from ``before`` fails its compare and set if it is)."""
        try:
            written = await self._write(before, after)
        except Exception as err:
            if not lost(err):
                raise
            if self._timed_out(err):  # no connection was had: nothing was sent
                self.outage.down(err)
                raise Unavailable(reason(err)) from err
            log.info("a write's connection to the database was lost (%s): it is made again", reason(err))
            if self._appenders is not None:
                await self._appenders.check()  # the pool's other connections PostgreSQL ended: replaced
            try:
                written = await self._write(before, after)
            except Exception as again:
                if not lost(again):
                    raise
                self.outage.down(again)
                raise Unavailable(reason(again)) from again
            if written is None:
                written = await self.run(self.landed, before, after)
        self.outage.up()
        return written

    def _timed_out(self, err: BaseException) -> bool:
        """Whether ``err`` is the asynchronous pool's having no connection to give in time."""
        if self._appenders is None:
            return False
        from psycopg_pool import PoolTimeout

        return isinstance(err, PoolTimeout)

    def landed(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """``after`` as written, if the database holds it as the version after ``before``'s
        (a write whose answer was lost with its connection, then refused when made again by
        its own compare and set); else None: another change is there."""
        stored = self.database.table(before.id)
        if stored is None or stored.version != before.version + 1 or not same_change(stored, after):
            return None
        game = after.game
        if game is not None and stored.game is not None:
            game = replace(game, id=stored.game.id)
        return replace(after, version=stored.version, game=game)

    async def _write(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """:meth:`write` once. On PostgreSQL (once :meth:`open`), a change that only adds
        decisions to the game, the one made at every decision, is the one statement
        :data:`APPEND` on an asynchronous connection: one round trip, its own transaction,
        no thread. Any other change, and every change on SQLite, is the database's ``commit`` in
        one of its threads (``executor``). (A write in a thread cost the server a
        tenth more CPU and held up its frames while the thread held the interpreter.)"""
        kept = appends(before, after) if self._appenders is not None else None
        if kept is None:
            return await asyncio.get_running_loop().run_in_executor(
                self.database.executor, self.database.commit, before, after
            )
        from psycopg.types.json import Json

        assert self._appenders is not None and before.game is not None and after.game is not None
        old, new = before.game, after.game
        added = new.decisions[kept:]
        params = {
            "table": before.id,
            "base": before.version,
            "version": before.version + 1,
            "status": after.status,
            **after.rematch_columns(),
            "game": new.id,
            "game_changed": (old.result, old.committed) != (new.result, new.committed),
            "result": None if new.result is None else Json(new.result),
            "committed": new.committed,
            "keep": kept,
            "seats": [seat for seat, _action in added],
            "actions": [action for _seat, action in added],
            "at": now(),
        }
        async with self._appenders.connection() as connection:
            row = await (await connection.execute(APPEND, params)).fetchone()
        if row is None or row[0] != 1:
            return None  # the table had moved: nothing was written
        return replace(after, version=before.version + 1)

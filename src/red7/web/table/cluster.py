"""The other processes' changes of the tables (:class:`Cluster`).

A process that writes a change tells the others over the bus (``{"t": table, "v":
version, ...}``: :func:`~red7.web.storage.stored.change_message`), and each brings its copy
of the table up to it (:meth:`~red7.web.table.tables.Tables.refresh`), from the change
itself when the message carries it, else by reading the table back. The bus may lose a
message, and the command line changes the database with no server involved (``red7
admin ban``): every :data:`LOOK` seconds each process, one alone too, also reads every
table's version from the database and reads back those it is behind on, and lets go of
those another process expired. With the database away (restarting), a change heard is
applied if the message carries it, else found at the first look once the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

from .tables import DatabaseAway, Tables

log = logging.getLogger("red7.web")

LOOK: Final = 5.0
"""Seconds between two looks at every table's version in the database (the bus may lose
a message: this finds the change anyway)."""


class Cluster:
    """What one process hears of the others' changes of ``tables``, and its looks for what it missed."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._task: asyncio.Task[None] | None = None
        tables.bus.listen(self._heard)

    async def start(self) -> None:
        """Look at the database every :data:`LOOK` seconds (a task until :meth:`stop`):
        with other processes, for their changes whose message was lost; alone too, for
        what ``red7 admin ban`` changed with no server involved
        (:meth:`~red7.web.storage.store.Store.revoke_account_seats`)."""
        self._task = asyncio.create_task(self._looking())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _heard(self, message: dict[str, Any]) -> None:
        table_id = message.get("t")
        if isinstance(table_id, str) and isinstance(message.get("v"), int):
            self.tables.metrics.heard.inc()
            with contextlib.suppress(DatabaseAway):  # (found at a look once the database is back)
                await self.tables.refresh(table_id, message["v"], message)

    async def _looking(self) -> None:
        while True:
            await asyncio.sleep(LOOK)
            try:
                await self.look()
            except DatabaseAway:
                pass  # the database away for a moment (the store says so once): look again later
            except Exception:  # one failed look must not end the looks
                log.exception("the look at the tables' versions failed")

    async def look(self) -> None:
        """Read back every table this process is behind on, and drop those gone
        (:class:`~red7.web.table.tables.DatabaseAway` if the database cannot be reached)."""
        versions = await self.tables.db(self.tables.store.versions)
        for table_id, version in versions.items():
            live = self.tables.live.get(table_id)
            if live is None or live.version < version:
                await self.tables.refresh(table_id, version)
        for table_id in [table_id for table_id in self.tables.live if table_id not in versions]:
            await self.tables.refresh(table_id)  # expired by another process (its message lost)

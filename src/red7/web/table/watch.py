"""The watch over a server's tables, once a second (:class:`Watch`): the clocks, the people
away, the bots whose process died, and open tables left unused.

* A turn whose clock ran out (a table with a clock: its deadline is stored, so it is the
  same in every process) is ended by a substitute bot (:data:`SUBSTITUTE`) for its person.
* At a table without a clock, a person away on their turn (no connection in any
  process) longer than the table's patience gets a substitute, until they come back.
* With other processes, a bot's turn waiting longer than
  :data:`~red7.web.table.tables.TAKEOVER` seconds (the process that should ask it is
  dead, perhaps) is asked here: the database lets only one of their moves in. Alone, a
  bot's turn nobody is answering (read back after a change the database took though its
  answer was lost) is asked after :data:`ASK_AGAIN` seconds.
* An open table nobody has been at, nor changed, for ``expire_open`` seconds expires:
  gone from the lobby and from every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

from ...play.session import Role
from ..http.refusals import Refused
from .bots import Bots
from .live import LiveTable
from .presence import Presence
from .tables import EXPIRED, TAKEOVER, Tables

log = logging.getLogger("red7.web")

SUBSTITUTE: Final = "medium"
"""The bot that plays for a person away longer than the table's patience, or out of time."""
ASK_AGAIN: Final = 2.0
"""Seconds a bot's turn may wait unasked in a process alone before it is asked."""


class Watch:
    """The once-a-second look at ``tables``' clocks and idle tables (``expire_open``:
    seconds an open table may stay with nobody at it before it expires; 0: never)."""

    def __init__(self, tables: Tables, bots: Bots, presence: Presence, expire_open: float = 0.0) -> None:
        self.tables, self.bots, self.presence, self.expire_open = tables, bots, presence, expire_open
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for live in list(self.tables.live.values()):
                try:
                    await self.clocks(live, now)
                    await self.expire_if_idle(live, now)
                except Exception:  # one table's failure must not stop the watch over every table
                    log.exception("the watch over table %s failed", live.id)

    async def clocks(self, live: LiveTable, now: float) -> None:
        """The clocks of a table being played: a person out of time, or away on their
        turn longer than the patience, is away to the session (a substitute plays for
        them); a bot's turn waiting longer than :data:`TAKEOVER` is asked here."""
        mover = live.session.mover()
        if mover is None:
            return
        number, role = mover
        seat = live.seats[number]
        if live.lock.locked():
            return  # being changed: look again in a second
        tables = self.tables
        if role is Role.PERSON and live.session.clock:
            if live.session.deadline is not None and tables.wall() >= live.session.deadline:
                with contextlib.suppress(Refused):
                    async with tables.changing(live, reread=True):
                        if live.session.expire(tables.wall(), SUBSTITUTE) is not None:
                            await tables.write(live)
        elif role is Role.PERSON and seat.left is not None and tables.bus.ready:
            # (with the bus down, who is connected to the other processes is not known)
            if now - seat.left >= tables.patience:
                with contextlib.suppress(Refused):
                    async with tables.changing(live):
                        if live.session.away(number, SUBSTITUTE):  # (its staged turn taken back)
                            await tables.write(live)
        elif role is not Role.PERSON and now - live.touched > (TAKEOVER if tables.bus.shared else ASK_AGAIN):
            if live.bot_task is None or live.bot_task.done():
                log.info("table %s: its bot's turn waited %.0f s; asked here", live.id, now - live.touched)
                live.touched = now
                self.bots.ask(live)

    async def expire_if_idle(self, live: LiveTable, now: float) -> None:
        """Expire ``live`` if it is open and nobody has been at it (connected to this
        process, or, in a seat, to any) nor changed it for :attr:`expire_open` seconds."""
        if not self.expire_open or live.status != "open" or live.lock.locked():
            return
        if self.presence.of(live.id) or any(seat.online for seat in live.seats):
            live.touched = now  # (an open table's bots are never asked: the time is free for this)
            return
        if now - live.touched < self.expire_open:
            return
        with contextlib.suppress(Refused):
            async with self.tables.changing(live, reread=True):
                if live.status != "open" or now - live.touched < self.expire_open:
                    return  # changed by another process meanwhile
                live.status = EXPIRED
                await self.tables.write(live)
        if live.status == EXPIRED:
            self.tables.live.pop(live.id, None)
            log.info("table %s expired: open, and nobody at it for %.0f s", live.id, self.expire_open)

"""The counts of a server's clients against :class:`~red7.web.http.limits.Limits`
(:class:`ClientLimits`): tables created and open, seats taken and left, WebSockets open,
``POST /api/turns`` asked.

A client behind a proxy spreading its requests over N processes is one client to all of
them only if they count together: with ``red7 serve --redis-url`` they do, in Redis
(:class:`~red7.web.http.redis_counts.RedisCounts`); without Redis (one process, or
PostgreSQL's LISTEN/NOTIFY between several), and while Redis is away, each process counts
its own clients (:class:`~red7.web.http.counts.LocalCounts`), and a client may get up to N
times each limit in all.

Limits kept per connection or per seat stay each process's. A WebSocket's messages a
second (:mod:`red7.web.socket`) and a spectator's chat lines count one connection, which
lives in one process. A seat's chat lines (:mod:`red7.web.chat.chat`) and hints
(:mod:`red7.web.reviews.hints`) count what goes through that seat's connections: a person
gets more only by holding the same seat open in several processes at once, at most N times,
at one table whose people see every line; a round trip to Redis per line or hint would buy
little. A client's hints over all its tables (:mod:`red7.web.reviews.hints`) are counted by
each process too: what they guard is that process's own search workers
(:mod:`red7.web.reviews.pool`), and a client spread over N processes gets its share of
each, never more of any one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .counts import Counts
from .limits import ASK_BURST, ASKS_PER_MINUTE, Limits, whole_seconds

GRACE: Final = 60.0
"""Seconds a table a client created counts as open while this process does not know it yet
(made by another process, whose message about it has not come yet)."""


@dataclass
class ClientLimits:
    """The counts of a server's clients against :class:`Limits`, kept in ``counts``: this
    process's (:class:`~red7.web.http.counts.LocalCounts`), or every process's of the club
    (:class:`~red7.web.http.redis_counts.RedisCounts`)."""

    limits: Limits
    counts: Counts

    async def table_refusal(self, client: str, still_open: Callable[[str], bool | None]) -> tuple[str, float] | None:
        """Why ``client`` may not create a table now, and in how many seconds to try again
        (None: it may). ``still_open`` says whether a table is still open (None: this
        process does not know it). A table allowed is counted: call :meth:`created` with
        its id, or :meth:`uncount`. (Two tables asked for at once may both be allowed
        at the last open place: the count of tables an hour still holds them.)"""
        key = f"open:{client}"
        listed = await self.counts.listed(key)
        gone = []
        for table_id, age in listed.items():
            known = still_open(table_id)
            if known is False or (known is None and age > GRACE):
                gone.append(table_id)
        await self.counts.remove(key, gone)
        if len(listed) - len(gone) >= self.limits.open_tables:
            return "open", 60.0
        wait = await self.counts.take(f"tables:{client}", self.limits.tables_per_hour / 3600.0, self.limits.table_burst)
        return ("rate", float(whole_seconds(wait))) if wait else None

    async def created(self, client: str, table_id: str) -> None:
        await self.counts.add(f"open:{client}", table_id)

    async def uncount(self, client: str) -> None:
        """Give back the table :meth:`table_refusal` counted (the table was not made)."""
        await self.counts.give_back(f"tables:{client}", self.limits.tables_per_hour / 3600.0, self.limits.table_burst)

    async def ask_wait(self, client: str) -> float:
        """Count a ``POST /api/turns`` of ``client``: 0 if allowed, else the seconds to
        wait (a page asks when it opens and now and then: :data:`ASKS_PER_MINUTE` on
        average, :data:`ASK_BURST` at once)."""
        return whole_or_none(await self.counts.take(f"asks:{client}", ASKS_PER_MINUTE / 60.0, ASK_BURST))

    async def join_wait(self, client: str) -> float:
        """Count a seat ``client`` asks to take or leave (``POST .../seats/{n}``,
        ``POST .../leave``), granted or not: 0 if it may ask now, else the seconds to
        wait (:attr:`Limits.joins_per_hour`, :attr:`Limits.join_burst`). A request
        refused so is refused before it reaches any table."""
        wait = await self.counts.take(f"joins:{client}", self.limits.joins_per_hour / 3600.0, self.limits.join_burst)
        return whole_or_none(wait)

    async def open_socket(self, client: str) -> str | None:
        """Count a WebSocket of ``client`` opening: what to give :meth:`close_socket` when it
        closes, or None (not counted) if the client has too many."""
        return await self.counts.hold(f"sockets:{client}", self.limits.sockets)

    async def close_socket(self, client: str, lease: str) -> None:
        await self.counts.release(f"sockets:{client}", lease)


def whole_or_none(wait: float) -> float:
    """0 for no wait, else the whole seconds (at least 1) of ``wait``."""
    return float(whole_seconds(wait)) if wait else 0.0

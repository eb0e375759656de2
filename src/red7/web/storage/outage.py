"""The database away for a moment (restarted, failing over): which errors say so
(:func:`lost`), what the store raises then (:class:`Unavailable`), and the log's one
warning line an outage gets (:class:`Outage`).

PostgreSQL restarting ends every session: a statement sent on a pooled connection it
ended raises ``AdminShutdown`` (or "server closed the connection unexpectedly"), and until
it is back a new connection is refused. The store's connections are checked before use
(SQLAlchemy's pre-ping) or, on the asynchronous pool, the one statement is sent again on a
fresh connection (:meth:`~red7.web.storage.store.Store.write`); what still fails is
:class:`Unavailable`, which the tables refuse in words and the bots try again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

log = logging.getLogger("red7.web")

LOST_STATES: Final = ("57P01", "57P02", "57P03")
"""PostgreSQL's SQLSTATEs of a server going away or not ready: ``admin_shutdown`` (a
restart's fast stop ends the session), ``crash_shutdown``, ``cannot_connect_now`` (starting
up, shutting down). Class ``08`` (connection exceptions) says so too."""


class Unavailable(Exception):
    """The database could not be reached. A change may or may not have been written (its
    connection may have ended after the commit): if it was, the table's version moved, and
    a change made again from the version before it fails its compare and set."""


def lost(err: BaseException) -> bool:
    """Whether ``err`` says the connection to the database was lost, or could not be had
    (the database restarting or away), rather than that a statement was refused."""
    from sqlalchemy.exc import DBAPIError

    if isinstance(err, DBAPIError):  # SQLAlchemy's wrapping of the driver's error
        if err.connection_invalidated:
            return True
        if err.orig is None:
            return False
        err = err.orig
    try:
        import psycopg
    except ImportError:  # (no PostgreSQL driver: SQLite's errors are never an outage)
        return False
    if not isinstance(err, psycopg.OperationalError):
        return False
    state = err.sqlstate  # None: the client's own (connection refused or closed, a pool's timeout)
    return state is None or state.startswith("08") or state in LOST_STATES


def reason(err: BaseException) -> str:
    """What ``err`` was, for the log: the driver's error class (never its message, which
    may name the server's address and user)."""
    orig = getattr(err, "orig", None)
    return type(orig if isinstance(orig, BaseException) else err).__name__


class Outage:
    """Whether the database is away, as the store last found it: a warning line when it is
    first found away (:meth:`down`), an information line when a call goes through again
    (:meth:`up`); nothing in between, however many calls fail (called on the event loop)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None
        """When the database was found away (None: it is not)."""

    def down(self, err: BaseException) -> None:
        if self.since is None:
            self.since = self.clock()
            log.warning("the database is away (%s): changes are refused until it is back", reason(err))

    def up(self) -> None:
        if self.since is not None:
            log.info("the database is back after %.0f s", self.clock() - self.since)
            self.since = None

"""Failed logins slow down the address they come from, never the name they are for
(:class:`LoginThrottle`), and a flood of them is told to the admin.

A name is never locked: whoever fails to log in from one address changes nothing for
the same name tried from another, so nobody can keep a person, the admin included, out
of their account by failing on purpose. What waits is the failing address (a client as
:func:`~red7.web.http.limits.client_key` says: an address, an IPv6 /64), counted twice:

* its failures on one name: after :attr:`ThrottleRules.name_free`, it waits before
  trying that name again, a wait doubling at each failure (one minute, two, four...) up
  to :attr:`ThrottleRules.longest_wait`; logging in to that name from it clears them;
* its failures on any names (a spray over many accounts): after
  :attr:`ThrottleRules.address_free`, it waits before trying any, the same way.

A count is forgotten after :attr:`ThrottleRules.forget` seconds without a failure. A try
while the address waits is refused (``login-wait``, 429 with ``Retry-After``) before any
password is checked, and counts nothing.

**Floods.** The failures of one name from any addresses (many addresses trying one
account, each under its own limits) and those of one address on any names are counted
too; the failure that brings either to :attr:`ThrottleRules.flood` since its count began
starts a flood, told once, however long it goes on: one line in the log (the account's
username, or the hash of an unregistered name; the address) and
``red7_login_floods_total{kind="name"|"address"}`` (:mod:`red7.web.http.metrics`);
``red7_login_failures_total`` counts every failure.

**Where the counts live: the database**, shared by every process, as the lockout it
replaces was. Behind a proxy spreading one client's requests over N processes, counts of
each process's own would give it N times the tries before each wait (and a process
restarted would forget); a failure already costs an argon2 hash, beside which its one
short transaction is cheap, and a try is one read. What is kept of a name and an
address is the SHA-256 of each (a password typed in the name field by mistake is not
kept, nor are the people's addresses). The time is the server's wall clock
(``Settings.wall``; tests move it).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import Float, Integer, String, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...ui.i18n import _
from ..http.limits import whole_seconds
from ..http.metrics import Metrics
from ..http.refusals import Limited
from ..storage.rows import Base

log = logging.getLogger("red7.web")

TRIES: Final = 3
"""How many times a failure's count is written again after two processes crossed on a new row."""


@dataclass(frozen=True)
class ThrottleRules:
    """How failed logins slow their address down, and what makes a flood."""

    name_free: int = 5
    """Failed logins of one name from one address before the address waits to try it again."""
    address_free: int = 20
    """Failed logins from one address, whatever the names, before it waits to try any."""
    first_wait: float = 60.0
    """Seconds of the first wait, doubled at each failure after it..."""
    longest_wait: float = 900.0
    """...up to these."""
    forget: float = 86400.0
    """Seconds without a failure after which a count starts again from nothing."""
    flood: int = 20
    """Failures of one name from any addresses, or of one address on any names, that make a flood."""

    def wait(self, failures: int, free: int) -> float:
        """The seconds an address waits after its ``failures``-th, ``free`` of them free."""
        if failures < free:
            return 0.0
        return min(self.first_wait * 2.0 ** min(failures - free, 64), self.longest_wait)


class ThrottleRow(Base):
    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of what is counted (:func:`counted`): an address and a name, an address, a name."""
    failures: Mapped[int] = mapped_column(Integer)
    """Failures since the count began."""
    first: Mapped[float] = mapped_column(Float)
    """When the count began (seconds since the epoch)."""
    last: Mapped[float] = mapped_column(Float, index=True)
    """When its last failure was."""
    until: Mapped[float] = mapped_column(Float)
    """When the address may try again (in the past: now)."""


def counted(kind: str, *parts: str) -> str:
    """The key of a count: the SHA-256 of its kind (``pair``: an address's tries of a
    name; ``address``; ``name``) and its parts."""
    return hashlib.sha256("\0".join((kind, *parts)).encode()).hexdigest()


@dataclass(frozen=True)
class Counts:
    """The keys of one try's three counts."""

    pair: str
    address: str
    name: str

    @classmethod
    def of(cls, client: str, name: str) -> Counts:
        """The counts of a try from ``client`` for the name whose key is ``name``."""
        return cls(counted("pair", client, name), counted("address", client), counted("name", name))


class LoginThrottle:
    """The failed logins of the server whose database ``engine`` is, against ``rules``;
    ``wall``: the time (seconds since the epoch); ``metrics``: where failures and floods
    are counted."""

    def __init__(
        self,
        engine: Engine,
        rules: ThrottleRules = ThrottleRules(),
        wall: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        self.engine, self.rules, self.wall, self.metrics = engine, rules, wall, metrics

    def check(self, counts: Counts) -> None:
        """Refuse (:class:`~red7.web.http.refusals.Limited`, ``login-wait``, in the
        language in use) a try while its address waits, for this name or for any."""
        clock = self.wall()
        with Session(self.engine) as s:
            rows = s.scalars(select(ThrottleRow).where(ThrottleRow.key.in_((counts.pair, counts.address))))
            forgotten = clock - self.rules.forget
            waits = {row.key: row.until - clock for row in rows if row.until > clock and row.last >= forgotten}
        if not waits:
            return
        wait = whole_seconds(max(waits.values()))
        if counts.address in waits:
            message = _("Too many failed logins from your address: wait {wait}.")
        else:
            message = _("Too many failed logins of this name from your address: wait {wait}.")
        if self.metrics is not None:
            self.metrics.refused.labels(reason="login-wait").inc()
        raise Limited("login-wait", message.format(wait=_duration(wait)), wait)

    def failed(self, counts: Counts, client: str, account: str | None) -> None:
        """Count a failed login (``client``: its address, for the log; ``account``: the
        username of the account the name is, None if none), and tell a flood it starts."""
        for attempt in range(TRIES):
            try:
                floods = self._count(counts)
                break
            except IntegrityError:  # another process added a row of these first: count again
                if attempt == TRIES - 1:
                    raise
        if self.metrics is not None:
            self.metrics.login_failures.inc()
        for kind, failures, first in floods:
            if self.metrics is not None:
                self.metrics.login_floods.labels(kind=kind).inc()
            since = datetime.fromtimestamp(first, UTC).isoformat(timespec="seconds")
            if kind == "address":
                log.warning("login flood: %d failed logins from %s since %s", failures, client, since)
            elif account is not None:
                log.warning("login flood: %d failed logins of the account %s since %s", failures, account, since)
            else:
                name = counts.name[:12]
                log.warning(
                    "login flood: %d failed logins of an unregistered name (key %s) since %s", failures, name, since
                )

    def _count(self, counts: Counts) -> list[tuple[str, int, float]]:
        """One transaction: each count one failure more (its address's wait set), the
        forgotten counts deleted; the floods that start now: their kind (``name``,
        ``address``), failures and first failure's time."""
        clock, rules = self.wall(), self.rules
        frees: dict[str, int | None] = {counts.pair: rules.name_free, counts.address: rules.address_free}
        frees[counts.name] = None  # (the name's own count makes nobody wait: it tells a flood)
        floods: list[tuple[str, int, float]] = []
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ThrottleRow).where(ThrottleRow.last < clock - rules.forget))
            for key in sorted(frees):  # (always in one order: two processes never wait on each other's rows)
                row = s.get(ThrottleRow, key, with_for_update=True)
                if row is None:
                    row = ThrottleRow(key=key, failures=0, first=clock, last=clock, until=0.0)
                    s.add(row)
                row.failures += 1
                row.last = clock
                free = frees[key]
                if free is not None:
                    row.until = clock + rules.wait(row.failures, free)
                if row.failures == rules.flood and key != counts.pair:
                    floods.append(("name" if key == counts.name else "address", row.failures, row.first))
        return floods

    def succeeded(self, counts: Counts) -> None:
        """A login from the address to the name: its failures on that name are forgotten
        (not those on other names, nor the name's from other addresses)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ThrottleRow).where(ThrottleRow.key == counts.pair))


def _duration(seconds: int) -> str:
    """A wait in words: seconds under two minutes, else minutes (rounded up)."""
    if seconds < 120:
        return _("{n} s").format(n=seconds)
    return _("{n} min").format(n=math.ceil(seconds / 60))

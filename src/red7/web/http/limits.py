"""What one client may take of a server: tables, seats and WebSockets (:class:`Limits`:
``red7 serve``'s ``--tables-per-hour``, ``--table-burst``, ``--joins-per-hour``,
``--join-burst``, ``--open-tables``, ``--sockets``), who a client is (:func:`client_key`),
and a token bucket (:class:`Bucket`).

A client is an IP address (the one a trusted reverse proxy names in ``X-Forwarded-For``:
``--trusted-proxy``), or an IPv6 /64 network, which one household or host gets whole.
The counts of each client against them are :class:`red7.web.http.client_limits.ClientLimits`:
in Redis for every process of a club when ``red7 serve`` is given ``--redis-url``, so a
client behind a proxy spreading its requests over N processes gets each limit once; without
Redis (one process, or PostgreSQL's LISTEN/NOTIFY between several), and while Redis is away,
each process counts its own clients, and a client may then get up to N times as much in all.

A refusal says when to try again (``retry_after``, seconds: the ``Retry-After`` of an
HTTP 429). Time is the counts' (:mod:`red7.web.http.counts`): the server's clock
(``Settings.clock``, which tests stop and move by hand), or Redis's.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from ...core.model import N_
from .options import Check, Kind, check, declared, option

ASKS_PER_MINUTE = 12.0
ASK_BURST = 10
"""How often a client may ask which tables await its seats (``POST /api/turns``)."""

COUNT = Check(lambda n: 1 <= n <= 10**9, N_("{option} must be between 1 and 10**9, not {value}"))
"""A count of tables, seats or sockets."""
RATE = Check(lambda n: 0 < n <= 1e9, N_("{option} must be a positive number, not {value}"))
"""How many an hour."""


@dataclass(frozen=True)
class Limits:
    """What each client may have of one server process, and when open tables expire.
    Each field is an option of ``red7 serve`` (:mod:`red7.web.http.options`); a value it does
    not take is an :class:`~red7.web.http.options.OptionError` (a ``ValueError``) naming it."""

    tables_per_hour: float = option(
        "tables-per-hour", 120.0, N_("tables one client may create an hour, on average"), Kind.NUMBER, RATE, metavar="N"
    )
    table_burst: int = option(
        "table-burst", 20, N_("tables one client may create at once"), Kind.WHOLE, COUNT, metavar="N"
    )
    """(A club evening: a few tables each, created back to back.)"""
    joins_per_hour: float = option(
        "joins-per-hour",
        600.0,
        N_("seats one client may take or leave an hour, on average, each request counted, granted or not"),
        Kind.NUMBER,
        RATE,
        metavar="N",
    )
    join_burst: int = option(
        "join-burst",
        40,
        N_("seats one client may take or leave at once, as a club arriving on one address does"),
        Kind.WHOLE,
        COUNT,
        metavar="N",
    )
    """(A flood of joins and leaves is refused before it changes any table.)"""
    open_tables: int = option(
        "open-tables",
        10,
        N_("tables one client may have open, their game not started"),
        Kind.WHOLE,
        COUNT,
        metavar="N",
    )
    sockets: int = option(
        "sockets",
        64,
        N_("WebSockets one client may have open: one a tab, and a school's shared address has many people"),
        Kind.WHOLE,
        COUNT,
        metavar="N",
    )
    expire_open: float = option(
        "expire-open",
        3600.0,
        N_("seconds an open table stays with nobody at it and nothing changing before it expires; 0: never"),
        Kind.NUMBER,
        Check(lambda s: 0 <= s <= 1e9, N_("{option} must be 0 (never) or a number of seconds, not {value}")),
        metavar="SECONDS",
    )

    def __post_init__(self) -> None:
        check(self)

    def options(self) -> list[str]:
        """These limits as the options of ``red7 serve`` that set them."""
        return [part for name, limit in declared(Limits) for part in (limit.flag, str(getattr(self, name)))]


UNLIMITED = Limits(
    tables_per_hour=1e9,
    table_burst=10**9,
    open_tables=10**9,
    sockets=10**9,
    expire_open=0.0,
    joins_per_hour=1e9,
    join_burst=10**9,
)
"""No limit at all (tests that make many tables from one address)."""


def client_key(host: str | None) -> str:
    """Who a client is, from its address: the address itself, or its /64 network for IPv6.

    >>> client_key("192.0.2.7"), client_key("2001:db8::1"), client_key("2001:db8::2:3")
    ('192.0.2.7', '2001:db8::/64', '2001:db8::/64')
    """
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a test client's name)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def whole_seconds(seconds: float) -> int:
    """The whole seconds, at least 1, to wait ``seconds`` (a ``Retry-After``): read to the
    microsecond first, since a wait is a difference of clock readings and carries float
    noise (``(t + 300.0) - t`` may be 300.00000000001, which would round up to 301)."""
    return max(1, math.ceil(round(seconds, 6)))


@dataclass
class Bucket:
    """A token bucket: ``burst`` takes at once, ``rate`` a second on average (a client's
    tables, a connection's messages)."""

    rate: float
    burst: float
    tokens: float
    at: float
    """When :attr:`tokens` was counted (the clock's seconds)."""

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> Bucket:
        return cls(rate, burst, burst, now)

    def level(self, now: float) -> float:
        """The tokens at ``now``."""
        return min(self.burst, self.tokens + (now - self.at) * self.rate)

    def take(self, now: float) -> float:
        """Take a token at ``now``: 0 if there was one, else (none taken) the seconds
        until there is."""
        self.tokens, self.at = self.level(now), now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0

    def give_back(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)

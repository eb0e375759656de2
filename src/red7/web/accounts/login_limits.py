"""What one client may try of the accounts: logins and registrations at a rate (each costs
an argon2 hash), counted for every process of a club when they share a Redis
(:mod:`red7.web.http.client_limits` says when they do not). Failed logins slow their
address down in every process (:mod:`red7.web.accounts.throttle`, in the database).

A client is what :func:`~red7.web.http.limits.client_key` says (an address, an IPv6 /64).
Time is the counts' (:mod:`red7.web.http.counts`): the server's clock (``Settings.clock``,
which tests move by hand), or Redis's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..http.counts import Counts
from ..http.limits import whole_seconds


@dataclass(frozen=True)
class LoginRules:
    """The rate of a client's logins and registrations."""

    per_minute: float = 10.0
    """Logins and registrations a client may try a minute, on average..."""
    burst: int = 10
    """...and at once."""


@dataclass
class LoginLimits:
    """The counts of a server's clients against :class:`LoginRules`, in ``counts``: every
    process's of the club with Redis (:class:`~red7.web.http.redis_counts.RedisCounts`), else
    this process's own."""

    rules: LoginRules
    counts: Counts

    async def refusal(self, client: str) -> float | None:
        """The seconds ``client`` must wait before trying to log in or register (None:
        it may now; the try is counted)."""
        wait = await self.counts.take(f"logins:{client}", self.rules.per_minute / 60.0, self.rules.burst)
        return float(whole_seconds(wait)) if wait else None

"""What one client may try of the accounts: logins and registrations at a rate, and a
lockout after many failed logins (whatever names they were for), counted for every process
of a club when they share a Redis (:mod:`red7.web.http.client_limits` says when they do
not). The lockout of a name, for every process, is the database's
(:class:`red7.web.accounts.accounts.Lockout`).

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
    """The rates and lockout of a client's logins."""

    per_minute: float = 10.0
    """Logins and registrations a client may try a minute, on average..."""
    burst: int = 10
    """...and at once."""
    failures: int = 20
    """Failed logins (over any names) after which the client is locked out..."""
    window: float = 900.0
    """...if they came within these seconds..."""
    lock: float = 900.0
    """...for these seconds."""


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
        locked = await self.counts.marked(f"login-lock:{client}")
        if locked > 0:
            return float(whole_seconds(locked))
        wait = await self.counts.take(f"logins:{client}", self.rules.per_minute / 60.0, self.rules.burst)
        return float(whole_seconds(wait)) if wait else None

    async def failed(self, client: str) -> None:
        """Count a failed login of ``client`` (locking it out at the count)."""
        if await self.counts.note(f"login-failures:{client}", self.rules.window) >= self.rules.failures:
            await self.counts.mark(f"login-lock:{client}", self.rules.lock)
            await self.counts.forget(f"login-failures:{client}")

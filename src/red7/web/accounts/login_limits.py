"""What one client may try of the accounts in one server process: logins and
registrations at a rate (each costs an argon2 hash). Failed logins slow their address
down in every process (:mod:`red7.web.accounts.throttle`, in the database).

A client is what :func:`~red7.web.http.limits.client_key` says (an address, an IPv6 /64).
Time is read from the server's clock (``Settings.clock``), which tests move by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..http.limits import Bucket, whole_seconds


@dataclass(frozen=True)
class LoginRules:
    """The rate of a client's logins and registrations."""

    per_minute: float = 10.0
    """Logins and registrations a client may try a minute, on average..."""
    burst: int = 10
    """...and at once."""


@dataclass
class LoginLimits:
    """The counts of one process's clients against :class:`LoginRules`."""

    rules: LoginRules
    clock: Callable[[], float]
    _buckets: dict[str, Bucket] = field(default_factory=dict)

    def refusal(self, client: str) -> float | None:
        """The seconds ``client`` must wait before trying to log in or register (None:
        it may now; the try is counted)."""
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > 100_000:  # a spread flood: forget the full buckets
                self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.burst}
            bucket = self._buckets[client] = Bucket.full(self.rules.per_minute / 60.0, self.rules.burst, now)
        wait = bucket.take(now)
        return float(whole_seconds(wait)) if wait else None

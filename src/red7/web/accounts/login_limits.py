"""What one client may try of the accounts in one server process: logins and
registrations at a rate, and a lockout after many failed logins (whatever names they
were for). The lockout of a name, for every process, is the database's
(:class:`red7.web.accounts.accounts.Lockout`).

A client is what :func:`~red7.web.http.limits.client_key` says (an address, an IPv6 /64).
Time is read from the server's clock (``Settings.clock``), which tests move by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..http.limits import Bucket, whole_seconds


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
    """The counts of one process's clients against :class:`LoginRules`."""

    rules: LoginRules
    clock: Callable[[], float]
    _buckets: dict[str, Bucket] = field(default_factory=dict)
    _failures: dict[str, list[float]] = field(default_factory=dict)
    _locked: dict[str, float] = field(default_factory=dict)

    def refusal(self, client: str) -> float | None:
        """The seconds ``client`` must wait before trying to log in or register (None:
        it may now; the try is counted)."""
        now = self.clock()
        until = self._locked.get(client)
        if until is not None:
            if until > now:
                return float(whole_seconds(until - now))
            del self._locked[client]
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > 100_000:  # a spread flood: forget the full buckets
                self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.burst}
            bucket = self._buckets[client] = Bucket.full(self.rules.per_minute / 60.0, self.rules.burst, now)
        wait = bucket.take(now)
        return float(whole_seconds(wait)) if wait else None

    def failed(self, client: str) -> None:
        """Count a failed login of ``client`` (locking it out at the count)."""
        now = self.clock()
        recent = [at for at in self._failures.get(client, []) if now - at < self.rules.window]
        recent.append(now)
        if len(recent) >= self.rules.failures:
            self._locked[client] = now + self.rules.lock
            recent = []
        self._failures[client] = recent
        if len(self._failures) > 100_000:
            self._failures = {k: v for k, v in self._failures.items() if v and now - v[-1] < self.rules.window}

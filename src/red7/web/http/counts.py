"""Where the counts behind the clients' limits are kept (:class:`Counts`): in this process's
memory (:class:`LocalCounts`), or in Redis for every process of a club
(:class:`red7.web.http.redis_counts.RedisCounts`, ``red7 serve --redis-url``), which counts in
its own memory while Redis is away.

A count is named by a key, what is counted and for whom (``tables:192.0.2.7``), and is one of:

* a token bucket (:meth:`Counts.take`, :meth:`Counts.give_back`): ``burst`` takes at once,
  ``rate`` a second on average (tables created, seats taken, logins tried...);
* leases, things held at most so many at once (:meth:`Counts.hold`, :meth:`Counts.release`:
  WebSockets open);
* names with their age (:meth:`Counts.listed`, :meth:`Counts.add`, :meth:`Counts.remove`: the
  tables a client created that may still be open).

Every method is a coroutine (with Redis, one round trip, atomic where it reads and writes,
which the event loop serves other requests during). Time is the counts' own: the server's
clock here (``Settings.clock``, which tests stop and move by hand), Redis's in Redis (one
clock for every process, whatever their hosts' say).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from .limits import Bucket

FORGET_AT = 100_000
"""Keys of one kind kept before those that no longer count anything are forgotten (a
flood spread over many addresses must not grow a process's memory without end)."""
KEPT = 7 * 86400.0
"""Seconds a list is kept after the last name added to it."""


class Counts:
    """The counts of a server's clients (module docstring); :class:`LocalCounts` and
    :class:`~red7.web.http.redis_counts.RedisCounts` keep them."""

    shared = False
    """Whether the counts are every process's of the club now (in Redis), not this one's alone."""

    async def take(self, key: str, rate: float, burst: float) -> float:
        """Take a token of the bucket ``key`` (a full bucket of ``burst`` refilled at ``rate``
        a second, for a key not seen yet): 0 if there was one, else (none taken) the
        seconds until there is."""
        raise NotImplementedError

    async def give_back(self, key: str, rate: float, burst: float) -> None:
        """Give back a token :meth:`take` took (what it was taken for was not done)."""
        raise NotImplementedError

    async def hold(self, key: str, most: int) -> str | None:
        """Hold one more of ``key``, at most ``most`` at once: the lease's name, None (not
        held) if ``most`` are held already."""
        raise NotImplementedError

    async def release(self, key: str, lease: str) -> None:
        """Let go of what :meth:`hold` held."""
        raise NotImplementedError

    async def listed(self, key: str) -> dict[str, float]:
        """The names on ``key``'s list, each with its age (seconds since :meth:`add`)."""
        raise NotImplementedError

    async def add(self, key: str, name: str) -> None:
        """Put ``name`` on ``key``'s list (kept a week at most after the last one added)."""
        raise NotImplementedError

    async def remove(self, key: str, names: list[str]) -> None:
        """Take ``names`` off ``key``'s list."""
        raise NotImplementedError

    async def start(self) -> None:
        """Start what keeps the counts (a task, with Redis)."""

    async def stop(self) -> None:
        """Stop it, and close its connections."""


class LocalCounts(Counts):
    """The counts in this process's memory, on ``clock``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}
        self._held: dict[str, set[str]] = {}
        self._lists: dict[str, dict[str, float]] = {}
        """Each list's names, with when each was added."""
        self._leases = itertools.count()

    async def take(self, key: str, rate: float, burst: float) -> float:
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > FORGET_AT:  # forget the full buckets
                self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.burst}
            bucket = self._buckets[key] = Bucket.full(rate, burst, now)
        return bucket.take(now)

    async def give_back(self, key: str, rate: float, burst: float) -> None:
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.give_back()

    async def hold(self, key: str, most: int) -> str | None:
        held = self._held.setdefault(key, set())
        if len(held) >= most:
            return None
        lease = str(next(self._leases))
        held.add(lease)
        return lease

    async def release(self, key: str, lease: str) -> None:
        held = self._held.get(key)
        if held is not None:
            held.discard(lease)
            if not held:
                del self._held[key]

    async def listed(self, key: str) -> dict[str, float]:
        now = self.clock()
        return {name: now - at for name, at in self._lists.get(key, {}).items()}

    async def add(self, key: str, name: str) -> None:
        now = self.clock()
        if len(self._lists) > FORGET_AT:
            self._lists = {k: v for k, v in self._lists.items() if max(v.values()) > now - KEPT}
        self._lists.setdefault(key, {})[name] = now

    async def remove(self, key: str, names: list[str]) -> None:
        found = self._lists.get(key)
        if found is not None:
            for name in names:
                found.pop(name, None)
            if not found:
                del self._lists[key]

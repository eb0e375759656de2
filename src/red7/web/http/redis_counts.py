"""The clients' counts in Redis, one for every process of a club (``red7 serve --redis-url``),
so that a client behind a proxy spreading its requests over N processes gets its limits once,
not N times (:class:`RedisCounts`).

Each count is one round trip on ``redis.asyncio`` (the event loop serves other requests
meanwhile), atomic where it reads and writes (a Lua script, timed by Redis's clock). Its
keys are named after the club (``red7:<identity>:``, :mod:`red7.web.storage.identity`), so
two clubs on one Redis count apart, and each expires once it counts nothing more.

**While Redis is away** (a call refused, or unanswered for :data:`TIMEOUT` seconds), this
process counts in its own memory, as one without Redis does (:class:`LocalCounts`): a client
may then get up to N times its limits. It says so once per outage in the log, and in
``red7_limits_shared`` (0), looks for Redis every :data:`RETRY` seconds, and once it answers
counts there again (said in the log too): Redis's counts go on from where they were, and
the WebSockets this process holds are counted there again.

**WebSockets** held are leases: each counted until its end, :data:`LEASE` seconds ahead,
which this process moves on every :data:`RENEW` seconds while the socket is open. A process
that dies leaves its sockets counted :data:`LEASE` seconds at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from .counts import KEPT, Counts, LocalCounts

log = logging.getLogger("red7.web")

TIMEOUT: Final = 1.0
"""Seconds a call to Redis may take before Redis is taken for away."""
RETRY: Final = 2.0
"""Seconds between two looks for Redis while it is away."""
LEASE: Final = 60.0
"""Seconds a WebSocket's lease lasts unless renewed."""
RENEW: Final = 20.0
"""Seconds between two renewals of this process's leases."""

T = TypeVar("T")

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local function ms(seconds) return string.format('%d', math.min(math.ceil(seconds * 1000), 2592000000)) end
local function at(seconds) return string.format('%.6f', seconds) end
"""

TAKE = (
    _NOW
    + """
-- KEYS[1]: a token bucket (tokens, at); ARGV: rate a second, burst, 'take' or 'give'
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local was = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, since = tonumber(was[1]), tonumber(was[2])
if tokens == nil or since == nil then
  if ARGV[3] == 'give' then return '0' end
  tokens, since = burst, now
end
tokens = math.min(burst, tokens + math.max(0, now - since) * rate)
local wait = 0
if ARGV[3] == 'give' then tokens = math.min(burst, tokens + 1)
elseif tokens < 1 then wait = (1 - tokens) / rate
else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', at(now))
redis.call('PEXPIRE', KEYS[1], ms((burst - tokens) / rate + 1))
return string.format('%.17g', wait)
"""
)
"""A token bucket: :meth:`~red7.web.http.counts.Bucket.take` (and ``give_back``) in Redis."""

HOLD = (
    _NOW
    + """
-- KEYS[1]: a sorted set of leases (scored by their end); ARGV: most at once, lease seconds, the lease's name
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', at(now))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], at(now + tonumber(ARGV[2])), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ms(tonumber(ARGV[2])))
return 1
"""
)

RENEW_ALL = (
    _NOW
    + """
-- KEYS: each lease's set; ARGV[1]: lease seconds, ARGV[i + 1]: the lease of KEYS[i]
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, at(now + lease), ARGV[i + 1])
  redis.call('PEXPIRE', key, ms(lease))
end
return #KEYS
"""
)

ADD = (
    _NOW
    + """
-- KEYS[1]: a sorted set of names (scored by when added); ARGV: the name, seconds kept
redis.call('ZADD', KEYS[1], at(now), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ms(tonumber(ARGV[2])))
return 1
"""
)

LISTED = (
    _NOW
    + """
-- KEYS[1]: a sorted set of names (scored by when added): each name and its age
local found = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local aged = {}
for i = 1, #found, 2 do
  aged[#aged + 1] = found[i]
  aged[#aged + 1] = string.format('%.6f', now - tonumber(found[i + 1]))
end
return aged
"""
)


class RedisCounts(Counts):
    """The counts of the club ``club`` in the Redis at ``url``, with this process's own
    (:class:`LocalCounts` on ``clock``) while Redis is away (module docstring)."""

    def __init__(self, url: str, club: str, clock: Callable[[], float]) -> None:
        import redis.asyncio as redis

        self.client = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        self.prefix = f"red7:{club}:"
        self.local = LocalCounts(clock)
        self.shared = True
        self.process = secrets.token_hex(4)
        """This process's name in its leases."""
        self._names = itertools.count()
        self._held: dict[str, set[str]] = {}
        """The leases this process holds, by key (in Redis or not: renewed, and counted while Redis is away)."""
        self._scripts = {
            name: self.client.register_script(source)
            for name, source in (
                ("take", TAKE),
                ("hold", HOLD),
                ("renew", RENEW_ALL),
                ("add", ADD),
                ("listed", LISTED),
            )
        }
        self._task: asyncio.Task[None] | None = None

    # --- the counts --------------------------------------------------------------

    async def take(self, key: str, rate: float, burst: float) -> float:
        async def shared() -> float:
            return float(await self._run("take", key, rate, burst, "take"))

        return await self._either(shared, lambda: self.local.take(key, rate, burst))

    async def give_back(self, key: str, rate: float, burst: float) -> None:
        async def shared() -> None:
            await self._run("take", key, rate, burst, "give")

        await self._either(shared, lambda: self.local.give_back(key, rate, burst))

    async def hold(self, key: str, most: int) -> str | None:
        lease = self._name()

        async def shared() -> bool:
            return int(await self._run("hold", key, most, LEASE, lease)) == 1

        async def here() -> bool:  # this process's own leases alone
            return len(self._held.get(key, ())) < most

        if not await self._either(shared, here):
            return None
        self._held.setdefault(key, set()).add(lease)
        return lease

    async def release(self, key: str, lease: str) -> None:
        held = self._held.get(key)
        if held is not None:
            held.discard(lease)
            if not held:
                del self._held[key]

        async def shared() -> None:
            await self.client.zrem(self.prefix + key, lease)

        async def here() -> None:
            pass  # not in Redis now: its lease there ends by itself

        await self._either(shared, here)

    async def listed(self, key: str) -> dict[str, float]:
        async def shared() -> dict[str, float]:
            found = await self._run("listed", key)
            return {found[i].decode(): float(found[i + 1]) for i in range(0, len(found), 2)}

        return await self._either(shared, lambda: self.local.listed(key))

    async def add(self, key: str, name: str) -> None:
        async def shared() -> None:
            await self._run("add", key, name, KEPT)

        await self._either(shared, lambda: self.local.add(key, name))

    async def remove(self, key: str, names: list[str]) -> None:
        if not names:
            return

        async def shared() -> None:
            await self.client.zrem(self.prefix + key, *names)

        await self._either(shared, lambda: self.local.remove(key, names))

    # --- Redis there or away -----------------------------------------------------

    async def start(self) -> None:
        """Look whether Redis answers (said in the log if not), then keep the leases and look for Redis while away."""
        await self._look()
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await self.client.aclose()

    async def _either(self, shared: Callable[[], Awaitable[T]], local: Callable[[], Awaitable[T]]) -> T:
        """``shared()`` while Redis answers, else (and if it fails now) ``local()``."""
        if self.shared:
            from redis.exceptions import RedisError

            try:
                return await shared()
            except (RedisError, OSError) as err:
                self._lost(err)
        return await local()

    def _lost(self, err: BaseException) -> None:
        if self.shared:
            self.shared = False
            log.warning(
                "limits: Redis is away (%s): each client's limits are counted by this process alone until it is back",
                type(err).__name__,
            )

    async def _look(self) -> None:
        """Renew this process's leases in Redis; Redis is there again if that works."""
        from redis.exceptions import RedisError

        try:
            await self.client.ping()
            held = [(key, lease) for key, leases in self._held.items() for lease in leases]
            if held:
                await self._scripts["renew"](
                    keys=[self.prefix + key for key, _ in held], args=[LEASE, *(lease for _, lease in held)]
                )
        except (RedisError, OSError) as err:
            self._lost(err)
            return
        if not self.shared:
            self.shared = True
            log.warning("limits: Redis is back: each client's limits are counted across the club's processes again")

    async def _keep(self) -> None:
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(RETRY)
            if not self.shared or time.monotonic() - renewed >= RENEW:
                await self._look()
                renewed = time.monotonic()

    async def _run(self, script: str, key: str, *args: Any) -> Any:
        return await self._scripts[script](keys=[self.prefix + key], args=list(args))

    def _name(self) -> str:
        return f"{self.process}:{next(self._names)}"

"""The counts behind the clients' limits (:mod:`red7.web.http.counts`): the same answers
from a process's memory and from Redis (:class:`~red7.web.http.redis_counts.RedisCounts`,
its Lua scripts); in Redis, one count for the processes of a club and apart for another
club; a dead process's WebSockets let go when their leases end; and while Redis is away,
each process's own counts, until Redis answers again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

import pytest

from red7.web.http import redis_counts
from red7.web.http.counts import Counts, LocalCounts
from red7.web.http.redis_counts import RedisCounts
from tests.support import local_services as services

pytestmark = pytest.mark.services

T = TypeVar("T")


def run(work: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await work()

    return asyncio.run(main())


@pytest.fixture
def redis() -> Iterator[services.Redis]:
    with services.Redis() as server:
        yield server


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_each_count_answers_the_same_in_memory_and_in_redis(kind: str, redis: services.Redis) -> None:
    async def check() -> None:
        counts: Counts = (
            LocalCounts(time.monotonic) if kind == "memory" else RedisCounts(redis.url, "c1", time.monotonic)
        )
        await counts.start()
        try:
            # a bucket of 2, one token an hour
            assert [await counts.take("b", 1 / 3600, 2) for _ in range(2)] == [0.0, 0.0]
            wait = await counts.take("b", 1 / 3600, 2)
            assert 3500 < wait <= 3600
            await counts.give_back("b", 1 / 3600, 2)
            assert await counts.take("b", 1 / 3600, 2) == 0.0
            await counts.give_back("none", 1.0, 2)  # a bucket never taken from: nothing
            # leases
            first, second = await counts.hold("s", 2), await counts.hold("s", 2)
            assert first is not None and second is not None and first != second
            assert await counts.hold("s", 2) is None
            await counts.release("s", first)
            assert await counts.hold("s", 2) is not None
            # a list of names with their ages
            await counts.add("l", "x")
            await counts.add("l", "y")
            listed = await counts.listed("l")
            assert sorted(listed) == ["x", "y"] and all(0 <= age < 60 for age in listed.values())
            await counts.remove("l", ["x"])
            assert list(await counts.listed("l")) == ["y"]
            assert counts.shared is (kind == "redis")
        finally:
            await counts.stop()

    run(check)


def test_the_processes_of_a_club_count_together_and_another_club_apart(redis: services.Redis) -> None:
    async def check() -> None:
        one, two, other = (RedisCounts(redis.url, club, time.monotonic) for club in ("c1", "c1", "c2"))
        try:
            assert await one.take("b", 1e-6, 2) == 0.0 and await two.take("b", 1e-6, 2) == 0.0
            assert await one.take("b", 1e-6, 2) > 0 and await two.take("b", 1e-6, 2) > 0
            assert await other.take("b", 1e-6, 2) == 0.0  # another club's bucket
            assert await one.hold("s", 1) is not None
            assert await two.hold("s", 1) is None and await other.hold("s", 1) is not None
        finally:
            for counts in (one, two, other):
                await counts.stop()

    run(check)


def test_a_dead_processs_sockets_stop_counting_when_their_leases_end(
    redis: services.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_counts, "LEASE", 1.0)

    async def check() -> None:
        dead, alive = RedisCounts(redis.url, "c1", time.monotonic), RedisCounts(redis.url, "c1", time.monotonic)
        try:
            assert await dead.hold("s", 1) is not None  # and never released: the process is gone
            assert await alive.hold("s", 1) is None
            deadline = time.monotonic() + 60
            while await alive.hold("s", 1) is None:
                assert time.monotonic() < deadline, "the dead process's lease never ended"
                await asyncio.sleep(0.1)
        finally:
            await dead.stop()
            await alive.stop()

    run(check)


def test_while_redis_is_away_a_process_counts_its_own_then_shares_again(
    redis: services.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    async def check() -> None:
        counts = RedisCounts(redis.url, "c1", time.monotonic)
        await counts.start()
        try:
            assert await counts.hold("s", 2) is not None and counts.shared
            redis.stop()
            assert await counts.take("b", 1e-6, 1) == 0.0  # counted here: the process serves
            assert not counts.shared
            assert await counts.take("b", 1e-6, 1) > 0  # and counts (its own)
            assert await counts.hold("s", 2) is not None  # its socket held before counts too
            assert await counts.hold("s", 2) is None
            redis.start()
            deadline = time.monotonic() + 60
            while not counts.shared:  # looked for every RETRY seconds
                assert time.monotonic() < deadline, "Redis was never found again"
                await asyncio.sleep(0.1)
            # Redis (empty again: it keeps nothing) counts this process's two sockets again
            other = RedisCounts(redis.url, "c1", time.monotonic)
            try:
                assert await other.hold("s", 3) is not None and await other.hold("s", 3) is None
            finally:
                await other.stop()
        finally:
            await counts.stop()

    with caplog.at_level("WARNING", logger="red7.web"):
        run(check)
    said = [r.getMessage() for r in caplog.records]
    assert sum("limits: Redis is away" in line for line in said) == 1, said
    assert sum("limits: Redis is back" in line for line in said) == 1, said

"""The search pool: where a server process works out people's hints and reviews
(:class:`SearchPool`), apart from everything else it does.

A hint runs the ``hard`` bot's search for a turn, a review the exact solver over a whole
game: up to seconds of CPU each, asked for by anyone. They used to run in the event loop's
default pool of threads, the one every account call, the readiness probe's database
ping and the other short calls of the server wait in: one client asking hints at 20
tables filled it, and ``/readyz`` took seconds to answer (issue 46). So they have a
pool of their own, bounded (``red7 serve --search-workers``: by default one worker a
core, :func:`default_workers`), which nothing else uses; and what one user of it may
hold at once is bounded too (:attr:`SearchPool.share`: half its workers, at least one;
the hints count each client against it, :mod:`red7.web.reviews.hints`, and the reviews
all together, :mod:`red7.web.reviews.reviews`).

**Processes, not threads.** The compiled core releases the GIL in the bots' sampling
and tree search but holds it through the exact solver, which the ``hard`` bot and the
reviews call all the time, and the bots' own Python holds it too: worked out in threads
of the server, the search takes the GIL from the event loop for milliseconds at a time.
In processes it cannot, and a worker that dies (killed, out of memory) takes no table
with it: the pool starts new ones for the next job. Measured with
``benchmarks/hint_flood.py`` (docs/results/web.md, 2026-12-07), with the per-client
share on, two threads and two processes gave close figures (``/readyz`` at most
96–149 ms in threads, 68–106 ms in processes, against 1.8–3.8 s before the pool): the
share, which holds the flood to one hint at a time, did most of it. A worker is started
(``spawn``, so it inherits no socket of the server's) at its first job and ends with the
server (:func:`red7.web.table.bots.end_with_parent`); a job's arguments and result are
pickled (a copy of the game; a finished game's session). A review's progress
comes back from its worker through a queue that a thread of the server reads.

Tests run the pool in threads (``threads=True``) so that they can hold its work on an
event or replace the search in their own process.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import multiprocessing.queues
import os
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from ..table.bots import end_with_parent

T = TypeVar("T")

Progress = Callable[[int, int], None]
"""How far a job is: ``(done, total)``."""
Reports = multiprocessing.queues.SimpleQueue[tuple[int, tuple[int, int] | None] | None]
"""From the worker processes to the server: ``(job, (done, total))``, then ``(job, None)``
once the job is over (it reports no more); None stops the thread that reads them."""

log = logging.getLogger("red7.web")

_reports: Reports | None = None
"""In a worker process: where its jobs' progress goes (:func:`_reporting`)."""


def default_workers() -> int:
    """One worker a core this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on Linux)
        return max(1, os.cpu_count() or 1)


def _started(reports: Reports) -> None:
    """A worker process's initializer: it ends with the server, and reports progress to ``reports``."""
    global _reports
    end_with_parent()
    _reports = reports


def _reporting(job: int, work: Callable[..., T], *args: Any) -> T:
    """In a worker process: ``work(*args, progress)``, its progress sent to the server as
    job ``job``'s, and then that the job reports no more (its result travels apart, and
    may come first: the server forgets the job's callback only once this has come)."""
    reports = _reports
    assert reports is not None, "a report from outside a worker process"

    def progress(done: int, total: int) -> None:
        reports.put((job, (done, total)))

    try:
        return work(*args, progress)
    finally:
        reports.put((job, None))


class SearchPool:
    """A server process's pool for search work: ``workers`` processes (0: one a core; ``threads``: threads
    of this process, for tests), started at the first job and stopped by :meth:`close`
    (the next job starts them again)."""

    def __init__(self, workers: int = 0, threads: bool = False) -> None:
        self.workers = workers or default_workers()
        self.threads = threads
        self._executor: Executor | None = None
        self._relay: threading.Thread | None = None
        self._reports: Reports | None = None
        self._progress: dict[int, Progress] = {}
        self._jobs = itertools.count()
        self._lock = threading.Lock()
        self._held: Counter[str] = Counter()

    @property
    def share(self) -> int:
        """The most one user of the pool (a client's hints, the reviews) may hold at once:
        half its workers, at least one, so that (with two workers or more) no user holds
        them all."""
        return max(1, self.workers // 2)

    def held(self, holder: str) -> int:
        """The jobs of ``holder`` in the pool (waiting for a worker, or being worked out)."""
        with self._lock:
            return self._held[holder]

    def submit(
        self, work: Callable[..., T], *args: Any, holder: str | None = None, progress: Progress | None = None
    ) -> asyncio.Future[T]:
        """``work(*args)`` in a worker (its arguments and result pickled, with processes),
        counted against ``holder`` (if any) until the worker is done with it, cancelled
        or not; with ``progress``, ``work`` is called with a last argument, a callable to
        give it ``(done, total)``, and ``progress`` is called with them in a thread of this
        process. Call from the event loop; its future is the loop's."""
        executor = self._executor or self._start()
        job = next(self._jobs)
        if progress is not None and self.threads:
            args = (*args, progress)
        elif progress is not None:
            self._progress[job] = progress
            work, args = _reporting, (job, work, *args)
        try:
            submitted: Future[T] = executor.submit(work, *args)
        except BrokenExecutor:  # a worker died (its jobs then failed): new workers, for this job on
            log.warning("a search worker ended unexpectedly: starting new ones")
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            submitted = self._start().submit(work, *args)
        if holder is not None:  # (before the callback that counts it out, which may run at once)
            with self._lock:
                self._held[holder] += 1
        submitted.add_done_callback(lambda done: self._done(job, holder, done))
        return asyncio.wrap_future(submitted)

    def _done(self, job: int, holder: str | None, done: Future[T]) -> None:
        if done.cancelled() or done.exception() is not None:  # (it may never have run: no end reported)
            self._progress.pop(job, None)
        if holder is not None:
            with self._lock:
                self._held[holder] -= 1
                if not self._held[holder]:
                    del self._held[holder]

    def _start(self) -> Executor:
        if self.threads:
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="red7-search")
            return self._executor
        # spawned, not forked: a forked worker would inherit the listening socket
        spawn = multiprocessing.get_context("spawn")
        if self._reports is None:
            self._reports = spawn.SimpleQueue()
            self._relay = threading.Thread(
                target=self._relayed, args=(self._reports,), name="red7-search-progress", daemon=True
            )
            self._relay.start()
        self._executor = ProcessPoolExecutor(self.workers, spawn, initializer=_started, initargs=(self._reports,))
        return self._executor

    def _relayed(self, reports: Reports) -> None:
        """The progress of the jobs in worker processes, handed to their callbacks (until None)."""
        while (report := reports.get()) is not None:
            job, progress = report
            if progress is None:  # the job is over
                self._progress.pop(job, None)
            elif (callback := self._progress.get(job)) is not None:
                callback(*progress)

    def close(self) -> None:
        """Stop the workers: jobs not started are cancelled, a job being worked out ends
        on its own (the server does not wait for it)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if self._reports is not None and self._relay is not None:
            self._reports.put(None)
            self._relay.join()
            self._reports.close()
            self._reports = self._relay = None

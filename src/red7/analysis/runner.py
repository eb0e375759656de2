"""Playing many bot games, one process or many: the one runner of tournaments and statistics.

A :class:`GameTask` is everything that decides one game (who sits where, the deal's
seed, the configuration) plus, optionally, what to measure in it. :func:`play_task` is
a pure function of its task: each seat gets a fresh bot built from its spec, and the
bots' random streams follow from the task's seed (:func:`red7.play.match.bot_rng`), so
the same task gives the same game on any machine, in any process; only the measured
seconds differ.

**Measures.** What a task measures is a hook, not a flag: ``task.measure`` is a
:data:`MeasureFactory`, a module-level callable (usually a class) returning a fresh
:class:`Measure` for the game. The runner gives the measure the ``before_decision`` hook
of :func:`red7.play.match.play_game` while the game is played, then asks it for its
figures of the finished game, stored under the record's ``analysis`` key. Tasks are
pickled to reach worker processes (or Ray workers): a module-level factory pickles as
a reference to its module, which the worker imports.

**Backends.** :func:`run` plays the tasks through a :data:`Backend`: :func:`run_local`
(this process, or a pool of ``jobs`` processes) by default; another backend (such as
:func:`red7.analysis.ray_backend.run_ray`) only has to yield the records of
:func:`play_chunk` calls. Records come back sorted by game index, so results are the
same whatever the backend and the number of processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import make_bot
from ..core.game import Game
from ..core.model import Config
from ..play.match import play_game

GameRecord = dict[str, Any]
"""What :func:`play_task` returns for one game: JSON-ready apart from ``analysis``."""


class Measure(Protocol):
    """Figures taken from one game while it is played."""

    def before_decision(self, game: Game) -> None:
        """Look at the game before each decision (the game must not be changed)."""

    def result(self, game: Game) -> dict[str, Any]:
        """The figures of the finished ``game`` (the one shown to :meth:`before_decision`)."""


MeasureFactory = Callable[[], Measure]
"""Makes the :class:`Measure` of one game; must be a module-level callable so that a
task carrying it can be pickled."""


@dataclass(frozen=True, kw_only=True)
class GameTask:
    """Everything that decides one game; :func:`play_task` is a pure function of it."""

    index: int
    """Position in the tournament's (or the statistics') list of games."""
    table: int
    deal: int
    rotation: int
    seating: tuple[str, ...]
    """The entrant label in each seat."""
    specs: tuple[str, ...]
    """The bot spec in each seat."""
    seed: int
    """The game's seed: it shuffles the deals (R2.2) and seeds every bot's RNG."""
    config: Config
    measure: MeasureFactory | None = None
    """What else to measure in the game (its figures go under the record's ``analysis``)."""

    def identity(self) -> GameRecord:
        """The fields of a game's record that name the game (which table, deal, rotation,
        seating and seed), whichever engine plays it."""
        return {
            "index": self.index, "table": self.table, "deal": self.deal, "rotation": self.rotation,
            "seating": list(self.seating), "seed": self.seed,
        }  # fmt: skip


def play_task(task: GameTask) -> GameRecord:
    """Play one game; a record with the outcome per seat (``times``: the seconds each
    of the seat's decisions took) and, with a measure, its figures as ``analysis``."""
    bots = [make_bot(spec) for spec in task.specs]
    measure = task.measure() if task.measure is not None else None
    played = play_game(bots, task.seed, task.config, measure.before_decision if measure is not None else None)
    game = played.game
    assert game.result is not None
    record: GameRecord = {
        **task.identity(),
        "winners": list(played.winners),
        "ranks": list(played.ranks),
        "scores": list(game.result.scores),
        "rounds": game.result.rounds,
        "turns": game.turns,
        "decisions": list(played.decisions),
        "seconds": [round(s, 6) for s in played.seconds],
        "times": [list(t) for t in played.times],
    }
    if measure is not None:
        record["analysis"] = measure.result(game)
    return record


def play_chunk(tasks: Sequence[GameTask]) -> list[GameRecord]:
    """Play several games in a row (one unit of work for a process or a Ray task)."""
    return [play_task(t) for t in tasks]


Backend = Callable[[Sequence[GameTask], int], Iterable[list[GameRecord]]]
"""Plays ``tasks`` with ``jobs`` workers and yields the records of each batch of games
as it finishes, in any order."""

CHUNK_SECONDS = 0.25
"""Bot time a unit of work of the local pool grows to."""
MAX_CHUNK = 25


def chunked(tasks: Sequence[GameTask], jobs: int) -> list[list[GameTask]]:
    """Split the games into units of work of a fixed size (for remote workers): small
    enough for a live progress bar and to share the load, large enough that sending them
    costs little."""
    size = max(1, min(MAX_CHUNK, len(tasks) // (jobs * 16)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run_local(tasks: Sequence[GameTask], jobs: int) -> Iterator[list[GameRecord]]:
    """The local backend: every game in this process with ``jobs=1``, else a pool of
    ``jobs`` processes."""
    if jobs == 1 or len(tasks) <= 1:
        for task in tasks:
            yield [play_task(task)]
        return
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    # Units of work start at one game and grow to about CHUNK_SECONDS of bot time
    # (cheap games would otherwise cost more to send than to play); only the
    # grouping depends on timing, never a game. The platform's default start method
    # is used: where it forks, the caller must run no other thread (the CLI's
    # progress bar runs none).
    queue = list(reversed(tasks))
    size = 1
    pending: set[Future[list[GameRecord]]] = set()
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)))
    try:
        while queue or pending:
            while queue and len(pending) < 2 * jobs:
                pending.add(pool.submit(play_chunk, [queue.pop() for _ in range(min(size, len(queue)))]))
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                batch = future.result()
                per_game = sum(sum(r["seconds"]) for r in batch) / len(batch)
                size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(per_game, 1e-6))))
                yield batch
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run(
    tasks: Sequence[GameTask],
    jobs: int = 1,
    backend: Backend = run_local,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play every game, ``jobs`` at a time, and return their records in game-index order.

    ``progress`` is called with the number of games each time some finish. Raises
    RuntimeError if the backend loses or duplicates a game.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    records: list[GameRecord] = []
    for batch in backend(tasks, jobs):
        records.extend(batch)
        if progress is not None:
            progress(len(batch))
    records.sort(key=lambda r: r["index"])
    if [r["index"] for r in records] != sorted(t.index for t in tasks):
        raise RuntimeError("the backend lost or duplicated games")
    return records

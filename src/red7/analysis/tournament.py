"""Tournaments between bots: who plays whom (:func:`schedule`), playing the games in
parallel (:func:`run`) and what the results say (:func:`summarize`).

Entrants are bot specs (``make_bot``'s, such as ``hard`` or ``ismcts:iters=400``);
the same spec may enter twice and is then labelled ``easy``, ``easy#2``...

* **Tables.** With more entrants than seats, every combination of ``players``
  entrants forms a table (2 players with hard, medium, easy: hard-medium, hard-easy,
  medium-easy); otherwise all the entrants sit at one table.
* **Duplicate deals.** A table plays deals; deal ``d`` is shuffled from
  :func:`deal_seed` ``(seed, d)`` (the same deals at every table) and replayed once per
  seat rotation, so every entrant plays every seat of every deal. ``games`` per table
  is rounded down to a whole number of deals.
* **Reproducible.** A game is a pure function of its :class:`GameTask` (specs per
  seat, deal seed, options): a fresh bot per game, each bot's RNG seeded from the deal
  seed and its seat. Results are sorted by game index before they are summarized, so
  they are the same whatever the number of processes or the backend; only the
  measured seconds differ.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import BotSpecError, make_bot
from ..core.model import Config
from ..play.match import play_game

BACKENDS = ("local", "ray")
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution (Wilson intervals)."""


class TournamentError(ValueError):
    """A tournament that cannot be scheduled (too few entrants, too few games...)."""


# --- entrants ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    label: str
    """Unique name in this tournament: the spec, then ``#2``, ``#3`` for repeats."""
    spec: str
    """What :func:`red7.bots.make_bot` is given (normalized: the bot's own name)."""


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping each spec's own options.

    Options are separated by commas too, so a piece with ``=`` but no ``:`` belongs
    to the spec before it:

    >>> split_specs("hard, ismcts:iters=20,c=1.5,easy")
    ['hard', 'ismcts:iters=20,c=1.5', 'easy']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def make_entrants(specs: Sequence[str]) -> list[Entrant]:
    """Check every spec (by building its bot) and label repeats; raises BotSpecError."""
    if not specs:
        raise BotSpecError("no bots given")
    entrants: list[Entrant] = []
    seen: dict[str, int] = {}
    for spec in specs:
        if not spec.strip():
            raise BotSpecError("an empty bot spec (two commas in a row?)")
        name = make_bot(spec).name
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        entrants.append(Entrant(label, name))
    return entrants


# --- schedule ---------------------------------------------------------------------------


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` of a tournament seeded ``seed`` (63 bits)."""
    digest = hashlib.blake2b(f"red7-deal:{seed}:{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class GameTask:
    """Everything that decides one game; :func:`play_task` is a pure function of it."""

    index: int
    table: int
    deal: int
    rotation: int
    seating: tuple[str, ...]
    """The entrant label in each seat."""
    specs: tuple[str, ...]
    """The bot spec in each seat."""
    seed: int
    advanced: bool = False
    actions: bool = False
    analyse: bool = False
    """Also return the game designer's figures of :func:`red7.analysis.stats.analyse`."""


@dataclass
class Schedule:
    entrants: list[Entrant]
    players: int
    tables: list[tuple[Entrant, ...]]
    rotations: int
    deals: int
    """Deals per table; each is played once per seat rotation."""
    games_requested: int
    seed: int
    advanced: bool
    actions: bool
    tasks: list[GameTask] = field(default_factory=list)

    @property
    def games_per_table(self) -> int:
        return self.deals * self.rotations

    @property
    def rounded(self) -> bool:
        """Was the number of games per table rounded down to whole deals?"""
        return self.games_per_table != self.games_requested


def rotations_of(table: Sequence[Entrant]) -> list[tuple[Entrant, ...]]:
    """Every cyclic seat rotation: in rotation ``r`` seat ``s`` holds ``table[(s + r) % n]``."""
    n = len(table)
    return [tuple(table[(s + r) % n] for s in range(n)) for r in range(n)]


def schedule(
    entrants: Sequence[Entrant],
    players: int,
    games: int,
    seed: int,
    advanced: bool = False,
    actions: bool = False,
) -> Schedule:
    """The tables and every game of a tournament (see the module docstring).

    ``games`` is per table: at least one game per seat rotation, rounded down to a
    whole number of deals. Game indices run table by table, deal by deal, rotation by
    rotation.
    """
    if not 2 <= players <= 4:
        raise TournamentError(f"Red7 is played by 2 to 4 players, not {players}")
    if len(entrants) < players:
        raise TournamentError(
            f"{len(entrants)} bot(s) cannot fill a table of {players} players: give at least {players} bots "
            "(the same bot may be given more than once)"
        )
    if len(entrants) == players:
        tables = [tuple(entrants)]
    else:
        tables = list(itertools.combinations(entrants, players))
    rotations = players
    if games < rotations:
        raise TournamentError(
            f"--games {games} is fewer than the {rotations} seat rotations of a {players}-player table: "
            f"every deal is played once per rotation, so give --games {rotations} or more"
        )
    deals = games // rotations
    plan = Schedule(list(entrants), players, tables, rotations, deals, games, seed, advanced, actions)
    seeds = [deal_seed(seed, d) for d in range(deals)]
    index = 0
    for t, table in enumerate(tables):
        seatings = rotations_of(table)
        for d in range(deals):
            for r, seating in enumerate(seatings):
                plan.tasks.append(
                    GameTask(
                        index,
                        t,
                        d,
                        r,
                        tuple(e.label for e in seating),
                        tuple(e.spec for e in seating),
                        seeds[d],
                        advanced,
                        actions,
                    )
                )
                index += 1
    return plan


# --- playing ----------------------------------------------------------------------------


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game; a JSON-ready record (``times``: seconds of each decision per seat)."""
    bots = [make_bot(spec) for spec in task.specs]
    played = play_game(bots, task.seed, Config(len(bots), task.advanced, task.actions))
    game = played.game
    assert game.result is not None
    outcome: dict[str, Any] = {
        "index": task.index,
        "table": task.table,
        "deal": task.deal,
        "rotation": task.rotation,
        "seating": list(task.seating),
        "seed": task.seed,
        "winners": list(played.winners),
        "ranks": list(played.ranks),
        "scores": list(game.result.scores),
        "rounds": game.result.rounds,
        "turns": game.turns,
        "decisions": list(played.decisions),
        "seconds": [round(s, 6) for s in played.seconds],
        "times": [list(t) for t in played.times],
    }
    if task.analyse:
        from .stats import analyse

        outcome["analysis"] = analyse(game)
    return outcome


def play_chunk(tasks: Sequence[GameTask]) -> list[dict[str, Any]]:
    """Play several games in a row (one unit of work for a process or a Ray task)."""
    return [play_task(t) for t in tasks]


CHUNK_SECONDS = 0.25
MAX_CHUNK = 25


def chunked(tasks: Sequence[GameTask], jobs: int) -> list[list[GameTask]]:
    """Split the games into units of work of a fixed size (for Ray): small enough for a
    live progress bar and to share the load, large enough that sending them costs little."""
    size = max(1, min(MAX_CHUNK, len(tasks) // (jobs * 16)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _run_local(tasks: Sequence[GameTask], jobs: int) -> Iterator[list[dict[str, Any]]]:
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
    pending: set[Future[list[dict[str, Any]]]] = set()
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
    backend: str = "local",
    progress: Callable[[int], None] | None = None,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Play every game, ``jobs`` at a time, and return their records in game-index order.

    ``backend`` is ``local`` (``jobs`` processes; none with ``jobs=1``) or ``ray``
    (:mod:`red7.analysis.ray_backend`). ``progress`` is called with the number of games each
    time some finish.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if backend == "local":
        batches = _run_local(tasks, jobs)
    elif backend == "ray":
        from .ray_backend import run_ray

        batches = run_ray(chunked(tasks, jobs), jobs, ray_address)
    else:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    results: list[dict[str, Any]] = []
    for batch in batches:
        results.extend(batch)
        if progress is not None:
            progress(len(batch))
    results.sort(key=lambda r: r["index"])
    if [r["index"] for r in results] != [t.index for t in sorted(tasks, key=lambda t: t.index)]:
        raise RuntimeError("the backend lost or duplicated games")
    return results


# --- summary ----------------------------------------------------------------------------


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` may be fractional).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0..100) by linear interpolation between order statistics.

    >>> percentile([1, 2, 3, 4, 5], 50), percentile([1, 2], 99), percentile([], 99)
    (3, 1.99, None)
    """
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    if lo == hi or pos == lo:
        return data[lo]
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def win_rate(wins: float, games: int) -> dict[str, Any]:
    """Games, wins, win rate and its 95% Wilson interval, JSON-ready."""
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": round(wins, 6),
        "win_rate": round(wins / games, 6) if games else None,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


def summarize(plan: Schedule, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Win rates with 95% Wilson intervals, head-to-head scores, openskill ratings,
    win rate per seat and seconds per decision, per entrant. A victory shared by ``k``
    winners counts ``1/k`` of a win for each."""
    from openskill.models import PlackettLuce

    labels = [e.label for e in plan.entrants]
    n = plan.players
    games = dict.fromkeys(labels, 0)
    wins = dict.fromkeys(labels, 0.0)
    seat_games = {lab: [0] * n for lab in labels}
    seat_wins = {lab: [0.0] * n for lab in labels}
    all_seat_wins = [0.0] * n
    decisions = dict.fromkeys(labels, 0)
    seconds = dict.fromkeys(labels, 0.0)
    times: dict[str, array[float]] = {lab: array("d") for lab in labels}
    # Head to head: a beats b in a game when a ranks better; equal ranks count half each.
    pair_games: dict[tuple[str, str], int] = {}
    pair_score: dict[tuple[str, str], float] = {}
    model = PlackettLuce()
    ratings = {lab: model.rating(name=lab) for lab in labels}

    for r in results:
        seating, ranks = r["seating"], r["ranks"]
        share = 1 / len(r["winners"])
        for seat, lab in enumerate(seating):
            games[lab] += 1
            seat_games[lab][seat] += 1
            decisions[lab] += r["decisions"][seat]
            seconds[lab] += r["seconds"][seat]
            times[lab].extend(r["times"][seat])
        for w in r["winners"]:
            wins[seating[w]] += share
            seat_wins[seating[w]][w] += share
            all_seat_wins[w] += share
        for i, j in itertools.combinations(range(n), 2):
            a, b = seating[i], seating[j]
            key, (first, second) = (a, b), (i, j)
            if labels.index(a) > labels.index(b):
                key, (first, second) = (b, a), (j, i)
            pair_games[key] = pair_games.get(key, 0) + 1
            ra, rb = ranks[first], ranks[second]
            pair_score[key] = pair_score.get(key, 0.0) + (1.0 if ra < rb else 0.5 if ra == rb else 0.0)
        teams = [[ratings[lab]] for lab in seating]
        rated = model.rate(teams, ranks=list(ranks))
        for lab, team in zip(seating, rated, strict=True):
            ratings[lab] = team[0]

    entrants = []
    for e in plan.entrants:
        lab = e.label
        rating = ratings[lab]
        p99 = percentile(times[lab], 99)
        entrants.append(
            {
                "label": lab,
                "spec": e.spec,
                **win_rate(wins[lab], games[lab]),
                "rating": {
                    "mu": round(rating.mu, 4),
                    "sigma": round(rating.sigma, 4),
                    "ordinal": round(rating.ordinal(), 4),
                },
                "seats": [win_rate(seat_wins[lab][s], seat_games[lab][s]) for s in range(n)],
                "decisions": decisions[lab],
                "seconds": round(seconds[lab], 6),
                "seconds_per_decision": {
                    "mean": seconds[lab] / decisions[lab] if decisions[lab] else None,
                    "p99": p99,
                },
            }
        )
    pairings = []
    for (a, b), count in pair_games.items():
        score = pair_score[(a, b)]
        pairings.append({"a": a, "b": b, **win_rate(score, count), "b_wins": round(count - score, 6)})
    total = len(results)
    return {
        "games": total,
        "entrants": entrants,
        "pairings": pairings,
        "seats": [win_rate(all_seat_wins[s], total) for s in range(n)],
        "rating_model": "openskill PlackettLuce (ranks of each game, in game-index order); ordinal = mu - 3 sigma",
        "p99_basis": "every decision",
    }


def results_document(
    plan: Schedule, results: Sequence[dict[str, Any]], summary: dict[str, Any], config: dict[str, Any]
) -> dict[str, Any]:
    """What ``results.json`` holds: configuration, entrants, tables, every game, summary."""
    from .. import __version__

    games = [{k: v for k, v in r.items() if k not in ("times", "analysis")} for r in results]
    return {
        "red7": __version__,
        "config": {
            "players": plan.players,
            "games_requested": plan.games_requested,
            "games_per_table": plan.games_per_table,
            "deals_per_table": plan.deals,
            "rotations": plan.rotations,
            "advanced": plan.advanced,
            "actions": plan.actions,
            "seed": plan.seed,
            **config,
        },
        "entrants": [{"label": e.label, "spec": e.spec} for e in plan.entrants],
        "tables": [[e.label for e in table] for table in plan.tables],
        "games": games,
        "summary": summary,
    }

"""Tournaments between bots: what the results say (:func:`summarize_tournament`) and
what ``results.json`` holds (:func:`results_document`).

Who plays whom is :mod:`red7.analysis.schedule` (tables, duplicate deals, seat
rotations) and the games are played by :mod:`red7.analysis.runner`. A tournament is
reproducible from its seed: every game is a pure function of its task, and the records
are summarized in game-index order (the ratings depend on that order), so the summary
is the same whatever the number of processes or the backend; only the measured seconds
differ.
"""

from __future__ import annotations

import itertools
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .measures import bootstrap_ratio, percentile, win_rate
from .rating import RATING_MODEL, first_skill, rated
from .runner import GameRecord
from .schedule import Schedule


@dataclass
class _Tally:
    """One entrant's games, wins (a shared victory counting ``1/k``) and times, overall
    and per seat."""

    players: int
    games: int = 0
    wins: float = 0.0
    seat_games: list[int] = field(init=False)
    seat_wins: list[float] = field(init=False)
    deals: defaultdict[int, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0.0, 0.0]))
    """Per deal: [wins, games] (the unit the intervals resample)."""
    decisions: int = 0
    seconds: float = 0.0
    times: array[float] = field(default_factory=lambda: array("d"))

    def __post_init__(self) -> None:
        self.seat_games = [0] * self.players
        self.seat_wins = [0.0] * self.players


def summarize_tournament(plan: Schedule, results: Sequence[GameRecord]) -> dict[str, Any]:
    """Per entrant: win rate with its 95% interval, openskill rating, win rate per seat
    and seconds per decision (mean, and 99th percentile over every decision); the
    head-to-head scores of every pair; the win rate of each seat over all entrants.
    A victory shared by ``k`` winners counts ``1/k`` of a win for each.

    The entrants' and the pairs' intervals (``ci95``) are bootstraps over deals
    (:func:`~red7.analysis.measures.bootstrap_ratio`): every game of a deal, at every
    table and seat rotation, shares its cards, so the games of a deal are resampled
    together. ``ci95_wilson`` is the Wilson interval that would treat every game as
    independent (too narrow for duplicate deals); the per-seat rates keep Wilson's."""
    n = plan.players
    tallies = {e.label: _Tally(n) for e in plan.entrants}
    seat_wins = [0.0] * n
    for r in results:
        seating = r["seating"]
        for seat, label in enumerate(seating):
            t = tallies[label]
            t.games += 1
            t.seat_games[seat] += 1
            t.decisions += r["decisions"][seat]
            t.seconds += r["seconds"][seat]
            t.times.extend(r["times"][seat])
            t.deals[r["deal"]][1] += 1
        share = 1 / len(r["winners"])
        for w in r["winners"]:
            tallies[seating[w]].deals[r["deal"]][0] += share
            tallies[seating[w]].wins += share
            tallies[seating[w]].seat_wins[w] += share
            seat_wins[w] += share
    ratings = _ratings(plan, results)
    entrants = []
    for e in plan.entrants:
        t, rating = tallies[e.label], ratings[e.label]
        entrants.append(
            {
                "label": e.label,
                "spec": e.spec,
                **_deal_rate(t.deals, plan.seed),
                "rating": rating,
                "seats": [win_rate(t.seat_wins[s], t.seat_games[s]) for s in range(n)],
                "decisions": t.decisions,
                "seconds": round(t.seconds, 6),
                "seconds_per_decision": {
                    "mean": t.seconds / t.decisions if t.decisions else None,
                    "p99": percentile(t.times, 99),
                },
            }
        )
    return {
        "games": len(results),
        "entrants": entrants,
        "pairings": _head_to_head(plan, results),
        "seats": [win_rate(seat_wins[s], len(results)) for s in range(n)],
        "rating_model": RATING_MODEL,
        "p99_basis": "every decision",
    }


def _ratings(plan: Schedule, results: Sequence[GameRecord]) -> dict[str, dict[str, float]]:
    """Each entrant's openskill rating after rating every game's ranks in game-index order."""
    skills = {e.label: first_skill() for e in plan.entrants}
    for r in results:
        after = rated([skills[label] for label in r["seating"]], r["ranks"])
        skills.update(zip(r["seating"], after, strict=True))
    return {
        label: {"mu": round(x.mu, 4), "sigma": round(x.sigma, 4), "ordinal": round(x.ordinal, 4)}
        for label, x in skills.items()
    }


def _head_to_head(plan: Schedule, results: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """For every pair of entrants that met (in entrant order): a beats b in a game when
    a ranks better, equal ranks counting half each; ``wins`` is a's score."""
    order = {e.label: i for i, e in enumerate(plan.entrants)}
    per_deal: defaultdict[tuple[str, str], defaultdict[int, list[float]]] = defaultdict(
        lambda: defaultdict(lambda: [0.0, 0.0])
    )
    for r in results:
        seating, ranks = r["seating"], r["ranks"]
        for i, j in itertools.combinations(range(len(seating)), 2):
            if order[seating[i]] > order[seating[j]]:
                i, j = j, i
            deal = per_deal[(seating[i], seating[j])][r["deal"]]
            deal[0] += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            deal[1] += 1
    rows = []
    for (a, b), deals in per_deal.items():
        row = _deal_rate(deals, plan.seed)
        rows.append({"a": a, "b": b, **row, "b_wins": round(row["games"] - row["wins"], 6)})
    return rows


def _deal_rate(deals: dict[int, list[float]], seed: int) -> dict[str, Any]:
    """:func:`~red7.analysis.measures.win_rate` of per-deal ``[wins, games]``, its
    ``ci95`` bootstrapped over the deals (Wilson's kept as ``ci95_wilson``)."""
    wins = [w for w, _ in deals.values()]
    games = [g for _, g in deals.values()]
    row = win_rate(sum(wins), int(sum(games)))
    row["ci95_wilson"] = row["ci95"]
    lo, hi = bootstrap_ratio(wins, games, seed=seed)
    row["ci95"] = [round(lo, 6), round(hi, 6)]
    return row


def results_document(
    plan: Schedule, results: Sequence[GameRecord], summary: dict[str, Any], config: dict[str, Any]
) -> dict[str, Any]:
    """What ``results.json`` holds: configuration (the schedule's, then ``config``),
    entrants, tables, every game (without its per-decision times) and the summary."""
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
            "advanced": plan.config.advanced,
            "actions": plan.config.actions,
            "seed": plan.seed,
            **config,
        },
        "entrants": [{"label": e.label, "spec": e.spec} for e in plan.entrants],
        "tables": [[e.label for e in table] for table in plan.tables],
        "games": games,
        "summary": summary,
    }

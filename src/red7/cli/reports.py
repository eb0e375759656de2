"""Terminal output of ``red7 tournament`` and ``red7 stats``: a progress bar with ETA
and tables (rich). Only presentation: the numbers come from :mod:`red7.analysis.tournament`
and :mod:`red7.analysis.stats`, the games from :mod:`red7.analysis.schedule`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..analysis.schedule import Schedule
from ..core.model import Config


def make_console(stderr: bool = False) -> Console:
    """A console for reports; when writing to a file or pipe, wide enough for the tables."""
    console = Console(stderr=stderr)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(stderr=stderr, width=160)
    return console


@contextmanager
def progress_bar(total: int, description: str, console: Console | None = None) -> Iterator[Callable[[int], None]]:
    """A bar (on standard error) redrawn as games finish; yields ``advance(n_games)``.

    It runs no refresh thread, so worker processes may be forked while it is shown."""
    console = console or Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, auto_refresh=False) as progress:
        task = progress.add_task(description, total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)
            progress.refresh()

        progress.refresh()
        yield advance


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


def _ci(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"{100 * lo:.1f}–{100 * hi:.1f}%"


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = 1000 * seconds
    return f"{ms:.3g}" if ms < 100 else f"{ms:,.0f}"


def _options(config: Config) -> str:
    return f"{' · advanced' if config.advanced else ''}{' · actions' if config.actions else ''}"


def _bar(share: float, width: int = 20) -> str:
    full = round(share * width)
    return "█" * full


# --- tournament -----------------------------------------------------------------------


def tournament_header(plan: Schedule, jobs: int, backend: str) -> str:
    n_tables = len(plan.tables)
    tables = f"{n_tables} tables (every {plan.players} of {len(plan.entrants)} entrants)" if n_tables > 1 else "1 table"
    lines = [
        f"Tournament: {', '.join(e.label for e in plan.entrants)} · {plan.players} players"
        f"{_options(plan.config)} · seed {plan.seed}",
        f"{tables} × {plan.games_per_table} games ({plan.deals} deals × {plan.rotations} seat rotations)"
        f" = {len(plan.tasks)} games · {jobs} job(s), {backend} backend",
    ]
    if plan.rounded:
        lines.append(
            f"note: --games {plan.games_requested} is not a multiple of the {plan.rotations} seat rotations; "
            f"playing {plan.games_per_table} games per table"
        )
    return "\n".join(lines)


def render_tournament(summary: dict[str, Any], console: Console) -> None:
    players = len(summary["seats"])
    basis = summary["p99_basis"]
    table = Table(
        title=f"Results of {summary['games']} games",
        caption=(
            "Win: a victory shared by k players counts 1/k. "
            "95% CI: bootstrap over deals (a deal's games resampled together). "
            f"Rating: {summary['rating_model']}. "
            f"ms/decision: mean and 99th percentile over {basis}."
        ),
    )
    table.add_column("entrant", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right", no_wrap=True)
    table.add_column("mu ± sigma", justify="right", no_wrap=True)
    table.add_column("ordinal", justify="right")
    for s in range(players):
        table.add_column(f"seat {s}", justify="right")
    table.add_column("ms/decision mean · p99", justify="right", no_wrap=True)
    for e in sorted(summary["entrants"], key=lambda e: -e["rating"]["ordinal"]):
        r = e["rating"]
        spd = e["seconds_per_decision"]
        table.add_row(
            e["label"],
            str(e["games"]),
            f"{e['wins']:g}",
            f"{_pct(e['win_rate'])} ({_ci(e)})",
            f"{r['mu']:.2f} ± {r['sigma']:.2f}",
            f"{r['ordinal']:.2f}",
            *(_pct(seat["win_rate"]) for seat in e["seats"]),
            f"{_ms(spd['mean'])} · {_ms(spd['p99'])}",
        )
    console.print(table)
    if summary["pairings"]:
        two = players == 2
        h2h = Table(
            title="Head to head",
            caption=None if two else "a's score against b: games where a ranked ahead of b, ties counting half",
        )
        for name in ("a", "b"):
            h2h.add_column(name, no_wrap=True)
        for name in ("games", "a wins" if two else "a score", "b wins" if two else "b score", "a rate", "95% CI"):
            h2h.add_column(name, justify="right")
        for p in summary["pairings"]:
            h2h.add_row(
                p["a"], p["b"], str(p["games"]), f"{p['wins']:g}", f"{p['b_wins']:g}", _pct(p["win_rate"]), _ci(p)
            )
        console.print(h2h)
    seats = " · ".join(f"seat {s} {_pct(row['win_rate'])}" for s, row in enumerate(summary["seats"]))
    console.print(f"Win rate by seat, all entrants: {seats}")


# --- stats ------------------------------------------------------------------------------


def stats_header(plan: Schedule) -> str:
    bots = ", ".join(e.label for e in plan.entrants)
    if plan.rotations > 1:
        bots += f" (each deal played once per seat rotation: {plan.deals} deals)"
    else:
        bots += " in every seat"
    games = f"{len(plan.tasks)} games · {plan.players} players{_options(plan.config)}"
    return f"Statistics of {games} · bots {bots} · seed {plan.seed}"


def render_stats(summary: dict[str, Any], console: Console) -> None:
    length = Table(title="Length of a game")
    length.add_column("per game", no_wrap=True)
    for name in ("mean", "min", "median", "max"):
        length.add_column(name, justify="right")
    for key, label in (("rounds_per_game", "rounds"), ("turns_per_game", "turns"), ("decisions_per_game", "decisions")):
        row = summary[key]
        length.add_row(label, f"{row['mean']:.2f}", str(row["min"]), f"{row['median']:g}", str(row["max"]))
    console.print(length)

    seats = Table(title="Who wins", caption="A victory shared by k players counts 1/k. 95% CI: Wilson.")
    seats.add_column("", no_wrap=True)
    for name in ("games", "wins", "win rate", "95% CI"):
        seats.add_column(name, justify="right")
    rows = [(f"seat {s}", row) for s, row in enumerate(summary["seats"])]
    rows += [
        ("first player (games)", summary["first_player"]["game"]),
        ("first player (rounds)", summary["first_player"]["round"]),
    ]
    for label, row in rows:
        seats.add_row(label, str(row["games"]), f"{row['wins']:g}", _pct(row["win_rate"]), _ci(row))
    console.print(seats)

    total = summary["turn_starts"] or 1
    legal = summary["branching"]["legal"]
    safe = summary["branching"]["safe"]
    branching = Table(
        title=f"Branching factor at {summary['turn_starts']} turn starts",
        caption=(f"mean legal {legal['mean'] or 0:.2f} (concede included), mean safe {safe['mean'] or 0:.2f}"),
    )
    branching.add_column("decisions", justify="right")
    branching.add_column("legal", justify="right")
    branching.add_column("", no_wrap=True)
    branching.add_column("safe", justify="right")
    branching.add_column("", no_wrap=True)
    keys = sorted({int(k) for k in legal["counts"]} | {int(k) for k in safe["counts"]})
    top = max([*legal["counts"].values(), *safe["counts"].values(), 1])
    for k in keys:
        lc = legal["counts"].get(str(k), 0)
        sc = safe["counts"].get(str(k), 0)
        branching.add_row(
            str(k), _pct(lc / total) if lc else "", _bar(lc / top), _pct(sc / total) if sc else "", _bar(sc / top)
        )
    console.print(branching)

    rules = Table(title="Rules", caption=f"{summary['turn_starts']} turn starts, {summary['rounds']} won rounds")
    rules.add_column("rule", no_wrap=True)
    for name in ("in force at turn starts", "final rule of won rounds"):
        rules.add_column(name, justify="right")
    for colour, row in summary["rules"].items():
        rules.add_row(colour, _pct(row["in_force_share"]), _pct(row["won_rounds_share"]))
    console.print(rules)

    if summary["actions"]:
        cards = Table(title="Action cards played to a palette (R7)")
        for name in ("card", "played", "per game"):
            cards.add_column(name, justify="right")
        for value, row in summary["action_cards"].items():
            cards.add_row(value, str(row["played"]), f"{row['per_game']:.2f}")
        console.print(cards)
    else:
        console.print("Action cards: the action rules are off (--actions), so none are played.")

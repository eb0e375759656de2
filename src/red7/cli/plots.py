"""PNG charts of tournaments and game statistics (matplotlib, Agg renderer).

Needs the optional extra: ``pip install 'red7[plots]'``. Figures are drawn with
matplotlib's object API on an Agg canvas, so no window and no global pyplot state is
involved.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

INSTALL_HINT = "pip install 'red7[plots]'"
RULE_COLOURS = {
    "red": "#d62728",
    "orange": "#ff7f0e",
    "yellow": "#e6c300",
    "green": "#2ca02c",
    "blue": "#1f77b4",
    "indigo": "#4b0082",
    "violet": "#9467bd",
}


class PlotsUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Raise :class:`PlotsUnavailable` (naming the extra to install) unless matplotlib imports."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        from ..ui.i18n import _

        raise PlotsUnavailable(_("plots need matplotlib: {install}").format(install=INSTALL_HINT)) from None


def _figure(width: float = 8, height: float = 4.5) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _errors(rows: Sequence[dict[str, Any]]) -> list[list[float]]:
    """Asymmetric error bars from each row's ``win_rate`` and ``ci95``."""
    lows = [(r["win_rate"] or 0) - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - (r["win_rate"] or 0) for r in rows]
    return [lows, highs]


# --- tournaments ----------------------------------------------------------------------


def ratings_png(summary: dict[str, Any], path: Path) -> None:
    """Each entrant's rating: mu with a +-2 sigma bar, and the ordinal (mu - 3 sigma)."""
    rows = sorted(summary["entrants"], key=lambda e: e["rating"]["ordinal"])
    labels = [e["label"] for e in rows]
    mu = [e["rating"]["mu"] for e in rows]
    two_sigma = [2 * e["rating"]["sigma"] for e in rows]
    ordinal = [e["rating"]["ordinal"] for e in rows]
    fig = _figure(8, 2 + 0.5 * len(rows))
    ax = fig.add_subplot()
    y = list(range(len(rows)))
    ax.errorbar(mu, y, xerr=two_sigma, fmt="o", capsize=4, label="mu ± 2 sigma")
    ax.scatter(ordinal, y, marker="x", color="black", zorder=3, label="ordinal (mu - 3 sigma)")
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("openskill rating (Plackett-Luce)")
    ax.set_title(f"Ratings after {summary['games']} games")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=2, fontsize="small")
    fig.savefig(path, format="png")


def win_rate_by_seat_png(summary: dict[str, Any], path: Path) -> None:
    """Grouped bars: each entrant's win rate in each seat, with 95% Wilson intervals."""
    rows = summary["entrants"]
    players = len(summary["seats"])
    fig = _figure(max(6.0, 1.2 * len(rows) * players / 2 + 2), 4.5)
    ax = fig.add_subplot()
    width = 0.8 / players
    for seat in range(players):
        cells = [e["seats"][seat] for e in rows]
        xs = [i - 0.4 + width * (seat + 0.5) for i in range(len(rows))]
        ax.bar(xs, [c["win_rate"] or 0 for c in cells], width, yerr=_errors(cells), capsize=3, label=f"seat {seat}")
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label=f"1/{players}")
    ax.set_xticks(range(len(rows)), [e["label"] for e in rows])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("Win rate by seat")
    fig.legend(loc="outside lower center", ncols=players + 1, fontsize="small")
    fig.savefig(path, format="png")


def tournament_plots(summary: dict[str, Any], directory: Path) -> list[str]:
    """Write ``ratings.png`` and ``win_rate_by_seat.png`` into ``directory``."""
    ratings_png(summary, directory / "ratings.png")
    win_rate_by_seat_png(summary, directory / "win_rate_by_seat.png")
    return ["ratings.png", "win_rate_by_seat.png"]


# --- game statistics --------------------------------------------------------------------


def seat_win_rate_png(summary: dict[str, Any], path: Path) -> None:
    seats = summary["seats"]
    first = [summary["first_player"]["game"], summary["first_player"]["round"]]
    labels = [f"seat {s}" for s in range(len(seats))] + ["first player\n(games)", "first player\n(rounds)"]
    rows = [*seats, *first]
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    colours = ["tab:blue"] * len(seats) + ["tab:orange"] * 2
    ax.bar(range(len(rows)), [r["win_rate"] or 0 for r in rows], yerr=_errors(rows), capsize=4, color=colours)
    ax.axhline(1 / len(seats), color="grey", linestyle="--", linewidth=1, label=f"1/{len(seats)}")
    ax.set_xticks(range(len(rows)), labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"Seat and first-player win rates ({summary['games']} games)")
    ax.legend(fontsize="small", loc="upper right")
    fig.savefig(path, format="png")


def branching_png(summary: dict[str, Any], path: Path) -> None:
    fig = _figure(8, 4)
    ax = fig.add_subplot()
    total = summary["turn_starts"] or 1
    for offset, key, label in ((-0.2, "legal", "legal decisions"), (0.2, "safe", "safe decisions")):
        counts = summary["branching"][key]["counts"]
        ax.bar([int(k) + offset for k in counts], [c / total for c in counts.values()], 0.4, label=label)
    ax.set_xlabel("decisions available at the start of a turn")
    ax.set_ylabel("share of turn starts")
    ax.set_title(f"Branching factor ({summary['turn_starts']} turn starts)")
    ax.legend()
    fig.savefig(path, format="png")


def rules_png(summary: dict[str, Any], path: Path) -> None:
    fig = _figure(8, 4)
    ax = fig.add_subplot()
    rules = summary["rules"]
    names = list(rules)
    colours = [RULE_COLOURS[n] for n in names]
    xs = range(len(names))
    ax.bar(
        [x - 0.2 for x in xs],
        [rules[n]["in_force_share"] or 0 for n in names],
        0.4,
        color=colours,
        alpha=0.45,
        label="in force at turn starts",
    )
    ax.bar(
        [x + 0.2 for x in xs],
        [rules[n]["won_rounds_share"] or 0 for n in names],
        0.4,
        color=colours,
        edgecolor="black",
        hatch="//",
        label="final rule of won rounds",
    )
    ax.set_xticks(list(xs), names)
    ax.set_ylabel("share")
    ax.set_title("How often each rule is in force, and wins")
    ax.legend()
    fig.savefig(path, format="png")


def game_length_png(summary: dict[str, Any], path: Path) -> None:
    from matplotlib.ticker import MaxNLocator

    fig = _figure(9, 4)
    for i, key, label in ((1, "turns_per_game", "turns per game"), (2, "rounds_per_game", "rounds per game")):
        ax = fig.add_subplot(1, 2, i)
        counts = summary[key]["counts"]
        ax.bar([int(k) for k in counts], list(counts.values()), 1.0 if key == "turns_per_game" else 0.6)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(label)
        ax.set_ylabel("games")
        ax.set_title(f"{label}: mean {summary[key]['mean']:.2f}")
    fig.savefig(path, format="png")


def action_cards_png(summary: dict[str, Any], path: Path) -> None:
    fig = _figure(6, 4)
    ax = fig.add_subplot()
    cards = summary["action_cards"]
    ax.bar([f"{v}s" for v in cards], [c["per_game"] or 0 for c in cards.values()], color="tab:green")
    ax.set_ylabel("played to a palette, per game")
    ax.set_title("Action cards played (R7)")
    fig.savefig(path, format="png")


def stats_plots(summary: dict[str, Any], directory: Path) -> list[str]:
    """Write the statistics charts into ``directory`` (the action cards' only when the
    action rules were on); returns the file names."""
    charts = [
        ("seat_win_rate.png", seat_win_rate_png),
        ("branching.png", branching_png),
        ("rules.png", rules_png),
        ("game_length.png", game_length_png),
    ]
    if summary["actions"]:
        charts.append(("action_cards.png", action_cards_png))
    for name, draw in charts:
        draw(summary, directory / name)
    return [name for name, _ in charts]

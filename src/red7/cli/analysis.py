"""``red7 sim``, ``bench``, ``tournament`` and ``stats``: the commands that measure games."""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import native
from ..analysis.measures import percentile
from ..analysis.sim import ENGINES, simulate
from ..core.model import Config
from ..core.seeds import fresh_seed
from ..ui.i18n import _, error_text
from .common import Commands, UsageError, game_options, positive, run_options, say_fallback

if TYPE_CHECKING:  # the tournament and stats modules are imported by their commands only
    from ..analysis.runner import Backend, GameRecord
    from ..analysis.schedule import Entrant, Schedule
    from .output import StagedOutput


def add_commands(sub: Commands) -> None:
    p = sub.add_parser("sim", help=_("simulate games between random players"))
    p.add_argument("--games", type=positive, default=100)
    game_options(p)
    p.add_argument(
        "--engine",
        type=_engine,
        choices=ENGINES,
        default="auto",
        help=_(
            "the compiled engine where it is built (auto, the default), the pure-Python reference (python), "
            "or the compiled engine or an error (native); all play the same games for a seed"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print the summary as JSON"))

    p = sub.add_parser("bench", help=_("measure the engine's speed with random games, or a bot's time per decision"))
    p.add_argument("--seconds", type=float, default=2.0, help=_("time per measurement (default 2)"))
    p.add_argument(
        "--repeat", type=positive, default=5, help=_("measurements per configuration; the median is reported")
    )
    p.add_argument("--bot", metavar="SPEC", help=_("time this bot's decisions instead (seat 0, medium bots elsewhere)"))
    p.add_argument("--games", type=positive, default=20, help=_("games played with --bot (default 20)"))
    game_options(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser(
        "tournament",
        help=_("play bots against each other: win rates, ratings, plots"),
        description=_(
            "Every combination of --players entrants forms a table (one table when there are just "
            "enough); each deal is replayed once per seat rotation. Results depend only on --seed."
        ),
    )
    p.add_argument(
        "--bots",
        required=True,
        metavar="SPEC,...",
        help=_("bot specs, e.g. hard,medium,easy or ismcts:iters=400,greedy (repeats allowed)"),
    )
    p.add_argument(
        "--games", type=positive, default=100, help=_("games per table, rounded down to whole deals (default 100)")
    )
    game_options(p)
    run_options(p)
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help=_("local processes (default) or Ray (pip install 'red7[ray]')"),
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        default=None,
        help=_("a Ray cluster to use (default: $RAY_ADDRESS, else a local Ray instance)"),
    )

    p = sub.add_parser(
        "stats",
        help=_("game-design statistics over bot games: seats, length, branching, rules, actions"),
        description=_("With one bot it takes every seat; with one bot per seat, seats rotate over each deal."),
    )
    p.add_argument("--games", type=positive, default=1000, help=_("games to play (default 1000)"))
    p.add_argument("--bots", default="random", metavar="SPEC,...", help=_("one bot, or one per seat (default random)"))
    game_options(p)
    run_options(p)
    p.add_argument("--json", action="store_true", help=_("print the statistics as JSON"))


def _engine(text: str) -> str:
    """An ``--engine`` choice, with a word for the one that is gone."""
    if text == "fast":
        raise argparse.ArgumentTypeError(
            _(
                "'fast' is gone: every engine now deals and plays from the same fast generator, and the default "
                "(auto) is as fast"
            )
        )
    return text


def _seed_of(args: argparse.Namespace) -> int:
    """``--seed``, or a fresh one (every command prints or saves the seed it used)."""
    return args.seed if args.seed is not None else fresh_seed()


def _config_of(args: argparse.Namespace) -> Config:
    return Config(args.players, args.advanced, args.actions)


def cmd_sim(args: argparse.Namespace) -> int:
    try:
        summary = simulate(args.games, _config_of(args), _seed_of(args), args.engine)
    except ValueError as err:
        raise UsageError(error_text(err)) from None
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>22}: {value}")
    return 0


BENCH_CONFIGS = (
    ("2p basic", Config(players=2)),
    ("4p advanced+actions", Config(players=4, advanced=True, actions=True)),
)
BENCH_SEED = 0
"""The benchmarks play the same games every run, seeds 0, 1, 2... (``bench --bot`` from
``--seed`` when given), so that runs compare."""


def cmd_bench_bot(args: argparse.Namespace) -> int:
    """Seconds per decision of one bot (seat 0, medium bots elsewhere) over seeded games,
    one process: count, mean, median, 99th percentile and maximum."""
    from ..bots import BotSpecError, make_bot
    from ..play.match import play_game

    try:
        bot = make_bot(args.bot)
        others = [make_bot("medium") for _ in range(args.players - 1)]
    except BotSpecError as err:
        raise UsageError(_("--bot: {problem}").format(problem=error_text(err))) from None
    say_fallback([args.bot])
    config = _config_of(args)
    seed = args.seed if args.seed is not None else BENCH_SEED
    times: list[float] = []
    for i in range(args.games):
        times += play_game([bot, *others], seed + i, config).times[0]
    row = {
        "bot": args.bot,
        **config.as_dict(),
        "games": args.games,
        "decisions": len(times),
        "mean_ms": _milliseconds(statistics.fmean(times) if times else None),
        "median_ms": _milliseconds(statistics.median(times) if times else None),
        "p99_ms": _milliseconds(percentile(times, 99)),
        "max_ms": _milliseconds(max(times, default=None)),
    }
    if args.json:
        print(json.dumps(row))
    else:
        print("  ".join(f"{k} {v}" for k, v in row.items()))
    return 0


def _milliseconds(seconds: float | None) -> float | None:
    """Milliseconds to 0.1; None when the bot had no decision (its opponents all conceded)."""
    return None if seconds is None else round(1e3 * seconds, 1)


def _rates(config: Config, engine: str, seconds: float, repeat: int) -> tuple[float, float, float]:
    """Median games, decisions and turns per second of ``repeat`` measurements of
    ``seconds`` each, playing the seeded games from :data:`BENCH_SEED` on ``engine``."""
    batch = 10 if engine == "python" else 1000
    rates: list[tuple[float, float, float]] = []
    seed = BENCH_SEED
    for _repeat in range(repeat):
        started = time.perf_counter()
        games = decisions = turns = 0.0
        while time.perf_counter() - started < seconds:
            s = simulate(batch, config, seed, engine)
            seed += batch
            games += s["games"]
            decisions += s["decisions"]
            turns += s["mean_turns"] * s["games"]
        elapsed = time.perf_counter() - started
        rates.append((games / elapsed, decisions / elapsed, turns / elapsed))
    games_rate, decision_rate, turn_rate = zip(*rates, strict=True)
    return statistics.median(games_rate), statistics.median(decision_rate), statistics.median(turn_rate)


def cmd_bench(args: argparse.Namespace) -> int:
    """Random games per second on the default engine (the compiled one where it is
    built) and the pure-Python reference, median of ``--repeat`` measurements of
    ``--seconds``, with the ratio to the reference measured in the same run; both play
    the same games."""
    if args.bot:
        return cmd_bench_bot(args)
    if not 0 < args.seconds < 3600:
        raise UsageError(
            _("--seconds must be a number of seconds between 0 and 3600, not {seconds}").format(seconds=args.seconds)
        )
    engines = ["python", "native"] if native.available() else ["python"]
    report = []
    for name, config in BENCH_CONFIGS:
        reference = None
        for engine in engines:
            games, decisions, turns = _rates(config, engine, args.seconds, args.repeat)
            reference = reference or games
            report.append(
                {
                    "config": name,
                    "engine": engine,
                    "games_per_second": round(games, 1),
                    "decisions_per_second": round(decisions),
                    "turns_per_second": round(turns),
                    "ratio": round(games / reference, 1),
                    "repeats": args.repeat,
                }
            )
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{'configuration':<22}{'engine':<8}{'games/s':>12}{'turns/s':>12}{'decisions/s':>14}{'ratio':>8}"
            f"   (median of {args.repeat}, single process)"
        )
        for row in report:
            print(
                f"{row['config']:<22}{row['engine']:<8}{row['games_per_second']:>12,.0f}"
                f"{row['turns_per_second']:>12,}{row['decisions_per_second']:>14,}{row['ratio']:>7}x"
            )
        if not native.available():
            print(f"the compiled engine is not in use: {native.why_not}")
    return 0


# --- tournament and stats -------------------------------------------------------------


def _entrants(text: str) -> list[Entrant]:
    from ..analysis.schedule import make_entrants, split_specs
    from ..bots import BotSpecError

    try:
        return make_entrants(split_specs(text))
    except BotSpecError as err:
        raise UsageError(_("--bots: {problem}").format(problem=error_text(err))) from None


@contextmanager
def _staged_out(out: str | None) -> Iterator[StagedOutput | None]:
    """The ``--out`` directory, checked before any game is played (None without --out)."""
    if out is None:
        yield None
        return
    from .output import OutputError, StagedOutput

    try:
        staged = StagedOutput(out)
    except OutputError as err:
        raise UsageError(_("--out: {problem}").format(problem=err)) from None
    with staged:
        yield staged


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Indented JSON, except that each item of a list of objects (a game) takes one line."""
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
            items = ",\n".join("  " + json.dumps(v) for v in value)
            text = f"[\n{items}\n ]"
        else:
            text = json.dumps(value, indent=1).replace("\n", "\n ")
        parts.append(f" {json.dumps(key)}: {text}")
    path.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")


def _plots_note() -> str | None:
    """None when matplotlib is there to draw the plots; else the sentence that says the
    results are written without them, and what to install (issue 34: --out used to
    refuse to write anything without matplotlib)."""
    from .plots import PlotsUnavailable, require_matplotlib

    try:
        require_matplotlib()
    except PlotsUnavailable as err:
        return _("no plots: {reason}; the results are written without them").format(reason=err)
    return None


def _commit(out: StagedOutput, write: Callable[[], None]) -> list[Path]:
    """Write the files into the staging directory, then move them all into place."""
    try:
        write()
        return out.commit()
    except OSError as err:
        raise UsageError(
            _("--out: could not write the results to {path}: {reason}").format(
                path=out.target, reason=err.strerror or err
            )
        ) from None


def _backend(args: argparse.Namespace) -> Backend:
    """The runner's backend for ``--backend`` (checked before any game)."""
    from ..analysis.runner import run_local

    if args.backend == "local":
        return run_local
    from ..analysis.ray_backend import RayUnavailable, require_ray, run_ray

    try:
        require_ray()
    except RayUnavailable as err:
        raise UsageError(error_text(err)) from None
    return functools.partial(run_ray, address=args.ray_address)


def _play(plan: Schedule, jobs: int, backend: Backend | None = None) -> list[GameRecord]:
    """Every game of ``plan``, under a progress bar."""
    from ..analysis.runner import run, run_local
    from .reports import progress_bar

    with progress_bar(len(plan.tasks), "playing") as advance:
        return run(plan.tasks, jobs, backend or run_local, advance)


def cmd_tournament(args: argparse.Namespace) -> int:
    from ..analysis.schedule import ScheduleError, schedule
    from ..analysis.tournament import results_document, summarize_tournament
    from .reports import make_console, render_tournament, tournament_header

    entrants = _entrants(args.bots)
    try:
        plan = schedule(entrants, config=_config_of(args), games=args.games, seed=_seed_of(args))
    except ScheduleError as err:
        raise UsageError(error_text(err)) from None
    say_fallback(e.spec for e in entrants)
    backend = _backend(args)
    console = make_console()
    with _staged_out(args.out) as out:
        console.print(tournament_header(plan, args.jobs, args.backend), highlight=False)
        results = _play(plan, args.jobs, backend)
        summary = summarize_tournament(plan, results)
        render_tournament(summary, console)
        if out is not None:
            from .plots import tournament_plots

            config = {"bots": [e.spec for e in entrants], "jobs": args.jobs, "backend": args.backend}

            note = _plots_note()

            def write() -> None:
                _write_json(out.path("results.json"), results_document(plan, results, summary, config))
                if note is None:
                    tournament_plots(summary, out.staging)

            written = _commit(out, write)
            console.print(
                _("Wrote {files} to {path}").format(files=", ".join(p.name for p in written), path=out.target),
                highlight=False,
            )
            if note is not None:
                console.print(note, highlight=False, markup=False)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from ..analysis.schedule import ScheduleError
    from ..analysis.stats import plan as stats_plan
    from ..analysis.stats import play_compiled, summarize_design
    from .reports import make_console, render_stats, stats_header

    entrants = _entrants(args.bots)
    config = _config_of(args)
    seed = _seed_of(args)
    try:
        plan = stats_plan(entrants, config=config, games=args.games, seed=seed)
    except ScheduleError as err:
        raise UsageError(error_text(err)) from None
    say_fallback(e.spec for e in entrants)
    console = make_console(stderr=args.json)
    with _staged_out(args.out) as out:
        console.print(stats_header(plan), highlight=False)
        if plan.rounded:
            console.print(
                _(
                    "note: --games {games} is not a multiple of the {rotations} seat rotations; playing {played} games"
                ).format(games=args.games, rotations=plan.rotations, played=len(plan.tasks)),
                highlight=False,
            )
        results = play_compiled(plan, config) or _play(plan, args.jobs)
        summary = summarize_design(results, config)
        summary["bots"] = [e.spec for e in entrants]
        summary["seed"] = seed
        if args.json:
            print(json.dumps(summary))
        else:
            render_stats(summary, console)
        if out is not None:
            from .plots import stats_plots

            note = _plots_note()

            def write() -> None:
                _write_json(out.path("stats.json"), summary)
                if note is None:
                    stats_plots(summary, out.staging)

            written = _commit(out, write)
            console.print(
                _("Wrote {files} to {path}").format(files=", ".join(p.name for p in written), path=out.target),
                highlight=False,
            )
            if note is not None:
                console.print(note, highlight=False, markup=False)
    return 0

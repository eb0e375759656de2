"""The ``red7`` command: play, replay, sim, bench, tournament and stats.

Every user mistake (a bad option, a bad record, an illegal decision) ends with a
one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from .. import __version__
from ..analysis.sim import simulate
from ..core.game import Game
from ..core.record import RecordError, load, replay
from ..play.table import Seat, Table


class UsageError(Exception):
    """A user mistake: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """Reports a bad command line in one line (``red7: error: ...``), exit code 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.split()[1:] if self.prog.startswith("red7") else []
        where = f"red7 {' '.join(command)} --help" if command else "red7 --help"
        self.exit(2, f"red7: error: {message} (see {where})\n")


def _players(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players (2, 3 or 4)") from None
    if not 2 <= n <= 4:
        raise argparse.ArgumentTypeError(f"Red7 is played by 2 to 4 players, not {n}")
    return n


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not a positive integer")
    return n


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer seed") from None


def _language(text: str) -> str:
    from ..ui.i18n import LanguageError, parse_language

    try:
        return parse_language(text)
    except LanguageError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _game_options(p: argparse.ArgumentParser, players_default: int | None = 2) -> None:
    p.add_argument(
        "--players",
        type=_players,
        default=players_default,
        help="2, 3 or 4 (default 2; for play, one more than the bots given)",
    )
    p.add_argument("--advanced", action="store_true", help="advanced game: canvas draw and scoring over a match")
    p.add_argument("--actions", action="store_true", help="the action rules of the 1, 3, 5 and 7")
    p.add_argument("--seed", type=_seed, default=None, help="seed of the shuffle (default: random)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="red7", description="The card game Red7.")
    parser.add_argument("--version", action="version", version=f"red7 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play in the terminal against bots or friends (the default command)")
    _game_options(p, players_default=None)
    p.add_argument(
        "--bots",
        metavar="LEVEL,...",
        default=None,
        help="the other seats: easy, medium, hard, expert or any bot spec; one spec for every seat, "
        "or one per seat (default medium)",
    )
    p.add_argument(
        "--hotseat",
        action="store_true",
        help="several people at one screen: the seats without a bot are people, and the hand is "
        "hidden while the device passes",
    )
    p.add_argument("--names", metavar="NAME,...", default=None, help="the people's names, in seat order")
    p.add_argument(
        "--lang",
        type=_language,
        default=None,
        help="pt-BR or en (default: from the environment's locale, else English)",
    )
    p.add_argument("--save", metavar="FILE", help="where to save the game record (default: the data directory)")
    p.add_argument(
        "--text",
        action="store_true",
        help="the plain text game on standard input/output (used when they are not a terminal)",
    )
    p.add_argument("--hint", metavar="SPEC", default="hard", help="the bot whose advice the hint key shows")
    p.add_argument("--delay", type=float, default=0.5, help="least seconds per bot move, to follow it (default 0.5)")

    p = sub.add_parser("replay", help="step through a game record on the game screen, or verify it (--check)")
    p.add_argument("file", help="a record written by 'red7 play' or red7.core.record.save")
    p.add_argument(
        "--check",
        action="store_true",
        help="verify the record and print a summary (the default when output is not a terminal)",
    )
    p.add_argument("--show", action="store_true", help="with --check, print every decision as it is replayed")
    p.add_argument("--lang", type=_language, default=None, help="pt-BR or en (default: from the locale)")

    p = sub.add_parser("sim", help="simulate games between random players")
    p.add_argument("--games", type=_positive, default=100)
    _game_options(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")

    p = sub.add_parser("bench", help="measure the engine's speed with random games, or a bot's time per decision")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    p.add_argument("--repeat", type=_positive, default=5, help="measurements per configuration; the median is reported")
    p.add_argument("--bot", metavar="SPEC", help="time this bot's decisions instead (seat 0, medium bots elsewhere)")
    p.add_argument("--games", type=_positive, default=20, help="games played with --bot (default 20)")
    _game_options(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser(
        "tournament",
        help="play bots against each other: win rates, ratings, plots",
        description="Every combination of --players entrants forms a table (one table when there are just "
        "enough); each deal is replayed once per seat rotation. Results depend only on --seed.",
    )
    p.add_argument(
        "--bots",
        required=True,
        metavar="SPEC,...",
        help="bot specs, e.g. hard,medium,easy or ismcts:iters=400,greedy (repeats allowed)",
    )
    p.add_argument(
        "--games", type=_positive, default=100, help="games per table, rounded down to whole deals (default 100)"
    )
    _game_options(p)
    _run_options(p)
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes (default) or Ray (pip install 'red7[ray]')",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        default=None,
        help="a Ray cluster to use (default: $RAY_ADDRESS, else a local Ray instance)",
    )

    p = sub.add_parser(
        "stats",
        help="game-design statistics over bot games: seats, length, branching, rules, actions",
        description="With one bot it takes every seat; with one bot per seat, seats rotate over each deal.",
    )
    p.add_argument("--games", type=_positive, default=1000, help="games to play (default 1000)")
    p.add_argument("--bots", default="random", metavar="SPEC,...", help="one bot, or one per seat (default random)")
    _game_options(p)
    _run_options(p)
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    return parser


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=_positive, default=1, help="games played at once, in processes (default 1)")
    p.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="write the results as JSON and PNG charts (pip install 'red7[plots]') into DIR",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "play"
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    try:
        if command == "play":
            return cmd_play(args)
        if command == "replay":
            return cmd_replay(args)
        if command == "sim":
            return cmd_sim(args)
        if command == "tournament":
            return cmd_tournament(args)
        if command == "stats":
            return cmd_stats(args)
        return cmd_bench(args)
    except UsageError as err:
        print(f"red7: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


# --- replay --------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from ..ui.i18n import _, detect_language, set_language

    set_language(args.lang or detect_language())
    if not args.check and _interactive():
        from ..ui.tui.replay import ReplayApp, positions

        try:
            games = positions(load(args.file))
        except RecordError as err:
            raise UsageError(
                _("{file} is not a Red7 record that can be replayed ({reason})").format(file=args.file, reason=err)
            ) from None
        ReplayApp(games, Path(args.file).name).run()
        return 0

    def show(number: int, action: object, game: Game) -> None:
        print(f"{number:4d}. {action}")

    try:
        game = replay(load(args.file), show if args.show else None)
    except RecordError as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be replayed ({reason})").format(file=args.file, reason=err)
        ) from None
    result = game.result
    if result is None:
        print(f"record replays correctly: {len(game.history)} decisions, game not finished")
    else:
        winners = " and ".join(f"player {w}" for w in result.winners)
        print(f"record replays correctly: {len(game.history)} decisions, {result.rounds} round(s), won by {winners}")
    return 0


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


# --- sim and bench --------------------------------------------------------------------


def cmd_sim(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else 0
    summary = simulate(args.games, args.players, args.advanced, args.actions, seed)
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>22}: {value}")
    return 0


BENCH_CONFIGS = (
    ("2p basic", dict(players=2, advanced=False, actions=False)),
    ("4p advanced+actions", dict(players=4, advanced=True, actions=True)),
)


def cmd_bench_bot(args: argparse.Namespace) -> int:
    """Seconds per decision of one bot (seat 0) over seeded games, one process."""
    from ..bots import BotSpecError, make_bot, play_game

    try:
        bot = make_bot(args.bot)
        others = [make_bot("medium") for _ in range(args.players - 1)]
    except BotSpecError as err:
        raise UsageError(f"--bot: {err}") from None
    times: list[float] = []
    seed = args.seed if args.seed is not None else 0
    for i in range(args.games):
        times += play_game([bot, *others], seed + i, args.advanced, args.actions).times[0]
    times.sort()
    row = {
        "bot": args.bot,
        "players": args.players,
        "advanced": args.advanced,
        "actions": args.actions,
        "games": args.games,
        "decisions": len(times),
        "mean_ms": round(1e3 * statistics.mean(times), 1),
        "median_ms": round(1e3 * times[len(times) // 2], 1),
        "p99_ms": round(1e3 * times[min(len(times) - 1, int(0.99 * len(times)))], 1),
        "max_ms": round(1e3 * times[-1], 1),
    }
    if args.json:
        print(json.dumps(row))
    else:
        print("  ".join(f"{k} {v}" for k, v in row.items()))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.bot:
        return cmd_bench_bot(args)
    if not 0 < args.seconds < 3600:
        raise UsageError(f"--seconds must be a number of seconds between 0 and 3600, not {args.seconds}")
    report = []
    for name, cfg in BENCH_CONFIGS:
        games_rates, decision_rates = [], []
        seed = 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            games = decisions = 0
            while time.perf_counter() - started < args.seconds:
                s = simulate(10, seed=seed, **cfg)  # type: ignore[arg-type]
                seed += 10
                games += s["games"]
                decisions += s["decisions"]
            elapsed = time.perf_counter() - started
            games_rates.append(games / elapsed)
            decision_rates.append(decisions / elapsed)
        report.append(
            {
                "config": name,
                "games_per_second": round(statistics.median(games_rates), 1),
                "decisions_per_second": round(statistics.median(decision_rates)),
                "repeats": args.repeat,
            }
        )
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{'configuration':<22}{'games/s':>12}{'decisions/s':>14}   (median of {args.repeat}, single process)")
        for row in report:
            print(f"{row['config']:<22}{row['games_per_second']:>12,.0f}{row['decisions_per_second']:>14,}")
    return 0


# --- tournament and stats -------------------------------------------------------------


def _entrants(text: str) -> list[Any]:
    from ..analysis.tournament import make_entrants, split_specs
    from ..bots import BotSpecError

    try:
        return make_entrants(split_specs(text))
    except BotSpecError as err:
        raise UsageError(f"--bots: {err}") from None


@contextmanager
def _staged_out(out: str | None) -> Iterator[Any]:
    """The ``--out`` directory, checked before any game is played (None without --out)."""
    if out is None:
        yield None
        return
    from .output import OutputError, StagedOutput
    from .plots import PlotsUnavailable, require_matplotlib

    try:
        require_matplotlib()
        staged = StagedOutput(out)
    except (PlotsUnavailable, OutputError) as err:
        raise UsageError(f"--out: {err}") from None
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


def _commit(out: Any, write: Callable[[], None]) -> list[Path]:
    """Write the files into the staging directory, then move them all into place."""
    try:
        write()
        written: list[Path] = out.commit()
    except OSError as err:
        raise UsageError(f"--out: could not write the results to {out.target}: {err.strerror or err}") from None
    return written


def _play(plan: Any, jobs: int, backend: str = "local", ray_address: str | None = None) -> list[dict[str, Any]]:
    from ..analysis.tournament import run
    from .reports import progress_bar

    with progress_bar(len(plan.tasks), "playing") as advance:
        return run(plan.tasks, jobs, backend, advance, ray_address)


def _seed_of(args: argparse.Namespace) -> int:
    return args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)


def cmd_tournament(args: argparse.Namespace) -> int:
    from ..analysis.tournament import TournamentError, results_document, schedule, summarize
    from .reports import make_console, render_tournament, tournament_header

    entrants = _entrants(args.bots)
    try:
        plan = schedule(entrants, args.players, args.games, _seed_of(args), args.advanced, args.actions)
    except TournamentError as err:
        raise UsageError(str(err)) from None
    if args.backend == "ray":
        from ..analysis.ray_backend import RayUnavailable, require_ray

        try:
            require_ray()
        except RayUnavailable as err:
            raise UsageError(str(err)) from None
    console = make_console()
    with _staged_out(args.out) as out:
        console.print(tournament_header(plan, args.jobs, args.backend), highlight=False)
        results = _play(plan, args.jobs, args.backend, args.ray_address)
        summary = summarize(plan, results)
        render_tournament(summary, console)
        if out is not None:
            from .plots import tournament_plots

            config = {"bots": [e.spec for e in entrants], "jobs": args.jobs, "backend": args.backend}

            def write() -> None:
                _write_json(out.path("results.json"), results_document(plan, results, summary, config))
                tournament_plots(summary, out.staging)

            written = _commit(out, write)
            console.print(f"Wrote {', '.join(p.name for p in written)} to {out.target}", highlight=False)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from ..analysis.stats import plan as stats_plan
    from ..analysis.stats import summarize
    from ..analysis.tournament import TournamentError
    from .reports import make_console, render_stats, stats_header

    entrants = _entrants(args.bots)
    seed = _seed_of(args)
    try:
        plan = stats_plan(entrants, args.players, args.games, seed, args.advanced, args.actions)
    except TournamentError as err:
        raise UsageError(str(err)) from None
    console = make_console(stderr=args.json)
    with _staged_out(args.out) as out:
        console.print(stats_header(plan), highlight=False)
        if plan.rounded:
            console.print(
                f"note: --games {args.games} is not a multiple of the {plan.rotations} seat rotations; "
                f"playing {len(plan.tasks)} games",
                highlight=False,
            )
        results = _play(plan, args.jobs)
        summary = summarize(results, args.players, args.advanced, args.actions)
        summary["bots"] = [e.spec for e in entrants]
        summary["seed"] = seed
        if args.json:
            print(json.dumps(summary))
        else:
            render_stats(summary, console)
        if out is not None:
            from .plots import stats_plots

            def write() -> None:
                _write_json(out.path("stats.json"), summary)
                stats_plots(summary, out.staging)

            written = _commit(out, write)
            console.print(f"Wrote {', '.join(p.name for p in written)} to {out.target}", highlight=False)
    return 0


# --- play ------------------------------------------------------------------------------


def records_dir() -> Path:
    """Where finished games are saved: the user's data directory (XDG on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("red7") / "records"


def table_maker(args: argparse.Namespace) -> Callable[[int | None], Table]:
    """Check ``play``'s seat options and return a function dealing a new table from a seed."""
    from ..bots import BotSpecError, make_bot

    specs = [s.strip() for s in args.bots.split(",")] if args.bots else []
    if any(not s for s in specs):
        raise UsageError("--bots: empty bot spec; write levels separated by commas, e.g. --bots easy,hard")
    players = args.players or (len(specs) + 1 if specs and not args.hotseat else 2)
    if not specs and not args.hotseat:
        specs = ["medium"]
    if len(specs) == 1 and not args.hotseat:
        specs *= players - 1
    people = players - len(specs)
    if people < 1 or (not args.hotseat and people != 1):
        wanted = f"1 to {players - 1}" if args.hotseat else f"1 or {players - 1}"
        raise UsageError(
            f"--bots: {len(specs)} bot(s) for {players} players; give {wanted} specs (the other seats are people)"
        )
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if len(names) > people:
        raise UsageError(f"--names: {len(names)} names for {people} person(s) at the table")
    try:
        for spec in set(specs):
            make_bot(spec)
    except BotSpecError as err:
        raise UsageError(f"--bots: {err}") from None

    def new_table(seed: int | None) -> Table:
        seats = [Seat(names[s] if s < len(names) else "") for s in range(people)]
        seats += [Seat("", make_bot(spec), spec) for spec in specs]
        return Table(seats, args.advanced, args.actions, seed)

    return new_table


def cmd_play(args: argparse.Namespace) -> int:
    from ..ui.i18n import detect_language, set_language

    set_language(args.lang or detect_language())
    new_table = table_maker(args)
    if not 0 <= args.delay <= 10:
        raise UsageError(f"--delay must be between 0 and 10 seconds, not {args.delay}")
    save_to = Path(args.save) if args.save else None
    if args.text or not _interactive():
        from ..ui.text_game import play_text

        return play_text(new_table(args.seed), records_dir(), save_to, sys.stdin, sys.stdout)
    from ..bots import BotSpecError, make_bot
    from ..ui.tui.app import PlayApp

    try:
        make_bot(args.hint)
    except BotSpecError as err:
        raise UsageError(f"--hint: {err}") from None
    seeds = iter([args.seed] if args.seed is not None else [])
    PlayApp(
        lambda: new_table(next(seeds, None)),
        hotseat=args.hotseat,
        bot_delay=args.delay,
        hint=args.hint,
        records=records_dir(),
        save_to=save_to,
    ).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

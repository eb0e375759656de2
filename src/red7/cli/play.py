"""``red7 play`` (the terminal game, or the text game without a terminal) and ``red7 replay``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..core.actions import Action
from ..core.game import Game
from ..core.model import Config
from ..core.record import RecordError, replay
from ..play.records import load, records_dir
from ..play.table import Seat, Table
from .common import Parser, UsageError, game_options, interactive, language


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = sub.add_parser("play", help="play in the terminal against bots or friends (the default command)")
    game_options(p, players_default=None)
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
        type=language,
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
    p.add_argument("--lang", type=language, default=None, help="pt-BR or en (default: from the locale)")


# --- replay --------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from ..ui.i18n import _, detect_language, set_language

    set_language(args.lang or detect_language())
    if not args.check and interactive():
        from ..ui.tui.replay import ReplayApp, positions

        try:
            games = positions(load(args.file))
        except RecordError as err:
            raise UsageError(
                _("{file} is not a Red7 record that can be replayed ({reason})").format(file=args.file, reason=err)
            ) from None
        ReplayApp(games, Path(args.file).name).run()
        return 0

    def show(number: int, action: Action, game: Game) -> None:
        print(f"{number:4d}. {action}")

    try:
        game = replay(load(args.file), show if args.show else None)
    except RecordError as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be replayed ({reason})").format(file=args.file, reason=err)
        ) from None
    result = game.result
    if result is None:
        print(f"record replays correctly: {game.decisions} decisions, game not finished")
    else:
        winners = " and ".join(f"player {w}" for w in result.winners)
        print(f"record replays correctly: {game.decisions} decisions, {result.rounds} round(s), won by {winners}")
    return 0


# --- play ------------------------------------------------------------------------------


def table_maker(args: argparse.Namespace) -> Callable[[int | None], Table]:
    """Check ``play``'s seat options (a mistake is a one-line UsageError) and return a
    function dealing a new table from a seed (None: a fresh one): the people first, then
    the bots, in the configuration the options give."""
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

    config = Config(players, args.advanced, args.actions)

    def new_table(seed: int | None) -> Table:
        seats = [Seat(names[s] if s < len(names) else "") for s in range(people)]
        seats += [Seat("", make_bot(spec), spec) for spec in specs]
        return Table(seats, config, seed)

    return new_table


def cmd_play(args: argparse.Namespace) -> int:
    from ..ui.i18n import detect_language, set_language

    set_language(args.lang or detect_language())
    new_table = table_maker(args)
    if not 0 <= args.delay <= 10:
        raise UsageError(f"--delay must be between 0 and 10 seconds, not {args.delay}")
    save_to = Path(args.save) if args.save else None
    if args.text or not interactive():
        from ..play.session import Session
        from ..ui.text_game import play_text

        return play_text(Session(new_table(args.seed), records_dir(), save_to), sys.stdin, sys.stdout)
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

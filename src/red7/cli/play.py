"""``red7 play`` (the terminal game, or the text game without a terminal) and ``red7 replay``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.actions import Action
from ..core.game import Game
from ..core.model import MAX_PLAYERS, Config
from ..core.record import RecordError, SeatRecord, replay, seats_of
from ..play.records import last_unfinished, load, records_dir, unfinished_dir, unsaveable
from ..play.table import Seat, Table
from ..ui.i18n import _, error_text, ngettext
from .common import Parser, UsageError, game_options, interactive, language


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = sub.add_parser("play", help=_("play in the terminal against bots or friends (the default command)"))
    game_options(p, players_default=None)
    p.add_argument(
        "--bots",
        metavar="LEVEL,...",
        default=None,
        help=_(
            "the bots, separated by commas: easy, medium, hard or any bot spec. Without --hotseat you "
            "are the one person and the bots fill the other seats: give one spec for every bot seat or one per bot "
            "seat (default medium). With --hotseat each spec is one bot (default none) and the other seats are "
            "people. 2 to 4 players in all."
        ),
    )
    p.add_argument(
        "--hotseat",
        action="store_true",
        help=_(
            "several people at one screen: the seats without a bot are people (at least one), and the hand "
            "is hidden while the device passes"
        ),
    )
    p.add_argument("--names", metavar="NAME,...", default=None, help=_("the people's names, in seat order"))
    p.add_argument(
        "--lang",
        type=language,
        default=None,
        help=_("pt-BR or en (default: from the environment's locale, else English)"),
    )
    p.add_argument("--save", metavar="FILE", help=_("where to save the game record (default: the data directory)"))
    p.add_argument("--force", action="store_true", help=_("let --save replace a file that exists"))
    p.add_argument(
        "--text",
        action="store_true",
        help=_("the plain text game on standard input/output (used when they are not a terminal)"),
    )
    p.add_argument("--hint", metavar="SPEC", default="hard", help=_("the bot whose advice the hint key shows"))
    p.add_argument(
        "--no-confirm",
        dest="confirm",
        action="store_false",
        help=_(
            "do not ask to confirm the last decision of each turn (unsafe decisions and conceding still ask; "
            "the key f switches it during the game)"
        ),
    )
    p.add_argument(
        "--resume",
        metavar="FILE",
        nargs="?",
        const="",
        default=None,
        help=_(
            "go on with an unfinished game, with the same seats and rules: the last one saved (the terminal game "
            "saves the game in progress after every move, until it ends) or the record FILE"
        ),
    )
    p.add_argument("--delay", type=float, default=0.5, help=_("least seconds per bot move, to follow it (default 0.5)"))

    p = sub.add_parser("replay", help=_("step through a game record on the game screen, or verify it (--check)"))
    p.add_argument("file", help=_("a record written by 'red7 play' or red7.core.record.save"))
    p.add_argument(
        "--check",
        action="store_true",
        help=_("verify the record and print a summary (the default when output is not a terminal)"),
    )
    p.add_argument("--show", action="store_true", help=_("with --check, print every decision as it is replayed"))
    p.add_argument("--lang", type=language, default=None, help=_("pt-BR or en (default: from the locale)"))


# --- replay --------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from ..ui.i18n import _, detect_language, set_language

    set_language(args.lang or detect_language())
    if not args.check and interactive():
        from ..ui.tui.replay import ReplayApp, positions

        try:
            record = load(args.file)
            games = positions(record)
        except RecordError as err:
            raise UsageError(
                _("{file} is not a Red7 record that can be replayed ({reason})").format(
                    file=args.file, reason=error_text(err)
                )
            ) from None
        ReplayApp(games, Path(args.file).name, seats_of(record)).run()
        return 0

    from ..play.session import seat_names
    from ..ui.words import decision_text, seat_name, winners_line

    seats: list[SeatRecord] = []

    def named(players: int) -> list[str]:
        """Each seat as the game named it ("You", "Bot 2", "Ana"; "Player 1" in a record that does not say)."""
        if seats:
            return [seat_name(n) for n in seat_names(seats)]
        return [_("Player {n}").format(n=s + 1) for s in range(players)]

    def show(number: int, action: Action, game: Game) -> None:
        """A decision as ``--show`` lists it: who made it, in words, and its notation."""
        seat = game.history[-1][0]
        print(f"{number:4d}. {named(game.players)[seat]}: {decision_text(action)} [{action}]")

    try:
        record = load(args.file)
        seats = list(seats_of(record) or [])
        game = replay(record, show if args.show else None)
    except RecordError as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be replayed ({reason})").format(
                file=args.file, reason=error_text(err)
            )
        ) from None
    if game.result is None:
        print(_("The record replays correctly: {n} decisions, the game is not finished.").format(n=game.decisions))
    else:
        outcome = winners_line(game.result.winners, named(game.players), game.config.advanced)
        print(_("The record replays correctly: {n} decisions. {outcome}").format(n=game.decisions, outcome=outcome))
    return 0


# --- play ------------------------------------------------------------------------------


def _bots(n: int) -> str:
    """``1 bot``, ``3 bots``, in the language in use."""
    return ngettext("{n} bot", "{n} bots", n).format(n=n)


def seat_plan(specs: list[str] | None, players: int | None, hotseat: bool) -> tuple[int, list[str]]:
    """The seats ``play``'s options ask for: ``(people, bot specs)``, people first.

    ``specs`` is what ``--bots`` gave (None: nothing), ``players`` what ``--players``
    gave (None: one more than the bots given, at least 2). Without ``hotseat`` there is
    one person and the bots fill the other seats: one spec serves every bot seat, or
    there is one per bot seat (none: ``medium`` for all). With ``hotseat`` every spec is
    one bot and the seats without a bot are people, at least one. A request that breaks
    these rules or the 2 to 4 players of R2.1 raises a one-line UsageError, in the
    language in use, saying how many seats, people and bots it would make and what
    would work.
    """
    most = MAX_PLAYERS
    given = len(specs or [])
    if players is None and given + 1 > most:
        too_many = _(
            "--bots: {bots} and {person} make {players} players, but Red7 is played by 2 to {most}; "
            "give at most {fewer}"
        )
        raise UsageError(
            too_many.format(
                bots=_bots(given),
                person=_("at least 1 person") if hotseat else _("you"),
                players=given + 1,
                most=most,
                fewer=_bots(most - 1),
            )
        )
    seats = players or max(2, given + 1)
    # Bots that outnumber the bot seats fit a larger table, when Red7 allows one.
    more = [_("use --players {players}").format(players=given + 1)] if given >= seats - 1 and given + 1 <= most else []
    if hotseat:
        if given < seats:
            return seats - given, list(specs or [])
        fixes = [_("give at most {bots}").format(bots=_bots(seats - 1)), *more]
        raise UsageError(
            _(
                "--bots: {bots} at a table of {players} players leave no seat for a person (with --hotseat the "
                "seats without a bot are people, at least 1); {fixes}"
            ).format(bots=_bots(given), players=seats, fixes=_(", or ").join(fixes))
        )
    bot_seats = seats - 1
    if specs is None:
        return 1, ["medium"] * bot_seats
    if given in (1, bot_seats):
        return 1, specs * bot_seats if given == 1 else list(specs)
    one_each = _("give 1 bot for all of them or {seats}, one per seat").format(seats=bot_seats)
    fixes = [_("give 1 bot") if bot_seats == 1 else one_each, *more]
    if given < bot_seats:
        # seats - given is 2 or more here: given < bot_seats
        fixes.append(_("add --hotseat so that the {seats} seats without a bot are people").format(seats=seats - given))
    raise UsageError(
        ngettext(
            "--bots: {bots} for {players} players, that is 1 person (you) and {seats} bot seat; {fixes}",
            "--bots: {bots} for {players} players, that is 1 person (you) and {seats} bot seats; {fixes}",
            bot_seats,
        ).format(bots=_bots(given), players=seats, seats=bot_seats, fixes=_(", or ").join(fixes))
    )


def table_maker(args: argparse.Namespace) -> Callable[[int | None], Table]:
    """Check ``play``'s seat options (a mistake is a one-line UsageError, see
    :func:`seat_plan`) and return a function dealing a new table from a seed (None: a
    fresh one): the people first, then the bots, in the configuration the options give."""
    from ..bots import BotSpecError, make_bot

    specs = [s.strip() for s in args.bots.split(",")] if args.bots is not None else None
    if specs is not None and not all(specs):
        raise UsageError(_("--bots: empty bot spec; write levels separated by commas, e.g. --bots easy,hard"))
    people, specs = seat_plan(specs, args.players, args.hotseat)
    names = [" ".join(n.split()) for n in args.names.split(",")] if args.names else []
    if len(names) > people:
        raise UsageError(
            _("--names: {names} names for {people} person(s) at the table").format(names=len(names), people=people)
        )
    check_names(names)
    try:
        for spec in set(specs):
            make_bot(spec)
    except BotSpecError as err:
        raise UsageError(_("--bots: {problem}").format(problem=error_text(err))) from None

    config = Config(people + len(specs), args.advanced, args.actions)

    def new_table(seed: int | None) -> Table:
        seats = [Seat(names[s] if s < len(names) else "") for s in range(people)]
        seats += [Seat("", make_bot(spec), spec) for spec in specs]
        return Table(seats, config, seed)

    return new_table


def check_names(names: Sequence[str]) -> None:
    """The people's names follow the web's rules: at most
    :data:`~red7.ui.words.NAME_LENGTH` printable characters, none a name the table gives
    seats itself ("Bot 3", "Você"...), and no two the same (Ana and ANA are one name,
    :func:`~red7.ui.words.name_key`). An empty name is the seat's own. A name that breaks
    them is a one-line UsageError."""
    from ..ui.words import NAME_LENGTH, RESERVED_NAME, name_key

    seen: dict[str, str] = {}
    for name in names:
        if not name:
            continue
        if len(name) > NAME_LENGTH or not name.isprintable():
            raise UsageError(
                _("--names: {name!r} is not a name of up to {n} printable characters").format(name=name, n=NAME_LENGTH)
            )
        key = name_key(name)
        if RESERVED_NAME.fullmatch(key):
            raise UsageError(
                _("--names: names like {name} are the table's, for its bots and seats: choose another").format(
                    name=name
                )
            )
        if key in seen:
            raise UsageError(
                _("--names: {first} and {name} are the same name: give each person their own").format(
                    first=seen[key], name=name
                )
            )
        seen[key] = name


RESUME_CONFLICTS = {
    "players": "--players",
    "bots": "--bots",
    "hotseat": "--hotseat",
    "names": "--names",
    "advanced": "--advanced",
    "actions": "--actions",
    "seed": "--seed",
}
"""The options that set up a new game: a resumed game takes them from its record."""


def resumed_table(args: argparse.Namespace) -> tuple[Table, Path]:
    """The table of the game ``--resume`` names (its FILE, else the last unfinished game
    saved) and the file it was read from. Options that set up a new game, no game to
    resume and a record that cannot be resumed are one-line UsageErrors."""
    given = [flag for dest, flag in RESUME_CONFLICTS.items() if getattr(args, dest) not in (None, False)]
    if given:
        raise UsageError(
            _("--resume: the record says who plays and by which rules; leave out {options}").format(
                options=", ".join(given)
            )
        )
    path = Path(args.resume) if args.resume else last_unfinished()
    if path is None:
        raise UsageError(_("--resume: there is no unfinished game to resume in {dir}").format(dir=unfinished_dir()))
    try:
        return Table.resume(load(path)), path
    except RecordError as err:
        raise UsageError(
            _("--resume: {path} cannot be resumed ({reason})").format(path=path, reason=error_text(err))
        ) from None


def same_seats(table: Table) -> Callable[[int | None], Table]:
    """A function dealing a new game (from a seed; None: a fresh one) to the people and
    bots of ``table``, under its rules: "play again" after a resumed game."""

    def new_table(seed: int | None) -> Table:
        return Table([Seat.of(seat) for seat in table.seat_records()], table.config, seed)

    return new_table


def cmd_play(args: argparse.Namespace) -> int:
    """``red7 play``. A resumed game takes up the language and the confirmation of
    turns it was played with (the record's settings), unless ``--lang`` says otherwise
    (``--no-confirm`` always wins: there is no option to turn confirmation on)."""
    from ..ui.i18n import LanguageError, detect_language, parse_language, set_language

    set_language(args.lang or detect_language())
    resume: tuple[Table, Path] | None = resumed_table(args) if args.resume is not None else None
    if resume is not None:  # the game goes on as it was played: its language, its confirmation
        settings = resume[0].settings
        if args.lang is None and isinstance(settings.get("lang"), str):
            try:
                set_language(parse_language(settings["lang"]))
            except LanguageError:
                pass  # a language this version does not know: the locale's
        if settings.get("confirm") is False:
            args.confirm = False
    new_table = same_seats(resume[0]) if resume is not None else table_maker(args)
    if not 0 <= args.delay <= 10:
        raise UsageError(_("--delay must be between 0 and 10 seconds, not {delay}").format(delay=args.delay))
    if args.save == "":
        raise UsageError(_("--save: the file name is empty"))
    save_to = Path(args.save) if args.save is not None else None
    if save_to is not None and (problem := unsaveable(save_to)):  # before the game, not after it
        raise UsageError(_("--save: cannot save the record to {path}: {problem}").format(path=save_to, problem=problem))
    if save_to is not None and save_to.exists() and not args.force:
        raise UsageError(
            _("--save: {path} exists; give another file, or add --force to replace it").format(path=save_to)
        )
    autosaves = unfinished_dir()
    from ..bots import BotSpecError, make_bot

    try:  # in every mode: the text game's hint command asks the same bot
        make_bot(args.hint)
    except BotSpecError as err:
        raise UsageError(_("--hint: {problem}").format(problem=error_text(err))) from None
    from ..ui.fallback import fallback_notice

    notice = fallback_notice()  # any level may play: the hint, the bots of "play again"
    if args.text or not interactive():
        from ..play.saving import Saver
        from ..play.session import Session
        from ..ui.text_game import play_text

        if resume is None:  # kept in the autosave directory until it ends, as the terminal game does
            table = new_table(args.seed)
            session, saver = Session(table), Saver(records_dir(), save_to, autosaves / table.record_name())
        else:  # a game resumed from its autosave goes on being saved there, and the file goes at the end
            table, path = resume
            session = Session(table, resumed=True)
            saver = Saver(records_dir(), save_to, path if path.parent == autosaves else None)
        return play_text(session, sys.stdin, sys.stdout, notice, args.hint, saver)
    from ..ui.tui.app import PlayApp

    seeds = iter([args.seed] if args.seed is not None else [])
    app = PlayApp(
        lambda: new_table(next(seeds, None)),
        # a resumed game with several people at the table is a hotseat game
        hotseat=args.hotseat or (resume is not None and len(resume[0].people) > 1),
        bot_delay=args.delay,
        hint=args.hint,
        records=records_dir(),
        save_to=save_to,
        confirm=args.confirm,
        autosaves=autosaves,
        resume=resume[0] if resume is not None else None,
        resumed_from=resume[1] if resume is not None else None,
        notice=notice,
    )
    app.run()
    if (farewell := app.farewell()) is not None:  # the screen is gone: where the game waits stays
        print(farewell)
    return 0

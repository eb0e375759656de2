"""``red7 analyse``: every decision of a game record marked, exactly by the solver where
it answers and elsewhere against a search bot's choice (:mod:`red7.solver.marks`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Final

from ..core.record import RecordError, initial, seats_of
from ..play.records import load
from ..ui.i18n import _, error_text
from .common import Commands, UsageError, language, positive, say_fallback

DEFAULT_BUDGET: Final = 60.0
"""Seconds ``red7 analyse`` gives its estimates by default: a 4-player match of some
150 decisions took the judge ``expert`` (since removed: ``hard``'s strength at five
times its time) 4 minutes on a 2-core machine, ``hard``, the judge by default now, about
a fifth of that, so the budget binds only a larger judge given with ``--judge``."""
JUDGE: Final = "hard"
"""The judge by default."""
FALLBACK: Final = "hard"
"""The judge that estimates the decisions left once half the budget is spent: ``hard``
(for the default judge itself, which keeps its own pace)."""


def seconds(text: str) -> float:
    """A time budget in seconds: a number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds").format(text=text)) from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds (0 or more)").format(text=text))
    return value


def add_commands(sub: Commands) -> None:
    p = sub.add_parser(
        "analyse",
        help=_("mark every decision of a game record: won rounds thrown away (exact), costly decisions (estimated)"),
        description=_(
            "Where two players are left and no card remains to be drawn (the whole 2-player basic "
            "game), each decision is valued exactly: was the round won for its player before it, and after it? "
            "The judge (a search bot, from the player's own view) estimates the player's chance to win after the "
            "decision made and after its own choice; a decision 10 points of chance below it is costly. Where both "
            "say, a round thrown away is said to be visible from the player's own view (costly there too) or lost "
            "only in hindsight, with every hand known."
        ),
    )
    p.add_argument("file", help=_("a record written by 'red7 play' or red7.core.record.save"))
    p.add_argument("--all", action="store_true", help=_("list every decision marked, not only the mistakes"))
    p.add_argument("--json", action="store_true", help=_("print the marks as JSON"))
    p.add_argument("--judge", default=JUDGE, metavar="SPEC", help=_("the bot that estimates (default: hard)"))
    p.add_argument(
        "--budget",
        type=seconds,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=_(
            "about how long the estimates may take: past half of it, a smaller judge ({judge}) estimates the "
            "remaining decisions (default: {budget}; 0: no budget, the judge estimates every decision)"
        ).format(judge=FALLBACK, budget=f"{DEFAULT_BUDGET:g}"),
    )
    p.add_argument("--exact", action="store_true", help=_("only the solver's exact marks (fast; nothing estimated)"))
    p.add_argument("--seat", type=positive, action="append", help=_("estimate only this seat's decisions (repeatable)"))
    p.add_argument("--lang", type=language, default=None, help=_("pt-BR or en (default: from the locale)"))


def cmd_analyse(args: argparse.Namespace) -> int:
    from ..bots import BotSpecError, make_bot
    from ..bots.base import Appraiser
    from ..play.judge import BudgetedJudge, judge
    from ..play.session import SeatKind, SeatName, seat_names
    from ..solver.marks import review
    from ..ui.i18n import _, detect_language, ngettext, set_language
    from ..ui.words import bot_level, decimal_text, decision_place, seat_name, verdict_text

    set_language(args.lang or detect_language())
    try:
        record = load(args.file)
        game = initial(record)
    except (RecordError, ValueError) as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be analysed ({reason})").format(
                file=args.file, reason=error_text(err)
            )
        ) from None
    players = game.config.players
    if args.seat and max(args.seat) > players:
        raise UsageError(_("--seat must be 1 to {players}: this game has {players} players").format(players=players))
    estimator = None
    if not args.exact:
        try:
            bot = make_bot(args.judge)
        except BotSpecError as err:
            raise UsageError(_("--judge: {problem}").format(problem=error_text(err))) from None
        say_fallback([args.judge], args.lang)
        if not isinstance(bot, Appraiser):
            raise UsageError(
                _("{spec} cannot estimate chances: use hard, or an ismcts or pimc spec").format(spec=args.judge)
            )
        judged = {s - 1 for s in args.seat} if args.seat else None
        fallback = make_bot(FALLBACK)
        assert isinstance(fallback, Appraiser), "the hard level is a pimc bot"
        estimator = BudgetedJudge(judge(bot, game.seed, judged), judge(fallback, game.seed, judged), args.budget)

    # The progress line is redrawn in place (\r), which only a terminal shows as one
    # line: in a file or a pipe it would be one long line of every count, so it is
    # written only when stderr is a terminal.
    def progress(done: int, total: int) -> None:
        line = _("Analysing… {done} of {total} decisions").format(done=done, total=total)
        if estimator is not None and estimator.spent:
            line += " " + _("(the time budget is half spent: {judge} estimates the rest)").format(judge=FALLBACK)
        print("\r" + line, end="", file=sys.stderr)

    try:
        marks = review(
            game.config,
            game.seed,
            record["decisions"],
            estimator,
            progress if sys.stderr.isatty() else None,
            deal=game.deal,
        )
    except ValueError as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be analysed ({reason})").format(
                file=args.file, reason=error_text(err)
            )
        ) from None
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)
    if args.json:
        print(json.dumps([m.as_dict() for m in marks], indent=1))
        return 0
    seats = seats_of(record)

    # each seat as the game named it: the name given, else "You" (the one person at the
    # table), "Bot 2 (easy)" or "Player 1" (also for a record that does not say who sat there)
    named = seat_names(seats) if seats else [SeatName(s, SeatKind.PLAYER, "", None) for s in range(players)]

    def who(seat: int) -> str:
        label, bot = seat_name(named[seat]), named[seat].level
        return f"{label} ({bot_level(bot)})" if bot else label

    solved = [m for m in marks if m.won_before is not None]
    estimated = [m for m in marks if m.estimate is not None]
    print(
        _("{decisions} decisions, {solved} valued exactly by the solver.").format(
            decisions=len(marks), solved=len(solved)
        )
    )
    if estimator is not None and estimator.by_fallback:
        print(
            _(
                "{estimated} estimated by {judge}, {rest} by {fallback} once half the time budget "
                "({seconds} s, --budget) was spent."
            ).format(
                estimated=estimator.by_main,
                judge=bot_level(args.judge),
                rest=estimator.by_fallback,
                fallback=bot_level(FALLBACK),
                seconds=decimal_text(args.budget, 0),
            )
        )
    elif estimator is not None:
        print(_("{estimated} estimated by {judge}.").format(estimated=len(estimated), judge=bot_level(args.judge)))
    if not solved and not estimated:
        print(_("Nothing to value: the solver answers when two players are left and no card remains to be drawn."))
        return 0
    match = game.config.advanced
    names = [who(seat) for seat in range(players)]
    for m in marks:
        if args.all or m.threw_away or (m.won_before is None and m.costly):
            print(f"{m.number}. {decision_place(m)}, {names[m.seat]}: {verdict_text(m, match)}")
    for seat in sorted({m.seat for m in solved}):
        mine = [m for m in solved if m.seat == seat]
        won = sum(bool(m.won_before) for m in mine)
        thrown = [m for m in mine if m.threw_away]
        if not won:
            print(_("{name}: never in a won position.").format(name=who(seat)))
            continue
        print(
            ngettext(
                "{who}: {thrown} won position thrown away, of {won} decisions in won positions.",
                "{who}: {thrown} won positions thrown away, of {won} decisions in won positions.",
                len(thrown),
            ).format(who=who(seat), thrown=len(thrown), won=won)
        )
        if any(m.visible is not None for m in thrown):
            print(
                ngettext(
                    "{name}: {seen} of them could be seen from their own view, the others only in hindsight.",
                    "{name}: {seen} of them could be seen from their own view, the others only in hindsight.",
                    len(thrown),
                ).format(name=who(seat), seen=sum(bool(m.visible) for m in thrown))
            )
    for seat in sorted({m.seat for m in estimated if m.won_before is None}):
        mine = [m for m in estimated if m.seat == seat and m.won_before is None]
        costly = sum(m.costly for m in mine)
        loss = sum(m.estimate.loss for m in mine if m.estimate is not None) / len(mine)
        print(
            ngettext(
                "{who}: {costly} costly decision of {judged} estimated; on average {loss} points of chance lost.",
                "{who}: {costly} costly decisions of {judged} estimated; on average {loss} points of chance lost.",
                costly,
            ).format(who=who(seat), costly=costly, judged=len(mine), loss=decimal_text(100 * loss))
        )
    return 0

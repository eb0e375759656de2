"""``red7 analyse``: every decision of a game record marked by the exact solver."""

from __future__ import annotations

import argparse
import json

from ..core.record import RecordError, initial, seats_of
from ..play.records import load
from .common import Commands, UsageError, language


def add_commands(sub: Commands) -> None:
    p = sub.add_parser(
        "analyse",
        help="mark every decision of a game record: won positions kept or thrown away (exact solver)",
        description="Where two players are left and no card remains to be drawn (the whole 2-player basic "
        "game), each decision is valued exactly: was the round won for its player before it, and after it?",
    )
    p.add_argument("file", help="a record written by 'red7 play' or red7.core.record.save")
    p.add_argument("--all", action="store_true", help="list every decision, not only those that changed the round")
    p.add_argument("--json", action="store_true", help="print the marks as JSON")
    p.add_argument("--lang", type=language, default=None, help="pt-BR or en (default: from the locale)")


def cmd_analyse(args: argparse.Namespace) -> int:
    from ..solver.marks import review
    from ..ui.i18n import _, detect_language, ngettext, set_language

    set_language(args.lang or detect_language())
    try:
        record = load(args.file)
        game = initial(record)
        marks = review(game.config, game.seed, record["decisions"])
    except (RecordError, ValueError) as err:
        raise UsageError(
            _("{file} is not a Red7 record that can be analysed ({reason})").format(file=args.file, reason=err)
        ) from None
    if args.json:
        print(json.dumps([m.as_dict() for m in marks], indent=1))
        return 0
    seats = seats_of(record)

    def who(seat: int) -> str:
        named = seats[seat] if seats else None
        label = _("seat {n}").format(n=seat + 1)
        if named and (named.name or named.bot):
            label += f" ({named.name or named.bot})"
        return label

    solved = [m for m in marks if m.won_before is not None]
    print(
        _("{decisions} decisions, {solved} valued exactly by the solver.").format(
            decisions=len(marks), solved=len(solved)
        )
    )
    if not solved:
        print(_("Nothing to value: the solver answers when two players are left and no card remains to be drawn."))
        return 0
    for m in marks:
        if m.won_before is None:
            continue
        if m.threw_away:
            keep = ", ".join(str(a) for a in m.best)
            line = _("threw a won round away (kept by: {decisions})").format(decisions=keep)
        elif not args.all:
            continue
        elif m.won_before:
            line = _("won, kept")
        else:
            line = _("lost whatever is played")
        print(f"{m.number:4d}. {who(m.seat):<24} {str(m.action):<12} {line}")
    for seat in sorted({m.seat for m in solved}):
        mine = [m for m in solved if m.seat == seat]
        won = sum(bool(m.won_before) for m in mine)
        thrown = sum(m.threw_away for m in mine)
        print(
            ngettext(
                "{who}: {thrown} won position thrown away, of {won} decisions in won positions.",
                "{who}: {thrown} won positions thrown away, of {won} decisions in won positions.",
                thrown,
            ).format(who=who(seat), thrown=thrown, won=won)
        )
    return 0

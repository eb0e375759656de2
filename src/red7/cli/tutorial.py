"""``red7 tutorial``: the guided first game (:mod:`red7.tutorial`), on the game's screen
or, with ``--text`` or without a terminal, in the text game."""

from __future__ import annotations

import argparse
import sys

from ..ui.i18n import _
from .common import Parser, UsageError, interactive, language


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = sub.add_parser("tutorial", help=_("learn to play: a guided first game in short chapters"))
    p.add_argument("--lang", type=language, default=None, help=_("pt-BR or en (default: from the locale)"))
    p.add_argument(
        "--text",
        action="store_true",
        help=_("the plain text game on standard input/output (used when they are not a terminal)"),
    )
    p.add_argument(
        "--chapter", type=int, metavar="N", default=None, help=_("start at chapter N (default: the first not done)")
    )
    p.add_argument("--restart", action="store_true", help=_("forget the chapters done and start from the first"))


def cmd_tutorial(args: argparse.Namespace) -> int:
    from ..tutorial.chapters import CHAPTERS
    from ..tutorial.progress import TutorialProgress, progress_path
    from ..ui.i18n import detect_language, set_language

    set_language(args.lang or detect_language())
    if args.chapter is not None and not 1 <= args.chapter <= len(CHAPTERS):
        raise UsageError(_("--chapter must be between 1 and {n}").format(n=len(CHAPTERS)))
    progress = TutorialProgress(progress_path())
    if args.restart:
        progress.restart()
    start = None if args.chapter is None else args.chapter - 1
    if args.text or not interactive():
        from ..tutorial.text import play_tutorial_text

        return play_tutorial_text(sys.stdin, sys.stdout, progress, start)
    from ..tutorial.screen import TutorialApp

    TutorialApp(progress, start).run()
    return 0

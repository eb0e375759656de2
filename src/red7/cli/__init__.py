"""The ``red7`` command line: play, tutorial, replay, serve, db, admin, sim, bench, tournament and stats.

Every user mistake (a bad option, a bad record, an illegal decision) ends with a
one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import admin, analyse, analysis, play, serve, tutorial
from .common import Parser, UsageError, translate_argparse

COMMANDS = {
    "play": play.cmd_play,
    "replay": play.cmd_replay,
    "tutorial": tutorial.cmd_tutorial,
    "analyse": analyse.cmd_analyse,
    "serve": serve.cmd_serve,
    "db": serve.cmd_db,
    "admin": admin.cmd_admin,
    "sim": analysis.cmd_sim,
    "bench": analysis.cmd_bench,
    "tournament": analysis.cmd_tournament,
    "stats": analysis.cmd_stats,
}


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, its help in the language in use (set it first)."""
    from ..ui.i18n import _

    parser = Parser(prog="red7", description=_("The card game Red7."))
    # argparse's own help of --version is not looked up in the catalogs (Python 3.11): given here
    parser.add_argument(
        "--version", action="version", version=f"red7 {__version__}", help=_("show program's version number and exit")
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play.add_commands(sub)
    tutorial.add_commands(sub)
    analyse.add_commands(sub)
    serve.add_commands(sub)
    admin.add_commands(sub)
    analysis.add_commands(sub)
    return parser


def _early_language(argv: Sequence[str]) -> str:
    """The language of ``--help`` and of the command line's errors: ``--lang``'s if the
    arguments give a known one, else the environment's locale's (the commands set the
    language again from their parsed options)."""
    from ..ui.i18n import LanguageError, detect_language, parse_language

    for i, word in enumerate(argv):
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else word.partition("=")[2]
        if word == "--lang" or word.startswith("--lang="):
            try:
                return parse_language(value)
            except LanguageError:
                break  # the parser says what is wrong with it
    return detect_language()


def main(argv: Sequence[str] | None = None) -> int:
    from ..ui.i18n import _, set_language

    words = list(sys.argv[1:] if argv is None else argv)
    set_language(_early_language(words))
    translate_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # play is the default command
        args = parser.parse_args(["play", *(argv or [])])
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(_("red7: error: {message}").format(message=err), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # whoever read the output stopped (``red7 ... | head``): stop quietly
        # Python flushes standard output at exit: point it at devnull so that flush
        # cannot fail again (the recipe of the ``signal`` module's documentation).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


__all__ = ["build_parser", "main"]

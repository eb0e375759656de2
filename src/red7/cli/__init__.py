"""The ``red7`` command line: play, replay, serve, db, sim, bench, tournament and stats.

Every user mistake (a bad option, a bad record, an illegal decision) ends with a
one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import analyse, analysis, play, serve
from .common import Parser, UsageError

COMMANDS = {
    "play": play.cmd_play,
    "replay": play.cmd_replay,
    "analyse": analyse.cmd_analyse,
    "serve": serve.cmd_serve,
    "db": serve.cmd_db,
    "sim": analysis.cmd_sim,
    "bench": analysis.cmd_bench,
    "tournament": analysis.cmd_tournament,
    "stats": analysis.cmd_stats,
}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="red7", description="The card game Red7.")
    parser.add_argument("--version", action="version", version=f"red7 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play.add_commands(sub)
    analyse.add_commands(sub)
    serve.add_commands(sub)
    analysis.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # play is the default command
        args = parser.parse_args(["play", *(argv or [])])
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"red7: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # whoever read the output stopped (``red7 ... | head``): stop quietly
        # Python flushes standard output at exit: point it at devnull so that flush
        # cannot fail again (the recipe of the ``signal`` module's documentation).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


__all__ = ["build_parser", "main"]

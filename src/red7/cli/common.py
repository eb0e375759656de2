"""What every ``red7`` command shares: one-line usage errors and the option parsers."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Final, NoReturn, TypeAlias

from ..core.model import Config, GameError
from ..ui.i18n import N_, _, error_text


class UsageError(Exception):
    """A user mistake: reported in one line, exit code 2."""


ARGPARSE_MESSAGES: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""argparse's own words that a person sees (it looks each up with gettext when it says
it): in the catalogs, so that ``red7 --help`` and its errors follow the locale."""


def translate_argparse() -> None:
    """Let argparse's own words (:data:`ARGPARSE_MESSAGES`: "usage:", "options", "the
    following arguments are required"...) come from red7's catalogs in the language in
    use when they are said. argparse looks them up through its module's ``_`` and
    ``ngettext`` (the standard library's gettext, whose default domain red7 does not
    use), so these two are pointed at red7's; words red7 has no translation for stay
    English. Parsers built after this take their section titles in the language in use."""
    from ..ui.i18n import _, ngettext

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """Reports a bad command line in one line (``red7: error: ...``, in the language in
    use), exit code 2."""

    def error(self, message: str) -> NoReturn:
        from ..ui.i18n import _

        command = self.prog.split()[1:] if self.prog.startswith("red7") else []
        where = f"red7 {' '.join(command)} --help" if command else "red7 --help"
        self.exit(2, _("red7: error: {message} (see {where})").format(message=message, where=where) + "\n")


Commands: TypeAlias = "argparse._SubParsersAction[Parser]"
"""Where each command module adds its commands (their parsers are :class:`Parser` too)."""


def players(text: str) -> int:
    """A number of players, checked by the engine's own :class:`Config` (R2.1)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a number of players (2, 3 or 4)").format(text=text)
        ) from None
    try:
        return Config(n).players
    except GameError as err:
        raise argparse.ArgumentTypeError(error_text(err)) from None


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a positive integer").format(text=text)) from None
    if n < 1:
        raise argparse.ArgumentTypeError(_("{text!r} is not a positive integer").format(text=text))
    return n


def seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not an integer seed").format(text=text)) from None


def language(text: str) -> str:
    from ..ui.i18n import LANGUAGES, LanguageError, parse_language

    try:
        return parse_language(text)
    except LanguageError:
        raise argparse.ArgumentTypeError(
            _("language {text!r} is not available; choose one of: {languages}").format(
                text=text, languages=", ".join(LANGUAGES)
            )
        ) from None


def game_options(p: argparse.ArgumentParser, players_default: int | None = 2) -> None:
    p.add_argument(
        "--players",
        type=players,
        default=players_default,
        help=_("2, 3 or 4 (default 2; for play, one more than the bots given, at least 2)"),
    )
    p.add_argument("--advanced", action="store_true", help=_("advanced game: canvas draw and scoring over a match"))
    p.add_argument("--actions", action="store_true", help=_("the action rules of the 1, 3, 5 and 7"))
    p.add_argument("--seed", type=seed, default=None, help=_("seed of the shuffle (default: random)"))


def run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=positive, default=1, help=_("games played at once, in processes (default 1)"))
    p.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help=_(
            "write the results as JSON into DIR, and PNG charts there when matplotlib is installed "
            "(pip install 'red7[plots]')"
        ),
    )


def interactive() -> bool:
    """Are standard input and output a terminal (so a screen can be shown)?"""
    return sys.stdin.isatty() and sys.stdout.isatty()


def say_fallback(specs: Iterable[str] | None = None, lang: str | None = None) -> None:
    """Say once, on standard error, that the compiled core is not in use and which levels
    play differently for it (:func:`red7.ui.fallback.fallback_notice`), in ``lang`` (None:
    the locale's); nothing where the core is in use, or where ``specs`` (the bot specs a
    command plays; None: any) names none of those levels."""
    from ..ui.fallback import fallback_notice
    from ..ui.i18n import detect_language, using

    with using(lang or detect_language()):
        notice = fallback_notice(specs)
    if notice:
        print(f"red7: {notice}", file=sys.stderr, flush=True)

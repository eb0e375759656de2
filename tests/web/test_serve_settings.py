"""The options of ``red7 serve``, declared once on the settings' fields
(red7.web.http.options, red7.web.settings, red7.web.http.limits): every option is reachable by its
flag and its environment variable, the command line wins, a bad value is refused in
words in both languages, however the settings are made, and docs/deploying.md's table is
the declaration's.

The refusals through ``red7 serve`` itself, one by one: tests/test_cli.py and
tests/test_web_edges.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from red7.cli import build_parser
from red7.ui.i18n import error_text, using
from red7.web.http.limits import Limits
from red7.web.http.options import Kind, Option, OptionError, declared
from red7.web.settings import END, START, Settings, main, with_table

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "deploying.md"
OPTIONS = declared(Settings)

CHOSEN: dict[str, tuple[str, Any]] = {
    "host": ("0.0.0.0", "0.0.0.0"),
    "database-url": ("sqlite:////srv/red7/db.sqlite3", "sqlite:////srv/red7/db.sqlite3"),
    "redis-url": ("redis://cache.example.org:6379/0", "redis://cache.example.org:6379/0"),
    "allow-origin": (
        "https://a.example.org, https://b.example.org",
        ("https://a.example.org", "https://b.example.org"),
    ),
    "allowed-host": ("red7.example.org,*.club.example.org", ("red7.example.org", "*.club.example.org")),
    "trusted-proxy": ("10.0.0.5,10.1.0.0/16", ("10.0.0.5", "10.1.0.0/16")),
    "log-format": ("json", "json"),
}
"""A text each option of a text or a list may be given, and its value (numbers and
switches: their default's next value)."""


def chosen(option: Option) -> tuple[str, Any]:
    """A text for ``option`` that is not its default, and the value it gives."""
    if option.kind is Kind.WHOLE:
        return str(option.default + 1), option.default + 1
    if option.kind is Kind.NUMBER:
        return str(option.default + 1.5), option.default + 1.5
    if option.kind is Kind.SWITCH:
        return "yes", not option.default
    return CHOSEN[option.name]


def value(settings: Settings, name: str) -> Any:
    """The value of the field ``name`` of the settings or of their limits."""
    return getattr(settings, name) if hasattr(settings, name) else getattr(settings.limits, name)


def serve(*argv: str) -> dict[str, Any]:
    """``red7 serve ARGV``'s options as the command line gives them."""
    return vars(build_parser().parse_args(["serve", *argv]))


def test_every_option_is_one_flag_and_one_variable_of_one_field(capsys: pytest.CaptureFixture[str]) -> None:
    names, flags, variables = zip(*((name, o.flag, o.variable) for name, o in OPTIONS), strict=True)
    assert len(OPTIONS) == 21 and len(set(names)) == len(set(flags)) == len(set(variables)) == len(OPTIONS)
    assert {name for name, _ in declared(Limits)} == {
        "tables_per_hour",
        "table_burst",
        "joins_per_hour",
        "join_burst",
        "open_tables",
        "sockets",
        "expire_open",
    }
    assert dict(OPTIONS)["patience"].variable == "RED7_AWAY"  # the name people know, on the field the server reads
    tests_own = {"clock", "wall", "seeds", "password_cost", "throttle", "login_rules", "hello_timeout"}
    assert not tests_own & set(names)  # settable from Python only
    with pytest.raises(SystemExit):
        serve("--help")
    help_text = capsys.readouterr().out
    assert all(f"{o.flag} " in help_text and o.variable in help_text for _, o in OPTIONS)


@pytest.mark.parametrize(("name", "option"), OPTIONS, ids=[o.name for _, o in OPTIONS])
def test_every_option_is_set_by_its_flag_and_by_its_variable(name: str, option: Option) -> None:
    text, expected = chosen(option)
    assert value(Settings(), name) == option.default != expected
    argv = [option.flag] if option.kind is Kind.SWITCH else [option.flag, text]
    assert value(Settings.from_options(serve(*argv), {}), name) == expected
    assert value(Settings.from_options(serve(), {option.variable: text}), name) == expected
    assert value(Settings.from_options(serve(), {option.variable: ""}), name) == option.default  # empty: unset


def test_the_command_line_wins_over_the_environment() -> None:
    environ = {"RED7_PORT": "9000", "RED7_ALLOWED_HOST": "env.example.org", "RED7_ACCESS_LOG": "1", "RED7_SOCKETS": "5"}
    settings = Settings.from_options(serve(), environ)
    assert (settings.port, settings.allowed_hosts, settings.access_log, settings.limits.sockets) == (
        9000,
        ("env.example.org",),
        True,
        5,
    )
    given = serve("--port", "9001", "--allowed-host", "a.example.org", "--no-access-log", "--sockets", "6")
    settings = Settings.from_options(given, environ)
    assert (settings.port, settings.allowed_hosts, settings.access_log, settings.limits.sockets) == (
        9001,
        ("a.example.org",),
        False,
        6,
    )
    twice = Settings.from_options(serve("--allowed-host", "a.example.org", "--allowed-host", "b.example.org"), {})
    assert twice.allowed_hosts == ("a.example.org", "b.example.org")


@pytest.mark.parametrize(
    ("variable", "text", "english", "portuguese"),
    [
        ("RED7_WORKERS", "many", "RED7_WORKERS='many' is not valid: give a whole number", "dê um número inteiro"),
        ("RED7_BOT_DELAY", "soon", "RED7_BOT_DELAY='soon' is not valid: give a number", "dê um número"),
        ("RED7_ACCESS_LOG", "maybe", "RED7_ACCESS_LOG='maybe' is not valid: give 1 or 0", "dê 1 ou 0"),
        ("RED7_PORT", "70000", "--port must be between 1 and 65535, not 70000", "precisa estar entre 1 e 65535"),
        ("RED7_JOIN_BURST", "0", "--join-burst must be between 1 and 10**9, not 0", "precisa estar entre 1 e 10**9"),
        ("RED7_TRUSTED_PROXY", "10.0.0.5,proxy", "--trusted-proxy must be an IP address or network", "endereço IP"),
        ("RED7_LOG_FORMAT", "xml", "--log-format must be text or json, not 'xml'", "precisa ser text ou json"),
    ],
)
def test_a_bad_variable_is_refused_in_words_in_both_languages(
    variable: str, text: str, english: str, portuguese: str
) -> None:
    with pytest.raises(OptionError) as refused:
        Settings.from_options(serve(), {variable: text})
    assert str(refused.value).startswith(english) and error_text(refused.value) == str(refused.value)
    with using("pt-BR"):
        assert portuguese in error_text(refused.value)


CHECKED = [(name, option) for name, option in OPTIONS if option.check is not None]


@pytest.mark.parametrize(("name", "option"), CHECKED, ids=[option.name for _, option in CHECKED])
def test_every_checked_option_refuses_a_bad_value_from_python_too(name: str, option: Option) -> None:
    """However the settings are made: a value the option does not take is an OptionError
    (a ValueError) naming the flag, said in Portuguese too."""
    bad: Any = "a b" if option.kind in (Kind.TEXT, Kind.LIST) else -1
    bad = (bad,) if option.kind is Kind.LIST else bad
    owner = Limits if name in dict(declared(Limits)) else Settings
    with pytest.raises(OptionError) as refused:
        owner(**{name: bad})
    assert str(refused.value).startswith(f"{option.flag} must be ")
    with using("pt-BR"):
        assert error_text(refused.value).startswith(f"{option.flag} precisa ")


def test_the_parsers_are_built_without_the_web_extra() -> None:
    """Every red7 command builds every parser, red7 serve's from the declaration: the
    declaration imports nothing of the web extra (red7 play runs without it)."""
    extras = ("sqlalchemy", "argon2", "fastapi", "starlette", "pydantic", "uvicorn")
    code = (
        "import sys; from red7.cli import build_parser; build_parser(); "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {extras!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"


def test_the_docs_table_of_options_is_the_declarations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/deploying.md's table of every option is the one made from the declaration,
    and the command the failure names writes it."""
    docs = DOCS.read_text(encoding="utf-8")
    assert with_table(docs) == docs, (
        "docs/deploying.md's table of options is not the declaration's: run "
        "`.venv/bin/python -m red7.web.settings --markdown docs/deploying.md` and read the diff"
    )
    main(["--markdown"])
    table = capsys.readouterr().out
    assert table in docs and all(f"| `{o.flag}` | `{o.variable}`" in table for _, o in OPTIONS)
    stale = tmp_path / "deploying.md"
    stale.write_text(docs.replace(table, "| option | (an old table) |\n"), encoding="utf-8")
    main(["--markdown", str(stale)])
    assert stale.read_text(encoding="utf-8") == docs
    with pytest.raises(ValueError, match="no place for the table"):
        with_table(docs.replace(END, ""))
    assert docs.count(START) == 1 and "](#every-option-of-red7-serve)" in docs

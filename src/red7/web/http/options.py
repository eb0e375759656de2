"""The options of ``red7 serve``, each declared once, with :func:`option`, on the field of
the settings it sets (:class:`~red7.web.settings.Settings` and its
:class:`~red7.web.http.limits.Limits`): its name, its default, its meaning, its kind and its
check. Everything else is made from that declaration:

* the flag ``--name`` of ``red7 serve`` (:mod:`red7.cli.serve`), its ``--help`` text
  (:meth:`Option.help`: the meaning, the default and the variable);
* the environment variable ``RED7_NAME`` (the name in capitals, ``-`` as ``_``), read as
  its kind (:meth:`Option.chosen`): a list comma-separated, a switch ``1`` or ``0`` (yes or
  no, true or false, on or off); an option given on the command line wins;
* the check the settings make of themselves however they are made, from the command line
  or in Python (:func:`check`, in their ``__post_init__``): a value that is not allowed is
  an :class:`OptionError` naming the option;
* the table of every option in docs/deploying.md (:func:`markdown_table`).

Sentences (meanings, refusals) are English, marked with ``N_`` for the catalogs; ``--help``
is said in the language in use, and an interface says an :class:`OptionError` in its own
(:func:`red7.ui.i18n.error_text`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from ...core.model import N_, Explained
from ...ui.i18n import _

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    T = TypeVar("T", bound=DataclassInstance)


class Kind(enum.Enum):
    """How a text (an environment variable's, a flag's) is read as an option's value."""

    TEXT = "text"
    WHOLE = "whole"
    """An ``int``."""
    NUMBER = "number"
    """A ``float``."""
    LIST = "list"
    """A tuple of texts: comma-separated in a variable; a flag given again adds to it."""
    SWITCH = "switch"
    """A ``bool``: ``--name`` or ``--no-name``; a variable's ``1`` or ``0``..."""


EXPECTED: Final = {
    Kind.WHOLE: N_("a whole number"),
    Kind.NUMBER: N_("a number"),
    Kind.SWITCH: N_("1 or 0 (yes or no, true or false, on or off)"),
}
"""What a variable of each kind must hold, for its refusal (a text or list is any text)."""

SWITCH_WORDS: Final = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}
"""A switch's words in a variable (any case)."""


class OptionError(Explained, ValueError):
    """A value an option of ``red7 serve`` does not take, said by naming the option."""


@dataclass(frozen=True)
class Check:
    """Which values an option takes (``allows``; a list's items one by one), and the
    sentence refusing another: ``refusal``, marked with ``N_``, whose ``{option}`` is the
    flag, ``{value}`` the value refused, ``{low}`` and ``{high}`` these."""

    allows: Callable[[Any], bool]
    refusal: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    """The values a text may be, if only these (the command line lists them)."""


def between(low: int, high: int) -> Check:
    """A number from ``low`` to ``high`` (NaN is not one)."""
    return Check(lambda n: low <= n <= high, N_("{option} must be between {low} and {high}, not {value}"), low, high)


def seconds_between(low: int, high: int) -> Check:
    """A number of seconds from ``low`` to ``high``."""
    return Check(
        lambda n: low <= n <= high, N_("{option} must be between {low} and {high} seconds, not {value}"), low, high
    )


@dataclass(frozen=True)
class Option:
    """One option of ``red7 serve``, as :func:`option` declares it on a settings field."""

    name: str
    """``bot-delay``: the flag ``--bot-delay``, the variable ``RED7_BOT_DELAY``."""
    default: Any
    meaning: str
    """What it sets, marked with ``N_`` (``--help`` and the docs' table add the default)."""
    kind: Kind
    check: Check | None = None
    words: str | None = None
    """The default said in words (marked with ``N_``), where its value does not say it
    (None: the SQLite file in the user's data directory)."""
    metavar: str | None = None
    """What ``--help`` calls the value (default: the name in capitals)."""

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def variable(self) -> str:
        return "RED7_" + self.name.upper().replace("-", "_")

    def shown_default(self) -> str:
        """The default as ``--help`` and the docs write it (its words untranslated)."""
        if self.words is not None:
            return self.words
        if isinstance(self.default, tuple):
            return ", ".join(self.default)
        return f"{self.default:g}" if isinstance(self.default, float) else str(self.default)

    def variable_note(self) -> str:
        """The variable, with how a list or a switch is written in it (English, marked)."""
        if self.kind is Kind.LIST:
            return N_("{variable}, comma-separated")
        if self.kind is Kind.SWITCH:
            return N_("{variable}, 1 or 0")
        return "{variable}"

    def help(self) -> str:
        """``--help``'s text, in the language in use: the meaning, then the default and the variable."""
        variable = _(self.variable_note()).format(variable=self.variable)
        if self.words is None:
            after = _("(default {default}; env {variable})").format(default=self.shown_default(), variable=variable)
        else:
            after = _("(default: {default}; env {variable})").format(default=_(self.words), variable=variable)
        return f"{_(self.meaning)} {after}"

    def chosen(self, given: object, environ: Mapping[str, str]) -> Any:
        """The value chosen for this option: ``given`` (the command line's; None: not
        given), else its environment variable's, read as its kind (unset or empty: not
        given); None if neither (the field's default). An empty list is no list.
        :class:`OptionError` if the variable's text is not of the kind."""
        if given is not None and self.kind is Kind.LIST:
            given = _items(cast("list[str]", given)) or None
        if given is not None:
            return given
        text = environ.get(self.variable, "")
        if text == "":
            return None
        try:
            return _read(self.kind, text)
        except ValueError:
            raise OptionError(
                N_("{variable}={value!r} is not valid: give {expected}"),
                variable=self.variable,
                value=text,
                expected=Explained(EXPECTED[self.kind]),  # (a text or list is never refused)
            ) from None

    def refusal(self, value: Any) -> OptionError | None:
        """Why ``value`` (a list: each of its items) is not one this option takes (None: it is)."""
        if self.check is None:
            return None
        for item in value if self.kind is Kind.LIST else (value,):
            if not self.check.allows(item):
                return OptionError(
                    self.check.refusal, option=self.flag, value=item, low=self.check.low, high=self.check.high
                )
        return None


def _items(texts: Iterable[str]) -> tuple[str, ...]:
    """The items of a list's texts, each comma-separated, blanks stripped, empty ones left out."""
    return tuple(item.strip() for text in texts for item in text.split(",") if item.strip())


def _read(kind: Kind, text: str) -> Any:
    """``text`` as a value of ``kind``: ValueError if it is not one."""
    if kind is Kind.WHOLE:
        return int(text)
    if kind is Kind.NUMBER:
        return float(text)
    if kind is Kind.LIST:
        return _items([text]) or None
    if kind is Kind.SWITCH:
        word = text.strip().lower()
        if word not in SWITCH_WORDS:
            raise ValueError(text)
        return SWITCH_WORDS[word]
    return text


def option(
    name: str,
    default: Any,
    meaning: str,
    kind: Kind,
    check: Check | None = None,
    *,
    words: str | None = None,
    metavar: str | None = None,
) -> Any:
    """The field of a settings dataclass that option ``name`` sets (see :class:`Option`)."""
    declared = Option(name, default, meaning, kind, check, words, metavar)
    return field(default=default, metadata={"option": declared})


def _option(f: Field[Any]) -> Option | None:
    found = f.metadata.get("option")
    return found if isinstance(found, Option) else None


def _inner(f: Field[Any]) -> type[DataclassInstance] | None:
    """The settings class of a field whose default is settings holding options of their own
    (:class:`~red7.web.settings.Settings`' ``limits``), else None."""
    if f.default is MISSING or not is_dataclass(f.default) or isinstance(f.default, type):
        return None
    inner = type(f.default)
    return inner if declared(inner) else None


def declared(cls: type[DataclassInstance]) -> list[tuple[str, Option]]:
    """Every option declared on ``cls`` and the settings it holds, in order, each with
    the name of its field."""
    found: list[tuple[str, Option]] = []
    for f in fields(cls):
        inner = _inner(f)
        if inner is not None:
            found += declared(inner)
        elif (declaration := _option(f)) is not None:
            found.append((f.name, declaration))
    return found


def build(cls: type[T], given: Mapping[str, object], environ: Mapping[str, str]) -> T:
    """``cls`` made from its options (and those of the settings it holds), each as
    :meth:`Option.chosen` chooses it: ``given`` maps a field's name to the command line's
    value (None: not given). Checked by ``cls`` itself (:class:`OptionError`)."""
    values: dict[str, Any] = {}
    for f in fields(cls):
        inner, declaration = _inner(f), _option(f)
        if inner is not None:
            values[f.name] = build(inner, given, environ)
        elif declaration is not None and (value := declaration.chosen(given.get(f.name), environ)) is not None:
            values[f.name] = value
    return cls(**values)


def check(settings: DataclassInstance) -> None:
    """:class:`OptionError` for the first of the options declared on ``settings``' own
    fields whose value the option does not take (the settings they hold check themselves)."""
    for f in fields(settings):
        declaration = _option(f)
        if declaration is not None and (refusal := declaration.refusal(getattr(settings, f.name))) is not None:
            raise refusal


def markdown_table(cls: type[DataclassInstance]) -> str:
    """The options of ``cls``, a Markdown table (English): flag, variable, default, meaning."""
    lines = ["| option | environment variable | default | what it sets |", "|---|---|---|---|"]
    for _name, declaration in declared(cls):
        variable = declaration.variable_note().format(variable=f"`{declaration.variable}`")
        default = declaration.shown_default()
        shown = _cell(default) if declaration.words is not None else f"`{default}`"
        lines.append(f"| `{declaration.flag}` | {variable} | {shown} | {_cell(declaration.meaning)} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """``text`` in a Markdown table's cell: its ``|`` and ``*`` (``*.example.org``) as themselves."""
    return text.replace("|", "\\|").replace("*", "\\*")

"""Languages of the interfaces: English and Brazilian Portuguese (gettext catalogs).

Messages are written in English in the code, wrapped in :func:`_` (or
:func:`ngettext` for counts, :func:`N_` to mark a constant for extraction), and
translated by the catalogs in ``locale/<lang>/LC_MESSAGES/red7.mo``, which Babel
builds from the ``.po`` files (``make translations``). Notation, records and APIs
never go through here: they stay in English letters (R1.3).

The language is chosen by the front end: process-wide for the terminal game
(:func:`set_language`), or for one block of code with :func:`using` (the web server
speaks each table's language to its clients, in one process, from many tasks and
threads at once: the choice lives in a context variable, so one table's words never
leak into another's).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Final

DOMAIN: Final = "red7"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
LANGUAGES: Final = {"en": "English", "pt-BR": "Português (Brasil)"}
"""Supported languages, by tag; English is the language of the source messages."""
_GETTEXT_NAMES: Final = {"en": "en", "pt-BR": "pt_BR"}


class LanguageError(ValueError):
    """A language that is not one of :data:`LANGUAGES`."""


def parse_language(text: str) -> str:
    """The supported tag for ``text`` (``pt``, ``pt_BR``, ``pt-br``, ``en_US``... accepted).

    >>> parse_language("pt_BR.UTF-8"), parse_language("en-GB")
    ('pt-BR', 'en')
    """
    base = text.split(".")[0].split("@")[0].replace("_", "-").lower()
    if base.split("-")[0] == "pt":
        return "pt-BR"
    if base.split("-")[0] == "en":
        return "en"
    raise LanguageError(f"language {text!r} is not available; choose one of: {', '.join(LANGUAGES)}")


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, as gettext reads them), falling back to English.

    >>> detect_language({"LANG": "pt_BR.UTF-8"}), detect_language({"LANG": "C"}), detect_language({})
    ('pt-BR', 'en', 'en')
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for candidate in env.get(var, "").split(":"):
            if candidate and candidate not in ("C", "POSIX") and not candidate.startswith("C."):
                try:
                    return parse_language(candidate)
                except LanguageError:
                    return "en"
    return "en"


def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: the messages as written)."""
    return _catalog(parse_language(lang))


@functools.cache
def _catalog(tag: str) -> gettext.NullTranslations:
    if tag == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[_GETTEXT_NAMES[tag]])


_default = "en"
_context: ContextVar[str | None] = ContextVar("red7_language", default=None)


def set_language(lang: str) -> str:
    """Make ``lang`` the language of every message from now on (where no :func:`using`
    block chooses another); returns its tag."""
    global _default
    _default = parse_language(lang)
    return _default


@contextlib.contextmanager
def using(lang: str) -> Iterator[str]:
    """Messages in ``lang`` inside the block, in this thread or task only; yields its tag."""
    token = _context.set(parse_language(lang))
    try:
        yield _context.get() or _default
    finally:
        _context.reset(token)


def language() -> str:
    """The tag of the language in use."""
    return _context.get() or _default


def _current() -> gettext.NullTranslations:
    return _catalog(language())


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n``, in the language in use."""
    return _current().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; translate it with :func:`_` where shown."""
    return message


def error_text(err: BaseException) -> str:
    """``err``'s sentence in the language in use: an
    :class:`~red7.core.model.Explained` error's template translated by the catalog and
    filled with its fields (a field that is such an error itself said the same way);
    any other error's own text, as it was written."""
    from ..core.model import Explained

    if not isinstance(err, Explained) or not err.fields:
        return _(err.template) if isinstance(err, Explained) else str(err)
    fields = {k: error_text(v) if isinstance(v, BaseException) else v for k, v in err.fields.items()}
    return _(err.template).format(**fields)

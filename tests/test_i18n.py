"""Languages (red7.ui.i18n): the catalogs are complete, current and consistent.

English is the language of the messages in the code; every message must have a
Brazilian Portuguese translation, and the compiled catalog must match its source.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from red7.ui.i18n import (
    LOCALE_DIR,
    LanguageError,
    _,
    detect_language,
    language,
    ngettext,
    parse_language,
    set_language,
)

ROOT = Path(__file__).resolve().parent.parent
PO = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "red7.po"
MO = PO.with_suffix(".mo")


def source_messages() -> set[str | tuple[str, str]]:
    """Every message the code marks for translation (as `make translations` extracts them)."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT / "src" / "red7", method_map=[("**.py", "python")]
    ):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def catalog() -> dict[str | tuple[str, str], object]:
    with PO.open("rb") as f:
        cat = read_po(f, locale="pt_BR")
    return {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in cat if m.id}  # type: ignore[misc]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_message_in_the_code_is_translated_and_none_is_left_over() -> None:
    code, po = source_messages(), catalog()
    assert len(code) > 150
    assert sorted(map(str, code - po.keys())) == [], "run `make translations` and translate the new messages"
    assert sorted(map(str, po.keys() - code)) == [], "messages no longer in the code: run `make translations`"
    for key, message in po.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)  # type: ignore[attr-defined]
        assert all(s.strip() for s in strings), f"untranslated: {key!r}"
        assert not message.fuzzy, f"fuzzy translation: {key!r}"  # type: ignore[attr-defined]


def test_translations_keep_the_placeholders_and_keys() -> None:
    for key, message in catalog().items():
        ids = (key,) if isinstance(key, str) else key
        strings = message.string if isinstance(message.string, tuple) else (message.string,)  # type: ignore[attr-defined]
        expected = set().union(*(fields(i) for i in ids))
        for s in strings:
            assert fields(s) <= expected and fields(s) >= fields(ids[-1]) - {"n"}, (key, s)
            # the keys shown in brackets ([p], [enter]) are the same in both languages
            assert set(re.findall(r"\[[a-z?←/→0-9 -]+\]", s)) == set(re.findall(r"\[[a-z?←/→0-9 -]+\]", ids[0])), s


def test_the_compiled_catalog_matches_its_source() -> None:
    """The .mo shipped in the package is the .po compiled (`make translations`)."""
    with PO.open("rb") as f:
        cat = read_po(f, locale="pt_BR")
    fresh = io.BytesIO()
    write_mo(fresh, cat)
    fresh.seek(0)
    expected = gettext.GNUTranslations(fresh)
    with MO.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert shipped._catalog == expected._catalog  # type: ignore[attr-defined]


def test_set_language_switches_every_message() -> None:
    assert _("Red") == "Red" and language() == "en"
    set_language("pt_BR.UTF-8")
    assert language() == "pt-BR"
    assert _("Red") == "Vermelho"
    assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
    assert ngettext("{n} card", "{n} cards", 33).format(n=33) == "33 cartas"
    assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 carta"  # pt-BR: 0 takes the singular
    set_language("en")
    assert _("Red") == "Red"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LANGUAGE": "pt_BR:en", "LANG": "en_US.UTF-8"}, "pt-BR"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_locale(env: dict[str, str], expected: str) -> None:
    assert detect_language(env) == expected


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(LanguageError, match="choose one of: en, pt-BR"):
        parse_language("fr")
    assert language() == "en"

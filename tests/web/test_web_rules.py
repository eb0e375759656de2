"""The rules page, ``/rules``: the terminal game's rules text (written once, in
:mod:`red7.ui.words`) in the language asked for, else the browser's; no script, and
the table page's keys in place of the terminal's. In-process app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from red7.core.cards import COLOURS
from red7.ui.i18n import _, using
from red7.ui.rules_text import rule_examples
from red7.ui.words import COLOUR_NAMES, RULE_TEXT, card_label
from tests.support.web_client import make_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as running:
        yield running


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_rules_page_holds_the_seven_rules_and_the_web_keys_in_its_language(client: TestClient, lang: str) -> None:
    r = client.get(f"/rules?lang={lang}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert f'<html lang="{lang}">' in page and "<script" not in page
    text = text_of(page)
    with using(lang):
        assert _("The rules of Red7") in text
        for colour in COLOUR_NAMES:
            assert _(RULE_TEXT[colour]) in text and _(COLOUR_NAMES[colour]) in text
        assert _("Action cards (optional)") in text
    assert page.count("<tr>") == 7 and "<th" not in page  # the seven rules, no empty headers
    assert "docs/rules.md" not in text and "docs/regras.md" not in text  # a checkout's files: not the players'
    assert "Esc" in text and "Ctrl" not in text  # the table page's keys, not the terminal's
    with using(lang):
        assert text.index(_("The seven rules")) < text.index(_("Cards"))  # why a colour, before the notation
        for example in rule_examples():  # each rule's example palette as cards, in order, those that count marked
            at = page.index(f"<td><strong>{_(COLOUR_NAMES[example.colour])}</strong>")
            for card in example.cards:  # (index: fails if the card is not there, after the one before)
                counts = card in example.counting
                at = page.index(
                    f'<span class="card mini c-{COLOURS[card.colour]}{" counts" if counts else ""}">'
                    f'<span class="label">{card_label(card)}</span>' + (" ✓" if counts else "</span>"),
                    at,
                )
            assert at < page.index("</tr>", page.index(f"<td><strong>{_(COLOUR_NAMES[example.colour])}</strong>"))
    assert f'href="/rules/complete?lang={lang}"' in page


@pytest.mark.parametrize(
    ("lang", "title", "anchor"),
    [("en", "Red7: the rules", "r3-the-seven-rules"), ("pt-BR", "Red7: as regras", "r3-as-sete-regras")],
)
def test_the_complete_rules_page_is_the_file_the_package_carries(
    client: TestClient, lang: str, title: str, anchor: str
) -> None:
    r = client.get(f"/rules/complete?lang={lang}")
    assert r.status_code == 200 and f'<html lang="{lang}">' in r.text and "<script" not in r.text
    assert f"<title>{title}</title>" in r.text
    assert f'id="{anchor}"' in r.text and f'href="#{anchor}"' in r.text  # its contents link to its sections
    other = "pt-BR" if lang == "en" else "en"
    assert f'href="/rules/complete?lang={other}"' in r.text  # the other language's page, not a file's name
    text = text_of(r.text)
    assert "R4.7" in text and "R9" in text  # rule by rule, with their IDs


def test_the_rules_page_speaks_the_browsers_language_unless_told_which(client: TestClient) -> None:
    pt = {"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}
    for address, headers, lang in [
        ("/rules", pt, "pt-BR"),
        ("/rules", {"Accept-Language": "de-DE,fr"}, "en"),  # none it speaks: English
        ("/rules?lang=en", pt, "en"),
        ("/rules?lang=xx", pt, "pt-BR"),  # not a language: the browser's
        ("/rules?lang=" + "x" * 5000, {}, "en"),
    ]:
        r = client.get(address, headers=headers)
        assert r.status_code == 200 and f'<html lang="{lang}">' in r.text, address
        assert 'aria-current="page"' in r.text.split(f'hreflang="{lang}"', 1)[1].split(">", 1)[0]

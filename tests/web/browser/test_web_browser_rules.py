"""The rules page in Chromium (Debian's), against a real ``red7 serve``: reached from the
lobby and from a table, in its reader's language (English, Portuguese), its seven rules
and the table page's keys, its other language one link away, on a laptop and a phone,
with no serious accessibility violation (axe) and nothing off the side of the screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_live import post
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"link": "Rules", "title": "The rules of Red7", "red": "Red (R)", "keys": "Keys", "other": "pt-BR"},
    "pt-BR": {"link": "Regras", "title": "As regras do Red7", "red": "Vermelho (Vm)", "keys": "Teclas", "other": "en"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-rules"), bot_delay=0.05) as running:
        yield running


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_rules_open_from_the_lobby_in_its_language(people: People, lang: str, size: str) -> None:
    page = people.context(locale=lang, viewport=LAPTOP if size == "laptop" else PHONE).new_page()
    words = WORDS[lang]
    page.goto("/")
    expect(page.locator("#rules-link")).to_have_text(words["link"])
    # (English is also the page's text before its words come: wait for the link the words make)
    expect(page.locator("#rules-link")).to_have_attribute("href", f"/rules?lang={lang}")
    page.locator("#rules-link").click()
    page.wait_for_url(f"**/rules?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_have_text(words["title"])
    rows = page.locator("main table tr")
    expect(rows).to_have_count(7)  # the seven rules, Red first
    expect(rows.first.locator("td").first).to_have_text(words["red"])
    expect(rows.first.locator(".card")).to_have_count(3)  # Red's example palette, drawn as cards:
    expect(rows.first.locator(".card.counts")).to_have_count(1)  # its highest card counts
    expect(page.locator("main h2").last).to_have_text(words["keys"])
    assert serious(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(IMAGES / f"web-rules-{lang}-{size}.png"), full_page=True)
    page.locator(f'nav.languages a[hreflang="{words["other"]}"]').click()  # the other language
    page.wait_for_url(f"**/rules?lang={words['other']}")
    expect(page.locator("h1")).to_have_text(WORDS[words["other"]]["title"])


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_table_links_the_rules_in_its_readers_language(people: People, server: WebServer, lang: str) -> None:
    """A table in ``lang`` read by a browser of the other language: its rules in the reader's."""
    created = post(server, "/api/tables", {"players": 2, "name": "Ana", "lang": lang})
    table, token = created["id"], created["token"]
    post(server, f"/api/tables/{table}/bots", {"token": token, "seat": 1, "level": "easy"})
    post(server, f"/api/tables/{table}/start", {"token": token})
    reader = "en" if lang == "pt-BR" else "pt-BR"
    page = people.context(locale=reader).new_page()  # a browser of the other
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`red7:token:${id}`, token)", [table, token])
    page.goto(f"/t/{table}")
    link = page.locator("#rules-link")
    expect(link).to_have_text(WORDS[reader]["link"])
    expect(link).to_have_attribute("href", f"/rules?lang={reader}")
    with page.expect_popup() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules.locator("h1")).to_have_text(WORDS[reader]["title"])
    assert rules.url.endswith(f"/rules?lang={reader}")

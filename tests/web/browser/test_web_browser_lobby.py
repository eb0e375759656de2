"""The lobby's first screen in Chromium (Debian's), against a real ``red7 serve`` (issue 47):
what Red7 is and how to learn it, "Play now against a bot", the open tables and the new
table's button, all without scrolling on a laptop (1280×800) and a phone (390×844), in
English and Portuguese, with no serious accessibility violation (axe); "Play now" seats
the person at a started game in one click, and its settings, changed beside it, are kept."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_live import post
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "play": "Play now against a bot",
        "open": "Open tables",
        "create": "Create the table",
        "learn": "guided first game",
    },
    "pt-BR": {
        "play": "Jogar agora contra um bot",
        "open": "Mesas abertas",
        "create": "Criar a mesa",
        "learn": "partida guiada",
    },
}
SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-lobby"), bot_delay=0.05) as running:
        for name in ("Ana", "Bia", "Caio"):  # a lobby with open tables: the list must not push the form away
            post(running, "/api/tables", {"players": 3, "name": name, "lang": "en"})
        yield running


def shown_whole(page: Page, what: Locator) -> bool:
    """Whether ``what`` lies inside the viewport, all of it (no scrolling needed to see it)."""
    box = what.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and (box["y"] + box["height"] <= size["height"])
    )


def first_screen(page: Page, lang: str) -> None:
    """``page``, the lobby just opened in ``lang``, shows "Play now", the guided game's
    link, the open tables and the create button, all without scrolling (nor sideways)."""
    words = WORDS[lang]
    expect(page.locator("#play-now")).to_have_text(words["play"])
    expect(page.locator("#open-title")).to_have_text(words["open"])
    expect(page.locator("#create-button")).to_have_text(words["create"])
    expect(page.locator("#learn-link")).to_contain_text(words["learn"])
    expect(page.locator("#learn-link")).to_have_attribute("href", f"/tutorial?lang={lang}")
    first = page.locator("#tables ul.tables li").first.locator(".info p").first
    expect(first).to_be_visible()
    for what in (page.locator("#play-now"), page.locator("#open-title"), first, page.locator("#create-button")):
        assert shown_whole(page, what), what
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("window.scrollY") == 0
    assert serious(page) == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_first_screen_shows_play_now_the_open_tables_and_the_create_button(
    people: People, lang: str, size: str
) -> None:
    page = people.context(locale=lang, viewport=SIZES[size]).new_page()
    page.goto("/")
    first_screen(page, lang)
    page.screenshot(path=str(IMAGES / f"web-lobby-first-{lang}-{size}.png"))


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_games_awaiting_the_person_push_nothing_off_the_first_screen(
    people: People, server: WebServer, lang: str, size: str
) -> None:
    """Dani comes back to three games against bots that await her turn (English tables):
    the lobby lists them in her language ("Mesa de Dani"), each a link to its table, in a
    strip that takes one row on a phone (sideways for the rest); "Play now", the open
    tables and the create button stay on the first screen, and the header keeps one row."""
    seats = [post(server, "/api/play-now", {"name": "Dani", "lang": "en"}) for _ in range(3)]
    context = people.context(locale=lang, viewport=SIZES[size])
    kept = "".join(
        f"localStorage.setItem({json.dumps('red7:token:' + s['id'])}, {json.dumps(s['token'])});" for s in seats
    )
    context.add_init_script(f"if (location.origin === {json.dumps(server.url)}) {{ {kept} }}")  # (as People.seated)
    page = context.new_page()
    page.goto("/")
    strip = page.locator("#turns li")
    expect(strip).to_have_count(3, timeout=60_000)  # (each once its bot has moved, if it moves first)
    expect(page).to_have_title("(3) Red7 online")  # the tab counts them (the same words in both languages)
    name = "Dani's table" if lang == "en" else "Mesa de Dani"
    for seat in seats:
        link = page.locator(f'#turns li[data-turn="{seat["id"]}"] a')
        expect(link).to_contain_text(name)
        expect(link).to_have_attribute("href", f"/t/{seat['id']}")
    first_screen(page, lang)
    assert shown_whole(page, strip.first.locator("strong"))
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] < 70  # one row, the language control in it
    if size == "phone":
        assert page.evaluate("document.querySelector('#turns-panel').getBoundingClientRect().height") < 80
    page.screenshot(path=str(IMAGES / f"web-lobby-turns-{lang}-{size}.png"))


def test_play_now_seats_the_person_at_a_started_game_in_one_click(people: People, server: WebServer) -> None:
    page = people.context(locale="pt-BR", viewport=PHONE).new_page()
    page.goto("/")
    expect(page.locator("#play-now-summary")).to_have_text("2 jogadores · modo básico · bot: médio")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator(".hand .card")).to_have_count(7)  # a game dealt, this person at it
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    table = page.url.rsplit("/", 1)[1]
    assert seats_of(server, table) == 2


def test_play_now_keeps_the_settings_changed_beside_it(people: People, server: WebServer) -> None:
    page = people.context(locale="en", viewport=LAPTOP).new_page()
    page.goto("/")
    expect(page.locator("#play-now-options")).not_to_have_attribute("open", "")
    page.locator("#play-now-summary").click()
    page.select_option("#play-players", "3")
    page.select_option("#play-level", "hard")
    page.check("#play-advanced")
    expect(page.locator("#play-now-summary")).to_have_text("3 players · advanced game · bot: hard")
    assert serious(page) == []
    page.reload()  # kept by this browser
    expect(page.locator("#play-now-summary")).to_have_text("3 players · advanced game · bot: hard")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator(".hand .card")).to_have_count(7)
    assert seats_of(server, page.url.rsplit("/", 1)[1]) == 3


def seats_of(server: WebServer, table: str) -> int:
    """How many seats the lobby lists for ``table`` (a public table, being played)."""
    listed = httpx.get(f"{server.url}/api/tables?limit=50", timeout=60, trust_env=False).json()["tables"]
    (row,) = [row for row in listed if row["id"] == table]
    assert row["status"] == "playing"
    return len(row["seats"])


def test_a_rated_table_is_offered_without_hints(people: People) -> None:
    """Issue 48, item 9: ticking "Rated" unticks and locks "Hints allowed" (a rated table
    gives none); unticking it frees the box again."""
    page = people.context(locale="en", viewport=LAPTOP).new_page()
    page.goto("/")
    page.locator("#more-options-title").click()
    hints = page.locator("#hints")
    expect(hints).to_be_checked()
    page.locator("#rated").check()
    expect(hints).not_to_be_checked()
    expect(hints).to_be_disabled()
    page.locator("#rated").uncheck()
    expect(hints).to_be_enabled()

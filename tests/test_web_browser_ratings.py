"""The leaderboard in Chromium (Debian's), against a real ``red7 serve``: its lines in
order, its people and bots filter, its words in English and Portuguese, on a laptop and a
phone, reached from the lobby, with no serious accessibility violation (axe)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from red7.web.ratings import Placing, Ratings
from red7.web.store import Store
from test_web_ratings import finished
from web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"title": "Leaderboard", "bots": "Bots", "easy": "easy (bot)"},
    "pt-BR": {"title": "Classificação", "bots": "Bots", "easy": "fácil (bot)"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    folder = tmp_path_factory.mktemp("red7-ratings")
    with WebServer(folder, bot_delay=0.05) as running:
        # three rated games written straight into the server's database: Ana beat easy
        # and medium, Bia lost to easy
        store = Store(f"sqlite:///{folder / 'db.sqlite3'}")
        games = finished(store, "rated", games=3)
        ratings = Ratings(store.engine)
        ana = Placing("account:1", "Ana", 1)
        ratings.apply(games[0], [ana, Placing("bot:easy", "easy", 2)])
        ratings.apply(games[1], [ana, Placing("bot:medium", "medium", 2)])
        ratings.apply(games[2], [Placing("bot:easy", "easy", 1), Placing("account:2", "Bia", 2)])
        store.close()
        yield running


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_leaderboard_lists_people_and_bots_best_first(people: People, lang: str, size: str) -> None:
    page = people.context(locale=lang, viewport=LAPTOP if size == "laptop" else PHONE).new_page()
    words = WORDS[lang]
    page.goto("/")
    page.locator("#leaderboard-link").click()
    page.wait_for_url("**/leaderboard")
    expect(page.locator("#title")).to_have_text(words["title"])
    rows = page.locator("table.ratings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first.locator("th")).to_have_text("Ana")  # two wins: first
    expect(page.locator("table.ratings tbody")).to_contain_text(words["easy"])
    assert serious(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing off the side
    page.screenshot(path=str(IMAGES / f"web-leaderboard-{lang}-{size}.png"), full_page=True)
    page.locator("label.choice", has_text=words["bots"]).click()
    expect(rows).to_have_count(2)
    for i in range(2):
        expect(rows.nth(i)).to_have_class("bot")
    assert serious(page) == []

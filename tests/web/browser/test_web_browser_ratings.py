"""The leaderboard in Chromium (Debian's), against a real ``red7 serve``: its lines in
order, its people and bots filter, the rules of which games count, its words in English
and Portuguese, on a laptop and a phone, reached from the lobby, with no serious
accessibility violation (axe); a person's public profile, reached from it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from red7.web.ratings.eligibility import Placing
from red7.web.ratings.ratings import Ratings
from red7.web.storage.rows import SeatRow
from red7.web.storage.store import Store
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer
from tests.web.test_web_accounts import PASSWORD
from tests.web.test_web_ratings import finished

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "title": "Leaderboard",
        "bots": "Bots",
        "easy": "easy (bot)",
        "profile": "Profile of Ana",
        "rating": "place 1 on the leaderboard (2 rated games)",
        "games": "Finished games at public tables",
        "line": "Game 3 at table rated, 2 players, seat 1 · won · Replay · Review",
        "nobody": "No public profile for Zed: a registered player has one once they have finished a game at a"
        " public table or played a rated game.",
    },
    "pt-BR": {
        "title": "Classificação",
        "bots": "Bots",
        "easy": "fácil (bot)",
        "profile": "Perfil de Ana",
        "rating": "posição 1 na classificação (2 partidas ranqueadas)",
        "games": "Partidas terminadas em mesas públicas",
        "line": "Partida 3 na mesa rated, 2 jogadores, lugar 1 · venceu · Assistir de novo · Análise",
        "nobody": "Nenhum perfil público de Zed: um jogador registrado tem um depois de terminar uma partida numa"
        " mesa pública ou jogar uma partida ranqueada.",
    },
}


COUNTING = {
    "en": ("Which games count", "finished no turn", "at most 3 times in 24 hours"),
    "pt-BR": ("Quais partidas contam", "não terminou nenhum turno", "no máximo 3 vezes em 24 horas"),
}
"""The rules of which games count, as the page states them: a title, words of each rule."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    folder = tmp_path_factory.mktemp("red7-ratings")
    with WebServer(folder, bot_delay=0.05) as running:
        for name in ("Ana", "Bia"):  # accounts 1 and 2
            r = httpx.post(f"{running.url}/api/account/register", json={"username": name, "password": PASSWORD})
            assert r.status_code == 200, r.text
        # three rated games written straight into the server's database: Ana beat easy
        # and medium, Bia lost to easy; Ana's seat at their table is her account's
        store = Store(f"sqlite:///{folder / 'db.sqlite3'}")
        games = finished(store, "rated", games=3)
        with store.engine.begin() as connection:
            ana_seat = update(SeatRow).where(SeatRow.table_id == "rated", SeatRow.seat == 0)
            connection.execute(ana_seat.values(account_id=1))
        ratings = Ratings(store.engine)
        ana = Placing("account:1", "Ana", 1, 5)
        ratings.apply(games[0], [ana, Placing("bot:easy", "easy", 2, 4)])
        ratings.apply(games[1], [ana, Placing("bot:medium", "medium", 2, 4)])
        ratings.apply(games[2], [Placing("bot:easy", "easy", 1, 6), Placing("account:2", "Bia", 2, 5)])
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
    title, played, repeated = COUNTING[lang]
    expect(page.locator("#counting-title")).to_have_text(title)
    expect(page.locator("#counting li")).to_have_count(2)
    expect(page.locator("#counting li").first).to_contain_text(played)
    expect(page.locator("#counting li").last).to_contain_text(repeated)
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


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_persons_name_on_the_leaderboard_opens_their_public_profile(people: People, lang: str, size: str) -> None:
    page = people.context(locale=lang, viewport=LAPTOP if size == "laptop" else PHONE).new_page()
    words = WORDS[lang]
    page.goto("/leaderboard")
    page.locator("table.ratings tbody tr").first.get_by_role("link", name="Ana").click()
    page.wait_for_url("**/players/Ana")
    expect(page.locator("#title")).to_have_text(words["profile"])
    expect(page.locator("#rating")).to_contain_text(words["rating"])
    expect(page.locator("#games-title")).to_have_text(words["games"])
    games = page.locator("#games li")
    expect(games).to_have_count(3)  # the newest first
    expect(games.first).to_have_text(words["line"])
    expect(games.first.get_by_role("link").first).to_have_attribute("href", "/t/rated/replay/3")
    assert serious(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(IMAGES / f"web-profile-{lang}-{size}.png"), full_page=True)
    page.goto("/players/Zed")
    expect(page.locator("#refusal")).to_have_text(words["nobody"])
    assert serious(page) == []

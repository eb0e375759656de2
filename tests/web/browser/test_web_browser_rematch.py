"""Rematch with consent and clocks in a real browser (Debian's Chromium through
Playwright, as tests/web/browser/test_web_browser.py), at a laptop's and a phone's size, in English
and Brazilian Portuguese, with axe-core: the countdown of the turn awaited is shown; the
game over, another person's proposal to play again is shown with its buttons, and
agreeing starts the next game; the lobby lists the tables where it is the visitor's turn.

Ana plays in the browser; Bia, the other person, plays through a WebSocket of her own
(web_live.Client): she concedes the one round of a basic game, so the game ends at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from tests.support import web_client
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_live import Client
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "locale": "en-GB",
        "agreed": "Play again? Agreed so far: Bia.",
        "left": "left to play",
        "turns": "Your turn",
    },
    "pt-BR": {
        "locale": "pt-BR",
        "agreed": "Jogar de novo? Já aceitaram: Bia.",
        "left": "para jogar",
        "turns": "Sua vez",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-rematch"), bot_delay=0.05, away=60) as running:
        yield running


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_countdown_is_shown_and_a_proposal_to_play_again_is_accepted(
    people: People, server: WebServer, size: str, lang: str
) -> None:
    words, viewport = WORDS[lang], LAPTOP if size == "laptop" else PHONE
    with httpx.Client(base_url=server.url, trust_env=False) as http:
        table, ana_token = web_client.new_table(http, players=2, lang=lang, name="Ana", clock=180)
        bia_token = web_client.join(http, table, 1, "Bia")
        web_client.start(http, table, ana_token)
    bia = Client(server, table, bia_token, 1)
    bia.until(lambda c: c.last is not None and c.last["clock"] is not None)
    page = people.seated(table, ana_token, viewport=viewport, locale=words["locale"])
    countdown = page.locator("#countdown")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text(words["left"])
    mover = bia.last["clock"]["seat"]  # type: ignore[index]
    expect(countdown).to_contain_text("Ana" if mover == 0 else "Bia")
    assert serious(page) == []
    page.screenshot(path=str(IMAGES / f"web-clock-{lang}-{size}.png"))

    # the visitor's lobby lists the table while it is their turn (Ana's browser, if hers)
    if mover == 0:
        lobby = page.context.new_page()
        lobby.goto("/")
        expect(lobby.locator(f'#turns li[data-turn="{table}"]')).to_be_visible()
        expect(lobby.locator("#turns-title")).to_contain_text(words["turns"])
        assert serious(lobby) == []
        lobby.close()

    # the game ends: whoever is to move concedes the one round of the basic game
    if mover == 0:
        page.locator(".actions button[data-kind=concede]").click()
        page.locator("dialog[open] button[data-answer=yes]").click()
    else:
        bia.send({"type": "decide", "seq": bia.last["seq"], "action": "concede"})  # type: ignore[index]
    expect(page.locator("dialog.round-end[open]")).to_be_visible()
    page.locator("dialog.round-end[open] button[data-answer=close]").click()
    bia.until(lambda c: c.last is not None and bool(c.last["game"]["over"]))
    bia.send({"type": "again", "game": 1})  # Bia proposes to play again
    expect(page.locator(".rematch-asked")).to_have_text(words["agreed"])
    agree = page.locator(".rematch button[data-focus=again]")
    expect(agree).to_be_visible()
    expect(page.locator(".rematch button[data-focus=decline]")).to_be_visible()
    assert serious(page) == []
    page.locator(".rematch").scroll_into_view_if_needed()
    page.screenshot(path=str(IMAGES / f"web-rematch-{lang}-{size}.png"))
    agree.click()  # Ana agrees: the next game starts, with its clock
    bia.until(lambda c: c.last is not None and c.last["table"]["game"] == 2)
    expect(page.locator(".rematch")).to_have_count(0)
    expect(countdown).to_be_visible()
    bia.close()

"""The chat panel of a table page in Debian's Chromium (Playwright), on a real ``red7
serve``: people talk and react, markup and links stay text, a person mutes another (on
this device), a reload shows the history, spectators talk apart or not at all, in
English and in Portuguese, on a laptop and on a phone (where the panel comes after the
board and never covers it), with no serious accessibility violation (axe).

``RED7_SCREENSHOTS=docs/images`` keeps the screenshots (docs/images/web-chat*.png).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support import web_client
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="document.title=1"> <b>bold</b> https://evil.example/x'
WORDS = {
    "en": {"gg": "Good game", "send": "Send", "mute": "Mute Ana", "off": "Spectators' chat is off"},
    "pt-BR": {"gg": "Bom jogo", "send": "Enviar", "mute": "Silenciar Ana", "off": "O chat dos espectadores"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-chat"), bot_delay=0.05, away=600) as running:
        yield running


def two_people(server: WebServer, lang: str, spectator_chat: str = "separate") -> tuple[str, str, str]:
    """A 2-player table, Ana (seat 0) and Bia (seat 1), started: its id and their tokens."""
    with httpx.Client(base_url=server.url, trust_env=False) as client:
        body = {"players": 2, "lang": lang, "name": "Ana", "spectator_chat": spectator_chat}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 200, answer.text
        table, ana = answer.json()["id"], answer.json()["token"]
        bia = web_client.join(client, table, 1, "Bia")
        web_client.start(client, table, ana)
    return table, ana, bia


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.locator("#chat-form button[type=submit]").click()


def lines(page: Page) -> list[str]:
    return [" ".join(text.split()) for text in page.locator("#chat-lines .chat-line").all_inner_texts()]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_two_players_talk_react_and_mute(people: People, server: WebServer, lang: str, size: str) -> None:
    words = WORDS[lang]
    phone = size == "phone"
    options: dict[str, Any] = {"locale": lang}
    if phone:
        options.update(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    table, ana_token, bia_token = two_people(server, lang)
    ana = people.seated(table, ana_token, **options)
    bia = people.seated(table, bia_token, **options)
    for page in (ana, bia):
        expect(page.locator("#chat-form button[type=submit]")).to_have_text(words["send"])
        expect(page.locator(".hand .card").first).to_be_visible()

    say(ana, HOSTILE)
    expect(bia.locator("#chat-lines .chat-line")).to_have_count(1)
    assert lines(bia) == [f"Ana: {HOSTILE}"]  # shown as text, whole
    assert bia.locator("#chat-lines img, #chat-lines b, #chat-lines a").count() == 0  # no markup, no link
    assert bia.title() != "1"
    ana.locator("button.reaction[data-reaction=gg]").click()
    expect(bia.locator("#chat-lines .chat-line").last).to_have_text(f"Ana: {words['gg']}")
    expect(ana.locator("#chat-lines .chat-line").last).to_have_text(f"Ana: {words['gg']}")

    if phone:  # the panel comes after the board: it never covers it, and nothing scrolls sideways
        board = bia.locator("#board").bounding_box()
        panel = bia.locator("#chat").bounding_box()
        assert board and panel and panel["y"] >= board["y"] + board["height"], (board, panel)
        assert bia.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for target in bia.locator("#chat button, #chat input").all():
            box = target.bounding_box()
            assert box and box["height"] >= 44, (target.inner_text(), box)
    assert serious(bia) == []
    if phone:  # the whole page: the board, then the chat
        bia.screenshot(path=str(IMAGES / f"web-chat-phone-{lang}.png"), full_page=True)
    else:
        bia.locator("#chat").screenshot(path=str(IMAGES / f"web-chat-{lang}.png"))

    mute = bia.get_by_role("button", name=words["mute"])
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(bia.locator("#chat-lines .chat-line")).to_have_count(0)
    say(ana, "still talking")
    expect(ana.locator("#chat-lines .chat-line").last).to_have_text("Ana: still talking")
    bia.reload()  # the history comes back, and the mute stays (kept by this browser)
    expect(bia.get_by_role("button", name=words["mute"])).to_have_attribute("aria-pressed", "true")
    expect(bia.locator("#chat-lines .chat-line")).to_have_count(0)
    bia.get_by_role("button", name=words["mute"]).click()
    expect(bia.locator("#chat-lines .chat-line")).to_have_count(3)
    assert lines(bia) == [f"Ana: {HOSTILE}", f"Ana: {words['gg']}", "Ana: still talking"]
    say(bia, "olá")
    expect(ana.locator("#chat-lines .chat-line").last).to_have_text("Bia: olá")


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_spectators_talk_apart_or_only_read(people: People, server: WebServer, lang: str) -> None:
    words = WORDS[lang]
    table, ana_token, _bia = two_people(server, lang, "separate")
    ana = people.seated(table, ana_token, locale=lang)
    watchers = [people.context(locale=lang).new_page() for _ in range(2)]
    for page in watchers:
        page.goto(f"/t/{table}?watch")
        expect(page.locator("#chat-form")).to_be_visible()
    expect(ana.locator("#chat-form")).to_be_visible()
    say(watchers[0], "who wins?")
    expect(watchers[1].locator("#chat-lines .chat-line")).to_have_count(1)
    assert lines(watchers[1])[0].endswith(": who wins?")
    say(ana, "hello watchers")
    for page in watchers:
        expect(page.locator("#chat-lines .chat-line").last).to_have_text("Ana: hello watchers")
    assert lines(ana) == ["Ana: hello watchers"]  # the spectators' line never reached a player
    assert serious(watchers[0]) == []

    table, ana_token, _bia = two_people(server, lang, "off")
    ana = people.seated(table, ana_token, locale=lang)
    watcher = people.context(locale=lang, viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.goto(f"/t/{table}?watch")
    expect(watcher.locator(".chat-off")).to_contain_text(words["off"])
    assert watcher.locator("#chat-form, button.reaction").count() == 0
    expect(ana.locator("#chat-form")).to_be_visible()
    say(ana, "players only")
    expect(watcher.locator("#chat-lines .chat-line").last).to_have_text("Ana: players only")
    assert serious(watcher) == []


def test_the_lobby_creates_a_table_whose_spectators_only_read(people: People, server: WebServer) -> None:
    page = people.context(viewport=LAPTOP).new_page()
    page.goto("/")
    page.fill("#name", "Eva")
    page.click("#more-options-title")
    page.select_option("#table-lang", "en")
    page.select_option("#spectator-chat", "off")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    expect(page.locator("#chat-form")).to_be_visible()
    table = page.url.rsplit("/", 1)[1]
    watcher = people.context().new_page()
    watcher.goto(f"/t/{table}?watch")
    expect(watcher.locator(".chat-off")).to_be_visible()


def test_a_line_refused_for_its_speed_stays_to_be_sent_again(people: People, server: WebServer) -> None:
    table, ana_token, bia_token = two_people(server, "en")
    ana = people.seated(table, ana_token)
    bia = people.seated(table, bia_token)
    expect(ana.locator("#chat-form")).to_be_visible()
    # twelve lines sent in one go (one script task: a seat may say 5 at once, then one
    # every 2 s, so the last ones are refused unless the server took 14 s over them)
    ana.evaluate(
        """() => {
            const input = document.getElementById("chat-text");
            for (let i = 0; i < 12; i += 1) {
                input.value = `line ${i}`;
                document.getElementById("chat-form").requestSubmit();
            }
        }"""
    )
    expect(ana.locator("#toast")).to_contain_text("chatting fast")
    expect(bia.locator("#chat-lines .chat-line").first).to_have_text("Ana: line 0")
    expect(ana.locator("#chat-text")).to_have_value("line 11")  # refused: still there to send again
    bia.wait_for_function("document.querySelectorAll('#chat-lines .chat-line').length >= 5")
    said = lines(bia)
    assert 5 <= len(said) < 12 and "Ana: line 11" not in said

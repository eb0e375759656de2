"""The board in a real browser (``red7 serve`` and Debian's Chromium, as
tests/web/browser/test_web_browser.py): the tab's title says it is your turn, a greyed card says why
when tapped, the hint button shows the terminal game's hint, and after the game the
review page shows its progress and then the review, each decision's verdict a link to
its step in the replay; at 1280×800 and 390×844, in English
and in Portuguese, with no serious or critical accessibility violation (axe).

``RED7_SCREENSHOTS=docs/images`` keeps the screenshots of the board (hint and a greyed
card's reason) and of the review page for the docs."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from tests.support import web_client
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, WAIT, People, serious
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "title": "● Your turn — Red7",
        "hint": "Hint: the hard bot would ",
        "review": re.compile(r"won round|already lost|costly"),
        "step": "Decision {n} of {n}",
    },
    "pt-BR": {
        "title": "● Seu turno — Red7",
        "hint": "Dica: o bot difícil",
        "review": re.compile(r"rodada ganha|já estava perdida|custou caro"),
        "step": "Decisão {n} de {n}",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-board"), bot_delay=0.05, away=600) as running:
        yield running


def table_with_a_bot(server: WebServer, lang: str, name: str) -> tuple[str, str]:
    """A started 2-player basic table: ``name`` in seat 0, an easy bot in seat 1."""
    with httpx.Client(base_url=server.url, trust_env=False) as client:
        table, token = web_client.new_table(client, 2, False, False, lang, name)
        web_client.add_bot(client, table, token, 1, "easy")
        web_client.start(client, table, token)
    return table, token


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_notice_greyed_reason_hint_and_review(people: People, server: WebServer, size: str, lang: str) -> None:
    phone = size == "phone"
    options = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {"viewport": LAPTOP}
    table, token = table_with_a_bot(server, lang, "Nina")
    # (her browser in the table's language: each person reads a table in their own)
    page = people.seated(table, token, locale="pt-BR" if lang == "pt-BR" else "en-GB", **options)
    words = WORDS[lang]

    def press(selector: str, force: bool = False) -> None:
        target = page.locator(selector).first
        target.tap(force=force) if phone else target.click(force=force)

    # notice your turn: the tab's title
    page.wait_for_selector(".hand-zone.my-turn:not(.pending)", timeout=WAIT)
    expect(page).to_have_title(words["title"])

    # the turn's sound: off unless switched on, kept in this browser
    sound = page.locator("#turn-sound")
    expect(sound).not_to_be_checked()
    sound.check()
    assert page.evaluate("localStorage.getItem('red7:sound')") == "on"

    # a greyed card (a palette card at the hand's step) says why: as its title when
    # hovered, in the alert line when tapped
    greyed = page.locator("button.card[data-why]").first
    why = greyed.get_attribute("data-why")
    assert why and greyed.get_attribute("title") == why
    press("button.card[data-why]", force=True)  # aria-disabled: Playwright would wait
    expect(page.locator("#toast")).to_have_text(why)

    # the hint: the terminal game's words, the whole turn
    press(".actions [data-kind=hint]")
    expect(page.locator("#hint")).to_contain_text(words["hint"], timeout=WAIT)
    assert serious(page) == []
    if not phone and lang == "en":
        page.mouse.move(0, 0)
        page.screenshot(path=str(IMAGES / "web-board-hint.png"))
    if phone:
        page.screenshot(path=str(IMAGES / f"web-board-phone-{lang}.png"), full_page=True)

    # the game ends (Nina concedes: the basic game has one round), the title is back
    press(".actions [data-kind=concede]")
    press("dialog[open] button.primary")
    expect(page.locator("dialog.round-end[open]")).to_be_visible(timeout=WAIT)
    expect(page).not_to_have_title(words["title"])
    review_link = page.locator("dialog.round-end[open] a[href$='/review/1']")
    expect(review_link).to_be_visible()

    # the review page: its progress, then the review in the table's language
    review_link.click()
    page.wait_for_url(re.compile(r"/review/1$"))
    expect(page.locator("body[data-review=done]")).to_have_count(1, timeout=WAIT)
    expect(page.locator("#progress")).to_be_hidden()
    expect(page.locator("#review")).to_contain_text(words["review"])
    assert page.locator("html").get_attribute("lang") == lang
    assert serious(page) == []
    if not phone and lang == "en":
        page.screenshot(path=str(IMAGES / "web-review.png"))
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(IMAGES / f"web-review-phone-{lang}.png"))

    # each decision's verdict links to its step in the replay (the frame after it), which
    # may show every hand once the game is over
    steps = page.locator("#review a.step")
    expect(steps.first).to_be_visible()
    step = steps.last  # Nina's concession, the game's last decision (the bot's before it: only a round thrown away)
    expect(step).to_contain_text("Nina: ")
    expect(step).to_contain_text(words["review"])
    number = re.fullmatch(r"(\d+)\. .*", step.inner_text())
    assert number is not None and step.get_attribute("href", timeout=WAIT).endswith(f"/replay/1#{number[1]}")
    step.tap() if phone else step.click()
    page.wait_for_url(re.compile(rf"/replay/1#{number[1]}$"))
    expect(page.locator("#where")).to_have_text(words["step"].format(n=number[1]))
    expect(page.locator("#hands-box")).to_be_visible()
    expect(page.locator(".all-hands")).to_have_count(0)
    page.locator("#all-hands").check()
    expect(page.locator(".all-hands")).to_have_count(2)
    assert serious(page) == []


def test_the_review_page_shows_its_progress_while_it_works(people: People, server: WebServer) -> None:
    """While the review is worked out the page shows a progress bar labelled with how far
    it is (the server's answer is held at 3 of 10 here, by the browser's own routing:
    nothing races); then it asks the server again, which says why there is no review yet
    (the game is still played)."""
    table, token = table_with_a_bot(server, "en", "Otto")
    page = people.seated(table, token)
    page.wait_for_selector(".hand-zone.my-turn:not(.pending)", timeout=WAIT)
    review = people.context().new_page()
    working = '{"status": "working", "lang": "en", "done": 3, "total": 10, "text": null}'
    address = f"**/api/tables/{table}/games/1/review"
    review.route(address, lambda route: route.fulfill(status=200, content_type="application/json", body=working))
    review.goto(f"/t/{table}/review/1")
    expect(review.locator("#progress-label")).to_have_text("Reviewing the game… 3 of 10 decisions")
    assert review.locator("#progress").evaluate("bar => [bar.value, bar.max]") == [3, 10]
    assert serious(review) == []
    review.unroute(address)
    expect(review.locator("body[data-review=refused]")).to_have_count(1)
    expect(review.locator("#review")).to_have_text("The review is shown once the game is over.")
    assert serious(review) == []

"""The guided first game in Chromium (Debian's), against a real ``red7 serve``: a newcomer
opens it from the lobby, misses once in every chapter and is told why, finds the winning
turn by clicks, on a laptop and a phone, in English and in Portuguese, with no serious
accessibility violation (axe) and nothing off the side of the screen; the chapters done
are kept by the browser (a reload goes on from the next one) and the tutorial restarts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from red7.core.actions import Action
from red7.tutorial.chapters import CHAPTERS, words
from red7.ui.i18n import _, using
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer
from tests.tutorial.paths import miss, solution

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-tutorial"), bot_delay=0.05) as running:
        yield running


class Learner:
    """A person on the tutorial page, who clicks: a card, then the decision's button."""

    def __init__(self, page: Page) -> None:
        self.page = page

    @property
    def answers(self) -> int:
        return int(self.page.locator("#main").get_attribute("data-answers") or 0)

    def wait(self, seen: int) -> None:
        """Until the page has drawn an answer after the ``seen`` ones."""
        expect(self.page.locator("#main")).not_to_have_attribute("data-answers", str(seen))

    def decide(self, action: Action) -> None:
        seen = self.answers
        if action.card is not None:
            card = self.page.locator(f'.board button[data-card="{action.card}"]')
            if card.get_attribute("aria-pressed") != "true":
                card.click()
        self.page.locator(f'.buttons button[data-action="{action}"]').click()
        self.wait(seen)


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_newcomer_finishes_the_guided_first_game(people: People, lang: str, size: str) -> None:
    page = people.context(locale=lang, viewport=LAPTOP if size == "laptop" else PHONE).new_page()
    page.goto("/")
    link = page.locator("#learn-link")
    expect(link).to_have_attribute("href", f"/tutorial?lang={lang}")  # the lobby's words are in
    with using(lang):
        expect(link).to_have_text(_("Learn with a guided first game"))
    link.click()
    page.wait_for_url(f"**/tutorial?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    learner = Learner(page)
    with using(lang):
        for n, c in enumerate(CHAPTERS):
            title = _("Chapter {n} of {total}: {title}").format(n=n + 1, total=len(CHAPTERS), title=_(c.title))
            expect(page.locator("#chapter-title")).to_have_text(title)
            expect(page.locator("#goal")).to_contain_text(words(c.goal))
            learner.decide(miss(c))
            verdict = page.locator("#verdict")
            expect(verdict).to_have_attribute("data-outcome", "missed")
            expect(verdict).to_contain_text(words(c.why))
            if n == 0:
                assert serious(page) == []
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
                page.screenshot(path=str(IMAGES / f"web-tutorial-miss-{lang}-{size}.png"), full_page=True)
                if (lang, size) == ("en", "laptop"):  # docs/images/web-tutorial.png
                    page.screenshot(path=str(IMAGES / "web-tutorial.png"), full_page=True)
            for action in solution(c):
                learner.decide(action)
            expect(verdict).to_have_attribute("data-outcome", "done")
            expect(verdict).to_contain_text(_("Well done! {why}").format(why=words(c.why)))
            if c.key == "advanced":  # the verdict tells the score; the next round's deal is not shown
                expect(verdict).to_contain_text("6")
                expect(page.locator("#board .board")).to_have_count(0)
                assert serious(page) == []
                page.screenshot(path=str(IMAGES / f"web-tutorial-score-{lang}-{size}.png"), full_page=True)
            if n + 1 < len(CHAPTERS):
                seen = learner.answers
                page.locator("button.next-chapter").click()
                learner.wait(seen)
        expect(page.locator(".finished")).to_contain_text(
            _("You finished the guided first game! Play a whole game against a bot from the lobby.")
        )
        expect(page.locator("#chapters li.done")).to_have_count(len(CHAPTERS))
        assert serious(page) == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_chapters_done_are_kept_and_the_tutorial_restarts(people: People) -> None:
    page = people.context(locale="en", viewport=LAPTOP).new_page()
    page.goto("/tutorial")
    learner = Learner(page)
    expect(page.locator("#chapter-title")).to_contain_text("Chapter 1 of")
    for action in solution(CHAPTERS[0]):
        learner.decide(action)
    page.reload()  # the first chapter is done: the page opens on the second
    expect(page.locator("#chapter-title")).to_contain_text(f"Chapter 2 of {len(CHAPTERS)}")
    expect(page.locator("#chapters li.done")).to_have_count(1)
    learner.decide(Action.parse("play R3"))  # a staged decision of chapter 2, then taken back
    expect(page.locator('.buttons button[data-kind="take_back"]')).to_be_visible()
    seen = learner.answers
    page.locator('.buttons button[data-kind="take_back"]').click()
    learner.wait(seen)
    expect(page.locator('.hand-cards [data-card="R3"]')).to_be_visible()
    seen = learner.answers
    page.locator("button.skip-chapter").click()
    learner.wait(seen)
    expect(page.locator("#chapter-title")).to_contain_text(f"Chapter 3 of {len(CHAPTERS)}")
    seen = learner.answers
    page.locator("button.restart-all").click()
    learner.wait(seen)
    expect(page.locator("#chapter-title")).to_contain_text("Chapter 1 of")
    expect(page.locator("#chapters li.done")).to_have_count(0)

"""Driving the web game's pages in Debian's Chromium with Playwright, for the browser
tests (``tests.support.browser_driver``): the
browser, people's browser contexts on a server, and a careful person's play through the
page (clicks or taps only)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect, sync_playwright

from tests.support.web_server import WebServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
IMAGES = Path(os.environ.get("RED7_SCREENSHOTS") or tempfile.mkdtemp(prefix="red7-screens-"))
"""Where the browser tests' screenshots go: a temporary folder, or docs/images with
``RED7_SCREENSHOTS=docs/images .venv/bin/python -m pytest --full tests/web/browser/``."""


def serious(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe finds on ``page``."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


WAIT = 60_000
"""Milliseconds to wait for a page to show something the server sends (generous: a busy
machine must not fail a test): every action's and every ``expect``'s default."""
expect.set_options(timeout=WAIT)


@contextlib.contextmanager
def launched() -> Iterator[Browser]:
    """Debian's Chromium, headless (the test fails, saying what to install, without it)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium "
            "(apt-get install chromium; .ci/run installs it). Never run `playwright install`."
        )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (e) => console.error(
  `securitypolicyviolation: ${e.violatedDirective} refused ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));"""
"""A page's script (run first in every page of a :class:`People` context) that writes each
Content-Security-Policy violation on the console, as Chromium writes its own refusals."""


def violation(message: ConsoleMessage) -> bool:
    """Whether a console message tells of a Content-Security-Policy violation (Chromium's
    own words, or :data:`REPORT_VIOLATIONS`')."""
    return "Content Security Policy" in message.text or message.text.startswith("securitypolicyviolation:")


class People:
    """Browser contexts (each one person's browser) opened by a test; every page's
    JavaScript errors and Content-Security-Policy violations are collected, and must be
    none when the test ends."""

    def __init__(self, browser: Browser, server: WebServer) -> None:
        self.browser, self.server = browser, server
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []
        self.violations: list[str] = []

    def context(self, **options: Any) -> BrowserContext:
        options.setdefault("viewport", LAPTOP)
        options.setdefault("locale", "en-GB")
        context = self.browser.new_context(base_url=self.server.url, **options)
        context.set_default_timeout(WAIT)
        context.on("page", self._watch)
        context.add_init_script(REPORT_VIOLATIONS)
        self.contexts.append(context)
        return context

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda err: self.errors.append(f"{page.url}: {err}"))

        def console(message: ConsoleMessage) -> None:
            if violation(message):
                self.violations.append(f"{page.url}: {message.text}")

        page.on("console", console)

    def seated(self, table: str, token: str, **options: Any) -> Page:
        """A person's page at ``table``, its seat token in localStorage as the lobby keeps it."""
        context = self.context(**options)
        key, value = json.dumps("red7:token:" + table), json.dumps(token)
        origin = json.dumps(self.server.url)
        context.add_init_script(f"if (location.origin === {origin}) localStorage.setItem({key}, {value});")
        page = context.new_page()
        page.goto(f"/t/{table}")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def my_turn(page: Page) -> bool:
    return page.locator(".hand-zone.my-turn:not(.pending)").count() > 0


def round_over(page: Page) -> bool:
    return page.locator("dialog.round-end[open]").count() > 0


def play_step(page: Page, press: Callable[[Any], None] | None = None, next_round: bool = False) -> bool:
    """One decision on ``page`` if it is this person's turn, the way a careful person plays:
    confirm what asks, else end the turn or decline a draw when that is safe, else the first
    card with a safe option, else an unsafe one (asked first), else concede. ``press`` clicks
    (the default) or taps; the round-end dialog is left open unless ``next_round``. True if
    something was done."""
    press = press or (lambda locator: locator.click(timeout=3000))
    try:
        dialog = page.locator("dialog[open]")
        if dialog.count():
            if round_over(page):
                if not next_round:
                    return False
                press(dialog.locator("button[data-answer=next]"))
                return True
            press(dialog.locator("button[data-answer=yes]"))
            return True
        if not my_turn(page):
            return False
        for kind in ("end", "decline", "draw"):
            button = page.locator(f".actions button.act[data-kind={kind}][data-safe=true]")
            if button.count():
                press(button.first)
                return True
        cards = page.locator("button.card[data-usable]")
        ids = [cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count())]
        unsafe: tuple[str, str] | None = None
        for card in ids:
            press(page.locator(f'button.card[data-card="{card}"]'))
            expect(page.locator(f'button.card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
            safe = page.locator(".actions button.act[data-safe=true]:not([data-kind=concede])")
            if safe.count():
                press(safe.first)
                return True
            risky = page.locator(".actions button.act[data-safe=false]:not([data-kind=concede])")
            if unsafe is None and risky.count():
                unsafe = (card, risky.first.get_attribute("data-action") or "")
        if unsafe is not None:
            press(page.locator(f'button.card[data-card="{unsafe[0]}"]'))
            press(page.locator(f'.actions button.act[data-action="{unsafe[1]}"]'))
            return True
        press(page.locator(".actions button.act[data-kind=concede]"))
        return True
    except Exception:  # the table moved on under the click (a frame redrew it): look again
        return False


def play_until(
    pages: list[Page], done: Callable[[], bool], seconds: float = 300, press: Any = None, next_round: bool = False
) -> None:
    """Each page plays its turns until ``done()`` (going on to the next round if ``next_round``)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for page in pages:
            moved = play_step(page, press, next_round) or moved
        if not moved:
            pages[0].wait_for_timeout(40)

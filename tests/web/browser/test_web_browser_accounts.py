"""Accounts and the admin's page in a real browser (Debian's Chromium, Playwright), at a
laptop's and a phone's size, in English and in Portuguese: a person registers on the
account page, creates a table from the lobby and sits as their username; the admin
logs in, finds the table on the admin page and closes it; the person's page says why.
axe finds no serious or critical violation on the account, lobby and admin pages.

``RED7_SCREENSHOTS=docs/images`` keeps the admin page's and the account page's pictures
for the docs (docs/web.md, docs/deploy.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer
from tests.web.test_web_accounts import PASSWORD
from tests.web.test_web_admin import ADMIN, add_admin

pytestmark = pytest.mark.browser

CLOSED = {
    "en": "An admin of this server closed this table.",
    "pt-BR": "Um administrador deste servidor fechou esta mesa.",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    folder = tmp_path_factory.mktemp("red7-accounts")
    add_admin(f"sqlite:///{folder / 'db.sqlite3'}")  # the database the server then opens
    with WebServer(folder, bot_delay=0.05, away=60) as running:
        yield running


def log_in(page: Page, username: str, password: str, kind: str = "login") -> None:
    page.goto("/account")
    page.fill(f"#{kind}-username", username)
    page.fill(f"#{kind}-password", password)
    page.click(f"#{kind}-button")
    expect(page.locator("#me")).to_contain_text(username)


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_register_sit_as_yourself_and_see_the_admin_close_the_table(
    people: People, server: WebServer, size: str, lang: str
) -> None:
    viewport = LAPTOP if size == "laptop" else PHONE
    locale = "en-GB" if lang == "en" else "pt-BR"
    username = f"ana_{lang.replace('-', '')}_{size}"
    person = people.context(viewport=viewport, locale=locale).new_page()

    person.goto("/account")
    expect(person.locator("#register-button")).to_be_visible()
    expect(person.locator("html")).to_have_attribute("lang", lang)
    assert serious(person) == []
    log_in(person, username, PASSWORD, "register")
    expect(person.locator("#games-title")).to_be_visible()
    expect(person.locator("#public-profile")).to_have_attribute("href", f"/players/{username}")
    assert serious(person) == []
    if size == "laptop":
        person.screenshot(path=str(IMAGES / f"web-account-{lang}.png"))

    person.goto("/")
    expect(person.locator("#account-link")).to_have_text(username)
    expect(person.locator("#name")).to_have_value(username)
    assert serious(person) == []
    person.check("input[name=players][value='2']")
    person.click("#more-options-title")
    person.select_option("#table-lang", lang)
    person.click("#create-button")
    person.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table = person.url.rsplit("/", 1)[1]
    expect(person.locator("#setup .seat-label").first).to_have_text(username)

    admin = people.context(viewport=viewport, locale=locale).new_page()
    log_in(admin, ADMIN, PASSWORD)
    admin.click("#admin-link")
    admin.wait_for_url(re.compile(r"/admin$"))
    row = admin.locator(f"li[data-table='{table}']")
    expect(row).to_contain_text(username)
    expect(row.locator("button[data-revoke]")).to_have_count(1)  # the person's seat, not the empty one
    assert serious(admin) == []
    if size == "laptop" and lang == "en":
        admin.screenshot(path=str(IMAGES / "web-admin.png"))
    admin.locator(f"button[data-close='{table}']").click()
    expect(row).to_have_count(0)

    expect(person.locator(".gone")).to_contain_text(CLOSED[lang])
    assert serious(person) == []
    person.goto("/")
    expect(person.locator(f"[data-table='{table}']")).to_have_count(0)


def test_the_admin_page_sends_others_to_the_account_page(people: People, server: WebServer) -> None:
    page = people.context().new_page()
    page.goto("/admin")
    page.wait_for_url(re.compile(r"/account$"))
    expect(page.locator("#login-button")).to_be_visible()


@pytest.mark.parametrize(("size", "lang"), [("laptop", "en"), ("phone", "pt-BR")])
def test_a_finished_game_is_on_the_account_page_with_its_replay_and_review(
    people: People, server: WebServer, size: str, lang: str
) -> None:
    """A registered person plays a game against a bot (conceding ends it: the basic game
    has one round); their account page lists it, and its review link opens the review."""
    viewport = LAPTOP if size == "laptop" else PHONE
    person = people.context(viewport=viewport, locale="en-GB" if lang == "en" else "pt-BR").new_page()
    person.goto("/account")
    log_in(person, f"rev_{size}", PASSWORD, "register")
    expect(person.locator("#games-title")).to_be_visible()
    person.goto("/")
    person.check("input[name=players][value='2']")
    person.click("#more-options-title")
    person.select_option("#table-lang", lang)
    person.click("#create-button")
    person.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table = person.url.rsplit("/", 1)[1]
    person.select_option("#level-1", "easy")
    person.click("button.add-bot[data-seat='1']")
    person.click("button.start")
    person.wait_for_selector(".hand-zone.my-turn:not(.pending)", timeout=60_000)
    person.click(".actions [data-kind=concede]")
    person.click("dialog[open] button.primary")
    expect(person.locator("dialog.round-end[open]")).to_be_visible(timeout=60_000)

    person.goto("/account")
    line = person.locator("#account li", has=person.locator(f"a[href='/t/{table}/replay/1']"))
    expect(line).to_have_count(1)
    expect(line.locator(f"a[href='/t/{table}/review/1']")).to_be_visible()
    assert serious(person) == []
    if size == "phone":
        assert person.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    line.locator(f"a[href='/t/{table}/review/1']").click()
    person.wait_for_url(re.compile(r"/review/1$"))
    expect(person.locator("body[data-review=done]")).to_have_count(1, timeout=120_000)
    assert person.locator("html").get_attribute("lang") == lang

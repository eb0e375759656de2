"""Private tables, invitations, removing a seat and the lobby's filters in a real browser
(Debian's Chromium driven by Playwright, ``red7 serve`` in a subprocess), at a laptop's
1280×800 and a phone's 390×844, in English and in Brazilian Portuguese, each page
checked with axe (no serious or critical violation).

The host creates a private table in the lobby, adds a bot and removes it, copies the
invitation link with the page's control (read back from the clipboard); a second
person's browser opens that link and takes a seat; a stranger's browser, with the
table's address but not its fragment, is told the table is private and sees no seat.
The lobby's filters narrow the list to the tables asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support import web_client
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

SIZES = {"laptop": LAPTOP, "phone": PHONE}
WORDS = {
    "en": {
        "copy": "Copy the invitation link",
        "copied": "Link copied.",
        "private": "This table is private",
        "remove": "Remove",
        "empty": "empty seat",
        "no_match": "No table matches these filters.",
        "removed": "The host removed you from this table",
    },
    "pt-BR": {
        "copy": "Copiar o link de convite",
        "copied": "Link copiado.",
        "private": "Esta mesa é privada",
        "remove": "Remover",
        "empty": "lugar vazio",
        "no_match": "Nenhuma mesa corresponde a estes filtros.",
        "removed": "Quem criou a mesa tirou você dela",
    },
}
LOCALES = {"en": "en-GB", "pt-BR": "pt-BR"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-web-tables"), bot_delay=0.05, away=60) as running:
        yield running


def page_of(people: People, size: str, lang: str, clipboard: bool = False) -> Page:
    """A new person's page (their own browser context) at ``size`` in ``lang``."""
    permissions = ["clipboard-read", "clipboard-write"] if clipboard else []
    context = people.context(viewport=SIZES[size], locale=LOCALES[lang], permissions=permissions)
    return context.new_page()


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_private_table_is_joined_through_its_copied_link(people: People, size: str, lang: str) -> None:
    words = WORDS[lang]
    host = page_of(people, size, lang, clipboard=True)
    host.goto("/")
    host.fill("#name", "Ana")
    host.click("#more-options-title")  # the options folded under the common ones
    host.fill("#table-name", "<b>Quinta</b> do clube")
    host.check("input[name=players][value='3']")
    host.check("#private")
    expect(host.locator("#table-lang")).to_have_value(lang)
    assert serious(host) == []
    host.click("#create-button")
    host.wait_for_url(re.compile(r"/t/[\w-]+#invite=[\w-]+$"))
    table_id = host.url.split("/t/", 1)[1].split("#", 1)[0]
    expect(host.locator("#settings")).to_contain_text("<b>Quinta</b> do clube")  # as text, never HTML
    assert host.locator("#settings b").count() == 0

    # the host puts a bot in seat 3 and removes it
    host.locator("button.add-bot[data-seat='2']").click()
    remove = host.locator("button.remove-seat[data-seat='2']")
    expect(remove).to_have_text(words["remove"])
    assert serious(host) == []
    remove.click()
    expect(host.locator("button.add-bot[data-seat='2']")).to_be_visible()
    expect(host.locator(".seatlist li").nth(2)).to_contain_text(words["empty"])

    # the host copies the invitation link
    host.locator("button.copy-link").click()
    expect(host.locator("#toast")).to_have_text(words["copied"])
    link = str(host.evaluate("navigator.clipboard.readText()"))
    assert re.fullmatch(rf"{re.escape(people.server.url)}/t/{table_id}#invite=[\w-]{{32}}", link), link

    # a stranger with the address but not its fragment is refused, and sees no seat
    stranger = page_of(people, size, lang)
    stranger.goto(f"/t/{table_id}")
    expect(stranger.locator("p.gone")).to_contain_text(words["private"])
    assert stranger.locator(".seatlist").count() == 0
    assert serious(stranger) == []

    # the invited person opens the link and takes seat 2
    guest = page_of(people, size, lang)
    guest.goto(link)
    guest.fill("#seat-name", "Bia")
    guest.locator("button.take-seat[data-seat='1']").click()
    expect(guest.locator(".seatlist li.you")).to_contain_text("Bia")
    expect(host.locator(".seatlist li").nth(1)).to_contain_text("Bia")
    expect(host.locator("#setup-title .badge.private")).to_be_visible()
    assert serious(guest) == []
    if size == "laptop" and lang == "en":
        host.mouse.move(0, 0)
        host.screenshot(path=str(IMAGES / "web-private-table.png"))

    # the host removes Bia (issue 48, item 2): her page says the host removed her and shows
    # the table as a spectator's, with no seat to take; the server refuses her name again
    host.locator("button.remove-seat[data-seat='1']").click()
    expect(guest.locator(".seatlist li.you")).to_have_count(0)
    expect(guest.locator("p.removed-note")).to_contain_text(words["removed"])
    assert guest.locator("button.take-seat").count() == 0
    expect(host.locator(".seatlist li").nth(1)).to_contain_text(words["empty"])
    with httpx.Client(base_url=people.server.url, headers={"Accept-Language": lang}) as client:
        invite = link.split("#invite=", 1)[1]
        again = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "BIA", "invite": invite})
        assert again.status_code == 403 and again.json()["code"] == "removed"
        assert words["removed"] in again.json()["message"]
    with httpx.Client(base_url=people.server.url) as client:  # the lobby never lists it
        assert table_id not in [row["id"] for row in client.get("/api/tables?limit=100").json()["tables"]]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_lobby_filters_its_tables(people: People, server: WebServer, size: str, lang: str) -> None:
    words = WORDS[lang]
    with httpx.Client(base_url=server.url) as client:
        two, _ = web_client.new_table(client, 2, False, False, "en", "Ana")
        four_advanced, token = web_client.new_table(client, 4, True, True, "pt-BR", "Bia")
        full, full_token = web_client.new_table(client, 2, True, False, "en", "Cy")
        web_client.add_bot(client, full, full_token, 1)
    page = page_of(people, size, lang)
    page.goto("/")
    rows = page.locator("ul.tables li")
    expect(rows.filter(has=page.locator(f"[data-watch='{two}']"))).to_have_count(1)
    expect(page.locator("#filters")).to_be_hidden()  # folded until asked for
    page.click("#filters-title")
    page.select_option("#filter-players", "4")
    page.select_option("#filter-advanced", "true")
    expect(page.locator(f"ul.tables li[data-table='{four_advanced}']")).to_have_count(1)
    expect(page.locator(f"ul.tables li[data-table='{two}']")).to_have_count(0)
    named = "Mesa de Bia" if lang == "pt-BR" else "Bia's table"  # (a default name, worded for the reader)
    expect(page.locator(f"ul.tables li[data-table='{four_advanced}'] .table-name")).to_have_text(named)
    assert all(row.get_attribute("data-table") is not None and "4" in row.inner_text() for row in rows.all())
    assert serious(page) == []
    page.select_option("#filter-players", "")
    page.select_option("#filter-advanced", "")
    page.check("#filter-free")
    expect(page.locator(f"ul.tables li[data-table='{two}']")).to_have_count(1)
    expect(page.locator(f"ul.tables li[data-table='{full}']")).to_have_count(0)
    page.select_option("#filter-players", "3")
    page.select_option("#filter-actions", "true")
    page.select_option("#filter-advanced", "false")
    expect(page.locator("#tables p.none")).to_have_text(words["no_match"])
    if size == "phone" and lang == "pt-BR":
        page.select_option("#filter-players", "")
        page.select_option("#filter-actions", "")
        page.select_option("#filter-advanced", "")
        expect(page.locator(f"ul.tables li[data-table='{two}']")).to_have_count(1)
        page.screenshot(path=str(IMAGES / "web-lobby-filters.png"), full_page=True)
    assert token

"""A private table's invitation renewed and revoked by its host, and a chat mute that
follows the person, in a real browser (Debian's Chromium driven by Playwright, ``red7
serve`` in a subprocess), at a laptop's 1280×800 and a phone's 390×844, in English and in
Brazilian Portuguese, each page checked with axe (no serious or critical violation).

The host renews the invitation with the page's button: the page shows the new link (and
its address bar holds it), a spectator who watched by the old link is told why and stops
seeing the table, a stranger opening the old link is refused, the seated person keeps her
seat, and the new link opens the table. Revoked: the page says only the seated open it.

Mute: Ana mutes Bia; Bia leaves her seat and sits in another: still muted; Cy, in Bia's
old seat, is not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, People, serious
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "renew": "New invitation link",
        "revoke": "Revoke the invitation",
        "renewed": "New invitation link made",
        "revoked": "Invitation revoked",
        "ended": "no longer opens the table",
        "stale": "does not open this table",
        "none": "This table has no invitation",
        "mute": "Mute Bia",
        "ask": "ask the host for its link",
    },
    "pt-BR": {
        "renew": "Novo link de convite",
        "revoke": "Revogar o convite",
        "renewed": "Novo link de convite criado",
        "revoked": "Convite revogado",
        "ended": "não abre mais a mesa",
        "stale": "não abre esta mesa",
        "none": "Esta mesa não tem convite",
        "mute": "Silenciar Bia",
        "ask": "peça o link a quem criou a mesa",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-web-invitations"), bot_delay=0.05, away=600) as running:
        yield running


def options_of(size: str, lang: str) -> dict[str, Any]:
    options: dict[str, Any] = {"locale": lang}
    if size == "phone":
        options.update(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    else:
        options.update(viewport=LAPTOP)
    return options


def post(server: WebServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(base_url=server.url, trust_env=False) as client:
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result


def opened(people: People, address: str, token: str | None = None, **options: Any) -> Page:
    """A new person's page at ``address`` (a seat token in localStorage, if given)."""
    context = people.context(**options)
    if token is not None:
        table = address.split("/t/", 1)[1].split("#", 1)[0].split("?", 1)[0]
        key, value = json.dumps("red7:token:" + table), json.dumps(token)
        origin = json.dumps(people.server.url)
        context.add_init_script(f"if (location.origin === {origin}) localStorage.setItem({key}, {value});")
    page = context.new_page()
    page.goto(address)
    return page


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_host_renews_and_revokes_the_invitation(people: People, size: str, lang: str) -> None:
    words, server = WORDS[lang], people.server
    options = options_of(size, lang)
    created = post(server, "/api/tables", {"players": 3, "name": "Ana", "lang": lang, "private": True})
    table, old = created["id"], created["invite"]
    bia = post(server, f"/api/tables/{table}/seats/1", {"name": "Bia", "invite": old})["token"]
    host = opened(people, f"/t/{table}#invite={old}", created["token"], **options)
    bias = opened(people, f"/t/{table}#invite={old}", bia, **options)
    watcher = opened(people, f"/t/{table}?watch#invite={old}", **options)
    expect(watcher.locator(".seatlist li").nth(1)).to_contain_text("Bia")
    expect(bias.locator(".seatlist li.you")).to_contain_text("Bia")
    renew = host.locator("button.invite-renew")
    expect(renew).to_have_text(words["renew"])
    expect(host.locator("button.invite-revoke")).to_have_text(words["revoke"])
    assert bias.locator("button.invite-renew").count() == 0  # the host's controls only
    expect(bias.locator("p.invite-ask")).to_contain_text(words["ask"])  # a seated guest never shows a link
    assert bias.locator("a.link-invite").count() == 0
    assert serious(host) == []

    renew.click()
    expect(host.locator("#toast")).to_contain_text(words["renewed"])
    expect(host.locator("a.link-invite")).not_to_have_attribute("href", re.compile(re.escape(old)))
    new = host.url.split("#invite=", 1)[1]  # the address bar holds the link that opens the table now
    assert new != old and new in str(host.locator("a.link-invite").get_attribute("href"))
    expect(bias.locator("p.invite-ask")).to_be_visible()  # Bia, still seated, shows no dead link
    assert old not in bias.content()
    expect(watcher.locator("p.gone")).to_contain_text(words["ended"])  # told why, and no more table
    assert watcher.locator(".seatlist").count() == 0
    expect(watcher.locator("#chat")).to_be_hidden()  # nor its chat
    assert serious(watcher) == []
    if size == "laptop":
        host.mouse.move(0, 0)
        host.screenshot(path=str(IMAGES / f"web-invitation-renewed-{lang}.png"))
    else:
        watcher.screenshot(path=str(IMAGES / f"web-invitation-ended-phone-{lang}.png"))

    stranger = opened(people, f"/t/{table}#invite={old}", **options)
    expect(stranger.locator("p.gone")).to_contain_text(words["stale"])
    newcomer = opened(people, f"/t/{table}?watch#invite={new}", **options)
    expect(newcomer.locator(".seatlist li").nth(1)).to_contain_text("Bia")
    host.locator("button.add-bot[data-seat='2']").click()  # the seated stay, and see it
    expect(bias.locator(".seatlist li").nth(2)).to_contain_text("Bot")
    expect(bias.locator(".seatlist li.you")).to_contain_text("Bia")

    host.locator("button.invite-revoke").click()
    expect(host.locator("#toast")).to_contain_text(words["revoked"])
    expect(host.locator("p.invite-none")).to_contain_text(words["none"])
    expect(newcomer.locator("p.gone")).to_contain_text(words["ended"])
    expect(bias.locator("p.invite-none")).to_contain_text(words["none"])
    expect(bias.locator(".seatlist li.you")).to_contain_text("Bia")
    assert "#invite=" not in host.url
    assert serious(host) == [] and serious(bias) == []
    if size == "phone":
        host.screenshot(path=str(IMAGES / f"web-invitation-revoked-phone-{lang}.png"), full_page=True)
        assert host.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # a new invitation opens it again
    host.locator("button.invite-renew").click()
    expect(host.locator("a.link-invite")).to_be_visible()


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.locator("#chat-form button[type=submit]").click()


def lines(page: Page) -> list[str]:
    return [" ".join(text.split()) for text in page.locator("#chat-lines .chat-line").all_inner_texts()]


@pytest.mark.parametrize(("size", "lang"), [("laptop", "en"), ("phone", "pt-BR")])
def test_a_mute_follows_the_person_not_the_seat(people: People, size: str, lang: str) -> None:
    words, server = WORDS[lang], people.server
    options = options_of(size, lang)
    created = post(server, "/api/tables", {"players": 3, "name": "Ana", "lang": lang})
    table, ana_token = created["id"], created["token"]
    bia_token = post(server, f"/api/tables/{table}/seats/1", {"name": "Bia"})["token"]
    ana = opened(people, f"/t/{table}", ana_token, **options)
    bia = opened(people, f"/t/{table}", bia_token, **options)
    say(bia, "hello from seat 2")
    expect(ana.locator("#chat-lines .chat-line").last).to_contain_text("hello from seat 2")
    mute = ana.get_by_role("button", name=words["mute"])
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#chat-lines .chat-line")).to_have_count(0)

    # Bia leaves seat 2 and takes seat 3: the same person, still muted
    bia.locator("button.leave-seat").click()
    expect(bia.locator("button.take-seat[data-seat='2']")).to_be_visible()
    bia.fill("#seat-name", "Bia")
    bia.locator("button.take-seat[data-seat='2']").click()
    expect(bia.locator(".seatlist li.you")).to_contain_text("Bia")
    expect(ana.get_by_role("button", name=words["mute"])).to_have_attribute("aria-pressed", "true")
    expect(ana.get_by_role("button", name=words["mute"])).to_have_attribute("data-mute", "2")
    say(bia, "from seat 3 now")
    expect(bia.locator("#chat-lines .chat-line").last).to_contain_text("from seat 3 now")

    # Cy sits where Bia was: not muted
    cy = opened(people, f"/t/{table}", **options)
    cy.fill("#seat-name", "Cy")
    cy.locator("button.take-seat[data-seat='1']").click()
    expect(cy.locator(".seatlist li.you")).to_contain_text("Cy")
    say(cy, "I am Cy")
    expect(ana.locator("#chat-lines .chat-line").last).to_contain_text("I am Cy")
    assert lines(ana) == ["Cy: I am Cy"]  # Bia's lines stay hidden, in both her seats
    ana.reload()  # kept by this browser, by person
    expect(ana.locator("#chat-lines .chat-line")).to_have_count(1)
    expect(ana.get_by_role("button", name=words["mute"])).to_have_attribute("aria-pressed", "true")
    assert serious(ana) == []
    ana.locator("#chat").screenshot(path=str(IMAGES / f"web-chat-mute-{size}-{lang}.png"))
    ana.get_by_role("button", name=words["mute"]).click()
    expect(ana.locator("#chat-lines .chat-line")).to_have_count(3)

"""Each person's own language at a table, in a real browser (Debian's Chromium driven by
Playwright, ``red7 serve`` in a subprocess), at a laptop's 1280×800 and a phone's
390×844, each page checked with axe (no serious or critical violation).

Ana creates an English table and starts the game with Bia; Bia's browser is in
Portuguese, so her page is: the page's words, the table's settings, the rule, the
standing, the prompt. Ana's page and an English spectator's stay English. Bia switches the
table's language control to English: the table's words change at once, over the same
connection (the page opens no other WebSocket: her seat never shows offline), the choice is
remembered (a reload keeps it, the lobby opens in it), and switching back brings the
Portuguese again.
"""

from __future__ import annotations

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
    "en": {"label": "Language", "settings": "2 players · basic game", "rule": "Red", "standing": "Winning: "},
    "pt-BR": {"label": "Idioma", "settings": "2 jogadores · modo básico", "rule": "Vermelho", "standing": "Vencendo: "},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-web-languages"), bot_delay=0.05, away=60) as running:
        yield running


def reads(page: Page, lang: str) -> None:
    """``page`` shows the table in ``lang``: its words, the control, the game's words."""
    words = WORDS[lang]
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#page-lang")).to_have_value(lang)
    expect(page.locator("#page-lang-label")).to_have_text(words["label"])
    expect(page.locator("#settings")).to_contain_text(f" · {words['settings']}")  # (after the name: "Ana's table")
    expect(page.locator(".rule-name")).to_have_text(words["rule"])
    expect(page.locator(".standing")).to_contain_text(words["standing"])


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_bia_reads_anas_english_table_in_portuguese_and_switches_it(
    people: People, server: WebServer, size: str
) -> None:
    with httpx.Client(base_url=server.url, trust_env=False, timeout=60) as api:
        table_id, ana_token = web_client.new_table(api, players=2, lang="en", name="Ana")
        bia_token = web_client.join(api, table_id, 1, "Bia")
        web_client.start(api, table_id, ana_token)
    viewport = SIZES[size]
    bia = people.seated(table_id, bia_token, viewport=viewport, locale="pt-BR")
    ana = people.seated(table_id, ana_token, viewport=viewport, locale="en-GB")
    spectator = people.context(viewport=viewport, locale="en-GB").new_page()
    spectator.goto(f"/t/{table_id}?watch")
    reads(bia, "pt-BR")
    reads(ana, "en")
    reads(spectator, "en")
    # the language control sits in the header's one row, beside the brand, at both sizes
    brand, control = (bia.locator(what).bounding_box() for what in ("header .brand", "#page-lang"))
    assert brand is not None and control is not None
    assert abs((brand["y"] + brand["height"] / 2) - (control["y"] + control["height"] / 2)) < 12
    assert control["x"] + control["width"] <= viewport["width"]
    sockets: list[str] = []  # the WebSockets Bia's page opens from now on (its first is open: she reads the table)
    bia.on("websocket", lambda ws: sockets.append(ws.url))
    assert serious(bia) == []
    bia.screenshot(path=str(IMAGES / f"web-language-{size}-pt-BR.png"))

    bia.select_option("#page-lang", "en")  # the control: the table's words change at once
    reads(bia, "en")
    assert sockets == []  # (the same connection: none opened since the page's first)
    assert bia.evaluate("localStorage.getItem('red7:lang')") == "en"
    assert serious(bia) == []
    bia.screenshot(path=str(IMAGES / f"web-language-{size}-en.png"))
    bia.reload()  # remembered, as the lobby's choice is
    reads(bia, "en")
    bia.select_option("#page-lang", "pt-BR")
    reads(bia, "pt-BR")
    reads(ana, "en")  # nobody else's language moved
    reads(spectator, "en")
    bia.goto("/")  # the lobby opens in the language chosen at the table, every row in it
    expect(bia.locator("html")).to_have_attribute("lang", "pt-BR")
    row = bia.locator(f'li[data-table="{table_id}"]')
    expect(row.locator(".settings-line")).to_have_text(WORDS["pt-BR"]["settings"])
    expect(row.locator(".status")).to_have_text("em andamento")

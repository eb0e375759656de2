"""The web game in a real browser: ``red7 serve`` in a subprocess (tests/support/web_server.py) and
Debian's Chromium driven by Playwright (never a downloaded browser: CI installs the
``chromium`` package, and these tests fail, not skip, without it).

People play through the pages only (clicks, taps and keys); the REST API sets up some
tables to keep the tests short. Screenshots of the lobby and of a table are saved to
docs/images for the README.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support import web_client
from tests.support.browser_driver import IMAGES, LAPTOP, PHONE, WAIT, People, my_turn, play_until, round_over, serious
from tests.support.web_server import WebServer

pytestmark = pytest.mark.browser

PORTUGUESE_LABEL = re.compile(r"^(Vm|Lj|Am|Vd|Az|An|Vt)[1-7]$")
PORTUGUESE_NAME = re.compile(r"^(Vermelho|Laranja|Amarelo|Verde|Azul|Anil|Violeta) [1-7]$")
ENGLISH_LABEL = re.compile(r"^[ROYGBIV][1-7]$")


# --- the server and the browser -------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-web"), bot_delay=0.05, away=60) as running:
        yield running


def new_table(
    server: WebServer,
    players: int = 2,
    *,
    advanced: bool = False,
    actions: bool = False,
    lang: str = "en",
    name: str = "Ana",
    bots: dict[int, str] | None = None,
    start: bool = True,
) -> tuple[str, str]:
    """A table made through the REST API (its creator in seat 0): its id and the creator's token."""
    with httpx.Client(base_url=server.url) as client:
        table, token = web_client.new_table(client, players, advanced, actions, lang, name)
        for seat, level in (bots or {}).items():
            web_client.add_bot(client, table, token, seat, level)
        if start:
            web_client.start(client, table, token)
    return table, token


def create_in_lobby(page: Page, name: str, players: int, *, advanced: bool = False, actions: bool = False) -> str:
    """Create a table with the lobby's form (in English, ``page`` on the lobby): its id,
    once the page shows it."""
    page.fill("#name", name)
    page.check(f"input[name=players][value='{players}']")
    page.click("#more-options-title")  # the options folded under the common ones
    if advanced:
        page.check("#advanced")
    if actions:
        page.check("#actions")
    page.select_option("#table-lang", "en")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


# --- playing through the page -----------------------------------------------------------------


def hand_ids(page: Page) -> list[str]:
    return [str(card) for card in page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")]


def turn_played(page: Page, name: str) -> bool:
    """Whether ``name`` has played a whole turn: a move of theirs in the log, and another
    seat's move after it."""
    lines = page.locator(".logbox li").all_inner_texts()
    mine = [i for i, line in enumerate(lines) if line.startswith(f"{name}:")]
    return bool(mine) and any(not line.startswith(f"{name}:") for line in lines[mine[0] + 1 :])


def fresh_turn(page: Page) -> bool:
    """Whether a turn of this person starts now: nothing decided yet, no question open."""
    return (
        my_turn(page) and not page.locator("dialog[open]").count() and not page.locator("[data-kind=take_back]").count()
    )


def play_to_a_fresh_turn(page: Page, moves: int) -> None:
    """Play (round after round) until this person has made ``moves`` moves and a new turn of
    theirs starts, and stays so for a moment (nothing else moves on their turn)."""
    name = page.locator(".seat.you .seat-name").inner_text().strip(" ▶")

    def there() -> bool:
        return page.locator(".logbox li").filter(has_text=f"{name}:").count() >= moves and fresh_turn(page)

    for _ in range(20):
        play_until([page], there, next_round=True)
        page.wait_for_timeout(150)
        if there():
            return
    raise AssertionError("no fresh turn came")


def wait_for_turn(page: Page) -> None:
    page.wait_for_selector(".hand-zone.my-turn:not(.pending)", timeout=WAIT)


# --- the tests ----------------------------------------------------------------------------------


def test_two_people_and_a_bot_play_an_advanced_round_to_its_scoring(people: People, server: WebServer) -> None:
    ana_page = people.context().new_page()
    ana_page.goto("/")
    table = create_in_lobby(ana_page, "Ana", 3, advanced=True, actions=True)
    expect(ana_page.locator(".setup .seatlist li").first).to_contain_text("Ana")
    token = ana_page.evaluate(f"localStorage.getItem('red7:token:{table}')")
    assert token

    # Bia opens the link Ana shares and takes the second seat
    shared = ana_page.locator(".setup a.link-share").get_attribute("href")
    assert shared and shared.endswith(f"/t/{table}")
    bia_page = people.context().new_page()
    bia_page.goto(shared)
    bia_page.fill("#seat-name", "Bia")
    bia_page.click("button.take-seat[data-seat='1']")
    expect(bia_page.locator(".setup .seatlist li.you")).to_contain_text("Bia")
    expect(ana_page.locator(".setup .seatlist li").nth(1)).to_contain_text("Bia")
    assert bia_page.evaluate(f"localStorage.getItem('red7:token:{table}')")

    ana_page.select_option("#level-2", "easy")
    ana_page.click("button.add-bot[data-seat='2']")
    expect(bia_page.locator(".setup .seatlist li").nth(2)).to_contain_text("Bot 3")
    # the host starts it (issue 48, item 2): Bia is told she waits for Ana, and has no button
    expect(bia_page.locator(".setup .waiting-host")).to_contain_text("The host starts the game")
    assert bia_page.locator("button.start").count() == 0
    ana_page.click("button.start")

    for page in (ana_page, bia_page):
        expect(page.locator(".rule")).to_be_visible()
        expect(page.locator(".hand .card")).to_have_count(7)
        expect(page.locator(".seat .badge.score").first).to_contain_text("/35")
    assert not set(hand_ids(ana_page)) & set(hand_ids(bia_page))

    play_until([ana_page, bia_page], lambda: round_over(ana_page) and round_over(bia_page))

    results = [page.locator("dialog.round-end[open]") for page in (ana_page, bia_page)]
    texts = [
        [line.inner_text() for line in dialog.locator("h2, .dialog-line").all()]
        + [dialog.locator(".scored").inner_text()]
        for dialog in results
    ]
    assert texts[0] == texts[1]
    # how every palette ended, the scoring cards among the winner's (the board behind shows the next deal)
    finals = [dialog.locator(".final-list > li").all_inner_texts() for dialog in results]
    assert finals[0] == finals[1] and [line.split()[0] for line in finals[0]] == ["Ana", "Bia", "Bot"]
    scored = set(results[0].locator(".scored .card").all_inner_texts())
    assert any(scored <= set(line.split()[1:]) for line in finals[0]), (scored, finals[0])
    IMAGES.mkdir(parents=True, exist_ok=True)
    ana_page.screenshot(path=str(IMAGES / "web-round-end.png"))
    assert any(name in texts[0][0] for name in ("Ana", "Bia", "Bot 3")), texts[0]
    assert "35" in " ".join(texts[0])  # the points towards the target
    expect(results[0].locator(".scored .card").first).to_be_visible()
    for dialog in results:
        dialog.locator("button[data-answer=next]").click()
        expect(dialog).to_be_hidden()
    # the next round is being played: round 2's board
    expect(ana_page.locator(".hand .card").first).to_be_visible()


def test_a_refresh_keeps_the_seat_and_the_hand(people: People, server: WebServer) -> None:
    page = people.context().new_page()
    page.goto("/")
    table = create_in_lobby(page, "Caio", 2)
    page.select_option("#level-1", "easy")
    page.click("button.add-bot[data-seat='1']")
    page.click("button.start")
    wait_for_turn(page)
    before = hand_ids(page)
    assert len(before) >= 6
    expect(page.locator(".seat.you .seat-name")).to_have_text(re.compile("Caio"))
    token = page.evaluate(f"localStorage.getItem('red7:token:{table}')")

    page.reload()
    wait_for_turn(page)
    assert hand_ids(page) == before
    expect(page.locator(".seat.you .seat-name")).to_have_text(re.compile("Caio"))
    expect(page.locator(".hand .spectating")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('red7:token:{table}')") == token

    # and it goes on: the person plays from the restored seat
    play_until([page], lambda: turn_played(page, "Caio"))


def test_the_lobby_joins_watches_and_speaks_the_chosen_language(people: People, server: WebServer) -> None:
    table, _token = new_table(server, 3, start=False, name="Nina", bots={2: "hard"})
    page = people.context().new_page()
    page.goto("/")
    expect(page.locator("#title")).to_have_text("Red7 online")
    page.select_option("#page-lang", "pt-BR")
    expect(page.locator("#new-title")).to_have_text("Nova mesa")
    expect(page.locator("#open-title")).to_have_text("Mesas abertas")
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    assert page.locator("#table-lang").input_value() == "pt-BR"
    row = page.locator(f"li[data-table='{table}']")
    expect(row).to_contain_text("Nina")
    expect(row.locator("[data-watch]")).to_have_text("Assistir")

    page.fill("#name", "Otto")
    row.locator("[data-join]").click()
    page.wait_for_url(f"**/t/{table}")
    expect(page.locator(".setup .seatlist li.you")).to_contain_text("Otto")
    page.goto("/")  # the language chosen is kept, and this browser's seat is a link back
    expect(page.locator("#new-title")).to_have_text("Nova mesa")
    expect(page.locator(f"li[data-table='{table}'] a[data-join]")).to_have_attribute("href", f"/t/{table}")

    watcher = people.context().new_page()
    watcher.goto("/")
    watcher.locator(f"li[data-table='{table}'] [data-watch]").click()
    watcher.wait_for_url(f"**/t/{table}?watch")
    expect(watcher.locator(".setup .spectating")).to_be_visible()
    expect(watcher.locator(".setup .seatlist")).to_contain_text("Otto")
    assert watcher.locator(".setup button:not(.copy-link)").count() == 0  # (copying the link: anyone may)


def test_a_lost_connection_comes_back(people: People, server: WebServer) -> None:
    table, token = new_table(server, 2, bots={1: "easy"}, name="Teo")
    context = people.context()
    key, value = json.dumps("red7:token:" + table), json.dumps(token)
    context.add_init_script(f"if (location.origin === {json.dumps(server.url)}) localStorage.setItem({key}, {value});")
    page = context.new_page()
    sockets: list[Any] = []

    def through(route: Any) -> None:  # every WebSocket goes to the server, and can be cut
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/ws/"), through)
    page.goto(f"/t/{table}")
    wait_for_turn(page)
    before = hand_ids(page)
    sockets[-1].close(code=1011, reason="cut by the test")
    expect(page.locator("#conn")).to_have_text(re.compile("reconnecting"))
    expect(page.locator("#conn")).to_have_text("", timeout=WAIT)
    assert len(sockets) >= 2
    wait_for_turn(page)
    assert hand_ids(page) == before
    expect(page.locator(".seat.you .seat-name")).to_contain_text("Teo")


def test_a_spectator_sees_no_hand(people: People, server: WebServer) -> None:
    table, token = new_table(server, 3, bots={1: "easy", 2: "easy"})
    player = people.seated(table, token)
    wait_for_turn(player)
    hand = set(hand_ids(player))
    assert len(hand) == 7

    # the same browser, holding the seat's token, opens the spectators' link
    watcher = player.context.new_page()
    watcher.goto(f"/t/{table}?watch")
    expect(watcher.locator(".hand .spectating")).to_be_visible()
    expect(watcher.locator(".rule")).to_be_visible()
    expect(watcher.get_by_role("region", name="You are watching", exact=False)).to_have_count(1)
    expect(watcher.locator(".hand")).not_to_contain_text("Your hand")  # not even for a screen reader
    assert watcher.locator(".hand .card").count() == 0
    assert watcher.locator("button[data-usable]").count() == 0
    assert watcher.locator(".seat.you").count() == 0
    assert watcher.locator(".hand-zone.my-turn").count() == 0
    shown = set(watcher.locator("[data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    known = set(watcher.locator(".known [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    assert shown, "the spectator sees the palettes and the canvas"
    assert not (shown - known) & hand


def test_a_token_this_table_does_not_know_watches(people: People, server: WebServer) -> None:
    table, _token = new_table(server, 2, bots={1: "easy"})
    page = people.seated(table, "not-a-seat-token")
    expect(page.locator("#toast")).to_contain_text("does not open a seat")
    expect(page.locator(".hand .spectating")).to_be_visible()
    assert page.locator(".hand .card").count() == 0


def test_a_link_to_a_missing_table_says_so_with_the_way_back(people: People, server: WebServer) -> None:
    """The issue's repro: a link to a table that is not there showed "Connection lost:
    reconnecting..." for ever (the server refused the WebSocket before accepting it, which
    uvicorn turns into an HTTP 403 a page never sees). The page says there is no such
    table, in its language, stops trying, and links to the lobby."""
    for locale, words in (("en-GB", "There is no table nope"), ("pt-BR", "Não existe a mesa nope")):
        page = people.context(locale=locale).new_page()
        sockets: list[Any] = []
        page.on("websocket", lambda socket, seen=sockets: seen.append(socket))
        page.goto("/t/nope")
        gone = page.locator("#board .gone")
        expect(gone).to_contain_text(words, timeout=WAIT)
        expect(page.locator("#conn")).to_have_text("")  # not "reconnecting"
        expect(page.locator("body.offline")).to_have_count(0)
        assert len(sockets) == 1  # one refusal, no retry
        gone.locator("a[href='/']").click()
        page.wait_for_url(f"{server.url}/", timeout=WAIT)
        expect(page.locator("#title")).to_be_visible()


def test_a_refused_connection_says_why_with_the_way_back(people: People, server: WebServer) -> None:
    """A WebSocket the server refuses for its origin (here a proxy that says the page is
    https while the browser's page is http: the schemes differ) is told why and closed
    (4403), and the page shows that sentence and a link to the lobby instead of trying
    again. (Before, the scheme was not compared and the connection was let in.)"""
    table, _token = new_table(server, 2, bots={1: "easy"})
    context = people.context(extra_http_headers={"X-Forwarded-Proto": "https"})
    page = context.new_page()
    page.goto(f"/t/{table}")
    gone = page.locator("#board .gone")
    expect(gone).to_contain_text("another site", timeout=WAIT)
    expect(gone.locator("a[href='/']")).to_have_count(1)
    expect(page.locator("#conn")).to_have_text("")
    assert page.locator(".hand .card").count() == 0


def test_a_portuguese_table_speaks_portuguese(people: People, server: WebServer) -> None:
    table, token = new_table(server, 2, lang="pt-BR", name="Júlia", bots={1: "easy"})
    # a browser in a language the site does not speak reads the table in its own (an
    # English or Portuguese one reads its own: tests/web/browser/test_web_browser_languages.py)
    page = people.seated(table, token, locale="fr-FR")
    wait_for_turn(page)
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    expect(page.locator(".hand-zone .prompt")).to_contain_text(re.compile(r"Sua vez|Descarte|desistir", re.I))
    expect(page.locator(".actions button[data-kind=concede]")).to_contain_text("Desistir")
    expect(page.locator("#hand-title")).to_have_text("Sua mão")
    labels = page.locator(".hand .card .label").all_inner_texts()
    names = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    assert labels and all(PORTUGUESE_LABEL.match(label) for label in labels), labels
    assert all(PORTUGUESE_NAME.match(name) for name in names), names
    page.locator("button.card[data-usable]").first.click()
    buttons = page.locator(".actions button.act:not([data-kind=concede])").all_inner_texts()
    assert any(re.match(r"(Jogar|Tela)", text) for text in buttons), buttons


def test_a_phone_plays_a_turn(people: People, server: WebServer) -> None:
    table, token = new_table(server, 2, bots={1: "easy"}, name="Rui")
    page = people.seated(table, token, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    wait_for_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("button.card[data-usable]").first.tap()
    for target in page.locator(".hand button.card, .actions button").all():
        box = target.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (target.inner_text(), box)
    play_until([page], lambda: turn_played(page, "Rui"), press=lambda loc: loc.tap(timeout=3000))
    # the turn was played through: the bot moved next, then it is Rui's turn again, or the
    # game is over (the deal is the server's: the bot may have had to concede)
    page.wait_for_selector(".hand-zone.my-turn:not(.pending), dialog.round-end[open]", timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


KEYS = {"end": "e", "decline": "n", "draw": "d"}
"""The terminal game's keys of the card-less decisions a careful person prefers."""


def test_the_keyboard_alone_plays_a_turn(people: People, server: WebServer) -> None:
    table, token = new_table(server, 2, bots={1: "easy"}, name="Lia")
    page = people.seated(table, token)
    wait_for_turn(page)
    deadline = time.monotonic() + 120
    tries = 0
    while not turn_played(page, "Lia"):
        assert time.monotonic() < deadline, "the turn was not played with the keys"
        dialog = page.locator("dialog[open]")
        if dialog.count():
            page.keyboard.press("Enter")  # as in the terminal game: Confirm, Do it anyway, Concede
        elif my_turn(page):
            ends = [
                k
                for k in ("end", "decline", "draw")
                if page.locator(f".actions [data-kind={k}][data-safe=true]").count()
            ]
            if ends:
                page.keyboard.press(KEYS[ends[0]])
            else:
                page.keyboard.press("ArrowRight")  # the next card that can be picked
                tries += 1
                safe = page.locator(".actions button.act[data-safe=true]:not([data-kind=concede])")
                risky = page.locator(".actions button.act:not([data-kind=concede])")
                if safe.count():
                    page.keyboard.press(safe.first.locator("kbd").inner_text())
                elif tries > 8 and risky.count():
                    page.keyboard.press(risky.first.locator("kbd").inner_text())
                elif tries > 10:
                    page.keyboard.press("x")
        page.wait_for_timeout(50)
    assert page.locator(".logbox li").filter(has_text="Lia:").count() >= 1


def test_the_replay_steps_through_the_game(people: People, server: WebServer) -> None:
    table, token = new_table(server, 2, bots={1: "easy"}, name="Ivo")
    page = people.seated(table, token)
    play_until([page], lambda: page.locator(".logbox li").filter(has_text="Ivo:").count() >= 2)
    page.goto(f"/t/{table}/replay/1")
    where = page.locator("#where")
    expect(where).to_have_text(re.compile(r"^Decision 0 of \d+$"))
    total = int(where.inner_text().rsplit(" ", 1)[1])
    assert total >= 2
    expect(page.locator(".rule")).to_be_visible()
    expect(page.locator(".hand .card")).to_have_count(7)  # Ivo's own view: his hand at the deal
    page.keyboard.press("End")
    expect(where).to_have_text(f"Decision {total} of {total}")
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text(f"Decision {total - 1} of {total}")
    page.click("#first")
    expect(where).to_have_text(f"Decision 0 of {total}")
    page.click("#next")
    expect(where).to_have_text(f"Decision 1 of {total}")


def test_no_serious_accessibility_violations(people: People, server: WebServer) -> None:
    new_table(server, 3, start=False, name="Eva")  # the lobby lists a table
    lobby = people.context().new_page()
    lobby.goto("/")
    expect(lobby.locator("ul.tables li").first).to_be_visible()
    assert serious(lobby) == []

    table, token = new_table(server, 3, advanced=True, actions=True, bots={1: "easy", 2: "medium"})
    page = people.seated(table, token)
    play_to_a_fresh_turn(page, 1)
    page.locator("button.card[data-usable]").first.click()
    assert serious(page) == []
    page.locator(".actions button[data-kind=concede]").click()  # a dialog open
    expect(page.locator("dialog[open]")).to_be_visible()
    assert serious(page) == []
    page.keyboard.press("Escape")

    page.goto(f"/t/{table}/replay/1")
    expect(page.locator("#where")).to_have_text(re.compile(r"Decision 0 of"))
    assert serious(page) == []


def test_screenshots(people: People, server: WebServer) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    new_table(server, 4, advanced=True, actions=True, start=False, name="Marta", bots={1: "hard"})
    lobby = people.context().new_page()
    lobby.goto("/")
    lobby.fill("#name", "Ana")
    lobby.locator("#name").blur()
    expect(lobby.locator("ul.tables li").first).to_be_visible()
    lobby.screenshot(path=str(IMAGES / "web-lobby.png"))

    table, token = new_table(server, 3, advanced=True, actions=True, bots={1: "medium", 2: "hard"})
    page = people.seated(table, token, viewport=LAPTOP)
    play_to_a_fresh_turn(page, 3)
    cards = page.locator("button.card[data-usable]")
    cards.nth(min(1, cards.count() - 1)).click()
    page.mouse.move(0, 0)
    page.wait_for_timeout(200)
    page.screenshot(path=str(IMAGES / "web-table.png"))
    for name in ("web-lobby.png", "web-table.png"):
        assert (IMAGES / name).stat().st_size > 10_000

"""The security headers in Chromium (Debian's), against a real ``red7 serve``: every page
works under the Content-Security-Policy (its script ran, its stylesheet applies, and no
violation is reported: the ``people`` fixture fails a test on any, in every browser test),
no page of another site can frame one, and no address of the server is sent to another
site (``Referrer-Policy``: the invitation, in a fragment, never leaves the page at all).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support import web_client
from tests.support.browser_driver import People, violation
from tests.support.web_server import WebServer
from tests.web.test_web_accounts import PASSWORD

pytestmark = pytest.mark.browser

BRAND_RED = "rgb(198, 40, 40)"
"""The stylesheet's red behind the brand's 7 (red7.css): the stylesheet applies."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("red7-headers"), bot_delay=0.05) as running:
        r = httpx.post(f"{running.url}/api/account/register", json={"username": "Ana", "password": PASSWORD})
        assert r.status_code == 200, r.text
        yield running


def styled(page: Page) -> None:
    """The page's stylesheet applies (the brand's 7 on its red)."""
    expect(page.locator(".brand span")).to_have_css("background-color", BRAND_RED)


def test_every_page_works_under_the_policy(people: People, server: WebServer) -> None:
    """Each page, in a person's browser: what its script makes is there, its stylesheet
    applies, and (the fixture) no violation was reported on any."""
    page = people.context().new_page()
    page.goto("/")
    expect(page.locator("#name-label")).to_have_text("Your name")  # the page's words, fetched by its script
    styled(page)
    page.fill("#name", "Ana")
    page.check("input[name=players][value='2']")
    page.click("#create-button")  # a POST from the page (the guard refuses Origin: null)
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table = page.url.rsplit("/", 1)[1]
    expect(page.locator("button.add-bot[data-seat='1']")).to_be_visible()  # the table's WebSocket speaks
    styled(page)
    page.select_option("#level-1", "easy")
    page.click("button.add-bot[data-seat='1']")
    page.click("button.start")
    page.wait_for_selector(".hand-zone.my-turn:not(.pending)")
    page.click(".actions [data-kind=concede]")
    page.click("dialog[open] button.primary")
    expect(page.locator("dialog.round-end[open]")).to_be_visible()
    watcher = people.context().new_page()
    watcher.goto(f"/t/{table}?watch")
    expect(watcher.locator("#board .rule")).to_be_visible()
    page.goto(f"/t/{table}/replay/1")
    expect(page.locator("#where")).to_have_text(re.compile(r"^Decision 0 of \d+$"))
    styled(page)
    page.goto(f"/t/{table}/review/1")
    expect(page.locator("body[data-review=done]")).to_have_count(1, timeout=120_000)
    page.goto("/leaderboard")
    expect(page.locator("#board")).not_to_be_empty()
    page.goto("/account")
    expect(page.locator("#login-button")).to_be_visible()
    styled(page)
    page.goto("/players/Ana")
    expect(page.locator("#profile")).not_to_be_empty()
    page.goto("/admin")  # not an admin: sent to the account page
    page.wait_for_url(re.compile(r"/account$"))
    page.goto("/rules")
    expect(page.locator("article h2").first).to_be_visible()
    styled(page)


class OtherSite:
    """Another site: an HTTP server of the test on another port of 127.0.0.1 (another
    origin; a loopback one, as Chromium lets a page on loopback only frame or reach
    loopback), answering ``page`` to every GET and keeping each path's ``Referer``."""

    def __init__(self, page: str) -> None:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                site.referers[self.path] = self.headers.get("Referer")
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (its name)
                pass

        self.referers: dict[str, str | None] = {}
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> OtherSite:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_no_page_of_another_site_can_frame_one(people: People, server: WebServer) -> None:
    """Another site's page holding the lobby in a frame: Chromium refuses to show it
    (``frame-ancestors 'none'``) and says so on that page's console."""
    framing = f'<!doctype html><title>other</title><iframe src="{server.url}/"></iframe>'
    context = people.browser.new_context()  # not a person's: the other site's page reports the violation
    try:
        with OtherSite(framing) as other:
            page = context.new_page()
            with page.expect_console_message(lambda m: violation(m) and "frame-ancestors" in m.text):
                page.goto(other.url + "/")
            expect(page.frame_locator("iframe").locator("#create")).to_have_count(0)  # (the lobby shows it)
    finally:
        context.close()


def test_no_address_of_the_server_is_sent_to_another_site(people: People, server: WebServer) -> None:
    """A link followed from a table's page (opened by its invitation link, the secret in
    the fragment): the server's own pages are told where it came from, without the
    fragment; another site is told nothing."""
    with httpx.Client(base_url=server.url, timeout=60) as client:
        table, _token = web_client.new_table(client, 2)
    page = people.context().new_page()
    page.goto(f"/t/{table}#invite=not-a-real-one")
    with page.expect_request(re.compile(r"/rules$")) as rules:
        page.evaluate("location.href = '/rules'")
    assert rules.value.headers.get("referer") == f"{server.url}/t/{table}"  # never its fragment
    with OtherSite("<!doctype html><title>other</title>") as other:
        page.goto(f"/t/{table}#invite=not-a-real-one")
        page.evaluate(f"location.href = {other.url + '/away'!r}")
        page.wait_for_url(f"{other.url}/away")
        assert other.referers["/away"] is None, other.referers

"""Every answer of the server carries its security headers (red7.web.http.headers): a
Content-Security-Policy allowing the server's own files only and no framing,
``X-Frame-Options: DENY``, ``Referrer-Policy: same-origin``, ``X-Content-Type-Options:
nosniff``: pages, scripts, the API's answers and refusals (the guard's included), the
probes, a WebSocket refused with an HTTP answer, and an unhandled exception's 500. The
pages need nothing the policy refuses (no inline script or style): checked here in their
files, and in Chromium by tests/web/browser/test_web_browser_headers.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

import red7.web
from red7.web.http.headers import CONTENT_SECURITY_POLICY, SECURITY_HEADERS
from tests.support.web_client import add_bot, make_app, new_table, start

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "x-content-type-options": "nosniff",
}


def test_the_policy_allows_the_servers_own_files_and_no_framing() -> None:
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    for kind in ("script-src", "style-src", "img-src", "connect-src"):
        assert directives[kind] == "'self'", kind  # no inline, no eval, no other site
    assert {name.lower(): value for name, value in SECURITY_HEADERS} == EXPECTED


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = make_app(tmp_path_factory.mktemp("headers"))

    async def broken() -> None:
        raise RuntimeError("a route that fails")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def carries_the_headers(answer: httpx.Response, what: str) -> None:
    found = {name: answer.headers.get(name) for name in EXPECTED}
    assert found == EXPECTED, (what, answer.status_code, found)
    assert len(answer.headers.get_list("x-frame-options")) == 1  # one value: two would be ignored


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    table, token = new_table(client, 2)
    add_bot(client, table, token, 1)
    start(client, table, token)
    answers = {
        # every page
        "/": 200,
        f"/t/{table}": 200,
        f"/t/{table}?watch": 200,
        f"/t/{table}/replay/1": 200,
        f"/t/{table}/review/1": 200,
        "/leaderboard": 200,
        "/account": 200,
        "/players/ana": 200,
        "/admin": 200,  # (the page; its API answers an admin only)
        "/rules": 200,
        "/rules?lang=pt-BR": 200,
        # the scripts and the stylesheet
        "/static/red7.css": 200,
        "/static/common.js": 200,
        "/static/table.js": 200,
        "/static/account.js": 200,
        "/static/missing.js": 404,
        # the API, answers and refusals
        "/api/tables": 200,
        "/api/ui?lang=en": 200,
        "/api/protocol": 200,
        f"/api/tables/{table}/games/1/record": 409,  # not over
        f"/api/tables/{table}/games/1/replay?token={token}": 400,
        "/api/tables?limit=1000": 422,
        "/api/account": 200,
        "/api/account/games": 401,
        "/nothing/here": 404,
        # the probes
        "/healthz": 200,
        "/readyz": 200,
        "/metrics": 200,
        # an unhandled exception
        "/broken": 500,
    }
    for path, status in answers.items():
        answer = client.get(path)
        assert answer.status_code == status, (path, answer.status_code, answer.text[:200])
        carries_the_headers(answer, path)
    for answer in (
        client.post("/api/tables", json={"players": 2, "name": "Bia"}),  # 200
        client.post("/api/tables", json={"players": 9}),  # 400
        client.post("/api/tables", content=b"{}", headers={"Content-Type": "text/plain"}),  # the guard: 415
        client.post("/api/tables", json={}, headers={"Origin": "http://evil.example"}),  # the guard: 403
        client.get("/", headers={"Host": "evil.example"}),  # the guard: 400
        client.put("/api/tables", json={}),  # 405
        client.head("/"),
    ):
        assert answer.status_code in (200, 400, 403, 405, 415), answer.status_code
        carries_the_headers(answer, f"{answer.request.method} {answer.request.url}")


def test_a_websocket_refused_with_an_http_answer_carries_them(client: TestClient) -> None:
    with pytest.raises(WebSocketDenialResponse) as denied:  # another host name: the guard refuses it
        with client.websocket_connect("/ws/anything", headers={"Host": "evil.example"}):
            pass
    assert denied.value.status_code == 400
    carries_the_headers(denied.value, "a WebSocket's HTTP refusal")


# --- the pages need nothing the policy refuses ------------------------------------------------


class _Inline(HTMLParser):
    """What a page holds that a policy of ``'self'`` files refuses."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and not names.get("src"):
            self.found.append("an inline <script>")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("src", "href", "action") and value and re.match(r"(?i)\s*(javascript|https?):", value):
                self.found.append(f"{tag} {name}={value}")
            if tag == "link" and name == "href" and value and value.startswith("data:"):
                self.found.append(f"{tag} {name}={value}")  # an image the policy refuses (the icon)


def test_no_page_has_an_inline_script_or_style(client: TestClient) -> None:
    web = Path(red7.web.__file__).parent
    every = {str(path.relative_to(web)): path.read_text(encoding="utf-8") for path in web.glob("**/static/*.html")}
    for lang in ("en", "pt-BR"):  # the one page made by the server
        every[f"/rules?lang={lang}"] = client.get(f"/rules?lang={lang}").text
    assert len(every) == 10, sorted(every)
    for name, html in every.items():
        parser = _Inline()
        parser.feed(html)
        assert parser.found == [], (name, parser.found)
    scripts = Path(red7.web.__file__).parent.glob("**/static/*.js")
    for script in scripts:  # the scripts make elements and set their text: no markup, no style attribute
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function", text), (
            script.name
        )
        assert not re.search(r"""setAttribute\(\s*["']style|["']style["']\s*:""", text), script.name

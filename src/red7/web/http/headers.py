"""The headers every answer carries: the pages' Content-Security-Policy and its
neighbours (:class:`SecurityHeaders`).

The pages are plain HTML, CSS and ES modules served by the server itself, with no inline
script or style and no element built from markup (the scripts make elements and set
their text), so the policy allows the server's own files and nothing else: no other
site's script, style, image or connection, no plugin, no ``<base>``, and no page of
another site may frame one (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for
browsers that predate it). ``Referrer-Policy: same-origin``: an address of this server
is never told to another site (the invitation travels in a fragment, which no browser
sends, but a table's address is still its own business); ``no-referrer`` would be
stricter and break the pages, as a browser then sends ``Origin: null`` with a page's own
POST, which :class:`~red7.web.http.guard.Guard` refuses as another site's.
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",  # what no directive below names: fonts, media, frames, workers, plugins
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",  # fetch and the game's WebSocket (ws:, wss: of the page's own host)
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The pages' Content-Security-Policy."""

SECURITY_HEADERS: Final = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("X-Content-Type-Options", "nosniff"),
)
"""The headers every answer carries (a route's own value of one, if any, is kept)."""

_STARTS: Final = frozenset({"http.response.start", "websocket.http.response.start"})
"""The messages that start an answer: an HTTP response's, a WebSocket refused with one."""


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every answer of the app it wraps,
    refusals included (add it last: the outermost middleware). Starlette's answer to an
    unhandled exception comes from outside every middleware: the app's handler of
    ``Exception`` gives it the same headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in _STARTS:
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, with_headers)

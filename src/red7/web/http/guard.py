"""The checks every request passes before the application sees it (:class:`Guard`)."""

from __future__ import annotations

from typing import Final

from fastapi import WebSocket
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ...ui.i18n import _, using
from .metrics import Metrics
from .origins import Hosts, Origin, same_origin
from .refusals import asked_language, refusal_response

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
OPERATIONS: Final = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths that answer whatever the ``Host`` (probes and scrapers name the server by its
address): they change nothing and show no table."""


class Guard:
    """What every request must be before the application sees it (ASGI middleware):
    under one of the server's host names (:class:`~red7.web.http.origins.Hosts`; DNS
    rebinding), and, when it changes something (POST...), JSON from one of the
    server's own pages (:func:`~red7.web.http.origins.same_origin`; cross-site requests).
    WebSockets are checked for their host here, for their origin by the game (which
    tells a page why it was refused)."""

    def __init__(self, app: ASGIApp, hosts: Hosts, origins: tuple[Origin, ...], metrics: Metrics) -> None:
        self.app, self.hosts, self.origins, self.metrics = app, hosts, origins, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host")
        refusal: tuple[str, str, int] | None = None
        with using(asked_language(headers.get("accept-language"))):
            if scope["path"] not in OPERATIONS and not self.hosts.allows(host):
                message = _(
                    "This server does not answer to the name {host}: its operator may add it with --allowed-host."
                )
                refusal = ("bad-host", message.format(host=(host or "")[:100]), 400)
            elif scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
                if not same_origin(headers.get("origin"), scope["scheme"], host, self.origins):
                    message = _("This request comes from a page of another site: it is refused.")
                    refusal = ("cross-origin", message, 403)
                elif headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                    message = _("Send the request as JSON (Content-Type: application/json).")
                    refusal = ("not-json", message, 415)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        code, message, status = refusal
        self.metrics.refused.labels(reason=code).inc()
        response = refusal_response(code, message, status)
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await WebSocket(scope, receive, send).send_denial_response(response)
        else:
            await WebSocket(scope, receive, send).close(code=4403, reason=code)

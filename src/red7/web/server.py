"""The web application: ``red7 serve`` (FastAPI, served by uvicorn).

Pages (plain HTML, CSS and ES modules from ``red7/web/static``; no build step):
``/`` the lobby, ``/t/{id}`` a table (``?watch`` for spectators), ``/t/{id}/replay/{n}``
the replay of a game.

The lobby is REST (JSON in and out; errors are ``{"code", "message"}`` with a 4xx status,
the message a sentence in the table's language or the one the browser asks for):

* ``GET /api/ui?lang=pt-BR``: the words of the pages' own controls, translated;
* ``GET /api/tables?offset=0&limit=50``: a page of the open tables and those being
  played (:mod:`red7.web.lobby`): ``{"tables", "total", "offset", "limit"}``;
* ``POST /api/tables`` ``{"players", "advanced", "actions", "lang", "name"}``: a new
  table, its creator in seat 0: ``{"id", "seat": 0, "token"}``;
* ``POST /api/tables/{id}/seats/{seat}`` ``{"name"}``: take a free seat: ``{"seat", "token"}``;
* ``POST /api/tables/{id}/bots`` ``{"token", "seat", "level"}``: a bot in a free seat;
* ``POST /api/tables/{id}/start`` ``{"token"}``: start once every seat is taken;
* ``GET /api/tables/{id}/games/{n}/record``: the record of a finished game (the
  engine's JSON format, which ``red7 replay`` reads);
* ``GET /api/tables/{id}/games/{n}/replay`` (``Authorization: Bearer <token>``): a game
  step by step, as the token's seat saw it (no token: the spectator's view).

The game is one WebSocket per client, ``/ws/{id}``. Its first message is the client's
``{"type": "hello", "token": "...", "lang": "pt-BR"}`` (``token`` null or absent: a
spectator; ``lang``: the language of a refusal before the table's is known). The server
then sends a ``table`` frame (:func:`red7.web.views.table_frame`) and another after every
change, and an ``error`` frame for anything refused. The client sends
``{"type": "decide", "seq": n, "action": "play R7"}``, ``{"type": "take_back", "seq": n}``
and ``{"type": "again"}``; ``seq`` is the frame's ``seq`` the decision was made against. A
connection refused is accepted, told why (an ``error`` frame) and closed with a code a
page can read: 4400 (no hello, or a token in the address), 4403 (another site's page, a
token this table does not know), 4404 (no such table), 4408 (no hello in time), 4429
(too many connections from one address: the frame's ``retry_after`` says when to try
again).

Seat tokens never travel in an address (``?token=`` is refused: addresses reach access
and error logs, a proxy's included), and never reach a log.

Operations: ``GET /healthz`` (the process answers; ``"degraded"`` while the bus to the
other processes is down), ``GET /readyz`` (it can serve: the database answers; 503 and
the reasons if not. Without the bus a process still serves, finding changes by reading
the database) and ``GET /metrics`` (Prometheus' text format: :mod:`red7.web.metrics`).
These three answer whatever the ``Host``. No OpenAPI schema is served: the protocol is
this docstring's (its bodies are read by hand, and the WebSocket is not in OpenAPI).

Limits. A request is for this server only under one of the host names it answers to
(:class:`~red7.web.origins.Hosts`: 400 otherwise); one that changes something must be
JSON and come from the server's own pages (:func:`~red7.web.origins.same_origin`: 415,
403), as must a WebSocket (4403). Each client may create so many tables and hold so many
WebSockets (:mod:`red7.web.limits`: 429 with ``Retry-After``); open tables nobody uses
expire. A message over :data:`MAX_MESSAGE` bytes is refused (``too-large``), as are more
than :data:`RATE` messages a second over a burst of :data:`BURST`; one over
:data:`MAX_FRAME` bytes is not read at all: the socket is closed (1009, "message too
big"). Every number in an address is bounded (:data:`MAX_NUMBER`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import multiprocessing
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathNumber
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.seeds import fresh_seed
from ..ui.i18n import LANGUAGES, _, parse_language, using
from . import views
from .bus import make_bus
from .limits import Bucket, ClientLimits, Limits, client_key
from .lobby import MAX_PAGE, PAGE, Lobby
from .metrics import Metrics
from .origins import Hosts, Origin, parse_origin, same_origin
from .service import LOOK, Client, Refused, Tables, end_with_parent
from .store import Store
from .views import encode, error_frame, replay_frames, table_frame

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Bytes a client message may have (a decision is about 60)."""
MAX_FRAME = 1 << 20
"""Bytes a WebSocket message may have before the server stops reading it and closes the
socket (1009); between :data:`MAX_MESSAGE` and this, it is read and refused (``too-large``)."""
MAX_NUMBER = 2**31 - 1
"""The largest number an address may hold (a game's number: the database's integers)."""
GameNumber = Annotated[int, PathNumber(ge=0, le=MAX_NUMBER)]
"""A game's number in an address: bounded (past the database's integers, a 422)."""
SOCKET_RETRY = 10.0
"""Seconds a client with too many WebSockets is told to wait."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OPERATIONS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths that answer whatever the ``Host`` (probes and scrapers name the server by its
address): they change nothing and show no table."""
RATE, BURST = 20.0, 60
"""Messages a second a connection may send on average, and at once (a person clicks a
few a second at most; a flood is refused message by message)."""

log = logging.getLogger("red7.web")


@dataclass
class Settings:
    """How a server runs: its database (None: the SQLite file in the user's data
    directory), bot workers (0: threads in this process), the least seconds a bot's
    move takes, the seconds a person may be away on their turn before a bot plays for
    them, the origins whose pages may use it besides the server's own (e.g.
    ``https://red7.example.org``), and the Redis that several processes sharing the
    database talk through (None: PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database,
    else this process alone)."""

    database_url: str | None = None
    workers: int = 2
    bot_delay: float = 0.8
    patience: float = 60.0
    allowed_origins: tuple[str, ...] = ()
    redis_url: str | None = None
    clock: Callable[[], float] = time.monotonic
    """What the rate limits read the time from (tests give one they move themselves)."""
    allowed_hosts: tuple[str, ...] = ()
    """The host names the server answers to besides ``localhost`` and ``listening``
    (:class:`~red7.web.origins.Hosts`)."""
    listening: str | None = "127.0.0.1"
    """The address the server listens on (``0.0.0.0``: every IP address is a host it answers to)."""
    limits: Limits = Limits()
    """What each client may take of the server, and when open tables expire."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to send its hello before it is closed."""
    seeds: Callable[[], int] = fresh_seed
    """Where each new game's seed comes from (tests give a stream of their own)."""


GC_THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds in a server (Python's defaults: 700, 10, 10)."""


def tune_gc() -> None:
    """Set the garbage collector up for a server process (``red7 serve`` calls this once
    its modules are imported).

    With Python's defaults a server under load (250 games of four people, a decision
    a second each) ran a full collection about every ten seconds, each one stopping
    every table for 150-280 ms: the p99 of a decision's round trip was 280-350 ms for a
    p50 of 13 ms. So what exists now (modules, the framework) is frozen, never to be
    scanned again (``gc.freeze``), and the youngest generation is collected after
    10,000 allocations instead of 700, which makes every collection, full ones
    included, fourteen times rarer (one full collection in a 100 s run instead of
    nine). Memory is still reclaimed: by reference counts at once, and cycles at the
    rarer collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def asked_language(accept: str | None, *choices: Any) -> str:
    """The language to refuse a request in: the first of ``choices`` that names a
    language this server speaks (a page's own choice), else the first of the browser's
    ``Accept-Language`` header, else English."""
    tags = [c for c in choices if isinstance(c, str)]
    tags += [part.split(";")[0].strip() for part in (accept or "").split(",")[:8]]
    for tag in tags:
        if tag and tag != "*":
            with contextlib.suppress(ValueError):
                return parse_language(tag)
    return "en"


def _refusal(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


class Limited(Refused):
    """A refusal of a client that has had its share (429): ``retry_after`` seconds until it may try again."""

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after


class Guard:
    """What every request must be before the application sees it (ASGI middleware):
    under one of the server's host names (:class:`~red7.web.origins.Hosts`; DNS
    rebinding), and, when it changes something (POST...), JSON from one of the
    server's own pages (:func:`~red7.web.origins.same_origin`; cross-site requests).
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
        response = _refusal(code, message, status)
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await WebSocket(scope, receive, send).send_denial_response(response)
        else:
            await WebSocket(scope, receive, send).close(code=4403, reason=code)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are loaded from the database when it starts."""
    settings = settings or Settings()
    state: dict[str, Any] = {}
    origins = tuple(o for o in map(parse_origin, settings.allowed_origins) if o is not None)
    hosts = Hosts.of(settings.allowed_hosts, settings.listening)
    client_limits = ClientLimits(settings.limits, settings.clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        store.upgrade()
        await store.open()
        bus = make_bus(settings.redis_url, store.url, store.dialect)
        # spawned, not forked: a forked worker would inherit the listening socket and,
        # orphaned when the server is killed, keep the port so the server cannot restart
        spawn = multiprocessing.get_context("spawn")
        pool: Executor | None = None
        if settings.workers > 0:
            pool = ProcessPoolExecutor(settings.workers, spawn, initializer=end_with_parent)
        tables = Tables(
            store,
            pool,
            settings.bot_delay,
            settings.patience,
            bus=bus,
            metrics=metrics,
            expire_open=settings.limits.expire_open,
            seeds=settings.seeds,
        )
        tables.load()
        metrics.count_tables(lambda: len(tables.listed()))
        metrics.watch_bus(bus.kind, lambda: bus.ready)
        await tables.start_background()
        state["tables"] = tables
        state["lobby"] = Lobby(tables.listed)
        log.info(
            "red7 serve: %d tables loaded",
            len(tables.live),
            extra={"server": bus.process, "database": store.dialect, "bus": bus.kind},
        )
        try:
            yield
        finally:
            await tables.stop()
            if pool is not None:
                pool.shutdown(cancel_futures=True)
            await store.aclose()
            store.close()

    metrics = Metrics()
    app = FastAPI(title="Red7", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(Guard, hosts=hosts, origins=origins, metrics=metrics)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def tables() -> Tables:
        return state["tables"]  # type: ignore[no-any-return]

    @app.exception_handler(Refused)
    async def refused(_request: Request, err: Refused) -> JSONResponse:
        headers = {"Retry-After": str(int(err.retry_after))} if isinstance(err, Limited) else None
        return _refusal(err.code, err.message, err.status, headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        # a path or query parameter of the wrong type or out of bounds (a seat that is not
        # a number, a game number past any game...): the details are FastAPI's, in
        # English; the sentence around them is translated
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in err.errors())
        with using(asked_language(request.headers.get("accept-language"))):
            message = _("A part of the address is not valid ({problems}).").format(problems=problems[:500])
        return _refusal("bad-request", message, 422)

    @app.exception_handler(HTTPException)
    async def not_here(request: Request, err: HTTPException) -> JSONResponse:
        with using(asked_language(request.headers.get("accept-language"))):
            if err.status_code == 405:
                message = _("This address does not take {method} requests.").format(method=request.method[:16])
                return _refusal("bad-method", message, 405)
            if err.status_code == 404:
                return _refusal("not-found", _("There is nothing at this address."), 404)
        return _refusal("bad-request", str(err.detail), err.status_code)

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise Refused("too-large", _("The request is too large."), 413)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise Refused("bad-json", _("The request is not JSON.")) from None
        if not isinstance(data, dict):
            raise Refused("bad-json", _("The request must be a JSON object."))
        return data

    # --- pages --------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/t/{table_id}/replay/{number}", include_in_schema=False)
    async def replay_page(table_id: str, number: GameNumber) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, Any]:
        if "tables" not in state:
            return {"status": "ok"}
        bus = tables().bus
        answer: dict[str, Any] = {"status": "ok", "bus": {"kind": bus.kind, "connected": bus.ready}}
        if not bus.ready:
            answer["status"] = "degraded"
            answer["problems"] = [f"bus ({bus.kind}): not connected; the database is read every {LOOK:g} s"]
        return answer

    @app.get("/readyz", include_in_schema=False)
    async def ready() -> JSONResponse:
        problems, degraded = [], []
        if "tables" not in state:
            problems.append("starting")
        else:
            try:
                await asyncio.to_thread(tables().store.ping)
            except Exception as err:
                problems.append(f"database: {type(err).__name__}")
            if not tables().bus.ready:
                # the database is the truth: a process without its bus still serves every
                # table, finding the others' changes at its looks at the database
                degraded.append(f"bus ({tables().bus.kind}): not connected")
        if problems:
            return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
        answer: dict[str, Any] = {"status": "ready", "process": tables().bus.process}
        if degraded:
            answer["degraded"] = degraded
        return JSONResponse(answer)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        return Response(metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")

    # --- the lobby ------------------------------------------------------------------

    @app.get("/api/ui")
    async def ui_words(lang: str = "en") -> dict[str, Any]:
        try:
            with using(lang) as tag:
                return {"lang": tag, "languages": LANGUAGES, "ui": views.ui_words()}
        except ValueError as err:
            raise Refused("bad-language", str(err)) from None

    @app.get("/api/tables")
    async def list_tables(
        offset: Annotated[int, Query(ge=0, le=MAX_NUMBER)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
    ) -> dict[str, Any]:
        lobby: Lobby = state["lobby"]
        return lobby.page(offset, limit)

    def still_open(table_id: str) -> bool:
        live = tables().live.get(table_id)
        return live is not None and live.status == "open"

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        data = await body(request)
        who = client_key(request.client.host if request.client else None)
        refusal = client_limits.table_refusal(who, still_open)
        if refusal is not None:
            reason, wait = refusal
            metrics.refused.labels(reason="open-tables" if reason == "open" else "tables").inc()
            with using(asked_language(request.headers.get("accept-language"), data.get("lang"))):
                if reason == "open":
                    message = _(
                        "You have {n} tables whose game has not started: start one, or let one expire, "
                        "before you create another."
                    ).format(n=settings.limits.open_tables)
                else:
                    message = _("You have created many tables in a short time: wait {seconds} s.").format(
                        seconds=int(wait)
                    )
            raise Limited("too-many-tables", message, wait)
        try:
            live, token = await tables().create(
                data.get("players", 2),
                data.get("advanced", False),
                data.get("actions", False),
                data.get("lang", "en"),
                data.get("name", ""),
            )
        except Refused:
            client_limits.uncount(who)
            raise
        client_limits.created(who, live.id)
        return {"id": live.id, "seat": 0, "token": token}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        data = await body(request)
        token = await tables().join(table_id, seat, data.get("name", ""))
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(table_id: str, request: Request) -> dict[str, Any]:
        data = await body(request)
        await tables().add_bot(table_id, data.get("token"), data.get("seat"), data.get("level"))
        return {"ok": True}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        data = await body(request)
        await tables().start(table_id, data.get("token"))
        return {"ok": True}

    @app.get("/api/tables/{table_id}/games/{number}/record")
    async def record(table_id: str, number: GameNumber) -> dict[str, Any]:
        return await tables().record(table_id, number)

    @app.get("/api/tables/{table_id}/games/{number}/replay")
    async def replay(table_id: str, number: GameNumber, request: Request) -> dict[str, Any]:
        live = await tables().find(table_id)
        with using(live.lang):
            if "token" in request.query_params:
                raise Refused("token-in-url", token_in_url())
            token = bearer(request.headers.get("authorization"))
            seat = await tables().seat_of(live, token)
            if token and seat is None:
                raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
        return {"frames": replay_frames(await tables().played(table_id, number), number, seat)}

    def bearer(header: str | None) -> str | None:
        """The token of an ``Authorization: Bearer <token>`` header."""
        scheme, _space, token = (header or "").strip().partition(" ")
        if not header:
            return None
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused("bad-token", _("Send the seat token as Authorization: Bearer <token>."), 401)
        return token.strip()

    def token_in_url() -> str:
        return _("A seat token never goes in an address (addresses reach logs): send it in the request instead.")

    # --- the game -------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        # accepted before anything is checked: a refusal before accept() would reach the
        # page as an HTTP 403 (uvicorn), which a browser's WebSocket does not show; after
        # it, the page reads why (an error frame) and the close code
        await websocket.accept()
        lang = asked_language(websocket.headers.get("accept-language"))

        async def refuse(code: str, message: str, close: int, **extra: Any) -> None:
            with contextlib.suppress(Exception):  # the client may be gone already
                await websocket.send_text(encode({**error_frame(code, message), **extra}))
                await websocket.close(code=close, reason=code)

        with using(lang):
            if "token" in websocket.query_params:
                await refuse("token-in-url", token_in_url(), 4400)
                return
            origin = websocket.headers.get("origin")
            if not same_origin(origin, websocket.url.scheme, websocket.headers.get("host"), origins):
                metrics.refused.labels(reason="origin").inc()
                message = _(
                    "This page comes from another site ({origin}): the game talks to its own pages only."
                ).format(origin=(origin or "")[:100])
                await refuse("cross-origin", message, 4403)
                return
        who = client_key(websocket.client.host if websocket.client else None)
        if not client_limits.open_socket(who):
            metrics.refused.labels(reason="sockets").inc()
            with using(lang):
                message = _("Too many connections from your address: close some tabs, or wait {seconds} s.")
                await refuse("too-many", message.format(seconds=int(SOCKET_RETRY)), 4429, retry_after=SOCKET_RETRY)
            return
        try:
            await greeted(websocket, table_id, lang, refuse)
        finally:
            client_limits.close_socket(who)

    async def greeted(websocket: WebSocket, table_id: str, lang: str, refuse: Any) -> None:
        """The connection from its hello on: the table, the seat, then the game."""
        try:
            received = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
        except TimeoutError:
            with using(lang):
                await refuse("no-hello", _("The connection did not say hello in time."), 4408)
            return
        if received["type"] == "websocket.disconnect":
            return
        hello = read_hello(received.get("text"))
        if hello is None:
            with using(lang):
                message = _('A connection starts with its hello: {"type": "hello", "token": ...}.')
                await refuse("bad-hello", message, 4400)
            return
        lang = asked_language(None, hello.get("lang"), lang)
        try:
            with using(lang):
                live = await tables().find(table_id)
        except Refused as err:
            await refuse(err.code, err.message, 4404)
            return
        token = hello.get("token")
        seat = await tables().seat_of(live, token)
        if token and seat is None:
            with using(live.lang):
                await refuse("bad-token", _("This seat token does not open a seat at this table."), 4403)
            return
        await game(websocket, live, seat)

    def read_hello(text: str | None) -> dict[str, Any] | None:
        """A hello message, if ``text`` is one."""
        if text is None or len(text) > MAX_MESSAGE:
            return None
        try:
            hello = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            return None
        if not isinstance(hello.get("token"), str | None) or not isinstance(hello.get("lang"), str | None):
            return None
        return hello

    async def game(websocket: WebSocket, live: Any, seat: int | None) -> None:
        async def send(text: str) -> None:
            await websocket.send_text(text)

        async def refuse(code: str, message: str) -> None:
            await send(encode(error_frame(code, message)))

        client = Client(live.id, seat, send)
        await tables().connect(client)
        messages = Bucket.full(RATE, BURST, settings.clock())
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                message = received.get("text")
                with using(live.lang):
                    if messages.take(settings.clock()):
                        await refuse("too-fast", _("Too many messages: slow down."))
                        continue
                    if message is None:  # a binary message: the protocol is JSON text
                        await refuse("bad-json", _("The message is not JSON."))
                        continue
                    if len(message.encode()) > MAX_MESSAGE:
                        await refuse("too-large", _("The message is too large."))
                        continue
                    try:
                        with metrics.round_trip.time():
                            await handle(live, seat, message)
                    except Refused as err:
                        await refuse(err.code, err.message)
        except WebSocketDisconnect:
            pass
        finally:
            await tables().disconnect(client)

    async def handle(live: Any, seat: int | None, message: str) -> None:
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            raise Refused("bad-json", _("The message is not JSON.")) from None
        if not isinstance(data, dict):
            raise Refused("bad-json", _("The message must be a JSON object."))
        kind = data.get("type")
        if seat is None and kind in ("decide", "take_back", "again"):
            raise Refused("spectator", _("Spectators cannot play: take a seat to play."), 403)
        if kind == "decide":
            await tables().decide(live.id, seat, data.get("seq"), data.get("action"))  # type: ignore[arg-type]
        elif kind == "take_back":
            await tables().take_back(live.id, seat, data.get("seq"))  # type: ignore[arg-type]
        elif kind == "again":
            await tables().again(live.id, seat)  # type: ignore[arg-type]
        else:
            raise Refused("bad-type", _("Unknown message type: use decide, take_back or again."))

    app.state.tables = tables
    app.state.frame = table_frame
    app.state.metrics = metrics
    return app

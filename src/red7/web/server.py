"""The web application: ``red7 serve`` (FastAPI, served by uvicorn).

Pages (plain HTML, CSS and ES modules from ``red7/web/static``; no build step):
``/`` the lobby, ``/t/{id}`` a table (``?watch`` for spectators), ``/t/{id}/replay/{n}``
the replay of a game.

The lobby is REST (JSON in and out; errors are ``{"code", "message"}`` with a 4xx status):

* ``GET /api/ui?lang=pt-BR``: the words of the pages' own controls, translated;
* ``GET /api/tables``: the open tables and those being played;
* ``POST /api/tables`` ``{"players", "advanced", "actions", "lang", "name"}``: a new
  table, its creator in seat 0: ``{"id", "seat": 0, "token"}``;
* ``POST /api/tables/{id}/seats/{seat}`` ``{"name"}``: take a free seat: ``{"seat", "token"}``;
* ``POST /api/tables/{id}/bots`` ``{"token", "seat", "level"}``: a bot in a free seat;
* ``POST /api/tables/{id}/start`` ``{"token"}``: start once every seat is taken;
* ``GET /api/tables/{id}/games/{n}/record``: the record of a finished game (the
  engine's JSON format, which ``red7 replay`` reads);
* ``GET /api/tables/{id}/games/{n}/replay?token=``: a game step by step, as the token's
  seat saw it (no token: the spectator's view).

The game is one WebSocket per client, ``/ws/{id}?token=`` (no token: a spectator). The
server sends a ``table`` frame (:func:`red7.web.views.table_frame`) on connecting and
after every change, and an ``error`` frame for anything refused. The client sends
``{"type": "decide", "seq": n, "action": "play R7"}``, ``{"type": "take_back", "seq": n}``
and ``{"type": "again"}``; ``seq`` is the frame's ``seq`` the decision was made against.

Operations: ``GET /healthz`` (the process answers), ``GET /readyz`` (it can serve: the
database answers and the bus to the other processes is connected; 503 and the reasons
if not) and ``GET /metrics`` (Prometheus' text format: :mod:`red7.web.metrics`).

Limits: a WebSocket whose ``Origin`` is another site is closed (code 4403); a message
over :data:`MAX_MESSAGE` bytes is refused, as are more than :data:`RATE` messages a
second over a burst of :data:`BURST`; tokens never appear in the logs (the access
log is off; the app logs table ids only).
"""

from __future__ import annotations

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
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..ui.i18n import LANGUAGES, _, using
from . import views
from .bus import make_bus
from .metrics import Metrics
from .service import Client, Refused, Tables, end_with_parent
from .store import Store
from .views import encode, error_frame, lobby_json, replay_frames, table_frame

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Bytes a client message may have (a decision is about 60)."""
RATE, BURST = 20.0, 60
"""Messages a second a connection may send on average, and at once (a person clicks a
few a second at most; a flood is refused message by message)."""

log = logging.getLogger("red7.web")


@dataclass
class Settings:
    """How a server runs: its database (None: the SQLite file in the user's data
    directory), bot workers (0: threads in this process), the least seconds a bot's
    move takes, the seconds a person may be away on their turn before a bot plays for
    them, the origins allowed to open WebSockets besides the server's own, and the
    Redis that several processes sharing the database talk through (None: PostgreSQL's
    LISTEN/NOTIFY on a PostgreSQL database, else this process alone)."""

    database_url: str | None = None
    workers: int = 2
    bot_delay: float = 0.8
    patience: float = 60.0
    allowed_origins: tuple[str, ...] = ()
    redis_url: str | None = None
    clock: Callable[[], float] = time.monotonic
    """What the rate limits read the time from (tests give one they move themselves)."""


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


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are loaded from the database when it starts."""
    settings = settings or Settings()
    state: dict[str, Any] = {}

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
        tables = Tables(store, pool, settings.bot_delay, settings.patience, bus=bus, metrics=metrics)
        tables.load()
        metrics.count_tables(lambda: len(tables.listed()))
        await tables.start_background()
        state["tables"] = tables
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
    app = FastAPI(title="Red7", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def tables() -> Tables:
        return state["tables"]  # type: ignore[no-any-return]

    @app.exception_handler(Refused)
    async def refused(_request: Request, err: Refused) -> JSONResponse:
        return JSONResponse({"code": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, err: RequestValidationError) -> JSONResponse:
        # a path or query parameter of the wrong type (a seat that is not a number...)
        # (the details are FastAPI's, in English; the sentence around them is translated)
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in err.errors())
        message = _("A part of the address is not valid ({problems}).").format(problems=problems)
        return JSONResponse({"code": "bad-request", "message": message}, status_code=422)

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise Refused("too-large", _("The request is too large."), 413)
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
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
    async def replay_page(table_id: str, number: int) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def ready() -> JSONResponse:
        problems = []
        if "tables" not in state:
            problems.append("starting")
        else:
            try:
                tables().store.ping()
            except Exception as err:
                problems.append(f"database: {type(err).__name__}")
            if not tables().bus.ready:
                problems.append(f"bus ({tables().bus.kind}): not connected")
        if problems:
            return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready", "process": tables().bus.process})

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
    async def list_tables() -> dict[str, Any]:
        return {"tables": lobby_json(tables().listed())}

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        data = await body(request)
        live, token = await tables().create(
            data.get("players", 2),
            data.get("advanced", False),
            data.get("actions", False),
            data.get("lang", "en"),
            data.get("name", ""),
        )
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
    async def record(table_id: str, number: int) -> dict[str, Any]:
        return tables().record(table_id, number)

    @app.get("/api/tables/{table_id}/games/{number}/replay")
    async def replay(table_id: str, number: int, token: str | None = None) -> dict[str, Any]:
        live = tables().get(table_id)
        seat = await tables().seat_of(live, token)
        if token and seat is None:
            with using(live.lang):
                raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
        return {"frames": replay_frames(tables().played(table_id, number), number, seat)}

    # --- the game -------------------------------------------------------------------

    def same_origin(websocket: WebSocket) -> bool:
        origin = websocket.headers.get("origin")
        if origin is None:  # not a browser (a program, the load generator): no page can forge it
            return True
        if origin in settings.allowed_origins:
            return True
        return urlsplit(origin).netloc == websocket.headers.get("host")

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        if not same_origin(websocket):
            await websocket.close(code=4403, reason="cross-origin")
            return
        try:
            live = tables().get(table_id)
        except Refused:
            await websocket.close(code=4404, reason="no such table")
            return
        seat = await tables().seat_of(live, token)
        await websocket.accept()
        if token and seat is None:
            with using(live.lang):
                await websocket.send_json(
                    error_frame("bad-token", _("This seat token does not open a seat at this table."))
                )
            await websocket.close(code=4403)
            return

        async def send(text: str) -> None:
            await websocket.send_text(text)

        async def refuse(code: str, message: str) -> None:
            await send(encode(error_frame(code, message)))

        client = Client(table_id, seat, send)
        await tables().connect(client)
        allowance, last = float(BURST), settings.clock()
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                message = received.get("text")
                now = settings.clock()
                allowance = min(float(BURST), allowance + (now - last) * RATE)
                last = now
                with using(live.lang):
                    if allowance < 1:
                        await refuse("too-fast", _("Too many messages: slow down."))
                        continue
                    allowance -= 1
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
        except ValueError:
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

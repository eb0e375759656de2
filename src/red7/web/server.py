"""The web application: ``red7 serve`` (FastAPI, served by uvicorn).

:func:`create_app` puts it together: its settings (:class:`~red7.web.settings.Settings`),
the checks every request passes first (:class:`~red7.web.guard.Guard`), the answers to
what is refused (``{"code", "message"}`` with a 4xx status, the message a sentence in the
table's language or the one the browser asks for: :mod:`red7.web.refusals`), and the
routes, one router by concern (:mod:`red7.web.routes`): the pages, the lobby's tables
API, the game's WebSocket, the records and replays of games, the protocol's schema and
the operations' probes. What goes over the wire, every request and every frame, is
declared in :mod:`red7.web.protocol` and explained in docs/protocol.md.

Limits. A request is for this server only under one of the host names it answers to
(:class:`~red7.web.origins.Hosts`: 400 otherwise); one that changes something must be
JSON and come from the server's own pages (:func:`~red7.web.origins.same_origin`: 415,
403), as must a WebSocket (4403). Each client may create so many tables and hold so many
WebSockets (:mod:`red7.web.limits`: 429 with ``Retry-After``); open tables nobody uses
expire. A message over :data:`~red7.web.protocol.MAX_MESSAGE` bytes is refused
(``too-large``), and so is a flood (:mod:`red7.web.routes.socket`). Every number in an
address or a body is bounded (:data:`~red7.web.protocol.MAX_NUMBER`). No OpenAPI
description is served (``/openapi.json``, ``/docs`` and ``/redoc`` are 404): the
protocol's own schema, ``GET /api/protocol``, is the published one.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor

from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from ..ui.i18n import _, using
from .accounts import Accounts
from .bus import make_bus
from .guard import Guard
from .limits import ClientLimits
from .lobby import Lobby
from .login_limits import LoginLimits
from .metrics import Metrics
from .origins import Hosts, parse_origin
from .refusals import Refused, asked_language, refusal_response, response_of
from .reviews import StoredReviews
from .routes import accounts, admin, health, lobby, pages, ratings, records, rules, schema, socket, turns
from .routes.context import Context
from .routes.pages import STATIC
from .service import Tables, end_with_parent
from .settings import Settings as Settings
from .store import Store
from .views import table_frame

log = logging.getLogger("red7.web")

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


async def _refused(_request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, Refused)
    return response_of(err)


async def _malformed(request: Request, err: Exception) -> JSONResponse:
    # a path or query parameter of the wrong type or out of bounds (a seat that is not
    # a number, a game number past any game...): named, in a sentence in the browser's
    # language (FastAPI's own details are English: they are not passed on)
    assert isinstance(err, RequestValidationError)
    names = sorted({str(e["loc"][-1]) for e in err.errors() if e.get("loc")})
    with using(asked_language(request.headers.get("accept-language"))):
        message = _("A part of the address is not valid: {names}.").format(names=", ".join(names)[:200])
    return refusal_response("bad-request", message, 422)


async def _not_here(request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, HTTPException)
    with using(asked_language(request.headers.get("accept-language"))):
        if err.status_code == 405:
            message = _("This address does not take {method} requests.").format(method=request.method[:16])
            return refusal_response("bad-method", message, 405)
        if err.status_code == 404:
            return refusal_response("not-found", _("There is nothing at this address."), 404)
    return refusal_response("bad-request", str(err.detail), err.status_code)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are loaded from the database when it starts."""
    settings = settings or Settings()
    metrics = Metrics()
    origins = tuple(o for o in map(parse_origin, settings.allowed_origins) if o is not None)
    context = Context(settings, metrics, origins, ClientLimits(settings.limits, settings.clock))
    context.login_limits = LoginLimits(settings.login_rules, settings.clock)

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
            wall=settings.wall,
            clock=settings.clock,
            rate_look=settings.rate_look,
        )
        tables.load()
        metrics.count_tables(lambda: len(tables.listed()))
        metrics.watch_bus(bus.kind, lambda: bus.ready)
        await tables.start_background()
        context.live_tables, context.lobby = tables, Lobby(tables.listed)
        context.reviews.stored, context.reviews.worked_out = StoredReviews(store.engine), metrics.reviews.inc
        passes, memory, lanes = settings.password_cost
        hasher = PasswordHasher(time_cost=passes, memory_cost=memory, parallelism=lanes)
        context.live_accounts = Accounts(store, hasher, settings.wall, settings.lockout)
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

    app = FastAPI(title="Red7", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(
        Guard, hosts=Hosts.of(settings.allowed_hosts, settings.listening), origins=origins, metrics=metrics
    )
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(HTTPException, _not_here)
    routers = (pages.router, health.router, schema.router, lobby.router, records.router, socket.router, turns.router)
    for router in (*routers, accounts.router, admin.router, ratings.router, rules.router):
        app.include_router(router)
    app.state.context = context
    app.state.tables = context.tables
    app.state.frame = table_frame
    app.state.metrics = metrics
    return app

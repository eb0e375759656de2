"""The web application: ``red7 serve`` (FastAPI, served by uvicorn).

:func:`create_app` assembles it from its rooms (docs/architecture.md has the map):

* :mod:`red7.web.table`: the tables, their flow around the game's
  :class:`~red7.play.session.Session`, seats, clocks, bots, who is connected and the
  frames each connection is sent; the lobby's API, the records and replays, the pages;
* the club's features, each in a room of its own, hearing the table through its events
  (:mod:`red7.web.table.events`): :mod:`red7.web.chat`, :mod:`red7.web.ratings`,
  :mod:`red7.web.reviews` (reviews and hints), :mod:`red7.web.accounts`,
  :mod:`red7.web.admin`, and the rules page and the guided first game (:mod:`red7.web.learn`);
* :mod:`red7.web.storage` (the database, its migrations and backups, the bus between
  processes) and :mod:`red7.web.http` (what every room's routes share: the protocol's
  base, refusals, limits, the guard, the metrics, how a route finds its app's parts);
* :mod:`red7.web.socket` (the game's WebSocket) and :mod:`red7.web.ops` (probes,
  metrics, the protocol's schema).

Each room's routes ask for the parts they need by type (:mod:`red7.web.http.parts`);
this module makes them and adds them. What goes over the wire is declared in each room
and gathered in :mod:`red7.web.protocol` (docs/protocol.md).

Limits. A request is for this server only under one of the host names it answers to
(:class:`~red7.web.http.origins.Hosts`: 400 otherwise); one that changes something must be
JSON and come from the server's own pages (:func:`~red7.web.http.origins.same_origin`: 415,
403), as must a WebSocket (4403). Each client may create so many tables and hold so many
WebSockets (:mod:`red7.web.http.limits`: 429 with ``Retry-After``); open tables nobody uses
expire. A message over :data:`~red7.web.http.wire.MAX_MESSAGE` bytes is refused
(``too-large``), and so is a flood (:mod:`red7.web.socket`). Every number in an
address or a body is bounded (:data:`~red7.web.http.wire.MAX_NUMBER`). No OpenAPI
description is served (``/openapi.json``, ``/docs`` and ``/redoc`` are 404): the
protocol's own schema, ``GET /api/protocol``, is the published one. Every answer carries
a Content-Security-Policy that allows the server's own files only and no framing, and its
neighbours (:mod:`red7.web.http.headers`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from ..ui.i18n import _, using
from . import ops, socket
from .accounts import routes as accounts_routes
from .accounts.accounts import Accounts
from .accounts.login_limits import LoginLimits
from .accounts.routes import Logins
from .accounts.throttle import LoginThrottle
from .admin import routes as admin_routes
from .chat.chat import Chat
from .http.client_limits import ClientLimits
from .http.counts import Counts, LocalCounts
from .http.guard import Guard
from .http.headers import SECURITY_HEADERS, SecurityHeaders
from .http.metrics import Metrics
from .http.origins import Hosts, parse_origin
from .http.parts import Parts
from .http.redis_counts import RedisCounts
from .http.refusals import Refused, asked_language, refusal_response, response_of
from .learn import rules, tutorial
from .ratings import routes as ratings_routes
from .ratings.rater import Rater
from .ratings.ratings import Ratings
from .reviews import routes as reviews_routes
from .reviews.hints import Hints
from .reviews.pool import SearchPool
from .reviews.reviews import Reviews, StoredReviews
from .settings import Settings as Settings
from .socket import Sockets
from .storage.bus import make_bus
from .storage.identity import identity
from .storage.outage import lost
from .storage.store import Store
from .table.bots import Bots, end_with_parent
from .table.cluster import Cluster
from .table.lobby import Lobby
from .table.members import Members
from .table.presence import Presence
from .table.routes import lobby, pages, records, turns
from .table.tables import DatabaseAway, Tables
from .table.watch import Watch

log = logging.getLogger("red7.web")

SITE = Path(__file__).parent / "static"
"""The site's own static files: its stylesheet and the scripts every page shares."""

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


async def _database_away(request: Request, err: Exception) -> JSONResponse:
    # the database restarting, met by a room that calls it in a thread of its own (accounts,
    # the admin's page): refused in words as a table's change is (503), not a 500 with a
    # traceback; any other database error is one
    if not lost(err):
        raise err
    with using(asked_language(request.headers.get("accept-language"))):
        return response_of(DatabaseAway())


async def _not_here(request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, HTTPException)
    with using(asked_language(request.headers.get("accept-language"))):
        if err.status_code == 405:
            message = _("This address does not take {method} requests.").format(method=request.method[:16])
            return refusal_response("bad-method", message, 405)
        if err.status_code == 404:
            return refusal_response("not-found", _("There is nothing at this address."), 404)
    return refusal_response("bad-request", str(err.detail), err.status_code)


async def _failed(_request: Request, _err: Exception) -> PlainTextResponse:
    # Starlette's own answer, with the headers every answer carries (it is sent from
    # outside every middleware); the exception is raised again, and logged, after it
    return PlainTextResponse("Internal Server Error", 500, headers=dict(SECURITY_HEADERS))


ROOMS_WITH_PAGES = (
    "red7.web.table",
    "red7.web.chat",
    "red7.web.accounts",
    "red7.web.admin",
    "red7.web.ratings",
    "red7.web.reviews",
    "red7.web.learn",
)
"""The rooms whose ``static`` folders are served under ``/static`` (beside the site's own:
its stylesheet and the scripts every page shares). No two hold a file of the same name."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are loaded from the database when it starts."""
    settings = settings or Settings()
    metrics = Metrics()
    origins = tuple(o for o in map(parse_origin, settings.allowed_origins) if o is not None)
    parts = Parts()
    parts.add(Metrics, metrics)
    parts.add(Sockets, Sockets(origins, settings.hello_timeout, settings.clock))
    parts.add(Hints, Hints())
    # hints and reviews: a pool of their own, never the threads of the accounts, probes and database
    search = SearchPool(settings.search_workers, threads=settings.search_threads)
    parts.add(SearchPool, search)
    reviews = Reviews(worked_out=metrics.reviews.inc, clock=settings.clock)
    parts.add(Reviews, reviews)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        store.upgrade()
        await store.open()
        club = identity(store.engine)
        bus = make_bus(settings.redis_url, store.url, store.dialect, club)
        # each client's limits: counted with the club's other processes in Redis, else by this one
        counted: Counts = (
            RedisCounts(settings.redis_url, club, settings.clock) if settings.redis_url else LocalCounts(settings.clock)
        )
        # spawned, not forked: a forked worker would inherit the listening socket and,
        # orphaned when the server is killed, keep the port so the server cannot restart
        spawn = multiprocessing.get_context("spawn")
        pool: Executor
        if settings.workers > 0:
            pool = ProcessPoolExecutor(settings.workers, spawn, initializer=end_with_parent)
        else:  # threads of their own, not the default ones the accounts, probes and database wait in
            pool = ThreadPoolExecutor(thread_name_prefix="red7-bot")
        tables = Tables(store, bus, metrics, settings.patience, settings.seeds, settings.wall)
        # the table's listeners first, in this order: a change's frames go out, then its bot is asked
        presence = Presence(tables)
        bots = Bots(tables, pool, settings.bot_delay)
        cluster = Cluster(tables)
        watch = Watch(tables, bots, presence, settings.limits.expire_open)
        ratings = Ratings(store.engine)
        rater = Rater(tables, ratings, settings.rate_look)
        passes, memory, lanes = settings.password_cost
        hasher = PasswordHasher(time_cost=passes, memory_cost=memory, parallelism=lanes)
        throttle = LoginThrottle(store.engine, settings.throttle, settings.wall, metrics)
        accounts = Accounts(store, hasher, settings.wall, throttle)
        logins = Logins(accounts)
        reviews.stored = StoredReviews(store.engine)
        tables.load()
        metrics.count_tables(lambda: len(tables.listed()))
        metrics.watch_bus(bus.kind, lambda: bus.ready)
        metrics.watch_limits(lambda: counted.shared)
        parts.add(ClientLimits, ClientLimits(settings.limits, counted))
        parts.add(LoginLimits, LoginLimits(settings.login_rules, counted))
        for kind, found in (
            (Tables, tables),
            (Presence, presence),
            (Lobby, Lobby(tables.listed)),
            (Chat, Chat(tables, settings.clock)),
            (Ratings, ratings),
            (Accounts, accounts),
            (Logins, logins),
            (Members, logins),
        ):
            parts.add(kind, found)
        await bus.start()
        await counted.start()
        for started in (presence, cluster, watch, rater):
            await started.start()
        bots.start()
        log.info(
            "red7 serve: %d tables loaded",
            len(tables.live),
            extra={"server": bus.process, "database": store.dialect, "bus": bus.kind},
        )
        try:
            yield
        finally:
            for stopped in (rater, watch, cluster, presence, bots):
                await stopped.stop()
            await bus.stop()
            await counted.stop()
            pool.shutdown(cancel_futures=True)
            search.close()
            await store.aclose()
            store.close()

    app = FastAPI(title="Red7", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(
        Guard, hosts=Hosts.of(settings.allowed_hosts, settings.listening), origins=origins, metrics=metrics
    )
    app.add_middleware(SecurityHeaders)  # the outermost: the guard's refusals carry its headers too
    app.mount("/static", StaticFiles(directory=SITE, packages=[(room, "static") for room in ROOMS_WITH_PAGES]))
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(HTTPException, _not_here)
    app.add_exception_handler(Exception, _failed)
    app.add_exception_handler(DBAPIError, _database_away)
    routers = (pages.router, ops.router, lobby.router, records.router, socket.router, turns.router)
    features = (accounts_routes.router, admin_routes.router, ratings_routes.router, reviews_routes.router)
    for router in (*routers, *features, rules.router, tutorial.router, tutorial.api):
        app.include_router(router)
    app.state.parts = parts
    return app

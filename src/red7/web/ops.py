"""Operations: ``GET /healthz`` (the process answers; ``"degraded"`` while the bus to the
other processes is down), ``GET /readyz`` (it can serve: the database answers; 503 and
the reasons if not. Without the bus a process still serves, finding changes by reading
the database), ``GET /metrics`` (Prometheus' text format: :mod:`red7.web.http.metrics`)
and ``GET /api/protocol`` (the protocol's JSON Schema: :func:`red7.web.protocol.schema`,
the same document as docs/protocol.schema.json; no OpenAPI description is served: this
is the published one). The first three answer whatever the ``Host``
(:data:`red7.web.http.guard.OPERATIONS`)."""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from .http.metrics import Metrics
from .http.parts import part, parts_of
from .http.wire import DeclaredRoute
from .protocol import schema_text
from .table.cluster import LOOK
from .table.tables import Tables

router = APIRouter(include_in_schema=False, route_class=DeclaredRoute)


def _tables(request: Request) -> Tables | None:
    """The app's tables, once it has started (None before)."""
    parts = parts_of(request)
    return parts.get(Tables) if Tables in parts else None


@router.get("/healthz")
async def health(request: Request) -> dict[str, Any]:
    tables = _tables(request)
    if tables is None:
        return {"status": "ok"}
    bus = tables.bus
    answer: dict[str, Any] = {"status": "ok", "bus": {"kind": bus.kind, "connected": bus.ready}}
    if not bus.ready:
        answer["status"] = "degraded"
        answer["problems"] = [f"bus ({bus.kind}): not connected; the database is read every {LOOK:g} s"]
    return answer


@router.get("/readyz")
async def ready(request: Request) -> JSONResponse:
    problems, degraded = [], []
    tables = _tables(request)
    if tables is None:
        problems.append("starting")
    else:
        try:
            await asyncio.to_thread(tables.store.ping)
        except Exception as err:
            problems.append(f"database: {type(err).__name__}")
        if not tables.bus.ready:
            # the database is the truth: a process without its bus still serves every
            # table, finding the others' changes at its looks at the database
            degraded.append(f"bus ({tables.bus.kind}): not connected")
    if problems or tables is None:
        return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
    answer: dict[str, Any] = {"status": "ready", "process": tables.bus.process}
    if degraded:
        answer["degraded"] = degraded
    return JSONResponse(answer)


@router.get("/metrics")
async def prometheus(metrics: Annotated[Metrics, part(Metrics)]) -> Response:
    return Response(metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")


@functools.cache
def _schema_text() -> str:
    return schema_text()  # made once: the declarations do not change while the server runs


@router.get("/api/protocol")
async def protocol_schema() -> Response:
    return Response(_schema_text(), media_type="application/schema+json")

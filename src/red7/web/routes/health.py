"""Operations: ``GET /healthz`` (the process answers; ``"degraded"`` while the bus to the
other processes is down), ``GET /readyz`` (it can serve: the database answers; 503 and
the reasons if not. Without the bus a process still serves, finding changes by reading
the database) and ``GET /metrics`` (Prometheus' text format: :mod:`red7.web.metrics`).
These three answer whatever the ``Host`` (:data:`red7.web.guard.OPERATIONS`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from ..service import LOOK
from .context import Shared

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def health(context: Shared) -> dict[str, Any]:
    if context.live_tables is None:
        return {"status": "ok"}
    bus = context.live_tables.bus
    answer: dict[str, Any] = {"status": "ok", "bus": {"kind": bus.kind, "connected": bus.ready}}
    if not bus.ready:
        answer["status"] = "degraded"
        answer["problems"] = [f"bus ({bus.kind}): not connected; the database is read every {LOOK:g} s"]
    return answer


@router.get("/readyz")
async def ready(context: Shared) -> JSONResponse:
    problems, degraded = [], []
    tables = context.live_tables
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
async def prometheus(context: Shared) -> Response:
    return Response(context.metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")

"""``GET /api/protocol``: the protocol's JSON Schema (:func:`red7.web.protocol.schema`),
its version in its ``$id``, ``title`` and ``version``; the same document as
docs/protocol.schema.json. (No OpenAPI description is served: this is the published one.)"""

from __future__ import annotations

import functools

from fastapi import APIRouter
from fastapi.responses import Response

from ..protocol import schema_text

router = APIRouter(include_in_schema=False)


@functools.cache
def _schema_text() -> str:
    return schema_text()  # made once: the models do not change while the server runs


@router.get("/api/protocol")
async def protocol_schema() -> Response:
    return Response(_schema_text(), media_type="application/schema+json")

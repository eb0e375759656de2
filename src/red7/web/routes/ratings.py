"""The ratings' leaderboard (:mod:`red7.web.ratings`):

* ``GET /api/leaderboard?offset=0&limit=50&kind=person``: a page of the rated players,
  best first (``kind``: ``person`` or ``bot`` lines only; none: both), ``{"lines",
  "total", "offset", "limit", "model"}``, each line ``{"place", "name", "kind",
  "rating", "mu", "sigma", "games"}``; ``rating`` (``mu - 3 sigma``) orders them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from ...analysis.rating import RATING_MODEL
from ..lobby import MAX_PAGE, PAGE
from ..protocol import MAX_NUMBER
from .context import Shared

router = APIRouter()


@router.get("/api/leaderboard")
async def leaderboard(
    context: Shared,
    offset: Annotated[int, Query(ge=0, le=MAX_NUMBER)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
    kind: Literal["person", "bot"] | None = None,
) -> dict[str, Any]:
    lines, total = await context.tables().leaderboard(offset, limit, kind)
    return {
        "lines": [line.as_dict() for line in lines],
        "total": total,
        "offset": offset,
        "limit": limit,
        "model": RATING_MODEL,
    }

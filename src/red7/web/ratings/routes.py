"""The ratings' leaderboard (:mod:`red7.web.ratings.ratings`):

* ``GET /api/leaderboard?offset=0&limit=50&kind=person``: a page of the rated players,
  best first (``kind``: ``person`` or ``bot`` lines only; none: both), ``{"lines",
  "total", "offset", "limit", "model", "rules"}``, each line ``{"place", "name", "kind",
  "rating", "mu", "sigma", "games"}``; ``rating`` (``mu - 3 sigma``) orders them;
  ``rules``: the figures of the rules that decide which games count
  (:func:`~red7.web.ratings.eligibility.rules`), for the page to state them;
* ``/leaderboard``: its page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse

from ...analysis.rating import RATING_MODEL
from ..http.parts import part
from ..http.wire import MAX_NUMBER, DeclaredRoute
from ..table.lobby import MAX_PAGE, PAGE
from ..table.tables import Tables
from .eligibility import rules
from .ratings import Ratings

STATIC = Path(__file__).parent / "static"
router = APIRouter(route_class=DeclaredRoute)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html")


@router.get("/api/leaderboard")
async def leaderboard(
    ratings: Annotated[Ratings, part(Ratings)],
    tables: Annotated[Tables, part(Tables)],
    offset: Annotated[int, Query(ge=0, le=MAX_NUMBER)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
    kind: Literal["person", "bot"] | None = None,
) -> dict[str, Any]:
    lines, total = await tables.db(ratings.board, offset, limit, kind)  # (in the store's threads)
    return {
        "lines": [line.as_dict() for line in lines],
        "total": total,
        "offset": offset,
        "limit": limit,
        "model": RATING_MODEL,
        "rules": rules(),
    }

"""A finished game's review over HTTP:

* ``GET /api/tables/{id}/games/{n}/review``: the review of a finished game
  (:mod:`red7.web.reviews.reviews`): how far it is worked out, then its text
  (:class:`~red7.web.reviews.wire.ReviewView`); the page asks again until it is done;
* ``/t/{id}/review/{n}``: its page.

A private table's game is reviewed only for a seat token of the table or its invitation,
as its replay is (:func:`red7.web.table.routes.records.reader`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ...play.session import Session
from ...play.table import Table
from ...ui.i18n import _, using
from ..http.limits import client_key
from ..http.parts import part
from ..http.refusals import Refused, spoken_language
from ..http.wire import DeclaredRoute
from ..table.records import played
from ..table.routes.pages import GameNumber
from ..table.routes.records import reader
from ..table.tables import Tables
from .pool import SearchPool
from .reviews import Reviews, named
from .wire import ReviewView

STATIC = Path(__file__).parent / "static"
router = APIRouter(route_class=DeclaredRoute)


@router.get("/t/{table_id}/review/{number}", include_in_schema=False)
async def review_page(table_id: str, number: GameNumber) -> FileResponse:
    return FileResponse(STATIC / "review.html")


@router.get("/api/tables/{table_id}/games/{number}/review")
async def review(
    table_id: str,
    number: GameNumber,
    request: Request,
    tables: Annotated[Tables, part(Tables)],
    reviews: Annotated[Reviews, part(Reviews)],
    pool: Annotated[SearchPool, part(SearchPool)],
) -> ReviewView:
    """The review of game ``number`` once it is over (every hand is read), the same one
    for every asker in every process, each in their language; started by the first to ask if no process has
    kept it (a private table's: with its invitation or a seat token, as its replay)."""
    await reader(tables, table_id, request)
    game = await played(tables, table_id, number)
    table = game.table
    # in the reader's language (the page's choice, else the browser's), else the table's
    lang = spoken_language(request.headers.get("accept-language")) or game.lang
    with using(lang):
        if table is None or not table.is_over:
            raise Refused("not-over", _("The review is shown once the game is over."), 409)
    kept = await reviews.kept((table_id, number))  # (worked out here, or kept by any process)
    if kept is not None:
        return kept.json(lang)
    with using(lang):
        people = [s for s, seat in enumerate(game.seats) if seat.bot is None]
        who = client_key(request.client.host if request.client else None)
        # a copy of the finished game: the table's own session moves on to a rematch
        session = Session(Table.around(table.game.clone(), table.seats))
        found = reviews.of((table_id, number), session, named(game.names), people, who, reviews.clock(), pool)
    return found.json(lang)

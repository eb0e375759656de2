"""Finished games, read back:

* ``GET /api/tables/{id}/games/{n}/record``: the record of a finished game (the
  engine's JSON format, which ``red7 replay`` reads);
* ``GET /api/tables/{id}/games/{n}/replay`` (``Authorization: Bearer <token>``): a game
  step by step, as the token's seat saw it (no token: the spectator's view):
  ``{"frames": [...]}``, each a table frame (:class:`red7.web.protocol.Replay`);
  with ``?hands=all``, once the game is over, every frame shows every hand too;
* ``GET /api/tables/{id}/games/{n}/review``: the review of a finished game
  (:mod:`red7.web.reviews`): how far it is worked out, then its text
  (:class:`red7.web.protocol.ReviewView`); the page asks again until it is done.

A seat token never travels in an address (``?token=`` is refused: addresses reach
access and error logs, a proxy's included). A private table's games are read only
with a seat token of the table or its invitation secret, in the header
``X-Red7-Invite`` (:data:`INVITE_HEADER`; the page has it from its link's fragment).

The database reads (:meth:`~red7.web.service.Tables.record`,
:meth:`~red7.web.service.Tables.played`) are each called in one place, :func:`_record`
and :func:`_played`: when they become coroutines, those two lines take an ``await``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ...play.session import Session
from ...play.table import Table
from ...ui.i18n import _, using
from ..limits import client_key
from ..refusals import Refused
from ..views import replay_frames
from .context import Context, GameNumber, Shared

router = APIRouter()

INVITE_HEADER = "x-red7-invite"
"""The header a private table's invitation secret travels in to read its games."""


def token_in_url() -> str:
    """Why a token in an address is refused (in the language in use)."""
    return _("A seat token never goes in an address (addresses reach logs): send it in the request instead.")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no header)."""
    scheme, _space, token = (header or "").strip().partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused("bad-token", _("Send the seat token as Authorization: Bearer <token>."), 401)
    return token.strip()


async def _reader(table_id: str, request: Request, context: Context) -> int | None:
    """The seat of the request's token (None: a spectator's view), once it may read the
    table's games: a token of the table, or (a private table) its invitation."""
    tables = context.tables()
    live = await tables.find(table_id)
    with using(live.lang):
        if "token" in request.query_params or "invite" in request.query_params:
            raise Refused("token-in-url", token_in_url())
        token = bearer(request.headers.get("authorization"))
        seat = await tables.seat_of(live, token)
        if token and seat is None:
            raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
        tables.admit(live, seat, request.headers.get(INVITE_HEADER))
    return seat


@router.get("/api/tables/{table_id}/games/{number}/record")
async def record(table_id: str, number: GameNumber, request: Request, context: Shared) -> dict[str, Any]:
    await _reader(table_id, request, context)
    return await context.tables().record(table_id, number)


@router.get("/api/tables/{table_id}/games/{number}/replay")
async def replay(table_id: str, number: GameNumber, request: Request, context: Shared) -> dict[str, Any]:
    seat = await _reader(table_id, request, context)
    tables = context.tables()
    played = await tables.played(table_id, number)
    every_hand = request.query_params.get("hands") == "all"
    with using(played.lang):
        if every_hand and (played.table is None or not played.table.is_over):
            raise Refused("not-over", _("Every hand is shown once the game is over."), 409)
    return {"frames": replay_frames(played, number, seat, every_hand)}


@router.get("/api/tables/{table_id}/games/{number}/review")
async def review(table_id: str, number: GameNumber, request: Request, context: Shared) -> dict[str, Any]:
    """The review of game ``number`` once it is over (every hand is read), the same one
    for every asker in every process; started by the first to ask if no process has
    kept it (a private table's: with its invitation or a seat token, as its replay)."""
    await _reader(table_id, request, context)
    tables = context.tables()
    played = await tables.played(table_id, number)
    table = played.table
    with using(played.lang):
        if table is None or not table.is_over:
            raise Refused("not-over", _("The review is shown once the game is over."), 409)
    kept = await context.reviews.kept((table_id, number))  # (worked out here, or kept by any process)
    if kept is not None:
        return kept.json()
    with using(played.lang):
        people = [s for s, seat in enumerate(played.seats) if seat.bot is None]
        who = client_key(request.client.host if request.client else None)
        # a copy of the finished game: the table's own session moves on to a rematch
        session = Session(Table.around(table.game.clone(), table.seats))
        found = context.reviews.of(
            (table_id, number), session, played.names(), played.lang, people, who, context.settings.clock()
        )
    return found.json()

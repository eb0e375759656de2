"""Finished games, read back:

* ``GET /api/tables/{id}/games/{n}/record``: the record of a finished game (the
  engine's JSON format, which ``red7 replay`` reads);
* ``GET /api/tables/{id}/games/{n}/replay`` (``Authorization: Bearer <token>``): a game
  step by step, as the token's seat saw it (no token: the spectator's view):
  ``{"frames": [...]}``, each a table frame (:class:`red7.web.table.frames.Replay`);
  with ``?hands=all``, once the game is over, every frame shows every hand too;

A seat token never travels in an address (``?token=`` is refused: addresses reach
access and error logs, a proxy's included). A private table's games are read only
with a seat token of the table or its invitation secret, in the header
``X-Red7-Invite`` (:data:`INVITE_HEADER`; the page has it from its link's fragment).

(The review of a finished game is the reviews' room's: :mod:`red7.web.reviews.routes`;
it reads a game with the same :func:`reader`.)
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request

from ....ui.i18n import _, using
from ...http.parts import part
from ...http.refusals import Refused, spoken_language
from ...http.wire import DeclaredRoute
from ..frames import Replay
from ..records import played, record
from ..seating import admit, bad_token, seat_of
from ..tables import Tables
from ..views import replay_frames
from .pages import GameNumber

router = APIRouter(route_class=DeclaredRoute)

INVITE_HEADER = "x-red7-invite"
"""The header a private table's invitation secret travels in to read its games."""
TablesPart = Annotated[Tables, part(Tables)]


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


async def reader(tables: Tables, table_id: str, request: Request) -> int | None:
    """The seat of the request's token (None: a spectator's view), once it may read the
    table's games: a token of the table, or (a private table) its invitation."""
    live = await tables.find(table_id)
    with using(live.lang):
        if "token" in request.query_params or "invite" in request.query_params:
            raise Refused("token-in-url", token_in_url())
        token = bearer(request.headers.get("authorization"))
        seat = await seat_of(tables, live, token)
        if token and seat is None:
            raise bad_token()
        admit(live, seat, request.headers.get(INVITE_HEADER))
    return seat


@router.get("/api/tables/{table_id}/games/{number}/record")
async def game_record(table_id: str, number: GameNumber, request: Request, tables: TablesPart) -> dict[str, Any]:
    await reader(tables, table_id, request)
    return await record(tables, table_id, number)


# (no response model: a replay is hundreds of table frames, which the tests validate; a
# server would spend more on checking them again than on making them)
@router.get("/api/tables/{table_id}/games/{number}/replay", response_model=None)
async def replay(table_id: str, number: GameNumber, request: Request, tables: TablesPart) -> Replay:
    seat = await reader(tables, table_id, request)
    game = await played(tables, table_id, number)
    every_hand = request.query_params.get("hands") == "all"
    # in the reader's language (``?lang=``, else the browser's), else the table's
    lang = spoken_language(request.headers.get("accept-language"), request.query_params.get("lang")) or game.lang
    with using(lang):
        if every_hand and (game.table is None or not game.table.is_over):
            raise Refused("not-over", _("Every hand is shown once the game is over."), 409)
    return {"frames": replay_frames(game, number, seat, every_hand, lang)}

"""``POST /api/turns``: the tables where it is the visitor's turn.

A browser keeps each table's seat token (``localStorage``); the lobby posts them, in
the request's body (a token never goes in an address), and is answered which of those
tables await that seat now (:class:`~red7.web.table.frames.TurnsPage`): the "your turn"
list of a person coming back to their correspondence games. A token that opens no seat
is left out, as a table that does not exist: the answer says nothing of them. Each
client may ask so often (:meth:`~red7.web.http.client_limits.ClientLimits.ask_wait`: 429 with
``Retry-After``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request

from ....play.session import Role
from ....ui.i18n import _, using
from ...http.client_limits import ClientLimits
from ...http.limits import client_key
from ...http.parts import part
from ...http.refusals import Limited, asked_language
from ...http.wire import DeclaredRoute
from ..clocks import countdown
from ..frames import TurnRow, TurnsPage
from ..requests import parse_turns
from ..tables import Tables
from ..views import settings_text

router = APIRouter(route_class=DeclaredRoute)


@router.post("/api/turns")
async def your_turns(
    request: Request, tables: Annotated[Tables, part(Tables)], limits: Annotated[ClientLimits, part(ClientLimits)]
) -> TurnsPage:
    lang = asked_language(request.headers.get("accept-language"))
    who = client_key(request.client.host if request.client else None)
    wait = await limits.ask_wait(who)
    if wait:
        with using(lang):
            raise Limited("too-many", _("Too many requests: wait {seconds} s.").format(seconds=int(wait)), wait)
    with using(lang):
        asked = parse_turns(await request.body())
    rows: list[TurnRow] = []
    for entry in dict.fromkeys((s.table, s.token) for s in asked.seats):  # each pair once
        live = tables.live.get(entry[0])
        if live is None:
            continue
        seat = live.seat_of(entry[1])
        mover = live.session.mover()
        if seat is None or mover is None or mover[0] != seat or mover[1] is Role.BOT:
            continue
        shown = countdown(live)
        with using(lang):  # (the asker's language, as the lobby's rows)
            settings, name = settings_text(live), live.title()
        remaining = shown["remaining"] if shown is not None and shown["kind"] != "away" else None
        rows.append(
            {
                "id": live.id,
                "seat": seat,
                "name": name,
                "settings": settings,
                "clock": int(live.session.clock),
                "remaining": remaining,
            }
        )
    return {"tables": rows}

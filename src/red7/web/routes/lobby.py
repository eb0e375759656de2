"""The lobby's API (JSON in and out; a refusal is ``{"code", "message"}`` with a 4xx
status, the message a sentence in the table's language or the one the browser asks for).
Each body is parsed through its model (:mod:`red7.web.protocol`):

* ``GET /api/ui?lang=pt-BR``: the words of the pages' own controls, translated;
* ``GET /api/tables?offset=0&limit=50``: a page of the open tables and those being
  played (:mod:`red7.web.lobby`): ``{"tables", "total", "offset", "limit"}``;
* ``POST /api/tables`` ``{"players", "advanced", "actions", "lang", "name"}``: a new
  table, its creator in seat 0: ``{"id", "seat": 0, "token"}``;
* ``POST /api/tables/{id}/seats/{seat}`` ``{"name"}``: take a free seat: ``{"seat", "token"}``;
* ``POST /api/tables/{id}/bots`` ``{"token", "seat", "level"}``: a bot in a free seat;
* ``POST /api/tables/{id}/start`` ``{"token"}``: start once every seat is taken.

Each client may create so many tables (:mod:`red7.web.limits`: 429 with ``Retry-After``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from ...ui.i18n import LANGUAGES, _, using
from .. import views
from ..limits import client_key
from ..lobby import MAX_PAGE, PAGE
from ..protocol import MAX_NUMBER, AddBot, Created, CreateTable, Done, Seated, StartGame, TakeSeat, parse_body
from ..refusals import Limited, Refused, asked_language
from .context import Context, Shared

router = APIRouter()


@router.get("/api/ui")
async def ui_words(lang: str = "en") -> dict[str, Any]:
    try:
        with using(lang) as tag:
            return {"lang": tag, "languages": LANGUAGES, "ui": views.ui_words()}
    except ValueError as err:
        raise Refused("bad-language", str(err)) from None


@router.get("/api/tables")
async def list_tables(
    context: Shared,
    offset: Annotated[int, Query(ge=0, le=MAX_NUMBER)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
) -> dict[str, Any]:
    assert context.lobby is not None
    return context.lobby.page(offset, limit)


def _still_open(context: Context) -> Callable[[str], bool]:
    """Whether a table is still open (a client's open tables count against its limit)."""

    def still_open(table_id: str) -> bool:
        live = context.tables().live.get(table_id)
        return live is not None and live.status == "open"

    return still_open


@router.post("/api/tables")
async def create_table(request: Request, context: Shared) -> Created:
    with using(asked_language(request.headers.get("accept-language"))):
        asked = parse_body(CreateTable, await request.body())
    who = client_key(request.client.host if request.client else None)
    refusal = context.client_limits.table_refusal(who, _still_open(context))
    if refusal is not None:
        reason, wait = refusal
        context.metrics.refused.labels(reason="open-tables" if reason == "open" else "tables").inc()
        chosen = asked.lang if "lang" in asked.model_fields_set else None  # else the browser's
        with using(asked_language(request.headers.get("accept-language"), chosen)):
            if reason == "open":
                message = _(
                    "You have {n} tables whose game has not started: start one, or let one expire, "
                    "before you create another."
                ).format(n=context.settings.limits.open_tables)
            else:
                message = _("You have created many tables in a short time: wait {seconds} s.").format(seconds=int(wait))
        raise Limited("too-many-tables", message, wait)
    try:
        with using(asked.lang):
            live, token = await context.tables().create(
                asked.players, asked.advanced, asked.actions, asked.lang, asked.name, hints=asked.hints
            )
    except Refused:
        context.client_limits.uncount(who)
        raise
    context.client_limits.created(who, live.id)
    return Created(id=live.id, seat=0, token=token)


def _in_language(context: Context, table_id: str, request: Request) -> str:
    """The language to refuse a request to table ``table_id`` in: the table's, else the browser's."""
    live = context.tables().live.get(table_id)
    return live.lang if live is not None else asked_language(request.headers.get("accept-language"))


@router.post("/api/tables/{table_id}/seats/{seat}")
async def take_seat(table_id: str, seat: int, request: Request, context: Shared) -> Seated:
    with using(_in_language(context, table_id, request)):
        asked = parse_body(TakeSeat, await request.body())
    token = await context.tables().join(table_id, seat, asked.name)
    return Seated(seat=seat, token=token)


@router.post("/api/tables/{table_id}/bots")
async def add_bot(table_id: str, request: Request, context: Shared) -> Done:
    with using(_in_language(context, table_id, request)):
        asked = parse_body(AddBot, await request.body())
    await context.tables().add_bot(table_id, asked.token, asked.seat, asked.level)
    return Done(ok=True)


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, request: Request, context: Shared) -> Done:
    with using(_in_language(context, table_id, request)):
        asked = parse_body(StartGame, await request.body())
    await context.tables().start(table_id, asked.token)
    return Done(ok=True)

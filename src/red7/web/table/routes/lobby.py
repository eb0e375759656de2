"""The lobby's API (JSON in and out; a refusal is ``{"code", "message"}`` with a 4xx
status, the message a sentence in the asker's language: the page's choice or the
browser's, else the table's).
Each body is parsed through its model (:mod:`red7.web.protocol`):

* ``GET /api/ui?lang=pt-BR``: the words of the pages' own controls, translated;
* ``GET /api/tables?offset=0&limit=50``: a page of the public tables, open or being
  played (:mod:`red7.web.table.lobby`): ``{"tables", "total", "offset", "limit"}``; filtered
  by ``players=2``, ``advanced=true|false``, ``actions=true|false``, ``free=true``;
* ``POST /api/tables`` ``{"players", "advanced", "actions", "lang", "name", "table_name",
  "private", "clock", "spectator_chat"}``: a new table, its creator in seat 0: ``{"id",
  "seat": 0, "token"}``, and a private table's ``invite`` (its link:
  ``/t/{id}#invite=...``);
* ``POST /api/play-now`` ``{"players", "advanced", "actions", "level", "lang", "name"}``
  (defaults: 2 players, the basic game, ``medium`` bots): "Play now against a bot", a
  public table whose other seats are bots, its game started: ``{"id", "seat": 0,
  "token"}`` (counted against the client's tables as a table made);
* ``POST /api/tables/{id}/seats/{seat}`` ``{"name", "invite"}``: take a free seat (a
  private table's: with its invitation): ``{"seat", "token"}``;
* ``POST /api/tables/{id}/seats/{seat}/remove`` ``{"token"}``: the host empties a seat
  before the start;
* ``POST /api/tables/{id}/leave`` ``{"token"}``: leave one's seat before the start;
* ``POST /api/tables/{id}/bots`` ``{"token", "seat", "level"}``: a bot in a free seat;
* ``POST /api/tables/{id}/start`` ``{"token"}``: start once every seat is taken;
* ``POST /api/tables/{id}/seats/{seat}/reseat`` ``{"token"}``: the host (seat 0) gives the
  person of a seat a new token (after an admin revoked theirs): ``{"seat", "token"}``;
* ``POST /api/tables/{id}/invite`` ``{"token", "revoke"}``: the host of a private table
  renews its invitation (``{"invite"}``: the new secret; the old link opens nothing any
  more) or revokes it (``{"invite": null}``: only its seated people open it).

A person logged in (:mod:`red7.web.accounts.routes`) who creates a table or takes a seat
sits under their username (the ``name`` given is not used), and the seat is linked to
their account (their profile lists its games).

Each client may create so many tables, and take or leave so many seats (:mod:`red7.web.http.limits`:
429 with ``Retry-After``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....core.model import MAX_PLAYERS, MIN_PLAYERS
from ....ui.i18n import LANGUAGES, _, using
from ...http.client_limits import ClientLimits
from ...http.limits import client_key
from ...http.metrics import Metrics
from ...http.parts import part
from ...http.refusals import Limited, Refused, asked_language, spoken_language
from ...http.wire import MAX_NUMBER, DeclaredRoute, Done, parse_body
from ...storage.stored import new_token
from .. import hosting, play, seating
from ..frames import Created, Invitation, LobbyPage, Seated, UiWords
from ..lobby import MAX_PAGE, PAGE, Filters, Lobby
from ..members import Members
from ..play_now import play_now
from ..requests import (
    AddBot,
    ChangeInvite,
    CreateTable,
    LeaveSeat,
    PlayNow,
    RemoveSeat,
    Reseat,
    StartGame,
    TakeSeat,
)
from ..tables import Tables
from ..views import tag
from ..words import ui_words

router = APIRouter(route_class=DeclaredRoute)

TablesPart = Annotated[Tables, part(Tables)]
LimitsPart = Annotated[ClientLimits, part(ClientLimits)]
MembersPart = Annotated[Members, part(Members)]


@router.get("/api/ui")
async def page_words(lang: str = "en") -> UiWords:
    try:
        with using(lang) as language:
            return {"lang": tag(language), "languages": dict(LANGUAGES), "ui": ui_words()}
    except ValueError as err:
        raise Refused("bad-language", str(err)) from None


@router.get("/api/tables")
async def list_tables(
    request: Request,
    lobby: Annotated[Lobby, part(Lobby)],
    offset: Annotated[int, Query(ge=0, le=MAX_NUMBER)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
    players: Annotated[int | None, Query(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = None,
    advanced: bool | None = None,
    actions: bool | None = None,
    free: bool = False,
    lang: Annotated[str | None, Query(max_length=35)] = None,
) -> LobbyPage:
    """The lobby's tables, every row in one language: ``lang`` (the page's choice), else
    the browser's, else English."""
    asked = asked_language(request.headers.get("accept-language"), lang)
    return lobby.page(offset, limit, Filters(players, advanced, actions, free), asked)


def _still_open(tables: Tables) -> Callable[[str], bool | None]:
    """Whether a table is still open (a client's open tables count against its limit);
    None: this process does not know it (gone, or made by another process just now)."""

    def still_open(table_id: str) -> bool | None:
        live = tables.live.get(table_id)
        return None if live is None else live.status == "open"

    return still_open


async def _count_table(
    request: Request, limits: ClientLimits, tables: Tables, metrics: Metrics, chosen: str | None
) -> str:
    """Count a new table against the request's client, who is refused (429, ``Retry-After``,
    in language ``chosen``, else the browser's) past its limits; returns the client's key."""
    who = client_key(request.client.host if request.client else None)
    refusal = await limits.table_refusal(who, _still_open(tables))
    if refusal is not None:
        reason, wait = refusal
        metrics.refused.labels(reason="open-tables" if reason == "open" else "tables").inc()
        with using(asked_language(request.headers.get("accept-language"), chosen)):
            if reason == "open":
                message = _(
                    "You have {n} tables whose game has not started: start one, or let one expire, "
                    "before you create another."
                ).format(n=limits.limits.open_tables)
            else:
                message = _("You have created many tables in a short time: wait {seconds} s.").format(seconds=int(wait))
        raise Limited("too-many-tables", message, wait)
    return who


@router.post("/api/tables")
async def create_table(
    request: Request,
    tables: TablesPart,
    limits: LimitsPart,
    members: MembersPart,
    metrics: Annotated[Metrics, part(Metrics)],
) -> Created:
    with using(asked_language(request.headers.get("accept-language"))):
        asked = parse_body(CreateTable, await request.body())
    chosen = asked.lang if "lang" in asked.model_fields_set else None  # else the browser's
    who = await _count_table(request, limits, tables, metrics, chosen)
    member = await members.member_of(request)
    try:
        invite = new_token() if asked.private else None
        with using(asked.lang):
            live, token = await hosting.create(
                tables,
                asked.players,
                asked.advanced,
                asked.actions,
                asked.lang,
                asked.name,
                asked.clock,
                asked.spectator_chat,
                member=member,
                table_name=asked.table_name,
                invite=invite,
                hints=asked.hints,
                rated=asked.rated,
            )
    except Refused:
        await limits.uncount(who)
        raise
    await limits.created(who, live.id)
    return {"id": live.id, "seat": 0, "token": token, "invite": invite}


@router.post("/api/play-now")
async def play_against_bots(
    request: Request,
    tables: TablesPart,
    limits: LimitsPart,
    members: MembersPart,
    metrics: Annotated[Metrics, part(Metrics)],
) -> Created:
    """The lobby's "Play now against a bot": a table whose other seats are bots, started
    (:mod:`red7.web.table.play_now`); counted as a table made."""
    with using(asked_language(request.headers.get("accept-language"))):
        asked = parse_body(PlayNow, await request.body())
    chosen = asked.lang if "lang" in asked.model_fields_set else None
    who = await _count_table(request, limits, tables, metrics, chosen)
    member = await members.member_of(request)
    try:
        with using(asked.lang):
            live, token = await play_now(
                tables, asked.players, asked.advanced, asked.actions, asked.level, asked.lang, asked.name, member
            )
    except Refused:
        await limits.uncount(who)
        raise
    await limits.created(who, live.id)
    return {"id": live.id, "seat": 0, "token": token}


def _in_language(tables: Tables, table_id: str, request: Request) -> str:
    """The language to refuse a request to table ``table_id`` in: the asker's (the page
    sends the one chosen as ``Accept-Language``; else the browser's), else the table's."""
    accept = request.headers.get("accept-language")
    live = tables.live.get(table_id)
    return spoken_language(accept) or (live.lang if live is not None else "en")


async def _join_limit(tables: Tables, limits: ClientLimits, metrics: Metrics, table_id: str, request: Request) -> None:
    """Count a seat taken or left by the request's client; refused (429, ``Retry-After``,
    in the asker's language) if it asks too often: a flood of joins and leaves changes no
    table (:meth:`~red7.web.http.client_limits.ClientLimits.join_wait`)."""
    who = client_key(request.client.host if request.client else None)
    wait = await limits.join_wait(who)
    if wait:
        metrics.refused.labels(reason="joins").inc()
        with using(_in_language(tables, table_id, request)):
            message = _("You have taken and left many seats in a short time: wait {seconds} s.")
            raise Limited("too-many-joins", message.format(seconds=int(wait)), wait)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def take_seat(
    table_id: str,
    seat: int,
    request: Request,
    tables: TablesPart,
    limits: LimitsPart,
    members: MembersPart,
    metrics: Annotated[Metrics, part(Metrics)],
) -> Seated:
    await _join_limit(tables, limits, metrics, table_id, request)
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(TakeSeat, await request.body())
        member = await members.member_of(request)
        token = await seating.join(tables, table_id, seat, asked.name, asked.invite, member=member)
    return {"seat": seat, "token": token}


@router.post("/api/tables/{table_id}/seats/{seat}/reseat")
async def reseat(table_id: str, seat: int, request: Request, tables: TablesPart) -> Seated:
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(Reseat, await request.body())
        token = await hosting.reseat(tables, table_id, asked.token, seat)
    return {"seat": seat, "token": token}


@router.post("/api/tables/{table_id}/seats/{seat}/remove")
async def remove_seat(table_id: str, seat: int, request: Request, tables: TablesPart) -> Done:
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(RemoveSeat, await request.body())
        await seating.remove(tables, table_id, asked.token, seat)
    return {"ok": True}


@router.post("/api/tables/{table_id}/invite")
async def change_invite(table_id: str, request: Request, tables: TablesPart) -> Invitation:
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(ChangeInvite, await request.body())
        return {"invite": await hosting.change_invite(tables, table_id, asked.token, asked.revoke)}


@router.post("/api/tables/{table_id}/leave")
async def leave_seat(
    table_id: str,
    request: Request,
    tables: TablesPart,
    limits: LimitsPart,
    metrics: Annotated[Metrics, part(Metrics)],
) -> Done:
    await _join_limit(tables, limits, metrics, table_id, request)
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(LeaveSeat, await request.body())
        await seating.leave(tables, table_id, asked.token)
    return {"ok": True}


@router.post("/api/tables/{table_id}/bots")
async def add_bot(table_id: str, request: Request, tables: TablesPart) -> Done:
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(AddBot, await request.body())
        await seating.add_bot(tables, table_id, asked.token, asked.seat, asked.level)
    return {"ok": True}


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, request: Request, tables: TablesPart) -> Done:
    with using(_in_language(tables, table_id, request)):
        asked = parse_body(StartGame, await request.body())
        await play.start(tables, table_id, asked.token)
    return {"ok": True}

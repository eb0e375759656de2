"""The admin's page and API (an account with the admin role: ``red7 admin``):

* ``/admin``: the page (anyone else is sent to ``/account``);
* ``GET /api/admin``: the tables open or being played and who is connected to each, the
  accounts, and the metrics summary of the process that answers;
* ``POST /api/admin/tables/{id}/close`` ``{}``: close a table (its game ends; its
  players see why);
* ``POST /api/admin/tables/{id}/seats/{seat}/revoke`` ``{}``: revoke a seat's token (its
  holder is disconnected; the host seats them again);
* ``POST /api/admin/accounts/{name}/ban`` ``{}``, ``.../unban``, ``.../remove``,
  ``.../logout`` (end its login sessions). A ban and a removal end the account's login
  sessions and revoke its seats' tokens at every table
  (:func:`~red7.web.table.hosting.revoke_account`): its open connections are closed,
  told why, in every process; lifting a ban gives no seat back.

Every call is refused (``not-admin``, 403) without an admin's login session, which is
checked against the database at each call (an admin removed or banned in any process
is refused at once). The actions are POSTs of a JSON body, from the server's own pages
only (:class:`~red7.web.http.guard.Guard`: another site's page can send neither JSON nor a
request with this server's origin), with the SameSite=Lax login cookie: a page of
another site cannot make an admin's browser act. Every action is a change of the
database (a table's through :meth:`~red7.web.table.tables.Tables.write`), so it holds
for every process. Each action is logged (what, by whom), never a token or session.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as InPath
from fastapi.responses import FileResponse, RedirectResponse, Response
from prometheus_client.metrics_core import Metric

from ...ui.i18n import _, using
from ..accounts.accounts import Account, Accounts
from ..accounts.routes import Logins
from ..http.metrics import Metrics
from ..http.parts import part
from ..http.refusals import Refused, asked_language
from ..http.wire import DeclaredRoute, Done, Empty, SeatNumber, parse_body
from ..table import hosting
from ..table.live import LiveTable
from ..table.presence import Presence
from ..table.tables import Tables
from ..table.views import settings_text, status
from .wire import AdminSeat, AdminTable, AdminView

log = logging.getLogger("red7.web")
STATIC = Path(__file__).parent / "static"
router = APIRouter(route_class=DeclaredRoute)

Username = Annotated[str, InPath(max_length=40)]
LoginsPart = Annotated[Logins, part(Logins)]
TablesPart = Annotated[Tables, part(Tables)]


@router.get("/admin", include_in_schema=False)
async def admin_page(request: Request, logins: LoginsPart) -> Response:
    account = await logins.member_of(request)
    if account is None or not account.admin:
        return RedirectResponse("/account", status_code=303)
    return FileResponse(STATIC / "admin.html")


async def _admin(request: Request, logins: Logins) -> Account:
    """The admin making the request; else Refused (``not-admin``, 403)."""
    account = await logins.member_of(request)
    if account is None or not account.admin:
        with using(asked_language(request.headers.get("accept-language"))):
            raise Refused("not-admin", _("This is for the server's admins: log in with an admin account."), 403)
    return account


async def _action(request: Request, logins: Logins) -> Account:
    """The admin making an action (its body an empty JSON object)."""
    admin = await _admin(request, logins)
    with using(asked_language(request.headers.get("accept-language"))):
        parse_body(Empty, await request.body())
    return admin


def table_summary(live: LiveTable, watching: int) -> AdminTable:
    """A table as the admin page lists it (``watching``: this process's spectators)."""
    with using(live.lang):
        names = live.names()
        settings = settings_text(live)
    seats: list[AdminSeat] = [
        {
            "seat": s,
            "name": names[s],
            "bot": seat.bot,
            "person": seat.token_hash is not None,
            "account": seat.account is not None,
            "online": seat.online > 0,
        }
        for s, seat in enumerate(live.seats)
    ]
    connected = sum(seat.online for seat in live.seats) + watching
    return {
        "id": live.id,
        "status": status(live.status),
        "players": live.config.players,
        "game": live.game_number,
        "settings": settings,
        "seats": seats,
        "connected": connected,
    }


def metrics_summary(metrics: Metrics) -> dict[str, float]:
    """Each metric of the process as one number (counters and gauges summed over their
    labels; a histogram's count and sum)."""
    summary: dict[str, float] = {}
    family: Metric
    for family in metrics.registry.collect():
        for sample in family.samples:
            if sample.name.endswith("_created") or sample.name.endswith("_bucket"):
                continue
            summary[sample.name] = summary.get(sample.name, 0.0) + float(sample.value)
    return summary


@router.get("/api/admin")
async def overview(
    request: Request,
    logins: LoginsPart,
    tables: TablesPart,
    presence: Annotated[Presence, part(Presence)],
    accounts: Annotated[Accounts, part(Accounts)],
    metrics: Annotated[Metrics, part(Metrics)],
) -> AdminView:
    await _admin(request, logins)
    rows = [table_summary(live, sum(1 for c in presence.of(live.id) if c.seat is None)) for live in tables.listed()]
    return {
        "tables": rows,
        "connected": sum(row["connected"] for row in rows),
        "accounts": await asyncio.to_thread(accounts.listing),
        "metrics": metrics_summary(metrics),
    }


@router.post("/api/admin/tables/{table_id}/close")
async def close_table(table_id: str, request: Request, logins: LoginsPart, tables: TablesPart) -> Done:
    admin = await _action(request, logins)
    with using(asked_language(request.headers.get("accept-language"))):
        await hosting.close(tables, table_id)
    log.info("admin %s closed table %s", admin.username, table_id[:32])
    return {"ok": True}


@router.post("/api/admin/tables/{table_id}/seats/{seat}/revoke")
async def revoke_seat(
    table_id: str, seat: SeatNumber, request: Request, logins: LoginsPart, tables: TablesPart
) -> Done:
    admin = await _action(request, logins)
    with using(asked_language(request.headers.get("accept-language"))):
        await hosting.revoke_seat(tables, table_id, seat)
    log.info("admin %s revoked the token of seat %d at table %s", admin.username, seat, table_id[:32])
    return {"ok": True}


@router.post("/api/admin/accounts/{username}/{action}")
async def account_action(
    username: Username,
    action: str,
    request: Request,
    logins: LoginsPart,
    accounts: Annotated[Accounts, part(Accounts)],
    tables: TablesPart,
) -> Done:
    admin = await _action(request, logins)
    with using(asked_language(request.headers.get("accept-language"))):
        if action not in ("ban", "unban", "remove", "logout"):
            raise Refused("not-found", _("There is nothing at this address."), 404)
        target = await asyncio.to_thread(accounts.named, username)
        if target.admin and action in ("ban", "remove"):
            raise Refused(
                "is-admin",
                _("An admin account cannot be banned or removed here: take its role back first (red7 admin revoke)."),
                409,
            )
        if action == "ban":
            await asyncio.to_thread(accounts.ban, username)
            await hosting.revoke_account(tables, target.id)
        elif action == "unban":
            await asyncio.to_thread(accounts.ban, username, False)
        elif action == "remove":
            await hosting.revoke_account(tables, target.id)
            await asyncio.to_thread(accounts.remove, username)
        else:
            await asyncio.to_thread(accounts.end_logins, username)
    log.info("admin %s: %s of account %s", admin.username, action, target.username)
    return {"ok": True}

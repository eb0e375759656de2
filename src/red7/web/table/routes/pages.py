"""The table's pages (plain HTML, CSS and ES modules from this room's ``static`` folder,
served under ``/static`` with every room's: no build step): ``/`` the lobby, ``/t/{id}`` a
table (``?watch`` for spectators), ``/t/{id}/replay/{n}`` the replay of a game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as InPath
from fastapi.responses import FileResponse

from ...http.wire import MAX_NUMBER, DeclaredRoute

STATIC = Path(__file__).parent.parent / "static"
"""The table's pages and scripts."""
GameNumber = Annotated[int, InPath(ge=0, le=MAX_NUMBER)]
"""A game's number in an address: bounded (past the database's integers, a 422)."""

router = APIRouter(include_in_schema=False, route_class=DeclaredRoute)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "table.html")


@router.get("/t/{table_id}/replay/{number}")
async def replay_page(table_id: str, number: GameNumber) -> FileResponse:
    return FileResponse(STATIC / "replay.html")

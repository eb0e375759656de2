"""The pages (plain HTML, CSS and ES modules from ``red7/web/static``; no build step):
``/`` the lobby, ``/leaderboard`` the ratings, ``/t/{id}`` a table (``?watch`` for
spectators), ``/t/{id}/replay/{n}`` the replay of a game, ``/t/{id}/review/{n}`` its review."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from .context import GameNumber

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/leaderboard")
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "table.html")


@router.get("/t/{table_id}/replay/{number}")
async def replay_page(table_id: str, number: GameNumber) -> FileResponse:
    return FileResponse(STATIC / "replay.html")


@router.get("/t/{table_id}/review/{number}")
async def review_page(table_id: str, number: GameNumber) -> FileResponse:
    return FileResponse(STATIC / "review.html")

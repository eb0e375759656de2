"""A table's games read back: as they were (for replays and reviews) and as records.

Only the current game of a table is in memory; an earlier one is read from the database
(its seed and decisions) and replayed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.record import SeatRecord, to_record
from ...play.session import Session
from ...play.table import Seat, Table
from ...ui.i18n import _, using
from ..http.refusals import Refused
from ..storage.stored import replayed
from .live import LiveTable
from .tables import Tables


def no_game(number: int) -> Refused:
    return Refused("no-game", _("This table has no game {n}.").format(n=number), 404)


async def played(tables: Tables, table_id: str, number: int) -> LiveTable:
    """The table as it was in its game ``number``: the table itself for the current
    game, else one around that game read back from the database (for replays)."""
    live = await tables.find(table_id)
    if live.table is not None and number == live.game_number:
        return live
    with using(live.lang):
        stored = await tables.db(tables.store.game, table_id, number)
        if stored is None:
            raise no_game(number)
    game = replayed(stored)
    seats = [Seat(s.name, None, s.bot) for s in live.seats]
    status = "over" if stored.result is not None else "playing"
    return replace(live, session=Session(Table.around(game, seats)), game_number=number, status=status, bot_task=None)


async def record(tables: Tables, table_id: str, number: int) -> dict[str, Any]:
    """The record of game ``number`` at the table, in the engine's format (what
    ``red7 replay`` reads); only once that game is over (its seed orders the deck)."""
    live = await tables.find(table_id)
    with using(live.lang):
        stored = await tables.db(tables.store.game, table_id, number)
        if stored is None:
            raise no_game(number)
        if stored.result is None:
            raise Refused("not-over", _("The record is shown once the game is over."), 409)
        return to_record(replayed(stored), [SeatRecord(s.name, s.bot) for s in live.seats])

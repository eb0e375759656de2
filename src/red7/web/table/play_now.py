"""The lobby's "Play now against a bot": a table made for one person, its other seats
given to bots of one level and its game started, in one request.

It is the table any person could make by hand, public and with hints allowed, made in
two changes: the table (:func:`red7.web.table.hosting.create`, the person in seat 0),
then its free seats given to bots and its first deal, together (a person who took a
seat between the two plays in it). The person's page opens on the game under way.
"""

from __future__ import annotations

from .hosting import create
from .live import LiveTable, SeatState
from .members import Member
from .play import new_game
from .seating import HOST
from .tables import Tables


async def play_now(
    tables: Tables,
    players: int,
    advanced: bool,
    actions: bool,
    level: str,
    lang: str,
    name: str,
    member: Member | None = None,
) -> tuple[LiveTable, str]:
    """A table of ``players`` (``advanced``, ``actions``: its game; ``lang``: its
    language), its creator ``name`` (or ``member``, logged in) in seat 0, a bot of
    ``level`` (one of :data:`red7.bots.LEVELS`: the request's model checked it) in every
    other seat, its game dealt. Returns the table and the creator's token; refused as
    :func:`~red7.web.table.hosting.create` refuses."""
    live, token = await create(tables, players, advanced, actions, lang, name, member=member)

    async def started() -> None:
        for seat, state in enumerate(live.seats):
            if seat != HOST and not state.taken:
                live.seats[seat] = SeatState(bot=level)
        await new_game(tables, live)

    await tables.change(live, started)
    return live, token

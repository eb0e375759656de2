"""The admin's part of the wire: what ``GET /api/admin`` answers (:class:`AdminView`)."""

from __future__ import annotations

from typing_extensions import TypedDict

from ..accounts.wire import AdminAccount
from ..http.wire import frame
from ..table.frames import Status


@frame
class AdminSeat(TypedDict):
    seat: int
    name: str
    bot: str | None
    person: bool
    """A person sits here (whose token an admin may revoke)."""
    account: bool
    """Taken by a registered person."""
    online: bool


@frame
class AdminTable(TypedDict):
    id: str
    status: Status
    players: int
    game: int
    settings: str
    seats: list[AdminSeat]
    connected: int
    """People connected to the table (its seats, in every process; spectators, in this one)."""


@frame
class AdminView(TypedDict):
    """``GET /api/admin``: the tables open or being played, who is connected, the
    accounts and the metrics of the process that answered."""

    tables: list[AdminTable]
    connected: int
    accounts: list[AdminAccount]
    metrics: dict[str, float]

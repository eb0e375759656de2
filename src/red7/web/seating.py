"""Who may sit at, watch and leave a table before its game starts: its name, its
invitation, and the refusals of removing and leaving a seat.

A table has a name its creator chose (:func:`clean_table_name`; default "Ana's table",
:func:`default_table_name`). A private table is not in the lobby: its page, frames and
records open only with a seat token of the table or its invitation secret
(:meth:`red7.web.live.LiveTable.invited`; a person who knows neither is told
:func:`not_invited`). Before the start, the host (seat 0, who made the table) may empty
another seat (:func:`removal_refusal`) and a person may leave theirs
(:func:`leaving_refusal`); the seat is then free again (:func:`vacate`) and the token
of the person who sat there opens nothing any more. The checks are here; the changes
themselves go through :class:`red7.web.service.Tables`, like every change of a table.
"""

from __future__ import annotations

from typing import Final

from ..ui.i18n import _
from .live import LiveTable, SeatState
from .refusals import Refused

TABLE_NAME_LENGTH: Final = 40
"""The most characters a table's name has (after its spaces are folded)."""
HOST: Final = 0
"""The host's seat: the table's creator's, who alone may remove others before the start."""


def clean_table_name(name: str) -> str:
    """``name`` with its spaces folded; refused (``bad-table-name``) if longer than
    :data:`TABLE_NAME_LENGTH` or holding a character that is not printable. Any other
    text is kept as written (the pages show it as text, never as HTML)."""
    text = " ".join(name.split())
    if len(text) > TABLE_NAME_LENGTH or any(not ch.isprintable() for ch in text):
        raise Refused("bad-table-name", _("Give the table a name of up to {n} characters.").format(n=TABLE_NAME_LENGTH))
    return text


def default_table_name(creator: str) -> str:
    """The name of a table whose creator gave none: theirs ("Ana's table"), or a
    plain "Red7 table" if they gave no name either (in the language in use)."""
    if not creator:
        return _("Red7 table")
    return _("{name}'s table").format(name=creator)[:TABLE_NAME_LENGTH]


def not_invited() -> Refused:
    """The refusal of a private table to someone with neither its invitation nor a seat."""
    return Refused("private", _("This table is private: open it through its invitation link."), 403)


def _before_start(live: LiveTable) -> Refused | None:
    if live.status != "open":
        return Refused("started", _("The game has started: the seats no longer change."), 409)
    return None


def _host_stays() -> Refused:
    return Refused("host-seat", _("The host stays at their table: the host's seat cannot be emptied."), 409)


def removal_refusal(live: LiveTable, by: int, seat: int) -> Refused | None:
    """Why the person in seat ``by`` may not empty ``seat`` now (None: they may)."""
    if not 0 <= seat < len(live.seats):
        return Refused("bad-seat", _("This table's seats are numbered 0 to {last}.").format(last=len(live.seats) - 1))
    started = _before_start(live)
    if started is not None:
        return started
    if by != HOST:
        return Refused("not-host", _("Only the host, who made the table, can remove someone from a seat."), 403)
    if seat == HOST:
        return _host_stays()
    if not live.seats[seat].taken:
        return Refused("seat-free", _("That seat is free already."), 409)
    return None


def leaving_refusal(live: LiveTable, seat: int) -> Refused | None:
    """Why the person in ``seat`` may not leave it now (None: they may)."""
    started = _before_start(live)
    if started is not None:
        return started
    if seat == HOST:
        return _host_stays()
    return None


def vacate(state: SeatState) -> None:
    """Free the seat ``state``: nobody and no bot sits there, its token opens nothing.
    Its count of connections here stays: the service turns them into spectators'
    (:meth:`red7.web.service.Tables.unseat_gone`), each taking one off."""
    state.name, state.token_hash, state.bot, state.left = "", None, None, None


def unseated_message() -> str:
    """What a connection whose seat was emptied (its person removed, or gone) is told."""
    return _("You no longer have a seat at this table: you are watching it.")

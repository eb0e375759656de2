"""Who may sit at, watch and leave a table before its game starts: its name, its
invitation, and the refusals of removing and leaving a seat.

A table has a name its creator chose (:func:`clean_table_name`; default "Ana's table",
:func:`default_table_name`). A private table is not in the lobby: its page, frames and
records open only with a seat token of the table or its invitation secret
(:meth:`red7.web.live.LiveTable.invited`; a person who knows neither is told
:func:`not_invited`). Its host may renew the invitation (a new secret: the old link
opens nothing any more) or revoke it (only the seated people open the table then):
:func:`invite_refusal` says who may; the spectators who came in by the old invitation
stop seeing the table, told why (:func:`invite_withdrawn`), and seated people keep
their seats. Before the start, the host (seat 0, who made the table) may empty
another seat (:func:`removal_refusal`) and a person may leave theirs
(:func:`leaving_refusal`); the seat is then free again (:func:`vacate`) and the token
of the person who sat there opens nothing any more. The checks are here; the changes
themselves go through :class:`red7.web.service.Tables`, like every change of a table.
"""

from __future__ import annotations

from typing import Final

from ..play.session import Stop
from ..ui.i18n import _
from .live import LiveTable, SeatState
from .refusals import Refused, session_refusal

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


def not_invited(secret: str | None = None) -> Refused:
    """The refusal (``private``) of a private table to someone with neither its
    invitation nor a seat; ``secret``: the invitation they gave, which is not, or no
    longer, the table's (its host may have renewed or revoked it: :func:`invite_refusal`;
    a forged one and an old one cannot be told apart, only hashes are kept)."""
    if secret:
        message = _(
            "This invitation link does not open this table: its host may have renewed or revoked it. "
            "Ask them for the current link."
        )
        return Refused("private", message, 403)
    return Refused("private", _("This table is private: open it through its invitation link."), 403)


def invite_withdrawn() -> str:
    """What someone holding an invitation the host renewed or revoked is told: when they
    use it, and when they were watching the table through it (their connection ends)."""
    return _(
        "This invitation link no longer opens the table: its host renewed or revoked it. Ask them for the new link."
    )


def invite_refusal(live: LiveTable, by: int | None) -> Refused | None:
    """Why the person in seat ``by`` (None: no seat) may not renew or revoke ``live``'s
    invitation (None: they may). Only the host does, of a private table, while the table
    is not closed; the new secret replaces the old one, whose link then opens nothing."""
    if by != HOST:
        return Refused("not-host", _("Only the host, who made the table, can change its invitation."), 403)
    if not live.private:
        return Refused("not-private", _("This table is public: it has no invitation to change."), 409)
    if live.status == "closed":
        return session_refusal(Stop.CLOSED)
    return None


def revoked_message() -> str:
    """What a connection whose seat token an admin revoked is told before it ends."""
    return _("An admin revoked this seat's token: ask the table's host to seat you again.")


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

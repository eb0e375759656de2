"""Who sits at a table and who may see it: taking, leaving and emptying seats before the
game starts, a bot in a free seat, and the seat a token opens.

A person takes a free seat under a name (:func:`clean_name`; a registered person under
their username: :mod:`red7.web.table.members`) and gets its token; only the token's
SHA-256 is kept. A private table's page, frames and records open only with a seat token
of the table or its invitation secret (:meth:`~red7.web.table.live.LiveTable.invited`;
a person who knows neither is told :func:`not_invited`). Before the start, the host
(seat 0, who made the table: :mod:`red7.web.table.hosting`) may empty another seat and a
person may leave theirs; the seat is then free again (:func:`vacate`) and the token of
the person who sat there opens nothing any more. Each change goes through
:meth:`~red7.web.table.tables.Tables.change`, like every change of a table.
"""

from __future__ import annotations

from typing import Final

from ...bots import LEVELS
from ...play.session import Stop
from ...ui.i18n import _, language
from ...ui.words import NAME_LENGTH, RESERVED_NAME, name_key
from ..http.refusals import Refused, session_refusal
from ..storage.stored import ACCOUNT_REVOKED, ADMIN_REVOKED, REMOVED, new_token, token_hash
from .live import LiveTable, SeatState
from .members import Member
from .tables import CLOSED, Tables

REMOVED_KEPT: Final = 50
"""The people removed a table remembers (the latest): enough for any host."""
HOST: Final = 0
"""The host's seat: the table's creator's, who alone may remove others before the start."""


def clean_name(name: str) -> str:
    """A person's ``name`` at a table, its spaces folded; refused if too long, not
    printable, or one the table gives its bots and empty seats ("Bot 2", "Player 3")."""
    text = " ".join(name.split())
    if len(text) > NAME_LENGTH or any(not ch.isprintable() for ch in text):
        raise Refused("bad-name", _("Give a name of up to {n} characters.").format(n=NAME_LENGTH))
    if RESERVED_NAME.fullmatch(name_key(text)):
        raise Refused(
            "reserved-name",
            _("Names like {name} are the table's, for its bots and empty seats: choose another name.").format(
                name=text
            ),
        )
    return text


def needs_account() -> Refused:
    return Refused("rated-needs-account", _("A rated table is for registered players: log in first."), 403)


def sit(live: LiveTable, seat: int, name: str, member: Member | None = None) -> str:
    """Seat a person in ``seat`` of ``live`` (held) under ``name``, or a registered
    ``member`` under their username; their new token."""
    if live.rated and member is None:
        raise needs_account()
    # a registered person sits under their username (already checked by its own rules)
    clean = member.username if member is not None else clean_name(name)
    if clean and any(name_key(clean) == name_key(other.name) for other in live.seats if other.name):
        raise Refused(
            "name-taken", _("Someone at this table is called {name}: choose another name.").format(name=clean), 409
        )
    token = new_token()
    state = SeatState(clean, token_hash(token), account=None if member is None else member.id)
    if state.who in live.removed:
        raise Refused("removed", removed_message(), 403)
    live.seats[seat] = state
    return token


def free_seat(live: LiveTable, seat: int) -> int:
    """``seat``, if it is one of ``live``'s and free before the start; else Refused."""
    if not 0 <= seat < live.config.players:
        # the API counts seats from 0, as the engine does (the pages show them from 1)
        raise Refused(
            "bad-seat", _("This table's seats are numbered 0 to {last}.").format(last=live.config.players - 1)
        )
    if live.status == CLOSED:
        raise session_refusal(Stop.CLOSED)
    if live.status != "open":
        raise Refused("started", _("The game has started: seats can no longer be taken."), 409)
    if live.seats[seat].taken:
        raise Refused("seat-taken", _("That seat is taken."), 409)
    return seat


async def join(
    tables: Tables, table_id: str, seat: int, name: str, invite: str | None = None, member: Member | None = None
) -> str:
    """A person takes a free seat (of a private table: with its ``invite``; ``member``:
    logged in, under their username); their new token. Refused in the language in use."""
    live = await tables.find(table_id)
    admit(live, None, invite)

    async def sat() -> str:
        token = sit(live, free_seat(live, seat), name, member)
        await tables.write(live)
        return token

    return await tables.change(live, sat, lang=language())


async def seat_of(tables: Tables, live: LiveTable, token: str | None) -> int | None:
    """The seat ``token`` opens at the table (None: none); a seat just taken through
    another process is read from the database before saying none."""
    seat = live.seat_of(token)
    if seat is None and token and tables.bus.shared:
        await tables.refresh(live.id)
        seat = live.seat_of(token)
    return seat


def bad_token() -> Refused:
    return Refused("bad-token", _("This seat token does not open a seat at this table."), 403)


async def member_seat(tables: Tables, live: LiveTable, token: str | None) -> int:
    """The seat ``token`` opens at ``live``; else Refused (``bad-token``, in the language in use)."""
    seat = await seat_of(tables, live, token)
    if seat is None:
        raise bad_token()
    return seat


def admit(live: LiveTable, seat: int | None, invite: str | None) -> None:
    """Refuse (``private``, in the language in use) anyone who may not see ``live``:
    a private table opens only to a seat (``seat``: the one the person's token opens)
    or its invitation secret ``invite``."""
    if seat is None and not live.invited(invite):
        raise not_invited(invite)


async def remove(tables: Tables, table_id: str, token: str, seat: int) -> None:
    """The host (seat 0, by their ``token``) empties ``seat`` before the start: the
    person there (their token opens nothing any more) or the bot."""
    live = await tables.find(table_id)
    await member_seat(tables, live, token)

    async def emptied() -> None:
        by = live.seat_of(token)  # again: another process may have changed the seats
        if by is None:
            raise bad_token()
        refusal = removal_refusal(live, by, seat)
        if refusal is not None:
            raise refusal
        state = live.seats[seat]
        person = state.who
        vacate(state)
        if person is not None:  # a person, not a bot: told so, and may not sit here again
            live.removed = (*live.removed, person)[-REMOVED_KEPT:]
            state.revoked = REMOVED
        await tables.write(live)

    await tables.change(live, emptied, lang=language())


async def leave(tables: Tables, table_id: str, token: str) -> None:
    """The person of ``token`` leaves their seat before the start (their token then opens nothing)."""
    live = await tables.find(table_id)
    await member_seat(tables, live, token)

    async def stood_up() -> None:
        seat = live.seat_of(token)
        if seat is None:
            raise bad_token()
        refusal = leaving_refusal(live, seat)
        if refusal is not None:
            raise refusal
        vacate(live.seats[seat])
        await tables.write(live)

    await tables.change(live, stood_up, lang=language())


async def add_bot(tables: Tables, table_id: str, token: str, seat: int, level: str) -> None:
    """A person at the table puts a bot (``level``: easy, medium, hard) in a free seat."""
    live = await tables.find(table_id)
    await member_seat(tables, live, token)

    async def seated() -> None:
        free = free_seat(live, seat)
        if level not in LEVELS:
            raise Refused("bad-level", _("Bot levels: {levels}.").format(levels=", ".join(LEVELS)))
        if live.rated and any(other.bot == level for other in live.seats):
            # (a rating is a player's: two seats of one level would be one player twice)
            raise Refused("bad-level", _("A rated table seats each bot level once: choose another level."))
        live.seats[free] = SeatState(bot=level)
        await tables.write(live)

    await tables.change(live, seated, lang=language())


def not_invited(secret: str | None = None) -> Refused:
    """The refusal (``private``) of a private table to someone with neither its
    invitation nor a seat; ``secret``: the invitation they gave, which is not, or no
    longer, the table's (its host may have renewed or revoked it; a forged one and an
    old one cannot be told apart, only hashes are kept)."""
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


def revoked_message(why: str | None = ADMIN_REVOKED) -> str:
    """What a connection whose seat token was revoked is told before it ends: an admin
    revoked that seat's (``why``: :data:`~red7.web.storage.stored.ADMIN_REVOKED`), or
    its account was banned or removed (:data:`~red7.web.storage.stored.ACCOUNT_REVOKED`)."""
    if why == ACCOUNT_REVOKED:
        return _("This account was banned from this server, or removed: its seats no longer open to it.")
    return _("An admin revoked this seat's token: ask the table's host to seat you again.")


def unseated_message() -> str:
    """What a connection whose seat was emptied (its person left) is told."""
    return _("You no longer have a seat at this table: you are watching it.")


def removed_message() -> str:
    """What a person the host removed is told: at their connections, and when they try
    to sit at that table again (under the same name or account)."""
    return _("The host removed you from this table: you may watch it, but not sit at it again.")


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
    Its count of connections here stays: the presence turns them into spectators'
    (:meth:`red7.web.table.presence.Presence.unseat_gone`), each taking one off."""
    state.name, state.token_hash, state.bot, state.left, state.revoked = "", None, None, None, None

"""A table's making and what its host and the server's admins change of it: its name and
options, its invitation, a person seated again, a seat's token revoked (or every seat's
of an account), the table closed.

A table has a name its creator chose (:func:`clean_table_name`; default "Ana's table",
:func:`default_table_name`) and options set once (players, basic or advanced game,
action cards, language, clock, spectators' chat, hints, rated). Its creator takes seat 0
and is its host. A private table is not in the lobby; its host may renew its invitation
(a new secret: the old link opens nothing any more) or revoke it (only the seated people
open the table then): :func:`invite_refusal` says who may; the spectators who came in by
the old invitation stop seeing the table, told why, and seated people keep their seats.
An admin (:mod:`red7.web.admin`) may revoke a seat's token (the host seats its person
again: :func:`reseat`) or close the table (:func:`close`); banning or removing an
account revokes its seats' tokens at every table (:func:`revoke_account`, given the
account's id: the table knows no more of accounts), for good.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import secrets
from typing import Final

from ...core.model import Config, GameError
from ...play.session import Stop
from ...ui.i18n import _, language, parse_language, using
from ..http.refusals import Refused, session_refusal
from ..storage.stored import ACCOUNT_REVOKED, ADMIN_REVOKED, new_token, token_hash
from .clocks import CLOCKS, clock_refusal
from .live import TABLE_NAME_LENGTH, LiveTable, SeatState, default_table_name
from .members import Member
from .seating import HOST, clean_name, member_seat, needs_account, sit
from .tables import CLOSED, Tables

log = logging.getLogger("red7.web")

SPECTATOR_CHATS: Final = ("separate", "off")
"""What the host may choose of spectators' chat (:mod:`red7.web.chat`)."""


def clean_table_name(name: str) -> str:
    """``name`` with its spaces folded; refused (``bad-table-name``) if longer than
    :data:`TABLE_NAME_LENGTH` or holding a character that is not printable. Any other
    text is kept as written (the pages show it as text, never as HTML)."""
    text = " ".join(name.split())
    if len(text) > TABLE_NAME_LENGTH or any(not ch.isprintable() for ch in text):
        raise table_name_refusal()
    return text


def table_name_refusal() -> Refused:
    return Refused("bad-table-name", _("Give the table a name of up to {n} characters.").format(n=TABLE_NAME_LENGTH))


def spectator_chat_refusal() -> Refused:
    """A table's ``spectator_chat`` that is neither ``separate`` nor ``off``."""
    return Refused("bad-settings", _("Spectators' chat is separate or off."))


async def create(
    tables: Tables,
    players: int,
    advanced: bool,
    actions: bool,
    lang: str,
    name: str,
    clock: int = 0,
    spectator_chat: str = "separate",
    member: Member | None = None,
    table_name: str = "",
    invite: str | None = None,
    hints: bool = True,
    rated: bool = False,
) -> tuple[LiveTable, str]:
    """A new table; its creator takes seat 0. Returns the table and the creator's token
    (the values are a :class:`~red7.web.table.requests.CreateTable`'s, checked for their
    types; ``clock``: seconds per turn, one of :data:`~red7.web.table.clocks.CLOCKS`;
    ``member``: the creator is logged in, and sits under their username;
    ``table_name``: its name (empty: "Ana's table", after the creator's seat name);
    ``invite``: a private table's invitation secret (None: a public table), of which
    only the hash is kept; ``hints``: whether its people may ask for a hint; ``rated``:
    its games move its players' ratings, so it seats registered people only, and no
    hint is given at it)."""
    try:
        config = Config(players, advanced, actions)
    except GameError as err:
        raise Refused("bad-settings", str(err)) from None
    try:
        tag = parse_language(lang)
    except ValueError as err:
        raise Refused("bad-settings", str(err)) from None
    with using(tag):
        creator = member.username if member is not None else clean_name(name)  # refused before anything is made
        title = clean_table_name(table_name) or default_table_name(creator)
        if clock not in CLOCKS:
            raise clock_refusal()
        if rated and member is None:
            raise needs_account()
        if spectator_chat not in SPECTATOR_CHATS:
            raise spectator_chat_refusal()
    table_id = secrets.token_urlsafe(6)
    hashed = None if invite is None else token_hash(invite)
    hints = hints and not rated
    live = LiveTable(
        table_id,
        tag,
        config,
        [SeatState() for _ in range(config.players)],
        patience=tables.patience,
        wall=tables.wall,
        spectator_chat=spectator_chat,
        name=title,
        private=hashed is not None,
        invite_hash=hashed,
        hints=hints,
        rated=rated,
    )
    live.session.clock = clock
    live.saved = await tables.db(
        tables.store.create_table,
        table_id,
        config.players,
        config.advanced,
        config.actions,
        tag,
        clock,
        spectator_chat,
        title,
        hashed,
        hints,
        rated,
    )
    tables.live[table_id] = live
    async with tables.changing(live):
        token = sit(live, HOST, name, member)
        await tables.write(live)
    return live, token


def invite_refusal(live: LiveTable, by: int | None) -> Refused | None:
    """Why the person in seat ``by`` (None: no seat) may not renew or revoke ``live``'s
    invitation (None: they may). Only the host does, of a private table, while the table
    is not closed; the new secret replaces the old one, whose link then opens nothing."""
    if by != HOST:
        return Refused("not-host", _("Only the host, who made the table, can change its invitation."), 403)
    if not live.private:
        return Refused("not-private", _("This table is public: it has no invitation to change."), 409)
    if live.status == CLOSED:
        return session_refusal(Stop.CLOSED)
    return None


async def change_invite(tables: Tables, table_id: str, host_token: str, revoke: bool = False) -> str | None:
    """The host (the person in seat 0, by their token) of a private table makes a new
    invitation secret, returned (the old one stops opening the table), or with
    ``revoke`` ends it (None: only the seated people open the table from now on).
    Either way the spectators who came in by the old invitation stop seeing the table,
    in every process (:meth:`~red7.web.table.presence.Presence.unseat_gone`); seated
    people keep their seats (their tokens open them). Only the secret's hash is kept."""
    live = await tables.find(table_id)
    await member_seat(tables, live, host_token)

    async def invited() -> str | None:
        refusal = invite_refusal(live, live.seat_of(host_token))
        if refusal is not None:
            raise refusal
        secret = None if revoke else new_token()
        live.invite_hash = None if secret is None else token_hash(secret)
        await tables.write(live)
        return secret

    secret = await tables.change(live, invited, lang=language())
    log.info("table %s: its invitation was %s by its host", live.id, "revoked" if revoke else "renewed")
    return secret


def persons_seat(live: LiveTable, seat: int) -> SeatState:
    """The seat ``seat`` of ``live`` if a person sits in it; else Refused."""
    if not 0 <= seat < len(live.seats) or live.seats[seat].token_hash is None:
        raise Refused("no-person", _("No person sits in that seat."), 409)
    return live.seats[seat]


async def reseat(tables: Tables, table_id: str, host_token: str, seat: int) -> str:
    """The host (the person in seat 0) gives the person of ``seat`` a new token (after
    an admin revoked theirs, or when they lost it); the new token. Any token the seat
    had stops opening it."""
    live = await tables.find(table_id)
    host = await member_seat(tables, live, host_token)

    async def seated_again() -> str:
        if host != HOST or live.seat_of(host_token) != HOST or seat == HOST:
            raise Refused("not-host", _("Only the table's host (seat 1) may seat a person again."), 403)
        state = persons_seat(live, seat)
        if state.revoked == ACCOUNT_REVOKED:
            message = _("This seat's account was banned from this server, or removed: it cannot be seated again.")
            raise Refused("account-revoked", message, 409)
        token = new_token()
        state.token_hash, state.revoked = token_hash(token), None
        await tables.write(live)
        return token

    return await tables.change(live, seated_again, lang=language())


async def revoke_seat(tables: Tables, table_id: str, seat: int) -> None:
    """Revoke the token of a person's seat (an admin does): the seat keeps its person
    and their account but opens to no token any more, so its connections end, in
    every process; the host seats them again (:func:`reseat`)."""
    live = await tables.find(table_id)

    async def revoked() -> None:
        state = persons_seat(live, seat)
        state.token_hash = token_hash(new_token())  # a token nobody holds
        if state.revoked != ACCOUNT_REVOKED:  # (its account's revocation stays: it is not seated again)
            state.revoked = ADMIN_REVOKED
        await tables.write(live)

    await tables.change(live, revoked)
    log.info("table %s: the token of seat %d was revoked by an admin", live.id, seat)


async def revoke_account(tables: Tables, account: int) -> int:
    """Revoke the token of every seat the account ``account`` took, at every table (its
    account was banned or removed): each is a table change like any other, so in every
    process the connections of those tokens end, told why, and the tokens open nothing
    (:meth:`~red7.web.table.presence.Presence.unseat_gone`); each seat keeps its person,
    whom its host cannot seat again (:func:`reseat`: ``account-revoked``). A seat this
    process does not know of yet (taken through another process a moment ago) is
    revoked in the database (:meth:`~red7.web.storage.store.Store.revoke_account_seats`)
    and its table read back here and told to the other processes. How many tables
    changed."""

    def holding(live: LiveTable) -> list[SeatState]:
        return [
            state
            for state in live.seats
            if state.account == account and state.token_hash is not None and state.revoked != ACCOUNT_REVOKED
        ]

    async def revoked(live: LiveTable) -> bool:
        seats = holding(live)  # as the table is now: another process may have changed its seats
        for state in seats:
            state.token_hash, state.revoked = token_hash(new_token()), ACCOUNT_REVOKED  # a token nobody holds
        if seats:
            await tables.write(live)
        return bool(seats)

    changed = 0
    for live in [live for live in tables.live.values() if holding(live)]:
        with contextlib.suppress(Refused):  # (expired meanwhile: its tokens open nothing)
            changed += await tables.change(live, functools.partial(revoked, live))
    for table_id, version in (await tables.db(tables.store.revoke_account_seats, account)).items():
        tables.bus.publish({"t": table_id, "v": version})  # (a change to read from the database)
        await tables.refresh(table_id, version)
        changed += 1
    log.info("the seat tokens of account %d were revoked at every table (%d tables)", account, changed)
    return changed


async def close(tables: Tables, table_id: str) -> None:
    """Close a table (an admin does): its game ends where it stands (the session says so:
    :meth:`~red7.play.session.Session.close`), it leaves the lobby, and its page tells
    its players why; a table change like any other, so every process sees it."""
    live = await tables.find(table_id)

    async def shut() -> None:
        if live.status == CLOSED:
            return
        live.status = CLOSED
        live.session.close()
        await tables.write(live)

    await tables.change(live, shut)
    log.info("table %s closed by an admin", live.id)

"""Playing at a table: the game started, a person's decisions and take-backs, and the
rematch's agreements and refusals.

The flow itself is the table's :class:`~red7.play.session.Session` (whose decision is
awaited, the staged turn, sequence numbers, substitutes, new games): these functions
check a person's intent against the table as this process finds it, hand it to the
session, and write the change (:meth:`~red7.web.table.tables.Tables.change`: decided
again on the table read back if another process's change got in first). Each refuses in
the language in use: the asker's (their connection's, their page's), whatever the table's.
"""

from __future__ import annotations

import time

from ...core.actions import Action, ActionError
from ...core.model import IllegalActionError
from ...play.session import Refused as SessionRefused
from ...play.session import Stop
from ...ui.i18n import _, language
from ...ui.words import refusal_text
from ..http.refusals import Refused, session_refusal
from .live import LiveTable, session_seats
from .seating import HOST, member_seat
from .tables import CLOSED, Tables


async def start(tables: Tables, table_id: str, token: str) -> None:
    """The host (seat 0, who made the table) starts the game once every seat is taken;
    anyone else seated is refused (``not-host``): the table is theirs to start."""
    live = await tables.find(table_id)
    await member_seat(tables, live, token)

    async def begun() -> None:
        if live.status == CLOSED:
            raise session_refusal(Stop.CLOSED)
        if live.seat_of(token) != HOST:  # (again: another process may have changed the seats)
            raise Refused("not-host", _("Only the host, who made the table, starts the game."), 403)
        if live.status != "open":
            raise Refused("started", _("The game has started already."), 409)
        if not all(s.taken for s in live.seats):
            raise Refused("seats-free", _("Every seat needs a player or a bot before the game starts."), 409)
        await new_game(tables, live)

    await tables.change(live, begun, lang=language())


async def new_game(tables: Tables, live: LiveTable, rematch: bool = False) -> None:
    """Deal ``live``'s next game (held), for the same seats after a ``rematch``, and write it."""
    seed = tables.seeds()
    if rematch:
        live.session.rematch(seed)
    else:
        live.session.start(session_seats(live.seats), live.config, seed)
    live.game_number += 1
    live.game_id = None  # a new game: the database numbers it
    live.status = "playing"
    for seat in live.seats:  # a person who is not connected when the game starts is away from now on
        if seat.bot is None and not seat.online and seat.left is None:
            seat.left = time.monotonic()
    await tables.write(live)


def stale_game(live: LiveTable, game: int | None) -> bool:
    """Whether a message about game ``game`` (None: it names none, the game being
    played) is about another game than ``live``'s: stale, whatever its ``seq``."""
    return game is not None and game != live.game_number


def _after_game(live: LiveTable, game: int | None) -> None:
    """Refuse a rematch's answer unless the game is over (and is game ``game``, when
    the message says which: an answer about an earlier game is stale), or the table
    was closed."""
    if live.session.closed:
        raise session_refusal(Stop.CLOSED)
    if not live.session.started or live.session.playing:
        raise session_refusal(Stop.NOT_OVER)
    if stale_game(live, game):
        raise session_refusal(Stop.STALE)


async def again(tables: Tables, table_id: str, seat: int, game: int | None = None) -> None:
    """The person of ``seat`` agrees to play again after game ``game`` (None: the
    last one): the first agreement is the proposal the others see; once every person
    seated agreed (bots always do), a new deal for the same seats."""
    live = tables.get(table_id)

    async def agreed() -> None:
        _after_game(live, game)
        try:
            consented = live.session.agree(seat)
        except SessionRefused as refused:
            raise session_refusal(refused.stop) from None
        if consented:
            await new_game(tables, live, rematch=True)
        else:
            await tables.write(live)

    await tables.change(live, agreed, lang=language())


async def decline(tables: Tables, table_id: str, seat: int, game: int | None = None) -> None:
    """The person of ``seat`` declines the rematch proposed after game ``game``: the
    proposal ends, and every seat is told who declined."""
    live = tables.get(table_id)

    async def declined() -> None:
        _after_game(live, game)
        try:
            live.session.decline(seat)
        except SessionRefused as refused:
            raise session_refusal(refused.stop) from None
        await tables.write(live)

    await tables.change(live, declined, lang=language())


async def _turn_of(tables: Tables, live: LiveTable, seat: int, seq: int, game: int | None) -> None:
    """Refuse, in words, unless ``seat`` may decide now against sequence number ``seq``
    of game ``game`` (:meth:`Session.check`; a decision made against a change this
    process has not read yet is checked against it, not refused as stale). The table is
    read back only then: a decision's change is otherwise its write alone (one round
    trip on PostgreSQL), and one crossed by another process's is decided again."""
    if tables.bus.shared and (seq != live.seq_for(seat) or stale_game(live, game)):
        await tables.reread(live)
    if live.status != "playing":
        raise session_refusal(Stop.CLOSED if live.status == CLOSED else Stop.NO_GAME)
    if stale_game(live, game):
        raise session_refusal(Stop.STALE)
    try:
        live.session.check(seat, seq)
    except SessionRefused as refused:
        raise session_refusal(refused.stop) from None


async def decide(tables: Tables, table_id: str, seat: int, seq: int, action: str, game: int | None = None) -> None:
    """The person in ``seat`` makes ``action`` (notation) against ``seq`` of game ``game``
    (None: the game being played)."""
    live = tables.get(table_id)

    async def decided() -> None:
        await _turn_of(tables, live, seat, seq, game)
        try:
            parsed = Action.parse(action)
        except ActionError:
            raise Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'.")) from None
        try:
            live.session.decide(parsed, seat, seq)  # the person decides: back, if a substitute played
        except IllegalActionError as err:
            raise Refused(err.refusal.code.value, refusal_text(err.refusal)) from None
        await tables.write(live)

    await tables.change(live, decided, reread=False, lang=language())
    tables.metrics.decisions.labels(by="person").inc()


async def take_back(tables: Tables, table_id: str, seat: int, seq: int, game: int | None = None) -> None:
    """The person in ``seat`` takes back their staged turn, from the frame ``seq`` of
    game ``game`` (None: the game being played)."""
    live = tables.get(table_id)

    async def taken_back() -> None:
        await _turn_of(tables, live, seat, seq, game)
        away = live.substitute(seat) is not None
        if not live.session.take_back(seat, seq):  # (the person acts: back, if a substitute played)
            if away:
                await tables.write(live)
            raise Refused("nothing-staged", _("There is nothing to take back."), 409)
        await tables.write(live)

    await tables.change(live, taken_back, reread=False, lang=language())

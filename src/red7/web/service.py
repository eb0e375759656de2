"""The tables a web server is running: seats, games, decisions, bots and who is connected.

:class:`Tables` is the server's side of the game, independent of HTTP: the FastAPI app
(:mod:`red7.web.server`) turns requests and WebSocket messages into its calls, and its
answers into frames (:mod:`red7.web.views`). The flow of each table's games (whose
decision is awaited, sequence numbers, take-backs, substitutes, new games, late bot
answers) is its :class:`~red7.play.session.Session`'s, the state machine the terminal
and text games drive too; :class:`Tables` keeps what belongs to a server: connections
and who is present, the database and its versions, the bus, the bot pool and the clocks
(the patience, the takeover, the bots' delay). Everything here runs on the server's event
loop, one call at a time, so a table changes only between two awaits; bots think in a
process pool (or threads) and hand their answer back to the loop.

Every change of a table goes through :meth:`Tables._changed`: the table is written to
the database as its next version (:meth:`red7.web.store.Store.commit`), every client of
the table in this process gets its new frame through the :class:`Hub`, the other
processes are told through the :mod:`bus <red7.web.bus>`, and the next bot is asked.

Several processes may serve the same tables. Each keeps a copy of every table in
memory and changes it only against the version it was copied at: a change another
process made first makes the write fail, the copy is read again from the database and
the change is decided again against it (:meth:`Tables._retried`), so an intent crossed
by another is refused only if what it was decided against moved (a decision whose
sequence number the other change moved is stale; a seat the other change took is
taken), else applied. A process told (or finding, at its
look every few seconds) that a table moved reads it back and sends its clients their
frames. The bot of a table is asked by the process that wrote the change that made it
the bot's turn; if that process dies, another takes over after :data:`TAKEOVER`
seconds. Who is connected is told over the bus too, so a person away is away from
every process.

Decisions carry the sequence number they were made against (``seq``, which the seat's
frames carry: :meth:`~red7.web.live.LiveTable.seq_for`): a stale or repeated one is
refused and changes nothing, a take-back moving the number on, never back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..bots import LEVELS, BotSpecError, make_bot, stored_spec
from ..bots.base import Bot
from ..core.actions import Action, ActionError
from ..core.model import Config, GameError, IllegalActionError, Option
from ..core.observation import Observation
from ..core.record import SeatRecord, to_record
from ..core.seeds import derive_seed, fresh_seed
from ..play.match import ranks_of
from ..play.session import BotTurn, Role, Session, Stop
from ..play.session import Refused as SessionRefused
from ..play.table import Seat, Table
from ..ui.i18n import _, parse_language, using
from ..ui.words import NAME_LENGTH, RESERVED_NAME, name_key, refusal_text
from .accounts import Account
from .bus import Bus
from .chat import Chat
from .clocks import CLOCKS, clock_refusal
from .frames import FrameCache
from .live import LiveTable, SeatState
from .metrics import Metrics
from .protocol import spectator_chat_refusal
from .ratings import Ratings, Standing, placings
from .refusals import Refused, session_refusal
from .seating import (
    clean_table_name,
    default_table_name,
    invite_refusal,
    invite_withdrawn,
    leaving_refusal,
    not_invited,
    removal_refusal,
    revoked_message,
    unseated_message,
    vacate,
)
from .store import Store, StoredTable, change_message, changed_table, new_token, replayed, token_hash
from .views import encode, error_frame

log = logging.getLogger("red7.web")
T = TypeVar("T")

SUBSTITUTE = "medium"
"""The bot that plays for a person away longer than the table's patience."""
RATE_LOOK = 30.0
"""Seconds between two looks of a process for finished games of rated tables left
unrated (their rater died before it wrote the ratings: :mod:`red7.web.ratings`)."""
TAKEOVER = 10.0
"""Seconds a bot's turn may wait before a process other than the one that asked the
bot (dead, perhaps) asks it again (the database lets only one of their moves in)."""
BEAT, GONE = 2.0, 7.0
"""Seconds between two "I am here" messages of a process, and after which a silent
process is taken for gone (its connections with it)."""
LOOK = 5.0
"""Seconds between two looks at every table's version in the database (the bus may lose
a message: this finds the change anyway)."""
EXPIRED = "expired"
"""The status of an open table nobody used for ``expire_open`` seconds: gone from the
lobby and from every process's memory, its link says there is no such table."""
CLOSED = "closed"
"""The status of a table an admin closed (:meth:`Tables.close`): its game ended where it
stood, its page says why, nothing more is played at it; its replays stay."""


Send = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Client:
    """One open connection: the table and seat it sees (None: a spectator) and how to
    send it a frame (its JSON text, :func:`~red7.web.views.encode`)."""

    table_id: str
    seat: int | None
    send: Send
    greeted: bool = False
    """Whether it has had its first frame (the one with the words of the page, ``ui``)."""
    log: Sequence[str] = ()
    """The move log it has (that of the last frame it got), which later frames extend
    (:func:`~red7.web.views.since`)."""
    shown: dict[str, Any] | None = None
    """The last frame it was sent (whole): an unchanged one is not sent again."""
    chat: bool = False
    """Whether it shows the table's chat (its hello said so): it is sent the chat's lines."""
    token_hash: str | None = None
    """The hash of the seat token it connected with: once the seat's is another (its
    person removed or gone: :meth:`Tables.unseat_gone`; an admin revoked it:
    :meth:`Tables.revoke_seat`), the connection no longer holds the seat."""
    end: Callable[[str, str], Awaitable[None]] | None = None
    """How to end the connection, telling it why (an error frame's code and message):
    its seat token was revoked, or the invitation it watches by was changed."""
    invite_hash: str | None = None
    """The hash of the private table's invitation it came with (None: none, or a public
    table): once the table's is another (its host renewed or revoked it:
    :meth:`Tables.change_invite`), a spectator's connection is ended."""

    def admitted(self, live: LiveTable) -> bool:
        """Whether the connection may still see ``live`` as a spectator: it holds a seat
        (checked against its token apart), or the table is public, or it came with no
        invitation (a person unseated before the start watches on), or with the one the
        table has now."""
        return self.seat is not None or not live.private or self.invite_hash in (None, live.invite_hash)


class Hub:
    """Who is connected to which table, and the fan-out of a table's frames to them
    (each client gets the frame of its own seat: :func:`~red7.web.views.table_frame`,
    each view made once per change: :class:`~red7.web.frames.FrameCache`)."""

    def __init__(self) -> None:
        self.clients: dict[str, set[Client]] = {}
        self.frames = FrameCache()

    def add(self, client: Client) -> None:
        self.clients.setdefault(client.table_id, set()).add(client)

    def remove(self, client: Client) -> None:
        clients = self.clients.get(client.table_id, set())
        clients.discard(client)
        if not clients:  # nobody here sees the table: its views are not kept
            self.clients.pop(client.table_id, None)
            self.frames.forget(client.table_id)

    def of(self, table_id: str) -> list[Client]:
        return list(self.clients.get(table_id, ()))

    async def publish(self, live: LiveTable) -> None:
        """Send every client of ``live`` here its frame of the table now: a connection's
        first frame whole, with the words of the page; later ones with only the new part
        of the move log (:func:`~red7.web.views.since`), and none if nothing it may see
        changed. Each view (a seat's, the spectators') is made once per change and each
        text encoded once, whatever the number of connections showing it and of times
        the table's clients are told."""
        clients = self.of(live.id)
        if not clients:
            return
        for client in clients:
            held = client.token_hash  # (None: a client made without one, in tests)
            if client.seat is not None and held is not None and held != live.seats[client.seat].token_hash:
                continue  # its seat is no longer its: it never sees the seat's next person (unseat_gone tells it)
            if not client.admitted(live):
                continue  # came by an invitation its host changed: unseat_gone ends it
            # each client's view as the table is now: a send may let the table change meanwhile
            view = self.frames.view(live, client.seat)
            whole = view.whole
            if client.greeted and (whole is client.shown or whole == client.shown):
                continue  # nothing it may see changed (another seat's staged turn, say)
            text, _start = view.text(client.log if client.greeted else None, live.lang)
            client.shown, client.greeted = whole, True
            client.log = whole["game"]["log"] if whole["game"] else ()
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(text)


# --- bots in other processes ------------------------------------------------------------

_worker_bots: dict[str, Bot] = {}


def end_with_parent() -> None:
    """A bot worker's initializer: end the worker when the server that started it
    ends, killed included (SIGKILL runs no shutdown code, and a worker waiting on the
    pool's queue would wait for ever, holding on to its memory)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # readable once the server is gone
        os._exit(0)

    threading.Thread(target=watch, name="red7-watch-server", daemon=True).start()


def choose_in_worker(spec: str, observation: Observation, options: list[Option], seed: int) -> str:
    """A bot's decision, computed in a pool worker (the bot made once per worker and
    spec); the notation of the decision."""
    bot = _worker_bots.get(spec)
    if bot is None:
        bot = _worker_bots[spec] = make_bot(spec)
    return str(bot.choose(observation, options, random.Random(seed)))


CONFLICT_TRIES = 4
"""How many times a change is decided again on a table read back after another process
changed it first, before it is refused as ``stale``."""


class Conflict(Refused):
    """A write another process got in first: the table was read back, nothing of the change
    stays. The change is decided again (:meth:`Tables._retried`); to a client, one that
    kept losing is ``stale``."""


class Tables:
    """The live tables of one server, kept in ``store``.

    ``pool`` runs the bots (a process pool in the server; None: threads, for tests);
    ``bot_delay``: least seconds a bot's move takes, so people can follow it;
    ``patience``: seconds a person may be away on their turn before a bot plays for them;
    ``bus``: how the processes sharing the database tell each other (default: alone);
    ``expire_open``: seconds an open table may stay with nobody connected and nothing
    changing before it expires (0: never); ``wall``: the time the tables' clocks read
    (seconds since the epoch; tests give one they move themselves); ``clock``: what the
    chat's rate limit reads."""

    def __init__(
        self,
        store: Store,
        pool: Executor | None = None,
        bot_delay: float = 0.8,
        patience: float = 60.0,
        hub: Hub | None = None,
        bus: Bus | None = None,
        metrics: Metrics | None = None,
        expire_open: float = 0.0,
        seeds: Callable[[], int] = fresh_seed,
        wall: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
        rate_look: float = RATE_LOOK,
    ) -> None:
        self.store, self.pool, self.bot_delay, self.patience = store, pool, bot_delay, patience
        self.seeds = seeds
        """Where each new game's seed comes from (tests give a stream of their own)."""
        self.wall = wall
        """The time the tables' clocks read: seconds since the epoch (a deadline is
        stored: it outlives the process and is the same in every one)."""
        self.expire_open = expire_open
        self.hub = hub or Hub()
        self.bus = bus or Bus()
        self.metrics = metrics or Metrics()
        self.live: dict[str, LiveTable] = {}
        self.elsewhere: dict[str, dict[tuple[str, int], int]] = {}
        """Each other process's open connections by (table, seat), as it last told."""
        self.heard: dict[str, float] = {}
        """When (``time.monotonic``) each other process was last heard."""
        self._watcher: asyncio.Task[None] | None = None
        self.chat = Chat(store, self.bus, self._chat_clients, self._db, clock)
        """The tables' chat (:mod:`red7.web.chat`)."""
        self.ratings = Ratings(store.engine)
        """The ratings rated tables move (:mod:`red7.web.ratings`)."""
        self._rating: set[asyncio.Task[None]] = set()
        """The ratings of games being written."""
        self._pending_look: asyncio.Task[None] | None = None
        """The look for unrated games under way, if one is."""
        self.rate_look = rate_look
        """Seconds between two looks for finished games of rated tables left unrated
        (:data:`RATE_LOOK` unless the server's ``--rate-look`` says otherwise)."""

    # --- starting and stopping ------------------------------------------------------

    def load(self) -> None:
        """Bring back every table of the database, each game replayed from its seed and
        decisions to exactly where it was (a person's staged turn included)."""
        for stored in self.store.tables():
            live = self.live[stored.id] = self._revive(stored)
            if self._finished_unsaid(live):  # before the server serves: nothing waits for this
                assert live.saved is not None
                written = self.store.commit(live.saved, live.stored())
                if written is not None:
                    live.saved = written

    def _revive(self, stored: StoredTable) -> LiveTable:
        config = Config(stored.players, stored.advanced, stored.actions)
        seats = [SeatState() for _ in stored.seats]
        live = LiveTable(
            stored.id,
            stored.lang,
            config,
            seats,
            stored.status,
            patience=self.patience,
            wall=self.wall,
            spectator_chat=stored.spectator_chat,
            name=stored.name,
            private=stored.private,
            invite_hash=stored.invite_hash,
            hints=stored.hints,
            rated=stored.rated,
        )
        self._copy(live, stored)
        for seat in live.seats:
            if seat.bot is None and seat.token_hash is not None:
                seat.left = time.monotonic()  # nobody is connected to this process yet
        if self.bus.shared:  # bots waiting now are another process's, unless it is gone
            live.touched = time.monotonic() - TAKEOVER + BEAT
        return live

    @staticmethod
    def _finished_unsaid(live: LiveTable) -> bool:
        """Is ``live``'s game over but not its status (written by the previous release,
        killed between a game's last decision and its result)? If so, the status is
        made "over" here: write it (:meth:`_revived`, :meth:`load`)."""
        table = live.table
        if table is not None and table.is_over and live.status != "over":
            live.status = "over"
            return True
        return False

    async def _revived(self, stored: StoredTable) -> LiveTable:
        """:meth:`_revive`, its status written off the event loop if it had to change."""
        live = self._revive(stored)
        if self._finished_unsaid(live):
            assert live.saved is not None
            written = await self._db(self.store.commit, live.saved, live.stored())
            if written is not None:
                live.saved = written
        return live

    def _copy(self, live: LiveTable, stored: StoredTable) -> None:
        """Make ``live`` what the database holds (``stored``): seats, status, and the
        game brought to its decisions (only what differs is replayed)."""
        for seat, stored_seat in zip(live.seats, stored.seats, strict=True):
            seat.load(stored_seat)
        live.status = stored.status
        live.invite_hash = stored.invite_hash  # (its host may renew or revoke it)
        game = stored.game
        session = live.session
        if game is None:
            if session.started:
                live.session = session = Session()
            live.game_id, live.game_number = None, 0
        else:
            if live.table is None or live.game_id != game.id:
                config = Config.from_mapping(game.config)
                session.start(self._table_seats(live), config, game.seed, game.deal)
                live.game_id, live.game_number = game.id, game.number
            session.catch_up([action for _seat, action in game.decisions], game.committed)
        session.load_seats([seat.substitute for seat in stored.seats], [seat.undone for seat in stored.seats])
        session.load_clock(stored.clock, stored.deadline)
        session.load_rematch(stored.agreed, stored.declined)
        if stored.status == CLOSED:
            session.close()
        live.saved, live.touched = stored, time.monotonic()

    async def start_background(self) -> None:
        """Start listening to the other processes, the watch over absent players and
        bots, and (alone) the bots of games waiting for one."""
        await self.bus.start(self._heard, self._connected)
        self._watcher = asyncio.create_task(self._watch())
        self._rate_later(self._rate_pending())  # those a process that died left
        if not self.bus.shared:
            for live in self.live.values():
                self._next_bot(live)

    async def stop(self) -> None:
        bots = [live.bot_task for live in self.live.values()]
        tasks = [t for t in [self._watcher, *bots, *self._rating] if t is not None]
        for task in tasks:  # (a rating cut short is rated by the next start: Ratings.unrated)
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.bus.stop()

    # --- the lobby ------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        """The table ``table_id`` as this process holds it (no database read: a table
        just made by another process may not be here yet, see :meth:`find`; a
        connection's table was found when it connected); Refused (``no-table``) if
        there is none."""
        live = self.live.get(table_id)
        if live is None or live.status == EXPIRED:
            raise Refused("no-table", _("There is no table {id}.").format(id=table_id[:32]), 404)
        return live

    async def find(self, table_id: str) -> LiveTable:
        """:meth:`get`, and with other processes a table made by one of them just now
        (not heard of yet) read from the database, in one of the store's threads."""
        if table_id not in self.live and self.bus.shared and len(table_id) <= 32:
            stored = await self._db(self.store.table, table_id)
            if stored is not None and stored.status != EXPIRED and table_id not in self.live:
                revived = await self._revived(stored)
                self.live.setdefault(table_id, revived)  # (unless revived meanwhile by another call)
        return self.get(table_id)

    def listed(self) -> list[LiveTable]:
        """The tables to show in the lobby: open ones first, then those being played, the
        newest first in each (:attr:`live` holds them in the order they came to this
        process); never a private one."""
        order = {"open": 0, "playing": 1}
        newest_first = reversed(self.live.values())
        shown = (t for t in newest_first if t.status in order and not t.private)
        return sorted(shown, key=lambda t: order[t.status])

    async def create(
        self,
        players: int,
        advanced: bool,
        actions: bool,
        lang: str,
        name: str,
        clock: int = 0,
        spectator_chat: str = "separate",
        account: Account | None = None,
        table_name: str = "",
        invite: str | None = None,
        hints: bool = True,
        rated: bool = False,
    ) -> tuple[LiveTable, str]:
        """A new table; its creator takes seat 0. Returns the table and the creator's token
        (the values are a :class:`~red7.web.protocol.CreateTable`'s, checked for their
        types; ``clock``: seconds per turn, one of :data:`~red7.web.clocks.CLOCKS`;
        ``account``: the creator is logged in, and sits under their username;
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
            creator = (
                account.username if account is not None else self._clean_name(name)
            )  # refused before anything is made
            title = clean_table_name(table_name) or default_table_name(creator)
            if clock not in CLOCKS:
                raise clock_refusal()
            if rated and account is None:
                raise Refused("rated-needs-account", _("A rated table is for registered players: log in first."), 403)
            if spectator_chat not in ("separate", "off"):
                raise spectator_chat_refusal()
        table_id = secrets.token_urlsafe(6)
        hashed = None if invite is None else token_hash(invite)
        live = LiveTable(
            table_id,
            tag,
            config,
            [SeatState() for _ in range(config.players)],
            patience=self.patience,
            wall=self.wall,
            spectator_chat=spectator_chat,
            name=title,
            private=hashed is not None,
            invite_hash=hashed,
            hints=hints and not rated,
            rated=rated,
        )
        live.session.clock = clock
        live.saved = await self._db(
            self.store.create_table,
            table_id,
            config.players,
            config.advanced,
            config.actions,
            tag,
            clock,
            spectator_chat,
            title,
            hashed,
            hints and not rated,
            rated,
        )
        self.live[table_id] = live
        async with self._changing(live):
            token = self._sit(live, 0, name, account)
            await self._changed(live)
        return live, token

    def _clean_name(self, name: str) -> str:
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

    def _sit(self, live: LiveTable, seat: int, name: str, account: Account | None = None) -> str:
        if live.rated and account is None:
            raise Refused("rated-needs-account", _("A rated table is for registered players: log in first."), 403)
        # a registered person sits under their username (already checked by its own rules)
        clean = account.username if account is not None else self._clean_name(name)
        if clean and any(name_key(clean) == name_key(other.name) for other in live.seats if other.name):
            raise Refused(
                "name-taken", _("Someone at this table is called {name}: choose another name.").format(name=clean), 409
            )
        token = new_token()
        live.seats[seat] = SeatState(clean, token_hash(token), account=None if account is None else account.id)
        return token

    def _free_seat(self, live: LiveTable, seat: int) -> int:
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
        self, table_id: str, seat: int, name: str, invite: str | None = None, account: Account | None = None
    ) -> str:
        """A person takes a free seat (of a private table: with its ``invite``; ``account``:
        logged in, under their username); their new token."""
        live = await self.find(table_id)
        with using(live.lang):
            self.admit(live, None, invite)

        async def sit() -> str:
            token = self._sit(live, self._free_seat(live, seat), name, account)
            await self._changed(live)
            return token

        return await self._retried(live, sit)

    async def seat_of(self, live: LiveTable, token: str | None) -> int | None:
        """The seat ``token`` opens at the table (None: none); a seat just taken through
        another process is read from the database before saying none."""
        seat = live.seat_of(token)
        if seat is None and token and self.bus.shared:
            await self.refresh(live.id)
            seat = live.seat_of(token)
        return seat

    async def _member(self, live: LiveTable, token: str | None) -> int:
        seat = await self.seat_of(live, token)
        if seat is None:
            with using(live.lang):
                raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
        return seat

    @staticmethod
    def admit(live: LiveTable, seat: int | None, invite: str | None) -> None:
        """Refuse (``private``, in the language in use) anyone who may not see ``live``:
        a private table opens only to a seat (``seat``: the one the person's token opens)
        or its invitation secret ``invite``."""
        if seat is None and not live.invited(invite):
            raise not_invited(invite)

    async def remove(self, table_id: str, token: str, seat: int) -> None:
        """The host (seat 0, by their ``token``) empties ``seat`` before the start: the
        person there (their token opens nothing any more) or the bot."""
        live = await self.find(table_id)
        await self._member(live, token)

        async def empty() -> None:
            by = live.seat_of(token)  # again: another process may have changed the seats
            if by is None:
                raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
            refusal = removal_refusal(live, by, seat)
            if refusal is not None:
                raise refusal
            vacate(live.seats[seat])
            await self._changed(live)

        await self._retried(live, empty)

    async def leave(self, table_id: str, token: str) -> None:
        """The person of ``token`` leaves their seat before the start (their token then
        opens nothing)."""
        live = await self.find(table_id)
        await self._member(live, token)

        async def stand_up() -> None:
            seat = live.seat_of(token)
            if seat is None:
                raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
            refusal = leaving_refusal(live, seat)
            if refusal is not None:
                raise refusal
            vacate(live.seats[seat])
            await self._changed(live)

        await self._retried(live, stand_up)

    @contextlib.asynccontextmanager
    async def _changing(self, live: LiveTable, reread: bool = False) -> AsyncIterator[None]:
        """Hold ``live`` for a change (one change of a table at a time: its write to the
        database is awaited), in the table's language; with ``reread``, read the table
        back first if another process changed it."""
        async with live.lock:
            with using(live.lang):
                if reread and self.bus.shared:
                    await self._reread(live)
                yield

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the database, in one of the store's threads: the event loop
        serves the other tables while PostgreSQL commits (and waits for its disk)."""
        return await asyncio.get_running_loop().run_in_executor(self.store.executor, call, *args)

    async def leaderboard(self, offset: int, limit: int, kind: str | None = None) -> tuple[list[Standing], int]:
        """A page of the ratings' leaderboard (:meth:`Ratings.board`), read off the loop."""
        return await self._db(self.ratings.board, offset, limit, kind)

    async def add_bot(self, table_id: str, token: str, seat: int, level: str) -> None:
        """A person at the table puts a bot (``level``: easy, medium, hard) in a free seat."""
        live = await self.find(table_id)
        await self._member(live, token)

        async def seat_bot() -> None:
            free = self._free_seat(live, seat)
            if level not in LEVELS:
                raise Refused("bad-level", _("Bot levels: {levels}.").format(levels=", ".join(LEVELS)))
            if live.rated and any(other.bot == level for other in live.seats):
                # (a rating is a player's: two seats of one level would be one player twice)
                raise Refused("bad-level", _("A rated table seats each bot level once: choose another level."))
            live.seats[free] = SeatState(bot=level)
            await self._changed(live)

        await self._retried(live, seat_bot)

    async def start(self, table_id: str, token: str) -> None:
        """A person at the table starts the game once every seat is taken."""
        live = await self.find(table_id)
        await self._member(live, token)

        async def begin() -> None:
            if live.status == CLOSED:
                raise session_refusal(Stop.CLOSED)
            if live.status != "open":
                raise Refused("started", _("The game has started already."), 409)
            if not all(s.taken for s in live.seats):
                raise Refused("seats-free", _("Every seat needs a player or a bot before the game starts."), 409)
            await self._new_game(live)

        await self._retried(live, begin)

    async def again(self, table_id: str, seat: int, game: int | None = None) -> None:
        """The person of ``seat`` agrees to play again after game ``game`` (None: the
        last one): the first agreement is the proposal the others see; once every person
        seated agreed (bots always do), a new deal for the same seats."""
        live = self.get(table_id)

        async def agree() -> None:
            self._after_game(live, game)
            try:
                consented = live.session.agree(seat)
            except SessionRefused as refused:
                raise session_refusal(refused.stop) from None
            if consented:
                await self._new_game(live, rematch=True)
            else:
                await self._changed(live)

        await self._retried(live, agree)

    async def decline(self, table_id: str, seat: int, game: int | None = None) -> None:
        """The person of ``seat`` declines the rematch proposed after game ``game``: the
        proposal ends, and every seat is told who declined."""
        live = self.get(table_id)

        async def decline() -> None:
            self._after_game(live, game)
            try:
                live.session.decline(seat)
            except SessionRefused as refused:
                raise session_refusal(refused.stop) from None
            await self._changed(live)

        await self._retried(live, decline)

    async def _retried(self, live: LiveTable, change: Callable[[], Awaitable[T]], reread: bool = True) -> T:
        """``change()`` with ``live`` held (and, with ``reread``, read back first if another
        process changed it); decided again (up to :data:`CONFLICT_TRIES` times, on the
        table as the failed write read it back) while another process's write gets in first.
        ``change`` checks what it needs of the table as it finds it (a seat still free,
        the sequence number its decision was made against still the seat's, the game
        over for a rematch's answer) and refuses in words if that moved: the people of
        a table act at once through different processes, and an intent refused only for
        having been crossed would have to be repeated by hand."""
        for attempt in range(CONFLICT_TRIES):
            try:
                async with self._changing(live, reread=reread and attempt == 0):
                    return await change()
            except Conflict:
                if attempt == CONFLICT_TRIES - 1:
                    raise
        raise AssertionError("unreachable: the last try returns or raises")

    @staticmethod
    def _after_game(live: LiveTable, game: int | None) -> None:
        """Refuse a rematch's answer unless the game is over (and is game ``game``, when
        the message says which: an answer about an earlier game is stale), or the table
        was closed."""
        if live.session.closed:
            raise session_refusal(Stop.CLOSED)
        if not live.session.started or live.session.playing:
            raise session_refusal(Stop.NOT_OVER)
        if game is not None and game != live.game_number:
            raise session_refusal(Stop.STALE)

    async def _new_game(self, live: LiveTable, rematch: bool = False) -> None:
        seed = self.seeds()
        if rematch:
            live.session.rematch(seed)
        else:
            live.session.start(self._table_seats(live), live.config, seed)
        live.game_number += 1
        live.game_id = None  # a new game: the database numbers it
        live.status = "playing"
        for seat in live.seats:  # a person who is not connected when the game starts is away from now on
            if seat.bot is None and not seat.online and seat.left is None:
                seat.left = time.monotonic()
        await self._changed(live)

    @staticmethod
    def _table_seats(live: LiveTable) -> list[Seat]:
        # a level removed since the seat was stored plays as its replacement (stored_spec)
        specs = [stored_spec(s.bot) if s.bot else None for s in live.seats]
        return [Seat(s.name, make_bot(spec) if spec else None, spec) for s, spec in zip(live.seats, specs, strict=True)]

    # --- playing --------------------------------------------------------------------

    async def _turn_of(self, live: LiveTable, seat: int, seq: int) -> None:
        """Refuse, in words, unless ``seat`` may decide now against sequence number ``seq``
        (:meth:`Session.check`; a decision made against a change this process has not
        read yet is checked against it, not refused as stale). The table is read back
        only then: a decision's change is otherwise its write alone (one round trip on
        PostgreSQL), and one crossed by another process's is decided again
        (:meth:`_retried`)."""
        if self.bus.shared and seq != live.seq_for(seat):
            await self._reread(live)
        if live.status != "playing":
            raise session_refusal(Stop.CLOSED if live.status == CLOSED else Stop.NO_GAME)
        try:
            live.session.check(seat, seq)
        except SessionRefused as refused:
            raise session_refusal(refused.stop) from None

    async def decide(self, table_id: str, seat: int, seq: int, action: str) -> None:
        """The person in ``seat`` makes ``action`` (notation) against ``seq``."""
        live = self.get(table_id)

        async def decided() -> None:
            await self._turn_of(live, seat, seq)
            try:
                parsed = Action.parse(action)
            except ActionError:
                raise Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'.")) from None
            try:
                live.session.decide(parsed, seat, seq)  # the person decides: back, if a substitute played
            except IllegalActionError as err:
                raise Refused(err.refusal.code.value, refusal_text(err.refusal)) from None
            await self._changed(live)

        await self._retried(live, decided, reread=False)
        self.metrics.decisions.labels(by="person").inc()

    async def take_back(self, table_id: str, seat: int, seq: int) -> None:
        live = self.get(table_id)

        async def taken_back() -> None:
            await self._turn_of(live, seat, seq)
            away = live.substitute(seat) is not None
            if not live.session.take_back(seat, seq):  # (the person acts: back, if a substitute played)
                if away:
                    await self._changed(live)
                raise Refused("nothing-staged", _("There is nothing to take back."), 409)
            await self._changed(live)

        await self._retried(live, taken_back, reread=False)

    # --- connections ----------------------------------------------------------------

    async def connect(self, client: Client) -> None:
        live = self.get(client.table_id)
        self.hub.add(client)
        self.metrics.clients.inc()
        number = client.seat
        if number is not None:
            live.seats[number].here += 1
            self._tell_presence(live, number)

            async def back() -> bool:
                # the person takes the seat again (not on a clocked table's turn whose
                # time ran out: its substitute ends that turn)
                if live.substitute(number) is not None and live.session.back(number):
                    await self._changed(live)
                    return True
                return False

            if live.substitute(number) is not None:
                with contextlib.suppress(Refused):
                    if await self._retried(live, back):
                        return
        await self._publish(live)

    async def disconnect(self, client: Client) -> None:
        self.hub.remove(client)
        self.chat.forget(client)
        self.metrics.clients.dec()
        live = self.live.get(client.table_id)
        if live is None or client.seat is None:
            return
        live.seats[client.seat].here = max(live.seats[client.seat].here - 1, 0)
        self._tell_presence(live, client.seat)
        await self._publish(live)

    def _connected(self) -> None:
        """The bus is connected (again): say hello (the other processes then tell who is
        connected to them) and who is connected here. Nobody could tell anything while it
        was down, so every absent person's patience starts again now."""
        now = time.monotonic()
        for live in self.live.values():
            for number, state in enumerate(live.seats):
                if state.left is not None:
                    state.left = now
                if state.here:
                    self.bus.publish({"t": live.id, "seat": number, "here": state.here})
        self.bus.publish({"hello": 1})

    def _tell_presence(self, live: LiveTable, seat: int) -> None:
        self._count_online(live, seat)
        self.bus.publish({"t": live.id, "seat": seat, "here": live.seats[seat].here})

    def _count_online(self, live: LiveTable, seat: int) -> None:
        """Sum the seat's connections over the processes; note when the person left."""
        state = live.seats[seat]
        state.elsewhere = sum(counts.get((live.id, seat), 0) for counts in self.elsewhere.values())
        if state.online:
            state.left = None
        elif state.left is None:
            state.left = time.monotonic()

    def _chat_clients(self, table_id: str) -> list[tuple[int | None, Send]]:
        """The connections to ``table_id`` in this process, for its chat: (seat, send) each."""
        live = self.live.get(table_id)
        return [
            (client.seat, client.send)
            for client in self.hub.of(table_id)
            if client.chat and (live is None or client.admitted(live))
        ]

    # --- the other processes --------------------------------------------------------

    async def _heard(self, message: dict[str, Any]) -> None:
        """A message of another process (:mod:`red7.web.bus`)."""
        process = str(message.get("p"))
        self.heard[process] = time.monotonic()
        table_id, seat, here = message.get("t"), message.get("seat"), message.get("here")
        if isinstance(table_id, str) and "chat" in message:
            await self.chat.heard(self.live.get(table_id), message)
        elif isinstance(table_id, str) and isinstance(message.get("v"), int):
            self.metrics.heard.inc()
            await self.refresh(table_id, message["v"], message)
        elif isinstance(table_id, str) and isinstance(seat, int) and isinstance(here, int):
            self.elsewhere.setdefault(process, {})[(table_id, seat)] = here
            live = self.live.get(table_id)
            if live is None:
                with contextlib.suppress(Refused):
                    live = await self.find(table_id)
            if live is not None and 0 <= seat < len(live.seats):
                self._count_online(live, seat)
                await self._publish(live)
        elif message.get("hello"):  # a process (re)started: tell it who is connected here
            for live in self.live.values():
                for number, state in enumerate(live.seats):
                    if state.here:
                        self.bus.publish({"t": live.id, "seat": number, "here": state.here})

    async def refresh(self, table_id: str, version: int | None = None, change: dict[str, Any] | None = None) -> None:
        """Bring this process's copy of the table to the database's if it is behind
        (behind ``version``, if known), from the ``change`` another process told
        (:func:`~red7.web.store.change_message`) when it applies, else by reading the
        table back; and send its clients here their frames."""
        live = self.live.get(table_id)
        if live is None:
            stored = await self._db(self.store.table, table_id)
            if stored is not None and table_id not in self.live and stored.status != EXPIRED:
                revived = await self._revived(stored)
                await self._publish(self.live.setdefault(table_id, revived))
            return
        async with live.lock:
            if version is not None and live.version >= version:
                return  # this process made the change, or has read it already
            changed = None if change is None or live.saved is None else changed_table(live.saved, change)
            if changed is not None:
                self._copy(live, changed)  # the change itself came with the message
            elif not await self._reread(live):
                return
        await self._publish(live)
        if live.status == EXPIRED:  # expired by another process: gone from this one too
            self.live.pop(table_id, None)

    async def _reread(self, live: LiveTable) -> bool:
        """Read the table back if the database has a newer version (``live.lock`` held);
        whether it had."""
        stored = await self._db(self.store.table, live.id, live.version)
        if stored is not None:
            self._copy(live, stored)
        return stored is not None

    async def _publish(self, live: LiveTable) -> None:
        """Send the table's clients here their frames, unless a change of it is being
        written (its frames follow the write: none may show a change not yet in)."""
        if not live.lock.locked():
            await self._fan_out(live)

    async def _fan_out(self, live: LiveTable) -> None:
        """:meth:`unseat_gone`, then every client here gets its frame (:meth:`Hub.publish`)."""
        await self.unseat_gone(live)
        await self.hub.publish(live)

    async def unseat_gone(self, live: LiveTable) -> None:
        """Every spectator's connection here that came by an invitation the host has
        changed since (:meth:`change_invite`) is ended, told why; every connection here
        whose seat token no longer opens its seat, here or
        through another process, stops holding the seat, told why: if the seat was
        emptied (its person removed by the host, or left) it is a spectator's from now
        on and counts no more as the seat's presence; if the seat kept its person under
        another token (an admin revoked theirs: :meth:`revoke_seat`, or the host seated
        them again: :meth:`reseat`) it is ended (:attr:`Client.end`), since whoever held
        the old token may not even watch a private table. (Without this, a connection
        of a removed person would see the hand of whoever sits there next.)"""
        for client in self.hub.of(live.id):
            if client.seat is None:
                if not client.admitted(live) and client.end is not None:
                    with using(live.lang), contextlib.suppress(Exception):  # (its handler then counts it gone)
                        await client.end("invite-changed", invite_withdrawn())
                continue
            if live.seats[client.seat].token_hash == client.token_hash:
                continue
            state = live.seats[client.seat]
            if state.taken and state.bot is None and client.end is not None:
                with using(live.lang), contextlib.suppress(Exception):  # (its handler then counts it gone)
                    await client.end("seat-revoked", revoked_message())
                continue
            seat, client.seat, client.token_hash = client.seat, None, None
            client.greeted, client.shown, client.log = False, None, ()
            state.here = max(state.here - 1, 0)
            self._tell_presence(live, seat)
            with using(live.lang):
                text = encode(error_frame("unseated", unseated_message()))
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(text)

    def _forget_silent(self) -> list[tuple[str, int]]:
        """Drop the connections of processes not heard for :data:`GONE` seconds (dead,
        or cut off); the (table, seat) pairs whose count changed."""
        now = time.monotonic()
        changed: list[tuple[str, int]] = []
        for process, last in list(self.heard.items()):
            if now - last > GONE:
                del self.heard[process]
                changed += [key for key, count in self.elsewhere.pop(process, {}).items() if count]
                log.info("process %s is silent: its connections are counted gone", process)
        return changed

    async def _watch(self) -> None:
        """Once a second: a person away on their turn longer than the patience gets a
        substitute bot (until they come back); with other processes, also: say this
        one is here, forget silent ones, look for tables changed unseen, and take over
        bots whose turn waits too long."""
        beat = look = rated = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            if self.bus.shared:
                if now - beat >= BEAT:
                    beat = now
                    self.bus.publish({"beat": 1})
                for table_id, seat in self._forget_silent():
                    if table_id in self.live:
                        self._count_online(self.live[table_id], seat)
                        await self._publish(self.live[table_id])
                if now - look >= LOOK:
                    look = now
                    await self._look()
            if now - rated >= self.rate_look and self._pending_look is None:
                # (one look at a time: a look waiting on a rating another process is
                # writing must not be joined by more, each holding a store thread)
                rated = now
                self._pending_look = asyncio.create_task(self._rate_pending())
                self._rating.add(self._pending_look)
                self._pending_look.add_done_callback(self._look_done)
            for live in list(self.live.values()):
                await self._watch_table(live, now)
                await self._expire_if_idle(live, now)

    async def _look(self) -> None:
        try:
            versions = await self._db(self.store.versions)
        except Exception as err:  # the database away for a moment: look again later
            log.warning("could not read the tables' versions (%s)", type(err).__name__)
            return
        for table_id, version in versions.items():
            live = self.live.get(table_id)
            if live is None or live.version < version:
                await self.refresh(table_id, version)
        for table_id in [table_id for table_id in self.live if table_id not in versions]:
            await self.refresh(table_id)  # expired by another process (its message lost)

    async def _watch_table(self, live: LiveTable, now: float) -> None:
        """The clocks of a table being played: a person away on their turn longer than
        the patience is away to the session (a substitute plays for them); a bot's turn
        waiting longer than :data:`TAKEOVER` is asked here."""
        mover = live.session.mover()
        if mover is None:
            return
        number, role = mover
        seat = live.seats[number]
        if live.lock.locked():
            return  # being changed: look again in a second
        if role is Role.PERSON and live.session.clock:
            if live.session.deadline is not None and self.wall() >= live.session.deadline:
                with contextlib.suppress(Refused):
                    async with self._changing(live, reread=True):
                        if live.session.expire(self.wall(), SUBSTITUTE) is not None:
                            await self._changed(live)
        elif role is Role.PERSON and seat.left is not None and self.bus.ready:
            # (with the bus down, who is connected to the other processes is not known)
            if now - seat.left >= self.patience:
                with contextlib.suppress(Refused):
                    async with self._changing(live):
                        if live.session.away(number, SUBSTITUTE):  # (its staged turn taken back)
                            await self._changed(live)
        elif self.bus.shared and role is not Role.PERSON and now - live.touched > TAKEOVER:
            if live.bot_task is None or live.bot_task.done():
                log.info("table %s: its bot's turn waited %.0f s; asked here", live.id, now - live.touched)
                live.touched = now
                self._next_bot(live)

    async def _expire_if_idle(self, live: LiveTable, now: float) -> None:
        """Expire ``live`` if it is open and nobody has been at it (connected to this
        process, or, in a seat, to any) nor changed it for :attr:`expire_open` seconds."""
        if not self.expire_open or live.status != "open" or live.lock.locked():
            return
        if self.hub.of(live.id) or any(seat.online for seat in live.seats):
            live.touched = now  # (an open table's bots are never asked: the time is free for this)
            return
        if now - live.touched < self.expire_open:
            return
        with contextlib.suppress(Refused):
            async with self._changing(live, reread=True):
                if live.status != "open" or now - live.touched < self.expire_open:
                    return  # changed by another process meanwhile
                live.status = EXPIRED
                await self._changed(live)
        if live.status == EXPIRED:
            self.live.pop(live.id, None)
            log.info("table %s expired: open, and nobody at it for %.0f s", live.id, self.expire_open)

    # --- after every change ---------------------------------------------------------

    async def _changed(self, live: LiveTable) -> None:
        """Write the change made to ``live``, tell every client and process, ask the
        next bot. A table changed elsewhere first is read back and the change refused
        (``stale``): nothing of it stays."""
        table = live.table
        if table is not None and table.is_over and live.status != "over":
            live.status = "over"
        live.session.timed(self.wall())  # a new turn's clock starts now
        before = live.saved
        try:
            await self._commit(live)
        except Refused:
            await self._fan_out(live)  # the clients here see the table as it was read back
            raise
        assert before is not None and live.saved is not None
        self.bus.publish(change_message(before, live.saved))
        await self._fan_out(live)
        self._next_bot(live)
        if live.rated and table is not None and table.is_over:
            self._rate_later(self._rate(live.id, live.game_number))

    # --- ratings ----------------------------------------------------------------------

    def _rate_later(self, rating: Awaitable[None]) -> None:
        """Write a rating in a task of its own: a game's end is written (and told) first,
        and a rating that fails is tried again by the next look (:meth:`_rate_pending`)."""
        task = asyncio.ensure_future(rating)
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)

    def _look_done(self, look: asyncio.Task[None]) -> None:
        self._rating.discard(look)
        if self._pending_look is look:
            self._pending_look = None

    async def _rate(self, table_id: str, number: int) -> None:
        """Rate game ``number`` of the rated table ``table_id`` once it is over, exactly
        once whoever else rates it (:meth:`Ratings.apply`); a game with a guest in it
        (none can sit at a rated table) moves nothing."""
        live = self.live.get(table_id)
        if live is None or not live.rated:
            return
        seats = list(live.seats)  # who sits there, read on the loop (the seats never change in a game)
        try:
            stored = await self._db(self.store.game, table_id, number)
            if stored is None or stored.id is None or not stored.result:
                return
            places = placings(seats, ranks_of(replayed(stored)))
            if places is not None and await self._db(self.ratings.apply, stored.id, places):
                self.metrics.rated.inc()
        except Exception:  # the database away for a moment: the next look rates it
            log.exception("could not rate game %d of table %s", number, table_id)

    async def _rate_pending(self) -> None:
        """Rate the finished games of rated tables left unrated (:meth:`Ratings.unrated`)."""
        try:
            pending = await self._db(self.ratings.unrated)
        except Exception as err:
            log.warning("could not look for games to rate (%s)", type(err).__name__)
            return
        for table_id, number in pending:
            await self._rate(table_id, number)

    async def _commit(self, live: LiveTable) -> None:
        """Write ``live`` as its next version (``live.lock`` held), or read it back and
        refuse the change if another process changed it first."""
        assert live.saved is not None
        written = await self.store.write(live.saved, live.stored())
        if written is None:
            self.metrics.conflicts.inc()
            stored = await self._db(self.store.table, live.id)
            assert stored is not None
            self._copy(live, stored)
            stale = session_refusal(Stop.STALE)
            raise Conflict(stale.code, stale.message, stale.status)
        live.saved, live.touched = written, time.monotonic()
        live.game_id = None if written.game is None else written.game.id

    def _next_bot(self, live: LiveTable) -> None:
        """Ask the bot to move (or the substitute of an away person), if one is and none
        is asked yet."""
        mover = live.session.mover()
        if mover is None or mover[1] is Role.PERSON or (live.bot_task is not None and not live.bot_task.done()):
            return
        turn = live.session.awaited()
        assert isinstance(turn, BotTurn)
        live.bot_task = asyncio.create_task(self._bot_moves(live, turn))

    async def _bot_moves(self, live: LiveTable, turn: BotTurn) -> None:
        """Work out ``turn``'s answer in the pool and hand it to the session, which
        ignores it if the table moved on meanwhile (a person came back, a new game,
        another process's decision)."""
        spec = turn.spec
        assert spec is not None and live.table is not None
        seed = derive_seed(live.table.seed, "web-bot", turn.seq)
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.pool, choose_in_worker, spec, turn.observation, turn.options, seed)
        except (BotSpecError, GameError):
            log.exception("bot %s failed at table %s", spec, live.id)
            return
        await asyncio.sleep(max(0.0, self.bot_delay - (time.perf_counter() - started)))
        async with self._changing(live):
            live.bot_task = None
            if live.session.apply_bot(action, turn) is None:
                return  # late: the game moved on meanwhile
            try:
                await self._changed(live)
            except Refused:
                # another process moved first: the table is as it made it, and that
                # process, having written, asks the bot whose turn it is (not decided again)
                return
        self.metrics.decisions.labels(by="bot").inc()

    # --- an admin's (red7.web.routes.admin) --------------------------------------------

    async def close(self, table_id: str) -> None:
        """Close a table (an admin does): its game ends where it stands (the session
        says so: :meth:`~red7.play.session.Session.close`), it leaves the lobby, and its
        page tells its players why; a table change like any other, so every process
        sees it."""
        live = await self.find(table_id)

        async def shut() -> None:
            if live.status == CLOSED:
                return
            live.status = CLOSED
            live.session.close()
            await self._changed(live)

        await self._retried(live, shut)
        log.info("table %s closed by an admin", live.id)

    async def revoke_seat(self, table_id: str, seat: int) -> None:
        """Revoke the token of a person's seat (an admin does): the seat keeps its person
        and their account but opens to no token any more, so its connections end, in
        every process (:class:`Hub`); the host seats them again (:meth:`reseat`)."""
        live = await self.find(table_id)

        async def revoke() -> None:
            state = self._persons_seat(live, seat)
            state.token_hash = token_hash(new_token())  # a token nobody holds
            await self._changed(live)

        await self._retried(live, revoke)
        log.info("table %s: the token of seat %d was revoked by an admin", live.id, seat)

    async def reseat(self, table_id: str, host_token: str, seat: int) -> str:
        """The host (the person in seat 0) gives the person of ``seat`` a new token (after
        an admin revoked theirs, or when they lost it); the new token. Any token the seat
        had stops opening it."""
        live = await self.find(table_id)
        host = await self._member(live, host_token)

        async def seat_again() -> str:
            if host != 0 or live.seat_of(host_token) != 0 or seat == 0:
                raise Refused("not-host", _("Only the table's host (seat 1) may seat a person again."), 403)
            state = self._persons_seat(live, seat)
            token = new_token()
            state.token_hash = token_hash(token)
            await self._changed(live)
            return token

        return await self._retried(live, seat_again)

    async def change_invite(self, table_id: str, host_token: str, revoke: bool = False) -> str | None:
        """The host (the person in seat 0, by their token) of a private table makes a new
        invitation secret, returned (the old one stops opening the table), or with
        ``revoke`` ends it (None: only the seated people open the table from now on).
        Either way the spectators who came in by the old invitation stop seeing the
        table, in every process (:meth:`unseat_gone`); seated people keep their seats
        (their tokens open them). Only the secret's hash is kept."""
        live = await self.find(table_id)
        await self._member(live, host_token)

        async def invite() -> str | None:
            refusal = invite_refusal(live, live.seat_of(host_token))
            if refusal is not None:
                raise refusal
            secret = None if revoke else new_token()
            live.invite_hash = None if secret is None else token_hash(secret)
            await self._changed(live)
            return secret

        secret = await self._retried(live, invite)
        log.info("table %s: its invitation was %s by its host", live.id, "revoked" if revoke else "renewed")
        return secret

    @staticmethod
    def _persons_seat(live: LiveTable, seat: int) -> SeatState:
        """The seat ``seat`` of ``live`` if a person sits in it; else Refused."""
        if not 0 <= seat < len(live.seats) or live.seats[seat].token_hash is None:
            raise Refused("no-person", _("No person sits in that seat."), 409)
        return live.seats[seat]

    # --- records --------------------------------------------------------------------

    async def played(self, table_id: str, number: int) -> LiveTable:
        """The table as it was in its game ``number``: the table itself for the current
        game, else one around that game read back from the database (for replays)."""
        live = await self.find(table_id)
        if live.table is not None and number == live.game_number:
            return live
        with using(live.lang):
            stored = await self._db(self.store.game, table_id, number)
            if stored is None:
                raise Refused("no-game", _("This table has no game {n}.").format(n=number), 404)
        game = replayed(stored)
        seats = [Seat(s.name, None, s.bot) for s in live.seats]
        status = "over" if stored.result is not None else "playing"
        return replace(
            live, session=Session(Table.around(game, seats)), game_number=number, status=status, bot_task=None
        )

    async def record(self, table_id: str, number: int) -> dict[str, Any]:
        """The record of game ``number`` at the table, in the engine's format (what
        ``red7 replay`` reads); only once that game is over (its seed orders the deck)."""
        live = await self.find(table_id)
        with using(live.lang):
            stored = await self._db(self.store.game, table_id, number)
            if stored is None:
                raise Refused("no-game", _("This table has no game {n}.").format(n=number), 404)
            if stored.result is None:
                raise Refused("not-over", _("The record is shown once the game is over."), 409)
            return to_record(replayed(stored), [SeatRecord(s.name, s.bot) for s in live.seats])

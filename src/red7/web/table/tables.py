"""The live tables of a server and the one way to change one (:class:`Tables`).

A table is held in memory (:class:`~red7.web.table.live.LiveTable`: its seats and the
:class:`~red7.play.session.Session` of its games, the flow the terminal and text games
drive too) and kept in the database (:mod:`red7.web.storage`). Everything here runs on
the server's event loop, one call at a time, so a table changes only between two awaits.

**Changing a table.** Every change is made with the table held (:meth:`Tables.changing`:
one change of a table at a time) and written by :meth:`Tables.write`: the table goes to
the database as its next version (:meth:`~red7.web.storage.store.Store.write`), the
other processes are told through the :mod:`bus <red7.web.storage.bus>`, and the rooms
around are told through :attr:`Tables.events` (:mod:`red7.web.table.events`): the
presence sends every client its frame, the bots are asked, a finished game is rated.
The parts of the flow are modules over this one: :mod:`.seating` and :mod:`.hosting`
(who sits, the host's and an admin's changes), :mod:`.play` (decisions, rematches),
:mod:`.bots`, :mod:`.presence` (who is connected, their frames), :mod:`.cluster` (the
other processes), :mod:`.watch` (clocks and expiry), :mod:`.records` (games read back).

**Several processes** may serve the same tables. Each keeps a copy of every table in
memory and changes it only against the version it was copied at: a change another
process made first makes the write fail, the copy is read again from the database and
the change is decided again against it (:meth:`Tables.change`), so an intent crossed
by another is refused only if what it was decided against moved (a decision whose
sequence number the other change moved is stale; a seat the other change took is
taken), else applied. A process told (or finding, at its look every few seconds:
:mod:`.cluster`) that a table moved reads it back (:meth:`Tables.refresh`) and sends its
clients their frames.

Decisions carry the sequence number they were made against (``seq``, which the seat's
frames carry: :meth:`~red7.web.table.live.LiveTable.seq_for`): a stale or repeated one is
refused and changes nothing, a take-back moving the number on, never back.

**The database away** (PostgreSQL restarting): a change that cannot be written is refused
in words (:class:`DatabaseAway`, ``db-unavailable``) and nothing of it stays in memory;
the person sends it again, a bot's answer is written again (:mod:`.bots`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final, TypeVar

from ...core.model import Config
from ...core.seeds import fresh_seed
from ...play.session import Session, Stop
from ...ui.i18n import _, using
from ..http.metrics import Metrics
from ..http.refusals import Refused, session_refusal
from ..storage.bus import Bus
from ..storage.outage import Unavailable
from ..storage.store import Store
from ..storage.stored import StoredTable, change_message, changed_table
from .events import Changed, Events, GameOver
from .live import LiveTable, SeatState, session_seats

log = logging.getLogger("red7.web")
T = TypeVar("T")

EXPIRED: Final = "expired"
"""The status of an open table nobody used for ``expire_open`` seconds: gone from the
lobby and from every process's memory, its link says there is no such table."""
CLOSED: Final = "closed"
"""The status of a table an admin closed (:func:`~red7.web.table.hosting.close`): its game
ended where it stood, its page says why, nothing more is played at it; its replays stay."""
CONFLICT_TRIES: Final = 4
"""How many times a change is decided again on a table read back after another process
changed it first, before it is refused as ``stale``."""
TAKEOVER: Final = 10.0
"""Seconds a bot's turn may wait before a process other than the one that asked the
bot (dead, perhaps) asks it again (the database lets only one of their moves in)."""
BEAT, GONE = 2.0, 7.0
"""Seconds between two "I am here" messages of a process, and after which a silent
process is taken for gone (its connections with it)."""


class Conflict(Refused):
    """A write another process got in first: the table was read back, nothing of the change
    stays. The change is decided again (:meth:`Tables.change`); to a client, one that
    kept losing is ``stale``."""


class DatabaseAway(Refused):
    """A change, or a read it needed, that the database could not take (restarting, away):
    nothing of the change stays in memory, and the client is told to try again."""

    def __init__(self) -> None:
        message = _("The server cannot save your move right now: try again in a moment.")
        super().__init__("db-unavailable", message, 503)


class Tables:
    """The live tables of one server, kept in ``store``.

    ``bus``: how the processes sharing the database tell each other (default: alone);
    ``patience``: seconds a person may be away on their turn before a bot plays for them;
    ``seeds``: where each new game's seed comes from (tests give a stream of their own);
    ``wall``: the time the tables' clocks read, seconds since the epoch (a deadline is
    stored: it outlives the process and is the same in every one; tests move it)."""

    def __init__(
        self,
        store: Store,
        bus: Bus | None = None,
        metrics: Metrics | None = None,
        patience: float = 60.0,
        seeds: Callable[[], int] = fresh_seed,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.patience, self.seeds, self.wall = store, patience, seeds, wall
        self.bus = bus or Bus()
        self.metrics = metrics or Metrics()
        self.events = Events()
        """What the rooms around the table hear of its changes (:mod:`red7.web.table.events`)."""
        self.live: dict[str, LiveTable] = {}

    # --- the tables held -----------------------------------------------------------

    def load(self) -> None:
        """Bring back every table of the database, each game replayed from its seed and
        decisions to exactly where it was (a person's staged turn included)."""
        for stored in self.store.tables():
            live = self.live[stored.id] = self.revive(stored)
            if self._finished_unsaid(live):  # before the server serves: nothing waits for this
                assert live.saved is not None
                written = self.store.commit(live.saved, live.stored())
                if written is not None:
                    live.saved = written

    def revive(self, stored: StoredTable) -> LiveTable:
        """The live table of ``stored``, nobody connected to it here yet."""
        config = Config(stored.players, stored.advanced, stored.actions)
        live = LiveTable(
            stored.id,
            stored.lang,
            config,
            [SeatState() for _ in stored.seats],
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
        self.copy(live, stored)
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
        """:meth:`revive`, its status written off the event loop if it had to change."""
        live = self.revive(stored)
        if self._finished_unsaid(live):
            assert live.saved is not None
            written = await self.db(self.store.commit, live.saved, live.stored())
            if written is not None:
                live.saved = written
        return live

    def copy(self, live: LiveTable, stored: StoredTable) -> None:
        """Make ``live`` what the database holds (``stored``): seats, status, and the
        game brought to its decisions (only what differs is replayed)."""
        for seat, stored_seat in zip(live.seats, stored.seats, strict=True):
            seat.load(stored_seat)
        live.status = stored.status
        live.invite_hash = stored.invite_hash  # (its host may renew or revoke it)
        live.removed = stored.removed  # (and remove someone)
        game = stored.game
        session = live.session
        if game is None:
            if session.started:
                live.session = session = Session()
            live.game_id, live.game_number = None, 0
        else:
            if live.table is None or live.game_id != game.id:
                config = Config.from_mapping(game.config)
                session.start(session_seats(live.seats), config, game.seed, game.deal)
                live.game_id, live.game_number = game.id, game.number
            session.catch_up([action for _seat, action in game.decisions], game.committed)
        session.load_seats([seat.substitute for seat in stored.seats], [seat.undone for seat in stored.seats])
        session.load_clock(stored.clock, stored.deadline)
        session.load_rematch(stored.agreed, stored.declined)
        if stored.status == CLOSED:
            session.close()
        live.saved, live.touched = stored, time.monotonic()

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
            stored = await self.db(self.store.table, table_id)
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

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the database, in one of the store's threads: the event loop
        serves the other tables while PostgreSQL commits (and waits for its disk).
        :class:`DatabaseAway` if the database could not be reached."""
        try:
            return await self.store.run(call, *args)
        except Unavailable:
            raise DatabaseAway() from None

    # --- changing a table ----------------------------------------------------------

    @contextlib.asynccontextmanager
    async def changing(self, live: LiveTable, reread: bool = False, lang: str | None = None) -> AsyncIterator[None]:
        """Hold ``live`` for a change (one change of a table at a time: its write to the
        database is awaited), in ``lang`` (the language of whoever asks, which its
        refusals are said in; None: the table's); with ``reread``, read the table back
        first if another process changed it."""
        async with live.lock:
            with using(lang or live.lang):
                if reread and self.bus.shared:
                    await self.reread(live)
                yield

    async def change(
        self, live: LiveTable, change: Callable[[], Awaitable[T]], reread: bool = True, lang: str | None = None
    ) -> T:
        """``change()`` with ``live`` held (and, with ``reread``, read back first if another
        process changed it); decided again (up to :data:`CONFLICT_TRIES` times, on the
        table as the failed write read it back) while another process's write gets in first.
        ``change`` checks what it needs of the table as it finds it (a seat still free,
        the sequence number its decision was made against still the seat's, the game
        over for a rematch's answer), refuses in words if that moved, and ends with
        :meth:`write`: the people of a table act at once through different processes,
        and an intent refused only for having been crossed would have to be repeated by hand.
        ``lang``: as :meth:`changing`."""
        for attempt in range(CONFLICT_TRIES):
            try:
                async with self.changing(live, reread=reread and attempt == 0, lang=lang):
                    return await change()
            except Conflict:
                if attempt == CONFLICT_TRIES - 1:
                    raise
        raise AssertionError("unreachable: the last try returns or raises")

    async def write(self, live: LiveTable) -> None:
        """Write the change made to ``live`` (held: :meth:`changing`), tell the other
        processes and the rooms around (:class:`~red7.web.table.events.Changed`, and
        :class:`~red7.web.table.events.GameOver` if it ended the game). A table changed
        elsewhere first is read back, its clients told, and the change refused
        (:class:`Conflict`): nothing of it stays. So too with the database away
        (:class:`DatabaseAway`): the table is again as it was last written here (if the
        change went in all the same, a change made from there fails its compare and set,
        and the table is read back)."""
        table = live.table
        if table is not None and table.is_over and live.status != "over":
            live.status = "over"
        live.session.timed(self.wall())  # a new turn's clock starts now
        before = live.saved
        assert before is not None
        try:
            written = await self.store.write(before, live.stored())
            # another process's change first: the table as it is now
            newer = await self.db(self.store.table, live.id) if written is None else None
        except (Unavailable, DatabaseAway):
            self.metrics.unsaved.inc()
            self.copy(live, before)
            await self.events.tell(Changed(live, written=False))  # (its frames as they were)
            raise DatabaseAway() from None
        if written is None:
            assert newer is not None
            self.metrics.conflicts.inc()
            self.copy(live, newer)
            await self.events.tell(Changed(live, written=False))  # the clients here see the table as it is
            stale = session_refusal(Stop.STALE)
            raise Conflict(stale.code, stale.message, stale.status)
        live.saved, live.touched = written, time.monotonic()
        live.game_id = None if written.game is None else written.game.id
        self.bus.publish(change_message(before, written))
        await self.events.tell(Changed(live, written=True))
        if table is not None and table.is_over and (before.game is None or before.game.result is None):
            await self.events.tell(GameOver(live, live.game_number))

    # --- what other processes changed ----------------------------------------------

    async def refresh(self, table_id: str, version: int | None = None, change: dict[str, Any] | None = None) -> None:
        """Bring this process's copy of the table to the database's if it is behind
        (behind ``version``, if known), from the ``change`` another process told
        (:func:`~red7.web.storage.stored.change_message`) when it applies, else by reading the
        table back; and tell the rooms around (its clients here get their frames)."""
        live = self.live.get(table_id)
        if live is None:
            stored = await self.db(self.store.table, table_id)
            if stored is not None and table_id not in self.live and stored.status != EXPIRED:
                revived = await self._revived(stored)
                await self.publish(self.live.setdefault(table_id, revived))
            return
        async with live.lock:
            if version is not None and live.version >= version:
                return  # this process made the change, or has read it already
            changed = None if change is None or live.saved is None else changed_table(live.saved, change)
            if changed is not None:
                self.copy(live, changed)  # the change itself came with the message
            elif not await self.reread(live):
                return
        await self.publish(live)
        if live.status == EXPIRED:  # expired by another process: gone from this one too
            self.live.pop(table_id, None)

    async def reread(self, live: LiveTable) -> bool:
        """Read the table back if the database has a newer version (``live.lock`` held);
        whether it had."""
        stored = await self.db(self.store.table, live.id, live.version)
        if stored is not None:
            self.copy(live, stored)
        return stored is not None

    async def publish(self, live: LiveTable) -> None:
        """Tell the rooms around that ``live`` is to be shown as it is now (read back, or
        who is connected changed), unless a change of it is being written: its frames
        follow the write, and none may show a change not yet in."""
        if not live.lock.locked():
            await self.events.tell(Changed(live, written=False))

"""Who is connected to which table, in this process and in the others, and the frames each
connection is sent (:class:`Presence`).

A connection (:class:`Client`) sees one table from a seat it holds a token of, or as a
spectator. After every change of a table (:class:`~red7.web.table.events.Changed`) each
of its connections here gets the frame of its own seat
(:func:`~red7.web.table.views.table_frame`), each view made once per change
(:class:`~red7.web.table.cache.FrameCache`); one whose seat is no longer its own stops
holding it first (:meth:`Presence.unseat_gone`).

A seat's person is online while any process has a connection of theirs: each process
tells the others over the bus how many it has (``{"t", "seat", "here"}``), says hello
when it (re)connects and "I am here" every :data:`~red7.web.table.tables.BEAT` seconds;
one silent for :data:`~red7.web.table.tables.GONE` seconds is taken for gone, its
connections with it. So a person away is away from every process, and their patience
(:mod:`red7.web.table.watch`) runs wherever they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...ui.i18n import using
from ..http.refusals import Refused
from ..storage.stored import ACCOUNT_REVOKED, REMOVED
from .cache import FrameCache
from .events import Changed
from .frames import TableFrame
from .live import LiveTable
from .seating import invite_withdrawn, removed_message, revoked_message, unseated_message
from .tables import BEAT, GONE, Tables
from .views import encode, error_frame

log = logging.getLogger("red7.web")

Send = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Client:
    """One open connection: the table and seat it sees (None: a spectator) and how to
    send it a frame (its JSON text, :func:`~red7.web.table.views.encode`)."""

    table_id: str
    seat: int | None
    send: Send
    lang: str | None = None
    """The language of every word it is sent (frames, refusals, chat, hints), chosen by
    its hello or its browser; None: the table's."""
    greeted: bool = False
    """Whether it has had its first frame (the one with the words of the page, ``ui``)."""
    log: Sequence[str] = ()
    """The move log it has (that of the last frame it got), which later frames extend
    (:func:`~red7.web.table.views.since`)."""
    shown: TableFrame | None = None
    """The last frame it was sent (whole): an unchanged one is not sent again."""
    token_hash: str | None = None
    """The hash of the seat token it connected with: once the seat's is another (its
    person removed or gone; an admin revoked it; the host seated them again), the
    connection no longer holds the seat (:meth:`Presence.unseat_gone`)."""
    end: Callable[[str, str], Awaitable[None]] | None = None
    """How to end the connection, telling it why (an error frame's code and message):
    its seat token was revoked, or the invitation it watches by was changed."""
    invite_hash: str | None = None
    """The hash of the private table's invitation it came with (None: none, or a public
    table): once the table's is another (its host renewed or revoked it), a spectator's
    connection is ended."""

    def language(self, live: LiveTable) -> str:
        """The language it is spoken to in at ``live``."""
        return self.lang or live.lang

    def admitted(self, live: LiveTable) -> bool:
        """Whether the connection may still see ``live`` as a spectator: it holds a seat
        (checked against its token apart), or the table is public, or it came with no
        invitation (a person unseated before the start watches on), or with the one the
        table has now."""
        return self.seat is not None or not live.private or self.invite_hash in (None, live.invite_hash)


class Hub:
    """The connections of one process to each table, and the fan-out of a table's frames to
    them: each gets the frame of its own seat, each view made once per change
    (:class:`~red7.web.table.cache.FrameCache`)."""

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
        """The connections to ``table_id`` in this process."""
        return list(self.clients.get(table_id, ()))

    async def publish(self, live: LiveTable) -> None:
        """Send every client of ``live`` here its frame of the table now, in its language: a connection's
        first frame whole, with the words of the page; later ones with only the new part
        of the move log (:func:`~red7.web.table.views.since`), and none if nothing it may
        see changed. Each view (a seat's, the spectators') is made once per change and each
        text encoded once, whatever the number of connections showing it and of times
        the table's clients are told."""
        for client in self.of(live.id):
            held = client.token_hash  # (None: a client made without one, in tests)
            if client.seat is not None and held is not None and held != live.seats[client.seat].token_hash:
                continue  # its seat is no longer its: it never sees the seat's next person (unseat_gone tells it)
            if not client.admitted(live):
                continue  # came by an invitation its host changed: unseat_gone ends it
            # each client's view as the table is now: a send may let the table change meanwhile
            lang = client.language(live)
            view = self.frames.view(live, client.seat, lang)
            whole = view.whole
            if client.greeted and (whole is client.shown or whole == client.shown):
                continue  # nothing it may see changed (another seat's staged turn, say)
            text, _start = view.text(client.log if client.greeted else None, lang)
            client.shown, client.greeted = whole, True
            client.log = whole["game"]["log"] if whole["game"] else ()
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(text)


class Presence:
    """Who is connected to ``tables``: this process's connections (:attr:`hub`), and what the
    other processes have told of theirs."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.hub = Hub()
        """This process's connections, and their frames."""
        self.elsewhere: dict[str, dict[tuple[str, int], int]] = {}
        """Each other process's open connections by (table, seat), as it last told."""
        self.heard: dict[str, float] = {}
        """When (``time.monotonic``) each other process was last heard."""
        self._task: asyncio.Task[None] | None = None
        tables.events.on(Changed, self._changed)
        tables.bus.listen(self._heard)
        tables.bus.on_connect(self._connected)

    def of(self, table_id: str) -> list[Client]:
        """The connections to ``table_id`` in this process."""
        return self.hub.of(table_id)

    async def start(self) -> None:
        """With other processes: say every :data:`BEAT` seconds that this one is here, and
        forget the connections of those silent for :data:`GONE` (a task until :meth:`stop`)."""
        if self.tables.bus.shared:
            self._task = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    # --- this process's connections ------------------------------------------------

    async def connect(self, client: Client) -> None:
        """``client`` connected: counted, and sent its first frame; a person coming back
        takes their seat again from its substitute (not on a clocked table's turn whose
        time ran out: its substitute ends that turn)."""
        live = self.tables.get(client.table_id)
        self.hub.add(client)
        self.tables.metrics.clients.inc()
        number = client.seat
        if number is not None:
            live.seats[number].here += 1
            self._tell(live, number)

            async def back() -> bool:
                if live.substitute(number) is not None and live.session.back(number):
                    await self.tables.write(live)
                    return True
                return False

            if live.substitute(number) is not None:
                with contextlib.suppress(Refused):
                    if await self.tables.change(live, back):
                        return
        await self.tables.publish(live)

    async def speak(self, client: Client, lang: str) -> None:
        """``client`` reads its table in ``lang`` from now on: sent the table whole again
        in it, with the words of the page, as a first frame is (the others are sent nothing)."""
        client.lang = lang
        client.greeted, client.shown, client.log = False, None, ()
        await self.hub.publish(self.tables.get(client.table_id))

    async def disconnect(self, client: Client) -> None:
        """``client`` closed: no longer counted (nor its table's views kept, if it was the last)."""
        self.hub.remove(client)
        self.tables.metrics.clients.dec()
        live = self.tables.live.get(client.table_id)
        if live is None or client.seat is None:
            return
        live.seats[client.seat].here = max(live.seats[client.seat].here - 1, 0)
        self._tell(live, client.seat)
        await self.tables.publish(live)

    def _tell(self, live: LiveTable, seat: int) -> None:
        """Count the seat's connections anew and tell the other processes how many are here."""
        self._count(live, seat)
        self.tables.bus.publish({"t": live.id, "seat": seat, "here": live.seats[seat].here})

    def _count(self, live: LiveTable, seat: int) -> None:
        """Sum the seat's connections over the processes; note when the person left."""
        state = live.seats[seat]
        state.elsewhere = sum(counts.get((live.id, seat), 0) for counts in self.elsewhere.values())
        if state.online:
            state.left = None
        elif state.left is None:
            state.left = time.monotonic()

    # --- frames --------------------------------------------------------------------

    async def _changed(self, event: Changed) -> None:
        await self.unseat_gone(event.live)
        await self.hub.publish(event.live)

    async def unseat_gone(self, live: LiveTable) -> None:
        """Every spectator's connection here that came by an invitation the host has
        changed since is ended, told why; every connection here whose seat token no longer
        opens its seat, here or through another process, stops holding the seat, told
        why: if the seat was emptied (its person removed by the host, or left) it is a
        spectator's from now on and counts no more as the seat's presence; if the seat
        kept its person under another token (an admin revoked theirs, ``seat-revoked``, or
        their account's at every table, banning or removing it, ``account-revoked``; or
        the host seated them again) it is ended (:attr:`Client.end`), since whoever held
        the old token may not even watch a private table. (Without this, a connection of a removed person
        would see the hand of whoever sits there next.)"""
        for client in self.of(live.id):
            if client.seat is None:
                if not client.admitted(live) and client.end is not None:
                    # (its handler then counts it gone)
                    with using(client.language(live)), contextlib.suppress(Exception):
                        await client.end("invite-changed", invite_withdrawn())
                continue
            if live.seats[client.seat].token_hash == client.token_hash:
                continue
            state = live.seats[client.seat]
            if state.taken and state.bot is None and client.end is not None:
                code = "account-revoked" if state.revoked == ACCOUNT_REVOKED else "seat-revoked"
                with using(client.language(live)), contextlib.suppress(Exception):  # (its handler then counts it gone)
                    await client.end(code, revoked_message(state.revoked))
                continue
            seat, client.seat, client.token_hash = client.seat, None, None
            client.greeted, client.shown, client.log = False, None, ()
            state.here = max(state.here - 1, 0)
            self._tell(live, seat)
            with using(client.language(live)):  # removed by the host, or left (from another tab)
                if state.revoked == REMOVED:
                    text = encode(error_frame("removed", removed_message()))
                else:
                    text = encode(error_frame("unseated", unseated_message()))
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(text)

    # --- the other processes' connections ------------------------------------------

    def _connected(self) -> None:
        """The bus is connected (again): say hello (the other processes then tell who is
        connected to them) and who is connected here. Nobody could tell anything while it
        was down, so every absent person's patience starts again now."""
        now = time.monotonic()
        for live in self.tables.live.values():
            for state in live.seats:
                if state.left is not None:
                    state.left = now
        self._tell_all()
        self.tables.bus.publish({"hello": 1})

    def _tell_all(self) -> None:
        for live in self.tables.live.values():
            for number, state in enumerate(live.seats):
                if state.here:
                    self.tables.bus.publish({"t": live.id, "seat": number, "here": state.here})

    async def _heard(self, message: dict[str, Any]) -> None:
        """A message of another process (:mod:`red7.web.storage.bus`): it is alive; and
        if it tells who is connected to it, or says hello, that is taken in."""
        process = str(message.get("p"))
        self.heard[process] = time.monotonic()
        table_id, seat, here = message.get("t"), message.get("seat"), message.get("here")
        if isinstance(table_id, str) and isinstance(seat, int) and isinstance(here, int) and "v" not in message:
            self.elsewhere.setdefault(process, {})[(table_id, seat)] = here
            live = self.tables.live.get(table_id)
            if live is None:
                with contextlib.suppress(Refused):
                    live = await self.tables.find(table_id)
            if live is not None and 0 <= seat < len(live.seats):
                self._count(live, seat)
                await self.tables.publish(live)
        elif message.get("hello"):  # a process (re)started: tell it who is connected here
            self._tell_all()

    async def _beat(self) -> None:
        beat = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            if now - beat >= BEAT:
                beat = now
                self.tables.bus.publish({"beat": 1})
            for table_id, seat in self._forget_silent(now):
                live = self.tables.live.get(table_id)
                if live is not None:
                    self._count(live, seat)
                    await self.tables.publish(live)

    def _forget_silent(self, now: float) -> list[tuple[str, int]]:
        """Drop the connections of processes not heard for :data:`GONE` seconds (dead,
        or cut off); the (table, seat) pairs whose count changed."""
        changed: list[tuple[str, int]] = []
        for process, last in list(self.heard.items()):
            if now - last > GONE:
                del self.heard[process]
                changed += [key for key, count in self.elsewhere.pop(process, {}).items() if count]
                log.info("process %s is silent: its connections are counted gone", process)
        return changed

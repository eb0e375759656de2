"""The tables a web server is running: seats, games, decisions, bots and who is connected.

:class:`Tables` is the server's whole game logic, independent of HTTP: the FastAPI app
(:mod:`red7.web.server`) turns requests and WebSocket messages into its calls, and its
answers into frames (:mod:`red7.web.views`). Everything here runs on the server's event
loop, one call at a time, so a table changes only between two awaits; bots think in a
process pool (or threads) and hand their answer back to the loop.

Every change of a table goes through :meth:`Tables._changed`: the decisions that can
no longer be taken back are appended to the database (:mod:`red7.web.store`), every
client of the table gets its new frame through the :class:`Hub`, and the next bot is
asked. The hub is the seam for scaling out: one process keeps its clients in memory;
several processes would publish a table's changes through Redis or PostgreSQL.

Decisions carry the sequence number they were made against (``seq``: how many
decisions the current game has had, staged ones included): a stale or repeated one is
refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

from ..bots import LEVELS, BotSpecError, make_bot
from ..bots.base import Bot
from ..core.actions import Action, ActionError
from ..core.model import Config, GameError, IllegalActionError, Option
from ..core.observation import Observation
from ..core.record import SeatRecord, to_record
from ..core.seeds import derive_seed, fresh_seed
from ..play.table import Seat, Table
from ..ui.i18n import _, parse_language, using
from ..ui.words import refusal_text
from .live import LiveTable, SeatState
from .store import Store, StoredTable, new_token, replayed, token_hash
from .views import table_frame

log = logging.getLogger("red7.web")

NAME_LENGTH = 24
SUBSTITUTE = "medium"
"""The bot that plays for a person away longer than the table's patience."""


class Refused(Exception):
    """A request that cannot be done: ``code`` for programs, ``message`` in words (in
    the table's language). Nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Client:
    """One open connection: the table and seat it sees (None: a spectator) and how to
    send it a frame."""

    table_id: str
    seat: int | None
    send: Send


class Hub:
    """Who is connected to which table, and the fan-out of a table's frames to them
    (each client gets the frame of its own seat: :func:`~red7.web.views.table_frame`)."""

    def __init__(self) -> None:
        self.clients: dict[str, set[Client]] = {}

    def add(self, client: Client) -> None:
        self.clients.setdefault(client.table_id, set()).add(client)

    def remove(self, client: Client) -> None:
        self.clients.get(client.table_id, set()).discard(client)

    def of(self, table_id: str) -> list[Client]:
        return list(self.clients.get(table_id, ()))

    async def publish(self, live: LiveTable) -> None:
        frames: dict[int | None, dict[str, Any]] = {}
        for client in self.of(live.id):
            if client.seat not in frames:
                frames[client.seat] = table_frame(live, client.seat)
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(frames[client.seat])


# --- bots in other processes ------------------------------------------------------------

_worker_bots: dict[str, Bot] = {}


def choose_in_worker(spec: str, observation: Observation, options: list[Option], seed: int) -> str:
    """A bot's decision, computed in a pool worker (the bot made once per worker and
    spec); the notation of the decision."""
    bot = _worker_bots.get(spec)
    if bot is None:
        bot = _worker_bots[spec] = make_bot(spec)
    return str(bot.choose(observation, options, random.Random(seed)))


class Tables:
    """The live tables of one server, kept in ``store``.

    ``pool`` runs the bots (a process pool in the server; None: threads, for tests);
    ``bot_delay``: least seconds a bot's move takes, so people can follow it;
    ``patience``: seconds a person may be away on their turn before a bot plays for them."""

    def __init__(
        self,
        store: Store,
        pool: Executor | None = None,
        bot_delay: float = 0.8,
        patience: float = 60.0,
        hub: Hub | None = None,
    ) -> None:
        self.store, self.pool, self.bot_delay, self.patience = store, pool, bot_delay, patience
        self.hub = hub or Hub()
        self.live: dict[str, LiveTable] = {}
        self._watcher: asyncio.Task[None] | None = None

    # --- starting and stopping ------------------------------------------------------

    def load(self) -> None:
        """Bring back every table of the database, each game replayed from its seed and
        decisions to exactly where it was."""
        for stored in self.store.tables():
            self.live[stored.id] = self._revive(stored)

    def _revive(self, stored: StoredTable) -> LiveTable:
        config = Config(stored.players, stored.advanced, stored.actions)
        seats = [SeatState(s.name, s.token_hash, s.bot) for s in stored.seats]
        live = LiveTable(stored.id, stored.lang, config, seats, stored.status)
        if stored.game is not None:
            game = replayed(stored.game)
            live.table = Table.around(game, self._table_seats(live))
            live.game_number, live.game_id, live.persisted = stored.game.number, stored.game.id, game.decisions
            if game.is_over and stored.game.result is None:  # killed between its last decision and its result
                assert game.result is not None
                self.store.finish_game(live.id, stored.game.id, game.result.as_dict())
                live.status = "over"
            for seat in live.seats:
                if seat.bot is None and seat.token_hash is not None:
                    seat.left = time.monotonic()  # nobody is connected yet after a restart
        return live

    async def start_background(self) -> None:
        """Start the watch over absent players, and the bots of games waiting for one."""
        self._watcher = asyncio.create_task(self._watch())
        for live in self.live.values():
            self._next_bot(live)

    async def stop(self) -> None:
        tasks = [t for t in [self._watcher, *(lv.bot_task for lv in self.live.values())] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    # --- the lobby ------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        live = self.live.get(table_id)
        if live is None:
            raise Refused("no-table", _("There is no table {id}.").format(id=table_id), 404)
        return live

    def listed(self) -> list[LiveTable]:
        """The tables to show in the lobby: open ones first, then those being played."""
        order = {"open": 0, "playing": 1}
        return sorted((t for t in self.live.values() if t.status in order), key=lambda t: order[t.status])

    def create(self, players: Any, advanced: Any, actions: Any, lang: Any, name: Any) -> tuple[LiveTable, str]:
        """A new table; its creator takes seat 0. Returns the table and the creator's token."""
        try:
            config = Config(players, advanced, actions)
        except GameError as err:
            raise Refused("bad-settings", str(err)) from None
        try:
            tag = parse_language(lang if isinstance(lang, str) else repr(lang))
        except ValueError as err:
            raise Refused("bad-settings", str(err)) from None
        with using(tag):
            self._clean_name(name)  # refused before anything is made
        table_id = secrets.token_urlsafe(6)
        live = LiveTable(table_id, tag, config, [SeatState() for _ in range(config.players)])
        self.store.create_table(table_id, config.players, config.advanced, config.actions, tag)
        self.live[table_id] = live
        with using(tag):
            token = self._sit(live, 0, name)
        return live, token

    def _clean_name(self, name: Any) -> str:
        if not isinstance(name, str):
            raise Refused("bad-name", _("Give a name of up to {n} characters.").format(n=NAME_LENGTH))
        text = " ".join(name.split())
        if len(text) > NAME_LENGTH or any(not ch.isprintable() for ch in text):
            raise Refused("bad-name", _("Give a name of up to {n} characters.").format(n=NAME_LENGTH))
        return text

    def _sit(self, live: LiveTable, seat: int, name: Any) -> str:
        clean = self._clean_name(name)
        token = new_token()
        live.seats[seat] = SeatState(clean, token_hash(token))
        self.store.set_seat(live.id, seat, clean, token_hash(token), None)
        return token

    def _free_seat(self, live: LiveTable, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < live.config.players:
            # the API counts seats from 0, as the engine does (the pages show them from 1)
            raise Refused(
                "bad-seat", _("This table's seats are numbered 0 to {last}.").format(last=live.config.players - 1)
            )
        if live.status != "open":
            raise Refused("started", _("The game has started: seats can no longer be taken."), 409)
        if live.seats[seat].taken:
            raise Refused("seat-taken", _("That seat is taken."), 409)
        return seat

    async def join(self, table_id: str, seat: Any, name: Any) -> str:
        """A person takes a free seat; their new token."""
        live = self.get(table_id)
        with using(live.lang):
            token = self._sit(live, self._free_seat(live, seat), name)
        await self.hub.publish(live)
        return token

    def _member(self, live: LiveTable, token: Any) -> int:
        seat = live.seat_of(token if isinstance(token, str) else None)
        if seat is None:
            raise Refused("bad-token", _("This seat token does not open a seat at this table."), 403)
        return seat

    async def add_bot(self, table_id: str, token: Any, seat: Any, level: Any) -> None:
        """A person at the table puts a bot (``level``: easy, medium, hard, expert) in a free seat."""
        live = self.get(table_id)
        with using(live.lang):
            self._member(live, token)
            free = self._free_seat(live, seat)
            if level not in LEVELS:
                raise Refused("bad-level", _("Bot levels: {levels}.").format(levels=", ".join(LEVELS)))
            live.seats[free] = SeatState(bot=level)
            self.store.set_seat(live.id, free, "", None, level)
        await self.hub.publish(live)

    async def start(self, table_id: str, token: Any) -> None:
        """A person at the table starts the game once every seat is taken."""
        live = self.get(table_id)
        with using(live.lang):
            self._member(live, token)
            if live.status != "open":
                raise Refused("started", _("The game has started already."), 409)
            if not all(s.taken for s in live.seats):
                raise Refused("seats-free", _("Every seat needs a player or a bot before the game starts."), 409)
        await self._new_game(live)

    async def again(self, table_id: str, seat: int) -> None:
        """Play again (after a game is over): a new deal for the same seats."""
        live = self.get(table_id)
        with using(live.lang):
            if live.table is None or not live.table.is_over:
                raise Refused("not-over", _("The game is not over yet."), 409)
        await self._new_game(live)

    async def _new_game(self, live: LiveTable) -> None:
        seed = fresh_seed()
        live.game_number += 1
        live.game_id = self.store.new_game(live.id, live.game_number, live.config.as_dict(), seed)
        live.table = Table(self._table_seats(live), live.config, seed)
        live.status, live.persisted = "playing", 0
        for seat in live.seats:  # a person who is not connected when the game starts is away from now on
            if seat.bot is None and not seat.online and seat.left is None:
                seat.left = time.monotonic()
        await self._changed(live)

    @staticmethod
    def _table_seats(live: LiveTable) -> list[Seat]:
        return [Seat(s.name, make_bot(s.bot) if s.bot else None, s.bot) for s in live.seats]

    # --- playing --------------------------------------------------------------------

    def _turn_of(self, live: LiveTable, seat: int, seq: Any) -> Table:
        """The table if ``seat`` may decide now against sequence number ``seq``."""
        table = live.table
        if table is None or live.status != "playing" or table.is_over:
            raise Refused("no-game", _("No game is being played at this table."), 409)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != live.seq:
            raise Refused("stale", _("The table changed before your decision arrived: look again and decide."), 409)
        if table.current != seat:
            raise Refused("not-your-turn", _("It is not your turn."), 409)
        if live.seats[seat].substitute is not None:
            live.seats[seat].substitute = None  # back in time: the person plays on
        return table

    async def decide(self, table_id: str, seat: int, seq: Any, action: Any) -> None:
        """The person in ``seat`` makes ``action`` (notation) against ``seq``."""
        live = self.get(table_id)
        with using(live.lang):
            table = self._turn_of(live, seat, seq)
            if not isinstance(action, str):
                raise Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'."))
            try:
                parsed = Action.parse(action)
            except ActionError:
                raise Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'.")) from None
            try:
                table.decide(parsed)
            except IllegalActionError as err:
                raise Refused(err.refusal.code.value, refusal_text(err.refusal)) from None
        await self._changed(live)

    async def take_back(self, table_id: str, seat: int, seq: Any) -> None:
        live = self.get(table_id)
        with using(live.lang):
            table = self._turn_of(live, seat, seq)
            if not table.take_back():
                raise Refused("nothing-staged", _("There is nothing to take back."), 409)
        await self._changed(live)

    # --- connections ----------------------------------------------------------------

    async def connect(self, client: Client) -> None:
        live = self.get(client.table_id)
        self.hub.add(client)
        if client.seat is not None:
            seat = live.seats[client.seat]
            seat.online += 1
            seat.left = None
            if seat.substitute is not None:
                seat.substitute = None  # back: the person takes the seat again
                self._next_bot(live)
        await self.hub.publish(live)

    async def disconnect(self, client: Client) -> None:
        self.hub.remove(client)
        live = self.live.get(client.table_id)
        if live is None or client.seat is None:
            return
        seat = live.seats[client.seat]
        seat.online = max(seat.online - 1, 0)
        if not seat.online:
            seat.left = time.monotonic()
        await self.hub.publish(live)

    async def _watch(self) -> None:
        """Once a second: a person away on their turn longer than the patience gets a
        substitute bot (until they come back)."""
        while True:
            await asyncio.sleep(1.0)
            for live in list(self.live.values()):
                table = live.table
                if table is None or table.is_over or table.current is None:
                    continue
                seat = live.seats[table.current]
                if seat.bot is None and seat.substitute is None and seat.left is not None:
                    if time.monotonic() - seat.left >= self.patience:
                        seat.substitute = SUBSTITUTE
                        table.take_back()
                        await self.hub.publish(live)
                        self._next_bot(live)

    # --- after every change ---------------------------------------------------------

    async def _changed(self, live: LiveTable) -> None:
        table = live.table
        if table is not None:
            committed = table.committed
            if committed > live.persisted and live.game_id is not None:
                history = table.game.history[live.persisted : committed]
                self.store.add_decisions(live.game_id, live.persisted, [(s, str(a)) for s, a in history])
                live.persisted = committed
            if table.is_over and live.status != "over" and live.game_id is not None:
                result = table.game.result
                assert result is not None
                self.store.finish_game(live.id, live.game_id, result.as_dict())
                live.status = "over"
        await self.hub.publish(live)
        self._next_bot(live)

    def _next_bot(self, live: LiveTable) -> None:
        """Ask the bot to move, if a bot (or a substitute) is to move and none is asked yet."""
        table = live.table
        if table is None or table.is_over or table.current is None:
            return
        seat = live.seats[table.current]
        spec = seat.bot or seat.substitute
        if spec is None or (live.bot_task is not None and not live.bot_task.done()):
            return
        live.bot_task = asyncio.create_task(self._bot_moves(live, table.current, spec, live.seq))

    async def _bot_moves(self, live: LiveTable, seat: int, spec: str, seq: int) -> None:
        table = live.table
        assert table is not None
        observation, options = table.observe(seat), table.options()
        seed = derive_seed(table.seed, "web-bot", seq)
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.pool, choose_in_worker, spec, observation, options, seed)
        except (BotSpecError, GameError):
            log.exception("bot %s failed at table %s", spec, live.id)
            return
        await asyncio.sleep(max(0.0, self.bot_delay - (time.perf_counter() - started)))
        live.bot_task = None
        current = live.seats[seat]
        if live.table is not table or live.seq != seq or table.current != seat:
            return  # the game moved on meanwhile (a person came back, a new game)
        if current.bot is not None:
            table.apply_bot(action)
        elif current.substitute is not None:
            table.decide(action)
        else:
            self._next_bot(live)
            return
        await self._changed(live)

    # --- records --------------------------------------------------------------------

    def played(self, table_id: str, number: int) -> LiveTable:
        """The table as it was in its game ``number``: the table itself for the current
        game, else one around that game read back from the database (for replays)."""
        live = self.get(table_id)
        if live.table is not None and number == live.game_number:
            return live
        with using(live.lang):
            stored = self.store.game(table_id, number)
            if stored is None:
                raise Refused("no-game", _("This table has no game {n}.").format(n=number), 404)
        game = replayed(stored)
        seats = [Seat(s.name, None, s.bot) for s in live.seats]
        status = "over" if stored.result is not None else "playing"
        return replace(live, table=Table.around(game, seats), game_number=number, status=status, bot_task=None)

    def record(self, table_id: str, number: int) -> dict[str, Any]:
        """The record of game ``number`` at the table, in the engine's format (what
        ``red7 replay`` reads); only once that game is over (its seed orders the deck)."""
        live = self.get(table_id)
        with using(live.lang):
            stored = self.store.game(table_id, number)
            if stored is None:
                raise Refused("no-game", _("This table has no game {n}.").format(n=number), 404)
            if stored.result is None:
                raise Refused("not-over", _("The record is shown once the game is over."), 409)
            return to_record(replayed(stored), [SeatRecord(s.name, s.bot) for s in live.seats])

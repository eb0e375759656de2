"""The messages server processes send each other: which table changed, who is connected.

One server process needs none (:class:`Bus`, the default, tells nobody). Several share
a database and tell each other through Redis pub/sub (:class:`RedisBus`, ``--redis-url``)
or, with no Redis, PostgreSQL's LISTEN/NOTIFY (:class:`PostgresBus`). Each club hears only
itself: Redis's channels are global (the database number of a Redis URL does not part
them), so a club's channel is named after its database's identity
(:mod:`red7.web.storage.identity`); PostgreSQL's notifications stay in the database they
are sent in, so its channel needs no name of its own. A message is a
small JSON object; the bus delivers it at most once, in the order one process sent it,
to every *other* process. It is only a hint to look sooner: the database stays the
truth, and a process that missed a message finds the change at its next look
(:meth:`red7.web.table.tables.Tables.refresh`).

Each room that hears the other processes adds its listener (:meth:`Bus.listen`): every
message goes to every listener, which ignores what is not for it (the table's copies,
who is connected, the chat's lines).

Sending never makes the caller wait: :meth:`Bus.publish` queues the message, and one
task per process sends what is queued, in order, as one batch per round trip (a Redis
pipeline, one PostgreSQL statement), so a busy process pays one round trip for many
messages, on one connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from .store import libpq_address

log = logging.getLogger("red7.web")

CHANNEL = "red7"
"""The channel of PostgreSQL's LISTEN/NOTIFY, and the start of a Redis channel's name."""
BATCH = 256
"""Most messages sent in one round trip."""
Receive = Callable[[dict[str, Any]], Awaitable[None]]


class Bus:
    """A bus for one process: nothing to tell, nobody to hear."""

    kind = "none"

    def __init__(self) -> None:
        self.process = secrets.token_hex(4)
        """This process's name on the bus (its messages carry it as ``"p"``)."""
        self._own = self._encode({})[:-1] + ","
        self._own_bytes = self._own.encode()
        self.ready = True
        """Whether messages go out and come in now. While they do not, the process still
        serves (the database is the truth: changes are found by looking at it), degraded:
        ``/healthz`` and ``/metrics`` say so."""
        self._receivers: list[Receive] = []
        self._connects: list[Callable[[], None]] = []

    def listen(self, receive: Receive) -> None:
        """Hand every message of another process to ``receive`` too (before :meth:`start`)."""
        self._receivers.append(receive)

    def on_connect(self, connected: Callable[[], None]) -> None:
        """Call ``connected`` each time the bus connects (at start and after an outage)."""
        self._connects.append(connected)

    @property
    def shared(self) -> bool:
        """Whether other processes may share the tables."""
        return False

    async def start(self) -> None:
        """Start handing other processes' messages to the listeners."""

    def publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes ``message`` (this process's name added), soon: it is
        queued, and sent after the messages queued before it."""

    async def stop(self) -> None:
        """Stop listening and close the connections."""

    def _encode(self, message: dict[str, Any]) -> str:
        # the sender's name first: its own messages, which Redis and PostgreSQL deliver
        # back to it too, are then known by their first bytes (:meth:`_deliver`)
        return json.dumps({"p": self.process, **message}, separators=(",", ":"))

    async def _deliver(self, raw: str | bytes) -> None:
        if raw.startswith(self._own) if isinstance(raw, str) else raw.startswith(self._own_bytes):
            return
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):
            log.warning("bus: a message that is not JSON was ignored")
            return
        if isinstance(message, dict) and message.get("p") != self.process:
            for receive in self._receivers:
                try:
                    await receive(message)
                except Exception:  # one bad message must not stop the listener
                    log.exception("bus: a message could not be handled")


class SharedBus(Bus):
    """A bus to other processes through a server (Redis, PostgreSQL): a listener that
    connects, hands every message on, and reconnects after losing the server, saying so
    (:attr:`ready`) meanwhile. Subclasses say how to listen (:meth:`_listen_once`)."""

    server = "?"
    """The server's name, for the logs."""

    def __init__(self) -> None:
        super().__init__()
        self.ready = False
        self._task: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[str] = asyncio.Queue()

    @property
    def shared(self) -> bool:
        return True

    async def start(self) -> None:
        """Start listening and sending; wait (10 s at most) until the first connection listens."""
        listening = asyncio.Event()
        self._task = asyncio.create_task(self._listen(listening))
        self._sender = asyncio.create_task(self._send_queued())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listening.wait(), 10.0)

    def publish(self, message: dict[str, Any]) -> None:
        self._queue.put_nowait(self._encode(message))

    async def _send_queued(self) -> None:
        """Send the queued messages, in order, up to :data:`BATCH` per round trip. A batch
        that cannot be sent is dropped (the others find the changes at their next look)."""
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self._send(batch)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("bus: %d messages were not sent (%s)", len(batch), type(err).__name__)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _send(self, batch: list[str]) -> None:
        """Send ``batch`` (encoded messages) to the other processes, in order."""
        raise NotImplementedError

    async def _listen(self, listening: asyncio.Event) -> None:
        while True:
            try:
                await self._listen_once(listening)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the server gone: try again, not ready meanwhile
                if self.ready:
                    log.warning("bus: lost %s (%s); reconnecting", self.server, type(err).__name__)
                self.ready = False
                await asyncio.sleep(1.0)

    async def _listen_once(self, listening: asyncio.Event) -> None:
        """Connect, subscribe, set :attr:`ready` and ``listening``, then deliver every
        message (:meth:`_deliver`) until the connection fails."""
        raise NotImplementedError

    def _listening(self, listening: asyncio.Event) -> None:
        if not self.ready and listening.is_set():
            log.warning("bus: %s is back", self.server)
        self.ready = True
        listening.set()
        for connected in self._connects:
            connected()

    async def stop(self) -> None:
        """Send what is queued (2 s at most), then stop listening and sending."""
        if self._sender is not None and not self._sender.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), 2.0)
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


class RedisBus(SharedBus):
    """Redis pub/sub on the channel of the club ``club`` (``url``: ``redis://host:port/db``;
    ``club``: its database's identity)."""

    kind, server = "redis", "Redis"

    def __init__(self, url: str, club: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self.channel = f"{CHANNEL}:{club}"
        self.client = redis.Redis.from_url(url)

    async def _listen_once(self, listening: asyncio.Event) -> None:
        async with self.client.pubsub(ignore_subscribe_messages=True) as pubsub:
            await pubsub.subscribe(self.channel)
            self._listening(listening)
            while True:
                message = await pubsub.get_message(timeout=5.0)
                if message is not None and message.get("type") == "message":
                    await self._deliver(message["data"])

    async def _send(self, batch: list[str]) -> None:
        async with self.client.pipeline(transaction=False) as pipe:
            for message in batch:
                pipe.publish(self.channel, message)
            await pipe.execute()

    async def stop(self) -> None:
        await super().stop()
        await self.client.aclose()


class PostgresBus(SharedBus):
    """PostgreSQL's LISTEN/NOTIFY on the server's own database (``url``: the
    SQLAlchemy URL; psycopg 3 connects to it). A notification is sent when its
    transaction commits; payloads stay far below PostgreSQL's 8,000 bytes."""

    kind, server = "postgres", "PostgreSQL"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.conninfo = libpq_address(url)
        self._connection: Any = None
        """The connection notifications are sent on (the listener has its own)."""

    async def _listen_once(self, listening: asyncio.Event) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            self._listening(listening)
            async for notice in connection.notifies():
                await self._deliver(notice.payload)

    async def _send(self, batch: list[str]) -> None:
        import psycopg

        try:
            if self._connection is None or self._connection.closed:
                self._connection = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            async with self._connection.cursor() as cursor:  # in psycopg's pipeline mode: one round trip
                await cursor.executemany("SELECT pg_notify(%s, %s)", [(CHANNEL, message) for message in batch])
        except Exception:
            self._connection = None
            raise

    async def stop(self) -> None:
        await super().stop()
        if self._connection is not None:
            await self._connection.close()


def make_bus(redis_url: str | None, database_url: str, dialect: str, club: str) -> Bus:
    """Redis when a URL is given, else LISTEN/NOTIFY on PostgreSQL, else one process alone
    (``club``: the database's identity, :func:`red7.web.storage.identity.identity`)."""
    if redis_url:
        return RedisBus(redis_url, club)
    if dialect == "postgresql":
        return PostgresBus(database_url)
    return Bus()

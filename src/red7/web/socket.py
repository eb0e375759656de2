"""The game: one WebSocket per client, ``/ws/{id}`` (docs/protocol.md).

Its first message is the client's hello (:class:`~red7.web.table.requests.Hello`:
``{"type": "hello", "token": "...", "lang": "pt-BR"}``; ``token`` null or absent: a
spectator; ``lang``: the connection's language, every word it is sent (frames, refusals,
chat, hints) — absent or one this server does not speak, the browser's
``Accept-Language``, else the table's; ``invite``:
a private table's invitation secret, which a spectator of it needs). The server
then sends a ``table`` frame (:func:`red7.web.table.views.table_frame`) and another after every
change, and an ``error`` frame for anything refused. The client sends
``{"type": "decide", "seq": n, "action": "play R7"}``, ``{"type": "take_back", "seq": n}``,
``{"type": "again"}`` (a rematch's proposal or agreement), ``{"type": "decline"}``,
``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "reaction": "gg"}``, and
``{"type": "hint", "seq": n}`` and ``{"type": "lang", "lang": "en"}`` (the connection's language
changed: the table is sent whole again in it) (:data:`~red7.web.protocol.Sent`, each handled by
:func:`_handle`: a message type without its handler fails ``mypy --strict``); ``seq`` is the
frame's ``seq`` the decision was made against. A connection whose hello says
``"chat": true`` gets, after its first ``table`` frame, a ``chat`` frame with the chat's
recent history, then one for each line said (:mod:`red7.web.chat`). A hint is worked out
while the connection goes on (:mod:`red7.web.reviews.hints`) and answered to it alone by a
``hint`` frame. A connection refused is accepted, told
why (an ``error`` frame) and closed with a code a page can read: 4400 (no hello, or a
token in the address), 4403 (another site's page, a token this table does not know, a private table without
its invitation, or with one its host has renewed or revoked: ``invite-changed``; a
spectator watching by an invitation its host changes is ended so too),
4404 (no such table), 4408 (no hello in time), 4429 (too many connections from one
address: the frame's ``retry_after`` says when to try again), 1013 (the database away
while the table or the seat had to be read: try again later). Once greeted, a change the
database cannot take is refused (``db-unavailable``) and the connection goes on.

A message over :data:`~red7.web.http.wire.MAX_MESSAGE` bytes is refused (``too-large``),
as are more than :data:`RATE` messages a second over a burst of :data:`BURST`; one over
:data:`~red7.web.http.wire.MAX_FRAME` bytes is not read at all: the socket is closed (1009,
"message too big").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, assert_never

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..ui.i18n import _, using
from .chat.chat import Chat
from .chat.wire import Say
from .http.client_limits import ClientLimits
from .http.limits import Bucket, client_key
from .http.metrics import Metrics
from .http.origins import Origin, same_origin
from .http.parts import parts_of
from .http.refusals import Limited, Refused, asked_language, spoken_language
from .http.wire import MAX_MESSAGE
from .protocol import Sent, parse_message
from .reviews.hints import Hints
from .reviews.pool import SearchPool
from .reviews.wire import Hint, HintFrame
from .storage.stored import token_hash
from .table import play
from .table.live import LiveTable
from .table.presence import Client, Presence
from .table.requests import Again, Decide, Decline, Speak, TakeBack, parse_hello
from .table.routes.records import token_in_url
from .table.seating import admit, bad_token, seat_of
from .table.tables import DatabaseAway, Tables
from .table.views import encode, error_frame

SOCKET_RETRY: Final = 10.0
"""Seconds a client with too many WebSockets is told to wait."""
RATE, BURST = 20.0, 60
"""Messages a second a connection may send on average, and at once (a person clicks a
few a second at most; a flood is refused message by message)."""

router = APIRouter()
log = logging.getLogger(__name__)

Refuse = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class Sockets:
    """What the game's WebSockets need of the app besides its rooms: the origins whose
    pages may connect, how long a new connection has to say hello, and the clock the
    rate limits read (tests move it)."""

    origins: tuple[Origin, ...] = ()
    hello_timeout: float = 10.0
    clock: Callable[[], float] = time.monotonic


@dataclass(frozen=True)
class Rooms:
    """The parts of the app a connection talks to, found once when it opens."""

    sockets: Sockets
    tables: Tables
    presence: Presence
    chat: Chat
    hints: Hints
    search: SearchPool
    limits: ClientLimits
    metrics: Metrics


@router.websocket("/ws/{table_id}")
async def connected(websocket: WebSocket, table_id: str) -> None:
    # accepted before anything is checked: a refusal before accept() would reach the
    # page as an HTTP 403 (uvicorn), which a browser's WebSocket does not show; after
    # it, the page reads why (an error frame) and the close code
    await websocket.accept()
    parts = parts_of(websocket)
    rooms = Rooms(
        parts.get(Sockets),
        parts.get(Tables),
        parts.get(Presence),
        parts.get(Chat),
        parts.get(Hints),
        parts.get(SearchPool),
        parts.get(ClientLimits),
        parts.get(Metrics),
    )
    lang = asked_language(websocket.headers.get("accept-language"))

    async def refuse(code: str, message: str, close: int, **extra: Any) -> None:
        with contextlib.suppress(Exception):  # the client may be gone already
            await websocket.send_text(encode({**error_frame(code, message), **extra}))
            await websocket.close(code=close, reason=code)

    with using(lang):
        if "token" in websocket.query_params:
            await refuse("token-in-url", token_in_url(), 4400)
            return
        origin = websocket.headers.get("origin")
        if not same_origin(origin, websocket.url.scheme, websocket.headers.get("host"), rooms.sockets.origins):
            rooms.metrics.refused.labels(reason="origin").inc()
            message = _("This page comes from another site ({origin}): the game talks to its own pages only.").format(
                origin=(origin or "")[:100]
            )
            await refuse("cross-origin", message, 4403)
            return
    who = client_key(websocket.client.host if websocket.client else None)
    lease = await rooms.limits.open_socket(who)
    if lease is None:
        rooms.metrics.refused.labels(reason="sockets").inc()
        with using(lang):
            message = _("Too many connections from your address: close some tabs, or wait {seconds} s.")
            await refuse("too-many", message.format(seconds=int(SOCKET_RETRY)), 4429, retry_after=SOCKET_RETRY)
        return
    try:
        await _greeted(rooms, websocket, table_id, lang, refuse, who)
    finally:
        await rooms.limits.close_socket(who, lease)


async def _greeted(rooms: Rooms, websocket: WebSocket, table_id: str, lang: str, refuse: Refuse, who: str) -> None:
    """The connection from its hello on (``who``: its client): the table, the seat, then the game."""
    try:
        received = await asyncio.wait_for(websocket.receive(), rooms.sockets.hello_timeout)
    except TimeoutError:
        with using(lang):
            await refuse("no-hello", _("The connection did not say hello in time."), 4408)
        return
    if received["type"] == "websocket.disconnect":
        return
    try:
        with using(lang):
            hello = parse_hello(received.get("text"))
    except Refused as err:
        await refuse(err.code, err.message, 4400)
        return
    accept = websocket.headers.get("accept-language")
    lang = asked_language(accept, hello.lang)
    tables = rooms.tables
    try:
        with using(lang):
            live = await tables.find(table_id)
            seat = await seat_of(tables, live, hello.token)
    except DatabaseAway as err:
        await refuse(err.code, err.message, 1013)
        return
    except Refused as err:
        await refuse(err.code, err.message, 4404)
        return
    lang = spoken_language(accept, hello.lang) or live.lang  # (the table's: the default of its invitation)
    if hello.token and seat is None:
        with using(lang):
            refusal = bad_token()
        await refuse(refusal.code, refusal.message, 4403)
        return
    try:
        with using(lang):
            admit(live, seat, hello.invite)
    except Refused as err:  # a private table, and neither a seat nor its invitation
        await refuse(err.code, err.message, 4403)
        return
    # the invitation it came by: a spectator's connection ends once the host changes it
    invited = token_hash(hello.invite) if hello.invite and live.private and live.invited(hello.invite) else None
    await _game(rooms, websocket, live, seat, hello.chat, invited, who, lang)


async def _game(
    rooms: Rooms,
    websocket: WebSocket,
    live: LiveTable,
    seat: int | None,
    chat: bool,
    invited: str | None,
    who: str,
    lang: str,
) -> None:
    """The greeted connection's messages, one at a time, until it closes; every word it
    is sent in ``lang`` (until it asks for another: :attr:`Client.lang`)."""
    clock = rooms.sockets.clock

    async def send(text: str) -> None:
        await websocket.send_text(text)

    async def refuse(code: str, message: str, **extra: Any) -> None:
        await send(encode({**error_frame(code, message), **extra}))

    async def end(code: str, message: str) -> None:  # its seat's token revoked, its invitation changed
        await send(encode(error_frame(code, message)))
        await websocket.close(code=4403, reason=code)

    holds = None if seat is None else live.seats[seat].token_hash
    client = Client(live.id, seat, send, lang=lang, token_hash=holds, end=end, invite_hash=invited)
    await rooms.presence.connect(client)
    if chat:
        rooms.chat.join(client)
        await rooms.chat.history(live, seat, send, lang)
    messages = Bucket.full(RATE, BURST, clock())
    hinting: set[asyncio.Task[None]] = set()  # this connection's hints being worked out

    async def hint(worked_out: Awaitable[HintFrame]) -> None:
        try:
            frame = await worked_out
        except Exception:  # a hint that fails says so; it never ends the connection
            log.exception("a hint failed at table %s", live.id)
            with using(client.language(live)):
                await refuse("hint-failed", _("The hint could not be worked out: try again."))
            return
        with contextlib.suppress(Exception):  # the client may be gone meanwhile
            await send(encode(frame))

    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            message = received.get("text")
            with using(client.language(live)):
                if messages.take(clock()):
                    await refuse("too-fast", _("Too many messages: slow down."))
                    continue
                if message is None:  # a binary message: the protocol is JSON text
                    await refuse("bad-json", _("The message is not JSON."))
                    continue
                if len(message.encode()) > MAX_MESSAGE:
                    await refuse("too-large", _("The message is too large."))
                    continue
                try:
                    with rooms.metrics.round_trip.time():
                        asked = await _handle(rooms, live, client, parse_message(message), who)
                except Limited as err:  # (a flood of hints or chat shows in the metrics)
                    rooms.metrics.refused.labels(reason=err.code).inc()
                    await refuse(err.code, err.message, retry_after=err.retry_after)
                    continue
                except Refused as err:
                    await refuse(err.code, err.message)
                    continue
                if asked is not None:
                    task = asyncio.create_task(hint(asked))
                    hinting.add(task)
                    task.add_done_callback(hinting.discard)
    except WebSocketDisconnect:
        pass
    finally:
        for task in hinting:
            task.cancel()
        rooms.chat.leave(client)
        await rooms.presence.disconnect(client)


async def _handle(
    rooms: Rooms, live: LiveTable, client: Client, message: Sent, who: str
) -> Awaitable[HintFrame] | None:
    """One message of a greeted connection of client ``who`` (in its language),
    from the seat it holds now (:attr:`Client.seat`; a message cannot name one). Every
    message type is handled here (mypy's ``assert_never`` fails on one that is not). A
    hint the seat may have is handed to the search pool here: what gives its frame is
    returned for the connection to send it while it goes on reading."""
    seat = client.seat
    if isinstance(message, Say):  # (the seat is the connection's: a message cannot name one)
        await rooms.chat.say(live, seat, client, message)
        return None
    if isinstance(message, Speak):  # (a spectator's too)
        await rooms.presence.speak(client, message.lang)
        if rooms.chat.shows(client):
            await rooms.chat.history(live, seat, client.send, message.lang)
        return None
    if seat is None:
        raise Refused("spectator", _("Spectators cannot play: take a seat to play."), 403)
    match message:
        case Hint():
            return rooms.hints.ask(
                live, seat, message.seq, who, rooms.search, rooms.sockets.clock(), message.game, client.lang
            )
        case Decide():
            await play.decide(rooms.tables, live.id, seat, message.seq, message.action, message.game)
        case TakeBack():
            await play.take_back(rooms.tables, live.id, seat, message.seq, message.game)
        case Again():
            await play.again(rooms.tables, live.id, seat, message.game)
        case Decline():
            await play.decline(rooms.tables, live.id, seat, message.game)
        case _:
            assert_never(message)
    return None

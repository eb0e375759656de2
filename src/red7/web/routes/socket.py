"""The game: one WebSocket per client, ``/ws/{id}`` (docs/protocol.md).

Its first message is the client's hello (:class:`~red7.web.protocol.Hello`:
``{"type": "hello", "token": "...", "lang": "pt-BR"}``; ``token`` null or absent: a
spectator; ``lang``: the language of a refusal before the table's is known; ``invite``:
a private table's invitation secret, which a spectator of it needs). The server
then sends a ``table`` frame (:func:`red7.web.views.table_frame`) and another after every
change, and an ``error`` frame for anything refused. The client sends
``{"type": "decide", "seq": n, "action": "play R7"}``, ``{"type": "take_back", "seq": n}``,
``{"type": "again"}`` (a rematch's proposal or agreement), ``{"type": "decline"}``,
``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "reaction": "gg"}``, and
``{"type": "hint", "seq": n}`` (:data:`~red7.web.protocol.ClientMessage`); ``seq`` is the
frame's ``seq`` the decision was made against. A connection whose hello says
``"chat": true`` gets, after its first ``table`` frame, a ``chat`` frame with the chat's
recent history, then one for each line said (:mod:`red7.web.chat`). A hint is worked out
while the connection goes on (:mod:`red7.web.hints`) and answered to it alone by a
``hint`` frame. A connection refused is accepted, told
why (an ``error`` frame) and closed with a code a page can read: 4400 (no hello, or a
token in the address), 4403 (another site's page, a token this table does not know, a private table without
its invitation, or with one its host has renewed or revoked: ``invite-changed``; a
spectator watching by an invitation its host changes is ended so too),
4404 (no such table), 4408 (no hello in time), 4429 (too many connections from one
address: the frame's ``retry_after`` says when to try again).

A message over :data:`~red7.web.protocol.MAX_MESSAGE` bytes is refused (``too-large``),
as are more than :data:`RATE` messages a second over a burst of :data:`BURST`; one over
:data:`~red7.web.protocol.MAX_FRAME` bytes is not read at all: the socket is closed (1009,
"message too big").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...ui.i18n import _, using
from ..limits import Bucket, client_key
from ..live import LiveTable
from ..origins import same_origin
from ..protocol import MAX_MESSAGE, Again, Decide, Decline, Hint, Say, parse_hello, parse_message
from ..refusals import Limited, Refused, asked_language
from ..service import Client
from ..store import token_hash
from ..views import encode, error_frame
from .context import Context, context_of
from .records import token_in_url

SOCKET_RETRY: Final = 10.0
"""Seconds a client with too many WebSockets is told to wait."""
RATE, BURST = 20.0, 60
"""Messages a second a connection may send on average, and at once (a person clicks a
few a second at most; a flood is refused message by message)."""

router = APIRouter()
log = logging.getLogger(__name__)

Refuse = Callable[..., Awaitable[None]]


@router.websocket("/ws/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    # accepted before anything is checked: a refusal before accept() would reach the
    # page as an HTTP 403 (uvicorn), which a browser's WebSocket does not show; after
    # it, the page reads why (an error frame) and the close code
    await websocket.accept()
    context = context_of(websocket)
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
        if not same_origin(origin, websocket.url.scheme, websocket.headers.get("host"), context.origins):
            context.metrics.refused.labels(reason="origin").inc()
            message = _("This page comes from another site ({origin}): the game talks to its own pages only.").format(
                origin=(origin or "")[:100]
            )
            await refuse("cross-origin", message, 4403)
            return
    who = client_key(websocket.client.host if websocket.client else None)
    if not context.client_limits.open_socket(who):
        context.metrics.refused.labels(reason="sockets").inc()
        with using(lang):
            message = _("Too many connections from your address: close some tabs, or wait {seconds} s.")
            await refuse("too-many", message.format(seconds=int(SOCKET_RETRY)), 4429, retry_after=SOCKET_RETRY)
        return
    try:
        await _greeted(context, websocket, table_id, lang, refuse)
    finally:
        context.client_limits.close_socket(who)


async def _greeted(context: Context, websocket: WebSocket, table_id: str, lang: str, refuse: Refuse) -> None:
    """The connection from its hello on: the table, the seat, then the game."""
    try:
        received = await asyncio.wait_for(websocket.receive(), context.settings.hello_timeout)
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
    lang = asked_language(None, hello.lang, lang)
    tables = context.tables()
    try:
        with using(lang):
            live = await tables.find(table_id)
    except Refused as err:
        await refuse(err.code, err.message, 4404)
        return
    seat = await tables.seat_of(live, hello.token)
    if hello.token and seat is None:
        with using(live.lang):
            await refuse("bad-token", _("This seat token does not open a seat at this table."), 4403)
        return
    try:
        with using(live.lang):
            tables.admit(live, seat, hello.invite)
    except Refused as err:  # a private table, and neither a seat nor its invitation
        await refuse(err.code, err.message, 4403)
        return
    # the invitation it came by: a spectator's connection ends once the host changes it
    invited = token_hash(hello.invite) if hello.invite and live.private and live.invited(hello.invite) else None
    await _game(context, websocket, live, seat, hello.chat, invited)


async def _game(
    context: Context, websocket: WebSocket, live: LiveTable, seat: int | None, chat: bool, invited: str | None
) -> None:
    """The greeted connection's messages, one at a time, until it closes."""
    tables, clock = context.tables(), context.settings.clock

    async def send(text: str) -> None:
        await websocket.send_text(text)

    async def refuse(code: str, message: str, **extra: Any) -> None:
        await send(encode({**error_frame(code, message), **extra}))

    async def end(code: str, message: str) -> None:  # its seat's token revoked, its invitation changed
        await send(encode(error_frame(code, message)))
        await websocket.close(code=4403, reason=code)

    holds = None if seat is None else live.seats[seat].token_hash
    client = Client(live.id, seat, send, chat=chat, token_hash=holds, end=end, invite_hash=invited)
    await tables.connect(client)
    if chat:
        await tables.chat.history(live, seat, send)
    messages = Bucket.full(RATE, BURST, clock())
    hinting: set[asyncio.Task[None]] = set()  # this connection's hints being worked out

    async def hint(seat: int, seq: int) -> None:
        try:
            frame = await context.hints.work_out(live, seat, seq)
        except Exception:  # a hint that fails says so; it never ends the connection
            log.exception("a hint failed at table %s", live.id)
            with using(live.lang):
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
            with using(live.lang):
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
                    with context.metrics.round_trip.time():
                        asked = await _handle(context, live, client, message)
                except Limited as err:
                    await refuse(err.code, err.message, retry_after=err.retry_after)
                    continue
                except Refused as err:
                    await refuse(err.code, err.message)
                    continue
                if asked is not None:
                    task = asyncio.create_task(hint(*asked))
                    hinting.add(task)
                    task.add_done_callback(hinting.discard)
    except WebSocketDisconnect:
        pass
    finally:
        for task in hinting:
            task.cancel()
        await tables.disconnect(client)


async def _handle(context: Context, live: LiveTable, client: Client, text: str) -> tuple[int, int] | None:
    """One message of a greeted connection (in the table's language), from the seat it
    holds now (:attr:`Client.seat`). A hint the seat may have is only checked here (and
    counted): its seat and ``seq`` are returned for the connection to work it out while
    it goes on reading."""
    message = parse_message(text)
    seat = client.seat
    if isinstance(message, Say):  # (the seat is the connection's: a message cannot name one)
        await context.tables().chat.say(live, seat, client, message)
        return None
    if seat is None:
        raise Refused("spectator", _("Spectators cannot play: take a seat to play."), 403)
    tables = context.tables()
    if isinstance(message, Hint):
        context.hints.check(live, seat, message.seq, context.settings.clock())
        return seat, message.seq
    if isinstance(message, Decide):
        await tables.decide(live.id, seat, message.seq, message.action)
    elif isinstance(message, Again):
        await tables.again(live.id, seat, message.game)
    elif isinstance(message, Decline):
        await tables.decline(live.id, seat, message.game)
    else:
        await tables.take_back(live.id, seat, message.seq)
    return None

"""Chat at a table: canned reactions and short free text, kept, rate-limited, and
told to every process serving the table.

Who reads what (the rule docs/web.md states):

* a person in a seat says a line in the ``players`` channel, which everyone at the table
  reads: the players and the spectators;
* a spectator says a line in the ``spectators`` channel, which only spectators read
  (the players never see what those watching them say), if the host chose ``separate``
  at creation; with ``off`` a spectator may only read the players;
* bots say nothing.

The seat a line is said from is always the connection's (its token's): a message cannot
name one (:class:`~red7.web.chat.wire.Say` forbids any other field), so a spectator
never speaks as a seat. A line's name is the seat's at the moment it is said; a
spectator's is empty (the page writes "Spectator"). A seated person's line also says
who they are (``who``: :attr:`~red7.web.table.live.SeatState.who`, their username or their
name at the table, never a token), which the seats of the table frames say too: a page
mutes a person by it, whichever seat they sit in (a muted person who changes seat or
comes back stays muted; someone else in their old seat is not).

Text is cleaned before it is kept (:func:`clean`): control and format characters
(a bidirectional override, a zero-width space...) are dropped, runs of spaces and line
breaks folded; what is left is at most :data:`~red7.web.chat.wire.MAX_CHAT` characters
(longer is refused, not cut). It stays plain text: the page shows it with
``textContent``, never as HTML, and makes no link of it.

Each seat may say :data:`BURST` lines at once and :data:`RATE` a second after that
(each spectator connection alike); a line over that is refused (``chat-too-fast``, with
``retry_after``) and nothing is kept. Like the other limits, a process counts its own.

Every line is written to the database first (:mod:`red7.web.chat.store`), then sent to
the table's clients in this process that may read it, and told to the other processes
over the bus (``{"t": table, "chat": line}``), which send it to theirs. The bus may lose
a message: a page reloaded, or reconnected, gets the last :data:`HISTORY` lines it may
read from the database, whichever process it reaches.
"""

from __future__ import annotations

import contextlib
import time
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import UTC
from typing import Any, Final, Literal, cast

from pydantic import TypeAdapter, ValidationError

from ...ui.i18n import N_, _, using
from ..http.limits import Bucket, whole_seconds
from ..http.refusals import Limited, Refused
from ..http.wire import PROTOCOL_VERSION
from ..table.live import LiveTable
from ..table.presence import Client
from ..table.requests import SpectatorChat
from ..table.tables import Tables
from ..table.views import encode
from .store import StoredLine, add_line, recent_lines
from .wire import MAX_CHAT, ChatFrame, ChatLine, Reaction, Say

REACTIONS: Final[dict[Reaction, str]] = {
    "hello": N_("Hello!"),
    "gg": N_("Good game"),
    "wp": N_("Well played"),
    "nice": N_("Nice move!"),
    "oops": N_("Oops!"),
    "thanks": N_("Thanks"),
    "sorry": N_("Sorry"),
    "hurry": N_("Hurry up?"),
}
"""The canned reactions (:data:`~red7.web.chat.wire.Reaction`), in the order the page shows them."""
CHAT_WORDS: Final = {
    "chat": N_("Chat"),
    "chat_players": N_("Players' chat"),
    "chat_spectators": N_("Spectators' chat (players do not see it)"),
    "chat_off": N_("Spectators' chat is off at this table: you can read the players."),
    "chat_say": N_("Message"),
    "chat_send": N_("Send"),
    "chat_reactions": N_("Reactions"),
    "chat_empty": N_("Nothing said yet."),
    "chat_spectator": N_("Spectator"),
    "chat_mute": N_("Mute {name}"),
}
"""The words of the page's chat panel, sent translated with the history."""
HISTORY: Final = 50
"""Lines a page gets when it connects (the last it may read)."""
RATE, BURST = 0.5, 5
"""Lines a second a seat (or a spectator's connection) may say on average, and at once."""
PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
LINE: Final = TypeAdapter(ChatLine)


def clean(text: str) -> str:
    """``text`` as it is kept: control, format, private-use and unassigned characters
    dropped (a line break or tab is a space), spaces folded, ends trimmed.

    >>> clean("  hi\\n\\tthere\\u202e\\x00!  ")
    'hi there!'
    """
    kept = []
    for ch in text:
        if ch in "\n\r\t":
            kept.append(" ")
        elif not unicodedata.category(ch).startswith("C") or ch == "\u200d":
            kept.append(ch)  # (the zero-width joiner is kept: emoji sequences are made with it)
    return " ".join("".join(kept).split())


Channel = Literal["players", "spectators"]


def channel_of(seat: int | None) -> Channel:
    """The channel a connection in ``seat`` (None: a spectator) says its lines in."""
    return PLAYERS if seat is not None else SPECTATORS


def reads(seat: int | None, channel: str) -> bool:
    """Whether a connection in ``seat`` (None: a spectator) reads lines of ``channel``."""
    return channel == PLAYERS or seat is None


def may_post(live: LiveTable, seat: int | None) -> bool:
    return seat is not None or live.spectator_chat == "separate"


def line_json(line: StoredLine) -> ChatLine:
    """A line as a frame carries it (:class:`~red7.web.chat.wire.ChatLine`), a reaction's
    words in the language in use (its reader's). (The database holds only the channels
    and reactions :class:`~red7.web.chat.wire.Say` lets in.)"""
    return {
        "id": line.id,
        "seat": line.seat,
        "name": line.name,
        "who": line.who,
        "channel": cast("Channel", line.channel),
        "reaction": cast("Reaction | None", line.reaction),
        "text": _(REACTIONS[line.reaction]) if line.reaction in REACTIONS else line.text,
        "at": line.at.astimezone(UTC).isoformat(),
    }


def worded(line: ChatLine) -> ChatLine:
    """``line`` with a reaction's words in the language in use (a line is told over the
    bus in its speaker's language; free text is kept as said)."""
    reaction = line["reaction"]
    return line if reaction is None else {**line, "text": _(REACTIONS[reaction])}


def chat_frame(lines: list[ChatLine], history: bool, live: LiveTable, seat: int | None) -> ChatFrame:
    """A ``chat`` frame for a connection in ``seat``; a history frame has the panel's
    words and the reactions, in the language in use."""
    frame: ChatFrame = {
        "v": PROTOCOL_VERSION,
        "type": "chat",
        "lines": lines,
        "history": history,
        "spectators": cast("SpectatorChat", live.spectator_chat),
        "can_post": may_post(live, seat),
    }
    if history:
        frame["reactions"] = [{"id": code, "text": _(words)} for code, words in REACTIONS.items()]
        frame["words"] = {key: _(words) for key, words in CHAT_WORDS.items()}
    return frame


class Chat:
    """The chat of a server's tables: who shows it (:meth:`join`), what is said
    (:meth:`say`), what a connection is shown when it comes (:meth:`history`) and what
    another process said (heard over the bus). ``clock`` is what the rate limit reads
    (tests stop and move it)."""

    def __init__(self, tables: Tables, clock: Callable[[], float] = time.monotonic) -> None:
        self.tables, self.clock = tables, clock
        self._showing: dict[str, set[Client]] = {}
        """The connections here that show each table's chat."""
        self._buckets: dict[tuple[str, int], Bucket] = {}
        """Each seat's rate limit, by (table, seat)."""
        self._spectators: dict[object, Bucket] = {}
        """Each spectator connection's, by its connection (forgotten when it closes: :meth:`leave`)."""
        tables.bus.listen(self._heard)

    def join(self, client: Client) -> None:
        """``client`` shows the chat of its table (its hello said so): it is sent the lines said."""
        self._showing.setdefault(client.table_id, set()).add(client)

    def shows(self, client: Client) -> bool:
        """Whether ``client`` shows its table's chat (:meth:`join`)."""
        return client in self._showing.get(client.table_id, ())

    def leave(self, client: Client) -> None:
        """``client`` closed: it is sent nothing more, and its spectator's rate limit is not kept."""
        showing = self._showing.get(client.table_id)
        if showing is not None:
            showing.discard(client)
            if not showing:
                del self._showing[client.table_id]
        self._spectators.pop(client, None)

    async def say(self, live: LiveTable, seat: int | None, connection: object, message: Say) -> None:
        """The connection ``connection`` in ``seat`` (None: a spectator) says ``message``
        at ``live`` (in the language in use, the speaker's): refused, and nothing kept, if it may not
        (spectators' chat off), if it is empty or both a reaction and text, or if it
        comes too fast."""
        if not may_post(live, seat):
            raise Refused("chat-off", _("Spectators' chat is off at this table: you can read the players."), 403)
        if (message.text is None) == (message.reaction is None):
            raise Refused("bad-chat", _("A chat message is either a reaction or a text."))
        text = "" if message.text is None else clean(message.text)
        if message.reaction is None and not text:
            raise Refused("bad-chat", _("The message is empty: write something."))
        assert len(text) <= MAX_CHAT  # (the protocol refused longer; cleaning only shortens)
        bucket = self._bucket(live.id, seat, connection)
        wait = bucket.take(self.clock())
        if wait:
            seconds = whole_seconds(wait)
            raise Limited("chat-too-fast", _("You are chatting fast: wait {seconds} s.").format(seconds=seconds), wait)
        name = "" if seat is None else live.names()[seat]
        who = None if seat is None else live.seats[seat].who  # (what a page mutes: the person, not the seat)
        store = self.tables.store
        stored = await self.tables.db(
            add_line, store, live.id, channel_of(seat), seat, name, message.reaction, text, who
        )
        line = line_json(stored)
        await self._deliver(live, line)
        self.tables.bus.publish({"t": live.id, "chat": line})

    def _bucket(self, table_id: str, seat: int | None, connection: object) -> Bucket:
        if seat is None:
            return self._spectators.setdefault(connection, Bucket.full(RATE, BURST, self.clock()))
        return self._buckets.setdefault((table_id, seat), Bucket.full(RATE, BURST, self.clock()))

    async def history(
        self, live: LiveTable, seat: int | None, send: Callable[[str], Awaitable[None]], lang: str | None = None
    ) -> None:
        """Send a connection in ``seat`` the last :data:`HISTORY` lines it may read, in
        ``lang`` (its language; None: the table's)."""
        channels = (PLAYERS, SPECTATORS) if seat is None else (PLAYERS,)
        stored = await self.tables.db(recent_lines, self.tables.store, live.id, channels, HISTORY)
        with using(lang or live.lang):
            frame = chat_frame([line_json(line) for line in stored], True, live, seat)
        with contextlib.suppress(Exception):  # a client gone meanwhile is removed by its own handler
            await send(encode(frame))

    async def _heard(self, message: dict[str, Any]) -> None:
        """A line another process told (``{"t": table, "chat": line}``): sent to this
        process's connections to the table that may read it (none: nothing to do)."""
        table_id = message.get("t")
        live = self.tables.live.get(table_id) if isinstance(table_id, str) and "chat" in message else None
        if live is None:
            return
        try:
            line = LINE.validate_python(message.get("chat"))
        except ValidationError:
            return  # not a line: nothing to show
        await self._deliver(live, line)

    async def _deliver(self, live: LiveTable, line: ChatLine) -> None:
        """Send ``line`` to this process's connections to the table that may read it, each
        in its language (a reaction's words; each text encoded once per language)."""
        texts: dict[tuple[bool, str], str] = {}
        for client in list(self._showing.get(live.id, ())):
            seat = client.seat  # (the seat it holds now: one unseated reads as a spectator)
            if not client.admitted(live) or not reads(seat, line["channel"]):
                continue
            key = (may_post(live, seat), client.language(live))
            if key not in texts:
                with using(key[1]):
                    texts[key] = encode(chat_frame([worded(line)], False, live, seat))
            with contextlib.suppress(Exception):  # a client gone mid-send is removed by its own handler
                await client.send(texts[key])

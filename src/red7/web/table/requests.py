"""The table's requests, declared: the lobby's HTTP bodies and the game's WebSocket
messages (Pydantic models, :class:`~red7.web.http.wire.Request`), each with what a wrong
field of it is told.

The models check the shape (types, bounds, lengths, the names of levels and languages,
no unknown field); what needs the table (is this seat free, is this name taken here, is
it your turn) is checked by the table (:mod:`.seating`, :mod:`.hosting`, :mod:`.play`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Final, Literal, get_args

from pydantic import Field, ValidationError

from ...core.model import MAX_PLAYERS, MIN_PLAYERS
from ...play.session import Stop
from ...ui.i18n import LANGUAGES, _
from ...ui.words import NAME_LENGTH
from ..http.refusals import Refused, session_refusal
from ..http.wire import MAX_MESSAGE, Language, Number, Request, SeatNumber, Text, Why, refusal_of
from .clocks import clock_refusal
from .frames import Level
from .hosting import SPECTATOR_CHATS, spectator_chat_refusal, table_name_refusal
from .seating import not_invited

MAX_TURNS: Final = 50
"""The most tables one ``POST /api/turns`` asks about."""
ClockSeconds = Literal[0, 60, 180, 86_400, 259_200]
"""A table's clock, seconds per turn (:data:`red7.web.table.clocks.CLOCKS`)."""
SpectatorChat = Literal["separate", "off"]
"""Spectators' chat at a table: ``separate`` (spectators talk among themselves; the
players do not read them) or ``off`` (spectators only read the players)."""
assert get_args(SpectatorChat) == SPECTATOR_CHATS


def _players() -> Refused:
    return Refused("bad-settings", _("A table has {low} to {high} players.").format(low=MIN_PLAYERS, high=MAX_PLAYERS))


def _option() -> Refused:
    return Refused("bad-settings", _("The options advanced and actions are true or false."))


def _language() -> Refused:
    return Refused("bad-settings", _("Languages: {languages}.").format(languages=", ".join(LANGUAGES)))


def _spoken() -> Refused:
    return Refused("bad-lang", _("Languages: {languages}.").format(languages=", ".join(LANGUAGES)))


def _name() -> Refused:
    return Refused("bad-name", _("Give a name of up to {n} characters.").format(n=NAME_LENGTH))


def _private() -> Refused:
    return Refused("bad-settings", _("The option private is true or false."))


def _hints() -> Refused:
    return Refused("bad-settings", _("The option hints is true or false."))


def _rated() -> Refused:
    return Refused("bad-settings", _("The option rated is true or false."))


def _revoke() -> Refused:
    return Refused("bad-request", _("The field revoke is true or false."))


def _seat() -> Refused:
    return Refused("bad-seat", _("A seat is a number from 0 to {last}.").format(last=MAX_PLAYERS - 1))


def _level() -> Refused:
    return Refused("bad-level", _("Bot levels: {levels}.").format(levels=", ".join(get_args(Level))))


def _decision() -> Refused:
    return Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'."))


def _stale() -> Refused:
    return session_refusal(Stop.STALE)


def turns_refusal() -> Refused:
    """A ``POST /api/turns`` whose seats are not a list of tables and tokens."""
    return Refused("bad-turns", _("Ask about up to {n} tables, each with its seat token.").format(n=MAX_TURNS))


def _hello() -> Refused:
    return Refused("bad-hello", _('A connection starts with its hello: {"type": "hello", "token": ...}.'))


# --- HTTP bodies ---------------------------------------------------------------------------------


class CreateTable(Request):
    """``POST /api/tables``: a new table, its creator in seat 0."""

    refusals: ClassVar[Mapping[str, Why]] = {
        "players": _players,
        "advanced": _option,
        "actions": _option,
        "hints": _hints,
        "rated": _rated,
        "lang": _language,
        "name": _name,
        "clock": clock_refusal,
        "spectator_chat": spectator_chat_refusal,
        "table_name": table_name_refusal,
        "private": _private,
    }

    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 2
    advanced: bool = False
    actions: bool = False
    lang: Language = "en"
    """The table's language (``pt``, ``pt_BR``, ``en-GB``... are read as the tag they name)."""
    name: Text = ""
    """The creator's name: spaces folded, up to 24 characters; empty: the seat's own name."""
    clock: ClockSeconds = 0
    """Seconds a person has for each turn: 0 (no clock), 60 or 180 (a per-turn clock),
    86400 or 259200 (a correspondence clock: one or three days). When it runs out, a
    substitute bot plays that turn for the person."""
    spectator_chat: SpectatorChat = "separate"
    """Spectators' chat: ``separate`` (among themselves) or ``off`` (they read the players only)."""
    table_name: Text = ""
    """The table's name: spaces folded, up to 40 characters; empty: "Ana's table"."""
    private: bool = False
    """A private table is not in the lobby: only its invitation link (``invite`` of the answer) opens it."""
    hints: bool = True
    """The people at the table may ask for a hint on their turn (off: no hint button)."""
    rated: bool = False
    """Its games move its players' ratings (the leaderboard): registered people only, no hints."""


class PlayNow(Request):
    """``POST /api/play-now``: a table made, its other seats given to bots, its game started
    (the lobby's "Play now against a bot": its creator sits in seat 0)."""

    refusals: ClassVar[Mapping[str, Why]] = {
        "players": _players,
        "advanced": _option,
        "actions": _option,
        "level": _level,
        "lang": _language,
        "name": _name,
    }

    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 2
    advanced: bool = False
    actions: bool = False
    level: Level = "medium"
    """The level of every bot at the table."""
    lang: Language = "en"
    """The table's language (the lobby sends its own)."""
    name: Text = ""
    """The person's name: spaces folded, up to 24 characters; empty: the seat's own name."""


class TakeSeat(Request):
    """``POST /api/tables/{id}/seats/{seat}``: a person takes a free seat."""

    refusals: ClassVar[Mapping[str, Why]] = {"name": _name, "invite": not_invited}

    name: Text = ""
    invite: Text | None = None
    """A private table's invitation secret (the ``#invite=`` of its link)."""


class RemoveSeat(Request):
    """``POST /api/tables/{id}/seats/{seat}/remove``: the host (seat 0) empties a seat before the start."""

    token: Text


class LeaveSeat(Request):
    """``POST /api/tables/{id}/leave``: a person leaves their seat before the start."""

    token: Text


class AddBot(Request):
    """``POST /api/tables/{id}/bots``: a person at the table puts a bot in a free seat."""

    refusals: ClassVar[Mapping[str, Why]] = {"seat": _seat, "level": _level}

    token: Text
    seat: SeatNumber
    level: Level


class StartGame(Request):
    """``POST /api/tables/{id}/start``: a person at the table starts the game."""

    token: Text


class Reseat(Request):
    """``POST /api/tables/{id}/seats/{seat}/reseat``: the host (seat 0) gives the seat's
    person a new token (an admin revoked theirs, or they lost it)."""

    token: Text


class ChangeInvite(Request):
    """``POST /api/tables/{id}/invite``: the host (seat 0) of a private table makes a new
    invitation (the old link stops opening the table) or, with ``revoke``, ends it (only
    the seated people open the table then)."""

    refusals: ClassVar[Mapping[str, Why]] = {"revoke": _revoke}

    token: Text
    revoke: bool = False


class YourTurnSeat(Request):
    """One table and the seat token a browser keeps for it."""

    table: Annotated[str, Field(max_length=32)]
    token: Text


class YourTurn(Request):
    """``POST /api/turns``: which of these tables await the seat of its token (the
    tokens travel in the body, never in an address)."""

    seats: Annotated[list[YourTurnSeat], Field(max_length=MAX_TURNS)]


# --- the WebSocket's messages --------------------------------------------------------------------


class Hello(Request):
    """The first message of a WebSocket: who it is, and the language it reads."""

    type: Literal["hello"]
    token: Text | None = None
    """The seat token (null or absent: a spectator)."""
    lang: Annotated[str, Field(max_length=35)] | None = None
    """The connection's language (a tag: ``en``, ``pt-BR``; ``pt`` reads as ``pt-BR``): every
    word it is sent (frames, refusals, chat, hints) is in it. Absent, or one this server
    does not speak: the first of the browser's ``Accept-Language`` that it speaks, else the
    table's language."""
    chat: bool = False
    """Whether the connection shows the table's chat: its recent history comes after the
    first ``table`` frame, then a ``chat`` frame for each line said (false: no chat frame
    at all; it may still say a line)."""
    invite: Text | None = None
    """A private table's invitation secret: what a spectator of it needs (a seat token is enough)."""


class Speak(Request):
    """The connection reads the table in ``lang`` from now on (the table page's language
    control): it is sent the table whole again in it, with the page's words (and the
    chat's history, if it shows the chat), without reconnecting; every word it is sent
    after is in it."""

    refusals: ClassVar[Mapping[str, Why]] = {"lang": _spoken}

    type: Literal["lang"]
    lang: Language


class Decide(Request):
    """A decision (its notation, e.g. ``play R7``) made against the frame ``seq`` of game ``game``."""

    refusals: ClassVar[Mapping[str, Why]] = {"seq": _stale, "action": _decision, "game": _stale}

    type: Literal["decide"]
    seq: Number
    """The ``seq`` of the frame the decision was made against."""
    action: Text
    """The decision in the game's notation, as an option's ``action`` says it."""
    game: Number | None = None
    """The number of the game (the frame's ``table.game``) the decision is for: another
    number is stale (a message of an earlier game whose ``seq`` a later game reached
    again). Absent: the game being played (as a client written before this field
    sends it; the pages always name the game)."""


class TakeBack(Request):
    """Take the staged turn back (the frame ``seq`` of game ``game`` it is taken back from)."""

    refusals: ClassVar[Mapping[str, Why]] = {"seq": _stale, "game": _stale}

    type: Literal["take_back"]
    seq: Number
    game: Number | None = None
    """As :attr:`Decide.game`."""


class Again(Request):
    """Play again, once a game is over: the first is the proposal the others see, each
    person's is their agreement; the next game starts once every person seated agreed
    (bots always do)."""

    refusals: ClassVar[Mapping[str, Why]] = {"game": _stale}

    type: Literal["again"]
    game: Number | None = None
    """The number of the game just over (the frame's ``table.game``) the agreement is
    about; another number is stale. Absent: the last game."""


class Decline(Request):
    """Decline the rematch proposed: the proposal ends, and every seat is told who declined."""

    refusals: ClassVar[Mapping[str, Why]] = {"game": _stale}

    type: Literal["decline"]
    game: Number | None = None
    """As :attr:`Again.game`."""


def parse_turns(raw: bytes) -> YourTurn:
    """A ``POST /api/turns`` body, or :class:`Refused`: what :func:`parse_body` says of
    the whole (not JSON, too large, a field unknown), else :func:`turns_refusal` (its
    seats hold tokens: a malformed one is not a token refused)."""
    if len(raw) > MAX_MESSAGE:
        raise Refused("too-large", _("The request is too large."), 413)
    try:
        return YourTurn.model_validate_json(raw or b"{}")
    except ValidationError as err:
        refusal = refusal_of(err, {}, "request")
        raise refusal if refusal.code in ("bad-json", "unknown-field") else turns_refusal() from None


def parse_hello(text: str | None) -> Hello:
    """A WebSocket's first message, or :class:`Refused` (``bad-hello``)."""
    if text is None or len(text) > MAX_MESSAGE:
        raise _hello()
    try:
        return Hello.model_validate_json(text)
    except ValidationError:
        raise _hello() from None

"""The web game's wire protocol, declared: every request a client sends and every frame
and answer the server sends, as Pydantic models, and their JSON Schema.

Requests (the HTTP bodies and the WebSocket's messages) are parsed through these models
(:func:`parse_body`, :func:`parse_hello`, :func:`parse_message`): a request the models
refuse is answered as every refusal is, ``{"code", "message"}`` with a sentence in the
request's language (:func:`refusal_of`), never with Pydantic's own English text. The
checks that need a table (is this seat free, is this name taken here, is it your turn)
stay with the table (:class:`red7.web.service.Tables`); the models check the shape:
types (an int is not a bool nor a string), bounds, lengths, the names of kinds, levels
and languages, and no field they do not know (``extra="forbid"``).

Frames and answers are built as plain dicts (:mod:`red7.web.views`; orjson encodes them:
a frame for every seat at every change must stay cheap), so their models here are their
contract: tests validate every frame the games of tests/test_web_leaks.py send, strictly,
against :data:`ServerFrame`; :func:`schema` is what ``GET /api/protocol`` serves and
``python -m red7.web.protocol`` writes to docs/protocol.schema.json.

:data:`PROTOCOL_VERSION` is carried by every frame (``v``) and by the schema (its
``$id``, ``title`` and ``version``); it changes when a frame or request changes in a way
an existing client would misread (docs/protocol.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.json_schema import models_json_schema

from ..core.model import MAX_PLAYERS, MIN_PLAYERS
from ..play.session import Stop
from ..ui.i18n import LANGUAGES, _, parse_language
from ..ui.words import NAME_LENGTH
from .accounts import PASSWORD_LENGTH, password_refusal, username_refusal
from .clocks import clock_refusal
from .refusals import Refused, session_refusal
from .seating import TABLE_NAME_LENGTH, not_invited

PROTOCOL_VERSION: Final = 1
"""The protocol's version: every frame's ``v``, the schema's ``version``."""
SCHEMA_ID: Final = f"urn:red7:web-protocol:{PROTOCOL_VERSION}"
MAX_MESSAGE: Final = 4096
"""Bytes a client message or request body may have (a decision is about 60)."""
MAX_FRAME: Final = 1 << 20
"""Bytes a WebSocket message may have before the server stops reading it and closes the
socket (1009); between :data:`MAX_MESSAGE` and this, it is read and refused (``too-large``)."""
MAX_NUMBER: Final = 2**31 - 1
"""The largest number a request may hold (a game's number, a ``seq``: the database's integers)."""
MAX_TEXT: Final = 200
MAX_TURNS: Final = 50
"""The most tables one ``POST /api/turns`` asks about."""
"""Characters a free text of a request (a name, before its spaces are folded; a token;
a decision's notation) may have."""
MAX_CHAT: Final = 200
"""Characters a chat message may have (:mod:`red7.web.chat`)."""

Number = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
"""A count or a sequence number: an integer (not a bool, not a string), 0 to :data:`MAX_NUMBER`."""
SeatNumber = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
"""A seat, counted from 0 as the engine does (the pages show them from 1)."""
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Level = Literal["easy", "medium", "hard"]
"""A bot's level (:data:`red7.bots.LEVELS`; ``expert``, removed, is refused, and the seats
stored with it were moved to ``hard`` by the migration 0013)."""
Colour = Literal["red", "orange", "yellow", "green", "blue", "indigo", "violet"]
Status = Literal["open", "playing", "over", "expired", "closed"]
ClockSeconds = Literal[0, 60, 180, 86_400, 259_200]
"""A table's clock, seconds per turn (:data:`red7.web.clocks.CLOCKS`)."""
Kind = Literal["play", "canvas", "move", "take", "end", "concede", "draw", "decline"]
Reaction = Literal["hello", "gg", "wp", "nice", "oops", "thanks", "sorry", "hurry"]
"""A canned chat reaction (:data:`red7.web.chat.REACTIONS` holds their words)."""
SpectatorChat = Literal["separate", "off"]
"""Spectators' chat at a table: ``separate`` (spectators talk among themselves; the
players do not read them) or ``off`` (spectators only read the players)."""


def _language_tag(value: Any) -> Any:
    """A language as a person or browser writes it (``pt``, ``pt_BR``, ``en-GB``...) as
    its tag here; anything else is left for the enum to refuse."""
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        try:
            return parse_language(value)
        except ValueError:
            return value
    return value


Language = Annotated[Literal["en", "pt-BR"], BeforeValidator(_language_tag)]
"""A language this server speaks (:data:`red7.ui.i18n.LANGUAGES`)."""


class Request(BaseModel):
    """A client's request: strict types, no field the protocol does not know."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True)


class Message(BaseModel):
    """A server's frame or answer: exactly these fields (the tests validate strictly)."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)


# --- requests: HTTP bodies ----------------------------------------------------------------------


class CreateTable(Request):
    """``POST /api/tables``: a new table, its creator in seat 0."""

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


class TakeSeat(Request):
    """``POST /api/tables/{id}/seats/{seat}``: a person takes a free seat."""

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

    token: Text
    revoke: bool = False


class Credentials(Request):
    """``POST /api/account/register`` and ``POST /api/account/login``: a username and its password."""

    username: Annotated[str, Field(max_length=40)]
    password: Annotated[str, Field(max_length=PASSWORD_LENGTH[1])]


class Empty(Request):
    """A request that says everything in its address (``POST /api/account/logout``, an
    admin's actions): an empty JSON object, which a page of another site cannot send."""


# --- requests: the WebSocket's messages ---------------------------------------------------------


class Hello(Request):
    """The first message of a WebSocket: who it is, and the language of a refusal
    before the table's is known."""

    type: Literal["hello"]
    token: Text | None = None
    """The seat token (null or absent: a spectator)."""
    lang: Annotated[str, Field(max_length=35)] | None = None
    """A language tag (e.g. the browser's); one this server does not speak is ignored."""
    chat: bool = False
    """Whether the connection shows the table's chat: its recent history comes after the
    first ``table`` frame, then a ``chat`` frame for each line said (false: no chat frame
    at all; it may still say a line)."""
    invite: Text | None = None
    """A private table's invitation secret: what a spectator of it needs (a seat token is enough)."""


class Decide(Request):
    """A decision (its notation, e.g. ``play R7``) made against the frame ``seq``."""

    type: Literal["decide"]
    seq: Number
    """The ``seq`` of the frame the decision was made against."""
    action: Text
    """The decision in the game's notation, as an option's ``action`` says it."""


class TakeBack(Request):
    """Take the staged turn back (the frame ``seq`` it is taken back from)."""

    type: Literal["take_back"]
    seq: Number


class Again(Request):
    """Play again, once a game is over: the first is the proposal the others see, each
    person's is their agreement; the next game starts once every person seated agreed
    (bots always do)."""

    type: Literal["again"]
    game: Number | None = None
    """The number of the game just over (the frame's ``table.game``) the agreement is
    about; another number is stale. Absent: the last game."""


class Decline(Request):
    """Decline the rematch proposed: the proposal ends, and every seat is told who declined."""

    type: Literal["decline"]
    game: Number | None = None
    """As :attr:`Again.game`."""


class YourTurnSeat(Request):
    """One table and the seat token a browser keeps for it."""

    table: Annotated[str, Field(max_length=32)]
    token: Text


class YourTurn(Request):
    """``POST /api/turns``: which of these tables await the seat of its token (the
    tokens travel in the body, never in an address)."""

    seats: Annotated[list[YourTurnSeat], Field(max_length=MAX_TURNS)]


class Say(Request):
    """A chat message: a canned ``reaction`` or free ``text`` (exactly one of them). The
    seat it is said from is the connection's: a message naming one is refused."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=MAX_CHAT)] | None = None
    """Free text, up to :data:`MAX_CHAT` characters (control characters are dropped)."""
    reaction: Reaction | None = None


class Hint(Request):
    """The person to move asks what a bot would do with the rest of their turn, at the
    frame whose ``seq`` they saw (answered to them alone by a ``hint`` frame)."""

    type: Literal["hint"]
    seq: Number


Sent = Decide | TakeBack | Again | Decline | Say | Hint
"""The messages a client sends on its WebSocket after its hello."""
ClientMessage = Annotated[Sent, Field(discriminator="type")]
"""What a client sends on its WebSocket after its hello, told apart by its ``type``."""
CLIENT_MESSAGE: Final = TypeAdapter[Sent](ClientMessage)


# --- frames and answers -------------------------------------------------------------------------


class CardView(Message):
    """A card: its notation (what a client sends back), what a person reads, its colour
    (for the stylesheet) and its name (for screen readers)."""

    id: Annotated[str, Field(pattern=r"^[ROYGBIV][1-7]$")]
    label: str
    colour: Colour
    name: str


class PaletteCard(CardView):
    """A card of a palette, and whether it counts under the rule now."""

    counts: bool


class RuleView(Message):
    colour: Colour
    name: str
    text: str


class DeckView(Message):
    size: int
    known_top: list[CardView]


class LastRound(Message):
    """The last round that ended, for the round-end dialog."""

    palettes: list[list[CardView]]
    round: int
    winner: int
    rule: Colour
    scored: list[CardView]
    points: int
    text: str


class Over(Message):
    winners: list[int]
    text: str


class OptionView(Message):
    """One legal decision of the seat to move: its notation (sent back as is), what it
    does, its safety mark and why it is not safe, whether it ends the turn (and the
    turn in words), and its words."""

    action: str
    kind: Kind
    card: str | None
    to: Literal["canvas", "deck"] | None
    safe: bool
    unsafe_reason: str | None
    ends_turn: bool
    summary: str | None
    text: str


class LastMoveView(Message):
    """The cards the latest turn moved, as the frame's seat may see them (R9: another
    seat's hidden draw is never named), for the board to highlight."""

    seat: int
    cards: list[Annotated[str, Field(pattern=r"^[ROYGBIV][1-7]$")]]


class GameView(Message):
    """A game as one seat (or a spectator) may see it: the public part (board,
    standing, last round, result) and the seat's own (hand, log, options)."""

    round: int
    step: int
    current: int | None
    final: int
    """The decisions that are final (none of them can be taken back): where the game is, for all."""
    rule: RuleView
    canvas: list[CardView]
    deck: DeckView
    palettes: list[list[PaletteCard]]
    hand_sizes: list[int]
    alive: list[bool]
    known_hands: list[list[CardView]]
    scores: list[int]
    target: int | None
    leader: int | None
    standing: str
    last_round: LastRound | None
    over: Over | None
    hand: list[CardView] | None
    """The receiver's hand (null: a spectator's frame)."""
    drawn: list[str]
    """The cards of the hand just drawn (notation)."""
    log: list[str]
    log_from: int
    """How many lines of the move log the client has it keeps; ``log`` follows them (0: the whole log)."""
    prompt: str
    options: list[OptionView]
    """The receiver's legal decisions, on its turn (else empty)."""
    picks: Literal["hand", "own-palette", "other-palettes", "none"] | None
    """Where the cards of this step's decisions are picked (null: not the receiver's turn)."""
    staged: list[str]
    """The receiver's decisions of this turn that it may still take back."""
    unusable: dict[str, str] = {}
    """On the receiver's turn: each card of its hand and of the palettes that no legal
    decision names, by notation, with why it cannot be used now (the engine's refusal in
    words); empty otherwise."""
    hands: list[list[CardView]] | None = None
    """Every seat's hand: only in the replay of a game that is over, when asked
    (``?hands=all``); absent everywhere else."""
    last: LastMoveView | None = None
    """The cards the latest turn moved, as the receiver may see them (null: none yet in
    this round)."""


class TableInfo(Message):
    id: str
    lang: Literal["en", "pt-BR"]
    players: int
    advanced: bool
    actions: bool
    status: Status
    game: int
    settings: str
    clock: int = 0
    """Seconds a person has for each turn (0: no clock)."""
    name: str | None = None
    """The table's name (empty: a table made before tables had names)."""
    private: bool | None = None
    """Whether the table is private (not in the lobby; opened by its invitation link)."""
    invitation: bool | None = None
    """Whether a private table has an invitation now (false: its host revoked it, and
    only its seated people open it; null or absent: a public table)."""
    hints: bool = True
    """The people at the table may ask for a hint (a table option)."""
    rated: bool = False
    """Whether the table's games move its players' ratings."""


class ClockView(Message):
    """The countdown of the turn awaited: the page counts ``remaining`` down from the
    frame on. When it reaches 0 a substitute bot decides for the person."""

    seat: int
    kind: Literal["turn", "correspondence", "away"]
    """``turn``, ``correspondence``: the table's clock; ``away``: the patience with a
    person not connected at a table without a clock."""
    seconds: int
    """What the clock gives a turn (or the patience, in seconds)."""
    remaining: int
    """Whole seconds left when the frame was made."""


class RematchView(Message):
    """The rematch proposed after a game (``agreed``: the seats whose people agreed) or
    declined (``declined``: whose person ended the proposal; ``agreed`` is then empty)."""

    agreed: list[int]
    declined: int | None


class SeatView(Message):
    seat: int
    name: str
    bot: Level | None
    person: bool
    who: str | None = None
    """Who sits there, for the chat's mute (a person's :attr:`ChatLine.who`; null: nobody, a bot)."""
    taken: bool
    online: bool
    away: bool
    you: bool


class TableFrame(Message):
    """The table as the connection's seat may see it; sent after the hello and after
    every change. ``ui`` (the words of the page's controls) only in a connection's first
    frame."""

    v: Literal[1]
    type: Literal["table"]
    table: TableInfo
    seats: list[SeatView]
    you: int | None
    """The receiver's seat (null: a spectator)."""
    seq: int
    """The sequence number a decision made on this frame is sent with."""
    game: GameView | None
    """The game (null: not started yet)."""
    clock: ClockView | None = None
    """The countdown of the turn awaited (null or absent: none runs)."""
    rematch: RematchView | None = None
    """The rematch proposed or declined after the game (null or absent: none)."""
    ui: dict[str, str] | None = None
    """The words of the page's controls, in the table's language (a connection's first frame only)."""


class ErrorFrame(Message):
    """A refusal: nothing changed. ``retry_after``: seconds to wait (``too-many``)."""

    v: Literal[1]
    type: Literal["error"]
    code: str
    message: str
    retry_after: float | None = None


class ChatLine(Message):
    """One line of a table's chat. ``seat`` null: a spectator said it. ``text`` is the
    words (a reaction's in the table's language): plain text, to be shown as text."""

    id: int
    seat: int | None
    name: str
    who: str | None = None
    """Who said it, the same whichever seat they sit in (what a page mutes): ``u:`` and a
    registered person's username, or ``g:`` and a guest's name as the table knows it
    (folded: the table's names are unique); null: a spectator, or a line kept before lines
    said who."""
    channel: Literal["players", "spectators"]
    """``players``: read by everyone at the table; ``spectators``: by spectators only."""
    reaction: Reaction | None
    text: str
    at: str
    """When it was said (ISO 8601, UTC)."""


class ReactionView(Message):
    id: Reaction
    text: str


class ChatFrame(Message):
    """Chat lines the receiver may read: after the first table frame, the recent
    history (``history``: the page replaces what it shows), then each new line."""

    v: Literal[1]
    type: Literal["chat"]
    lines: list[ChatLine]
    history: bool
    spectators: SpectatorChat
    """The table's spectators' chat (the host's choice)."""
    can_post: bool
    """Whether the receiver may say something (a spectator may not when ``spectators`` is off)."""
    reactions: list[ReactionView] | None = None
    """The canned reactions, in the table's language (history frames only)."""
    words: dict[str, str] | None = None
    """The words of the chat panel, in the table's language (history frames only)."""


class HintFrame(Message):
    """The answer to a ``hint``, sent to the asking connection only: the bot's whole
    turn in the person's place, its reason and odds, in words (the terminal game's), and
    its decisions in notation. ``seq``: the position it is for (a later frame makes it
    stale)."""

    v: Literal[1]
    type: Literal["hint"]
    seq: int
    text: str
    decisions: list[str]


Frame = TableFrame | ErrorFrame | ChatFrame | HintFrame
"""The frames the server sends on a WebSocket."""
ServerFrame = Annotated[Frame, Field(discriminator="type")]
"""What the server sends on a WebSocket, told apart by its ``type``."""
SERVER_FRAME: Final = TypeAdapter[Frame](ServerFrame)


class Refusal(Message):
    """An HTTP refusal (4xx): a stable ``code`` and a sentence in the request's language."""

    code: str
    message: str


class UiWords(Message):
    """``GET /api/ui?lang=``: the words of the pages' own controls."""

    lang: Literal["en", "pt-BR"]
    languages: dict[str, str]
    ui: dict[str, str]


class LobbyRow(Message):
    id: str
    lang: Literal["en", "pt-BR"]
    status: Status
    settings: str
    players: int
    free: int
    seats: list[str | None]
    clock: int = 0
    """Seconds a person has for each turn (0: no clock)."""
    name: str | None = None
    """The table's name."""
    advanced: bool | None = None
    actions: bool | None = None


class TurnRow(Message):
    """A table awaiting the seat of a token posted to ``POST /api/turns``."""

    id: str
    seat: int
    settings: str
    clock: int
    remaining: int | None
    """Whole seconds left on the seat's clock (null: no clock runs)."""


class TurnsPage(Message):
    """``POST /api/turns``: the tables (of those asked) where it is the token's seat's turn."""

    tables: list[TurnRow]


class LobbyPage(Message):
    """``GET /api/tables``: a page of the public tables, open or being played, that pass
    the filters asked (``players``, ``advanced``, ``actions``, ``free``)."""

    tables: list[LobbyRow]
    total: int
    """How many tables pass the filters (all pages)."""
    offset: int
    limit: int


class Created(Message):
    """A new table: its id, and its creator's seat and token."""

    id: str
    seat: Literal[0]
    token: str
    invite: str | None = None
    """A private table's invitation secret, told once, to its creator: its link is
    ``/t/{id}#invite={invite}`` (a fragment: browsers never send it to a server)."""


class Invitation(Message):
    """A private table's invitation after its host changed it: the new secret (its link is
    ``/t/{id}#invite={invite}``), told to the host alone; null: revoked."""

    invite: str | None


class Seated(Message):
    seat: int
    token: str


class Done(Message):
    ok: Literal[True]


class AccountView(Message):
    """``GET /api/account``, and the answer to a registration or login: who is logged in
    (``username`` null: nobody, a guest)."""

    username: str | None
    admin: bool


class ProfileGame(Message):
    table: str
    number: int
    seat: int
    """The account's seat, from 0."""
    players: int
    started: str
    """When the game started (ISO 8601)."""
    won: bool
    replay: str
    """The address of its replay."""
    review: str
    """The address of its review (:mod:`red7.web.reviews`)."""


class RatingView(Message):
    """A person's line on the leaderboard (:mod:`red7.web.ratings`)."""

    place: int
    rating: float
    """The cautious skill, ``mu - 3 sigma``, the leaderboard's order."""
    games: int
    """Rated games played."""


class Profile(Message):
    """``GET /api/account/games``: the logged-in person's finished games, the newest
    first, and their rating (null: no rated game yet); ``GET /api/players/{username}``:
    the same of a registered person, their games at public tables only."""

    username: str
    games: list[ProfileGame]
    rating: RatingView | None = None


class AdminSeat(Message):
    seat: int
    name: str
    bot: str | None
    person: bool
    """A person sits here (whose token an admin may revoke)."""
    account: bool
    """Taken by a registered person."""
    online: bool


class AdminTable(Message):
    id: str
    status: Status
    players: int
    game: int
    settings: str
    seats: list[AdminSeat]
    connected: int
    """People connected to the table (its seats, in every process; spectators, in this one)."""


class AdminAccount(Message):
    username: str
    admin: bool
    banned: bool
    logins: int
    """Login sessions open."""


class AdminView(Message):
    """``GET /api/admin``: the tables open or being played, who is connected, the
    accounts and the metrics of the process that answered."""

    tables: list[AdminTable]
    connected: int
    accounts: list[AdminAccount]
    metrics: dict[str, float]


class ReviewView(Message):
    """``GET .../games/{n}/review``: the review of a finished game, worked out once:
    ``working`` (``done`` of ``total`` decisions marked so far; ask again), ``done``
    (``text``: the review in the table's language) or ``failed`` (asking again starts it
    again)."""

    status: Literal["working", "done", "failed"]
    lang: Literal["en", "pt-BR"]
    """The table's language: the review's and the page's."""
    done: int
    total: int
    text: str | None


class Replay(Message):
    """``GET .../games/{n}/replay``: the game step by step as the token's seat saw it."""

    frames: list[TableFrame]


# --- refusals of what the models refuse ---------------------------------------------------------

Why = Callable[[], Refused]
"""A refusal, made when asked (its sentence in the language in use then)."""


def _settings_players() -> Refused:
    return Refused("bad-settings", _("A table has {low} to {high} players.").format(low=MIN_PLAYERS, high=MAX_PLAYERS))


def _settings_option() -> Refused:
    return Refused("bad-settings", _("The options advanced and actions are true or false."))


def _settings_language() -> Refused:
    return Refused("bad-settings", _("Languages: {languages}.").format(languages=", ".join(LANGUAGES)))


def _name() -> Refused:
    return Refused("bad-name", _("Give a name of up to {n} characters.").format(n=NAME_LENGTH))


def _token() -> Refused:
    return Refused("bad-token", _("This seat token does not open a seat at this table."), 403)


def _invite() -> Refused:
    return not_invited()


def _table_name() -> Refused:
    return Refused("bad-table-name", _("Give the table a name of up to {n} characters.").format(n=TABLE_NAME_LENGTH))


def _private() -> Refused:
    return Refused("bad-settings", _("The option private is true or false."))


def _seat() -> Refused:
    return Refused("bad-seat", _("A seat is a number from 0 to {last}.").format(last=MAX_PLAYERS - 1))


def _level() -> Refused:
    return Refused("bad-level", _("Bot levels: {levels}.").format(levels=", ".join(get_args(Level))))


def _decision() -> Refused:
    return Refused("bad-decision", _("A decision is written in the notation, e.g. 'play R7'."))


def _kind() -> Refused:
    return Refused("bad-type", _("Unknown message type: use decide, take_back, again, decline, chat or hint."))


def turns_refusal() -> Refused:
    """A ``POST /api/turns`` whose seats are not a list of tables and tokens."""
    return Refused("bad-turns", _("Ask about up to {n} tables, each with its seat token.").format(n=MAX_TURNS))


def _chat_text() -> Refused:
    return Refused("chat-too-long", _("A chat message has up to {n} characters.").format(n=MAX_CHAT))


def _reaction() -> Refused:
    return Refused("bad-reaction", _("Reactions: {reactions}.").format(reactions=", ".join(get_args(Reaction))))


def spectator_chat_refusal() -> Refused:
    """A table's ``spectator_chat`` that is neither ``separate`` nor ``off``."""
    return Refused("bad-settings", _("Spectators' chat is separate or off."))


def _hints_option() -> Refused:
    return Refused("bad-settings", _("The option hints is true or false."))


def _hello() -> Refused:
    return Refused("bad-hello", _('A connection starts with its hello: {"type": "hello", "token": ...}.'))


FIELD_REFUSALS: Final[dict[str, Why]] = {
    "players": _settings_players,
    "advanced": _settings_option,
    "actions": _settings_option,
    "hints": _hints_option,
    "lang": _settings_language,
    "name": _name,
    "token": _token,
    "invite": _invite,
    "table_name": _table_name,
    "private": _private,
    "seat": _seat,
    "level": _level,
    "seq": lambda: session_refusal(Stop.STALE),
    "action": _decision,
    "type": _kind,
    "clock": clock_refusal,
    "game": lambda: session_refusal(Stop.STALE),
    "text": _chat_text,
    "reaction": _reaction,
    "spectator_chat": spectator_chat_refusal,
    "username": username_refusal,
    "password": password_refusal,
}
"""What a request whose field is wrong is told, by field (each field means one thing
in every request it is in)."""


def refusal_of(error: ValidationError, whole: str = "request") -> Refused:
    """The refusal of a request the models refused: the first wrong field's (in the
    order the model declares them), a JSON that is not an object, or a field the
    protocol does not know; in the language in use. ``whole``: ``request`` (HTTP) or
    ``message`` (WebSocket), for the sentences about the whole."""
    problems = error.errors(include_url=False, include_context=False, include_input=False)
    kinds = {problem["type"] for problem in problems}
    if "json_invalid" in kinds:
        return Refused(
            "bad-json", _("The request is not JSON.") if whole == "request" else _("The message is not JSON.")
        )
    if kinds & {"union_tag_not_found", "union_tag_invalid"}:
        return _kind()
    for problem in problems:
        if not problem["loc"] or problem["type"] in ("model_type", "model_attributes_type", "dict_type"):
            if whole == "request":
                return Refused("bad-json", _("The request must be a JSON object."))
            return Refused("bad-json", _("The message must be a JSON object."))
    for problem in problems:
        field = str(problem["loc"][-1] if problem["type"] != "extra_forbidden" else "")
        if field in FIELD_REFUSALS:
            return FIELD_REFUSALS[field]()
    unknown = ", ".join(sorted({str(problem["loc"][-1]) for problem in problems}))
    return Refused("unknown-field", _("This server does not know the field {field}.").format(field=unknown[:100]))


R = TypeVar("R", bound=Request)


def parse_body(model: type[R], raw: bytes) -> R:
    """An HTTP body (JSON; empty: ``{}``) as ``model``, or :class:`Refused` saying what is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise Refused("too-large", _("The request is too large."), 413)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as err:
        raise refusal_of(err, "request") from None


def parse_turns(raw: bytes) -> YourTurn:
    """A ``POST /api/turns`` body, or :class:`Refused`: what :func:`parse_body` says of
    the whole (not JSON, too large, a field unknown), else :func:`turns_refusal` (its
    seats hold tokens: a malformed one is not a token refused)."""
    if len(raw) > MAX_MESSAGE:
        raise Refused("too-large", _("The request is too large."), 413)
    try:
        return YourTurn.model_validate_json(raw or b"{}")
    except ValidationError as err:
        refusal = refusal_of(err, "request")
        raise refusal if refusal.code in ("bad-json", "unknown-field") else turns_refusal() from None


def parse_hello(text: str | None) -> Hello:
    """A WebSocket's first message, or :class:`Refused` (``bad-hello``)."""
    if text is None or len(text) > MAX_MESSAGE:
        raise _hello()
    try:
        return Hello.model_validate_json(text)
    except ValidationError:
        raise _hello() from None


def parse_message(text: str) -> Sent:
    """A WebSocket's message after its hello (already under :data:`MAX_MESSAGE`), or
    :class:`Refused` saying what is wrong."""
    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as err:
        raise refusal_of(err, "message") from None


# --- the schema ---------------------------------------------------------------------------------

REQUESTS: Final[dict[str, type[BaseModel]]] = {
    "POST /api/tables": CreateTable,
    "POST /api/tables/{id}/seats/{seat}": TakeSeat,
    "POST /api/tables/{id}/bots": AddBot,
    "POST /api/tables/{id}/start": StartGame,
    "POST /api/tables/{id}/seats/{seat}/reseat": Reseat,
    "POST /api/account/register": Credentials,
    "POST /api/account/login": Credentials,
    "POST /api/account/logout": Empty,
    "POST /api/admin/...": Empty,
    "POST /api/tables/{id}/seats/{seat}/remove": RemoveSeat,
    "POST /api/tables/{id}/leave": LeaveSeat,
    "POST /api/tables/{id}/invite": ChangeInvite,
    "WebSocket /ws/{id}: first message": Hello,
    "WebSocket /ws/{id}: decide": Decide,
    "WebSocket /ws/{id}: take_back": TakeBack,
    "WebSocket /ws/{id}: again": Again,
    "WebSocket /ws/{id}: decline": Decline,
    "POST /api/turns": YourTurn,
    "WebSocket /ws/{id}: chat": Say,
    "WebSocket /ws/{id}: hint": Hint,
}
"""Each request and the model its body or message is."""
ANSWERS: Final[dict[str, type[BaseModel]]] = {
    "GET /api/ui": UiWords,
    "GET /api/tables": LobbyPage,
    "POST /api/tables": Created,
    "POST /api/tables/{id}/seats/{seat}": Seated,
    "POST /api/tables/{id}/bots": Done,
    "POST /api/tables/{id}/start": Done,
    "POST /api/tables/{id}/seats/{seat}/reseat": Seated,
    "GET /api/account": AccountView,
    "POST /api/account/register": AccountView,
    "POST /api/account/login": AccountView,
    "POST /api/account/logout": AccountView,
    "GET /api/account/games": Profile,
    "GET /api/admin": AdminView,
    "POST /api/admin/...": Done,
    "POST /api/tables/{id}/seats/{seat}/remove": Done,
    "POST /api/tables/{id}/leave": Done,
    "POST /api/tables/{id}/invite": Invitation,
    "GET /api/tables/{id}/games/{n}/replay": Replay,
    "POST /api/turns": TurnsPage,
    "GET /api/tables/{id}/games/{n}/review": ReviewView,
    "any refusal (4xx)": Refusal,
    "WebSocket /ws/{id}: table": TableFrame,
    "WebSocket /ws/{id}: error": ErrorFrame,
    "WebSocket /ws/{id}: chat": ChatFrame,
    "WebSocket /ws/{id}: hint": HintFrame,
}
"""Each answer and the model it is (a game's record, ``GET .../record``, is the engine's
record format: docs/library.md)."""


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12): every model under ``$defs``, and which
    request and answer each is (``requests``, ``answers``: references into ``$defs``)."""
    models = list(dict.fromkeys([*REQUESTS.values(), *ANSWERS.values()]))
    refs, defs = models_json_schema([(model, "validation") for model in models], ref_template="#/$defs/{model}")
    ref = {model: refs[(model, "validation")] for model in models}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Red7 web protocol, version {PROTOCOL_VERSION}",
        "version": PROTOCOL_VERSION,
        "description": "docs/protocol.md explains the messages, their order, the refusals and the versions.",
        "requests": {name: ref[model] for name, model in REQUESTS.items()},
        "answers": {name: ref[model] for name, model in ANSWERS.items()},
        "$defs": defs["$defs"],
    }


def schema_text() -> str:
    """:func:`schema` as docs/protocol.schema.json holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """``python -m red7.web.protocol [FILE]``: write the schema to FILE (default: print it)."""
    if len(argv) > 1:
        print("usage: python -m red7.web.protocol [FILE]", file=sys.stderr)
        return 2
    if argv:
        Path(argv[0]).write_text(schema_text(), encoding="utf-8")
    else:
        sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

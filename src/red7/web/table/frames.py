"""The table's frames and answers, declared once: what :mod:`red7.web.table.views` builds
(mypy checks every builder against these), what the published schema says
(:mod:`red7.web.protocol`) and what the tests validate every frame against, strictly.

Each is a :class:`~typing.TypedDict` (:func:`~red7.web.http.wire.frame`): a plain dict on
the wire and in memory, so a frame for every seat at every change costs no object of a
model. docs/protocol.md explains them.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from ..http.wire import PROTOCOL_VERSION, Tag, frame

Colour = Literal["red", "orange", "yellow", "green", "blue", "indigo", "violet"]
Status = Literal["open", "playing", "over", "expired", "closed"]
Kind = Literal["play", "canvas", "move", "take", "end", "concede", "draw", "decline"]
Level = Literal["easy", "medium", "hard"]
"""A bot's level (:data:`red7.bots.LEVELS`; ``expert``, removed, is refused, and the seats
stored with it were moved to ``hard`` by the migration 0013)."""
CardId = Annotated[str, Field(pattern=r"^[ROYGBIV][1-7]$")]
Version = Literal[1]
"""Every frame's ``v``: :data:`~red7.web.http.wire.PROTOCOL_VERSION`."""
assert PROTOCOL_VERSION == 1, "a new version of the protocol: say so in Version (and docs/protocol.md)"


@frame
class CardView(TypedDict):
    """A card: its notation (what a client sends back), what a person reads, its colour
    (for the stylesheet) and its name (for screen readers)."""

    id: CardId
    label: str
    colour: Colour
    name: str


@frame
class PaletteCard(CardView):
    """A card of a palette, and whether it counts under the rule now."""

    counts: bool


@frame
class RuleView(TypedDict):
    colour: Colour
    name: str
    text: str


@frame
class DeckView(TypedDict):
    size: int
    known_top: list[CardView]


@frame
class LastRound(TypedDict):
    """The last round that ended, for the round-end dialog."""

    palettes: list[list[CardView]]
    round: int
    winner: int
    rule: Colour
    scored: list[CardView]
    points: int
    text: str


@frame
class Over(TypedDict):
    winners: list[int]
    text: str


@frame
class OptionView(TypedDict):
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


@frame
class LastMoveView(TypedDict):
    """The cards the latest turn moved, as the frame's seat may see them (R9: another
    seat's hidden draw is never named), for the board to highlight."""

    seat: int
    cards: list[CardId]


# A field's description is its docstring, but for the fields a TypedDict inherits: Pydantic reads
# a TypedDict's docstrings in its own class only, so those of the parts of a frame are Field's.


@frame
class PublicGame(TypedDict):
    """The part of a game every seat sees alike (read from the spectator's observation)."""

    round: int
    step: int
    current: int | None
    final: Annotated[
        int,
        Field(description="The decisions that are final (none of them can be taken back): where the game is, for all."),
    ]
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


@frame
class OwnGame(TypedDict):
    """The part of a game that is the receiving seat's own (its observation and events)."""

    hand: Annotated[list[CardView] | None, Field(description="The receiver's hand (null: a spectator's frame).")]
    drawn: Annotated[list[str], Field(description="The cards of the hand just drawn (notation).")]
    log: list[str]
    log_from: Annotated[
        int,
        Field(
            description="How many lines of the move log the client has it keeps; ``log`` follows them "
            "(0: the whole log)."
        ),
    ]
    prompt: str
    options: Annotated[list[OptionView], Field(description="The receiver's legal decisions, on its turn (else empty).")]
    picks: Annotated[
        Literal["hand", "own-palette", "other-palettes", "none"] | None,
        Field(description="Where the cards of this step's decisions are picked (null: not the receiver's turn)."),
    ]
    staged: Annotated[
        list[str], Field(description="The receiver's decisions of this turn that it may still take back.")
    ]
    unusable: NotRequired[
        Annotated[
            dict[str, str],
            Field(
                default={},
                description="On the receiver's turn: each card of its hand and of the palettes that no legal\n"
                "decision names, by notation, with why it cannot be used now (the engine's refusal in\n"
                "words); empty otherwise.",
            ),
        ]
    ]
    hands: NotRequired[
        Annotated[
            list[list[CardView]] | None,
            Field(
                default=None,
                description="Every seat's hand: only in the replay of a game that is over, when asked\n"
                "(``?hands=all``); absent everywhere else.",
            ),
        ]
    ]
    last: NotRequired[
        Annotated[
            LastMoveView | None,
            Field(
                default=None,
                description="The cards the latest turn moved, as the receiver may see them (null: none yet in\n"
                "this round).",
            ),
        ]
    ]


@frame
class GameView(PublicGame, OwnGame):
    """A game as one seat (or a spectator) may see it: the public part (board,
    standing, last round, result) and the seat's own (hand, log, options)."""


@frame
class TableInfo(TypedDict):
    id: str
    lang: Tag
    players: int
    advanced: bool
    actions: bool
    status: Status
    game: int
    settings: str
    clock: NotRequired[Annotated[int, Field(default=0)]]
    """Seconds a person has for each turn (0: no clock)."""
    name: NotRequired[Annotated[str | None, Field(default=None)]]
    """The table's name (empty: a table made before tables had names)."""
    private: NotRequired[Annotated[bool | None, Field(default=None)]]
    """Whether the table is private (not in the lobby; opened by its invitation link)."""
    invitation: NotRequired[Annotated[bool | None, Field(default=None)]]
    """Whether a private table has an invitation now (false: its host revoked it, and
    only its seated people open it; null or absent: a public table)."""
    hints: NotRequired[Annotated[bool, Field(default=True)]]
    """The people at the table may ask for a hint (a table option)."""
    rated: NotRequired[Annotated[bool, Field(default=False)]]
    """Whether the table's games move its players' ratings."""


@frame
class ClockView(TypedDict):
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


@frame
class RematchView(TypedDict):
    """The rematch proposed after a game (``agreed``: the seats whose people agreed) or
    declined (``declined``: whose person ended the proposal; ``agreed`` is then empty)."""

    agreed: list[int]
    declined: int | None


@frame
class SeatInfo(TypedDict):
    """A seat as every client sees it alike."""

    seat: int
    name: str
    bot: Level | None
    person: bool
    who: NotRequired[
        Annotated[
            str | None,
            Field(
                default=None,
                description="Who sits there, for the chat's mute (a person's :attr:`ChatLine.who`; "
                "null: nobody, a bot).",
            ),
        ]
    ]
    taken: bool
    online: bool
    away: bool


@frame
class SeatView(SeatInfo):
    you: bool


@frame
class TableFrame(TypedDict):
    """The table as the connection's seat may see it; sent after the hello and after
    every change. ``ui`` (the words of the page's controls) only in a connection's first
    frame."""

    v: Version
    type: Literal["table"]
    lang: Tag
    """The language of the frame's words: the connection's (its hello's ``lang``, else the
    browser's ``Accept-Language``, else the table's). ``table.lang`` is the table's own,
    the one it was created in and the default of its invitation."""
    table: TableInfo
    seats: list[SeatView]
    you: int | None
    """The receiver's seat (null: a spectator)."""
    seq: int
    """The sequence number a decision made on this frame is sent with."""
    game: GameView | None
    """The game (null: not started yet)."""
    clock: NotRequired[Annotated[ClockView | None, Field(default=None)]]
    """The countdown of the turn awaited (null or absent: none runs)."""
    rematch: NotRequired[Annotated[RematchView | None, Field(default=None)]]
    """The rematch proposed or declined after the game (null or absent: none)."""
    ui: NotRequired[Annotated[dict[str, str] | None, Field(default=None)]]
    """The words of the page's controls, in the frame's language (a connection's first frame only)."""


@frame
class ErrorFrame(TypedDict):
    """A refusal: nothing changed. ``retry_after``: seconds to wait (``too-many``)."""

    v: Version
    type: Literal["error"]
    code: str
    message: str
    retry_after: NotRequired[Annotated[float | None, Field(default=None)]]


@frame
class UiWords(TypedDict):
    """``GET /api/ui?lang=``: the words of the pages' own controls."""

    lang: Tag
    languages: dict[str, str]
    ui: dict[str, str]


@frame
class LobbyRow(TypedDict):
    id: str
    lang: Tag
    status: Status
    settings: str
    players: int
    free: int
    seats: list[str | None]
    clock: NotRequired[Annotated[int, Field(default=0)]]
    """Seconds a person has for each turn (0: no clock)."""
    name: NotRequired[Annotated[str | None, Field(default=None)]]
    """The table's name."""
    advanced: NotRequired[Annotated[bool | None, Field(default=None)]]
    actions: NotRequired[Annotated[bool | None, Field(default=None)]]


@frame
class TurnRow(TypedDict):
    """A table awaiting the seat of a token posted to ``POST /api/turns``."""

    id: str
    seat: int
    name: str
    """The table's name (as :attr:`LobbyRow.name`)."""
    settings: str
    """Its settings in words, in the asker's language (``Accept-Language``)."""
    clock: int
    remaining: int | None
    """Whole seconds left on the seat's clock (null: no clock runs)."""


@frame
class TurnsPage(TypedDict):
    """``POST /api/turns``: the tables (of those asked) where it is the token's seat's turn."""

    tables: list[TurnRow]


@frame
class LobbyPage(TypedDict):
    """``GET /api/tables``: a page of the public tables, open or being played, that pass
    the filters asked (``players``, ``advanced``, ``actions``, ``free``)."""

    tables: list[LobbyRow]
    total: int
    """How many tables pass the filters (all pages)."""
    offset: int
    limit: int


@frame
class Created(TypedDict):
    """A new table: its id, and its creator's seat and token."""

    id: str
    seat: Literal[0]
    token: str
    invite: NotRequired[Annotated[str | None, Field(default=None)]]
    """A private table's invitation secret, told once, to its creator: its link is
    ``/t/{id}#invite={invite}`` (a fragment: browsers never send it to a server)."""


@frame
class Invitation(TypedDict):
    """A private table's invitation after its host changed it: the new secret (its link is
    ``/t/{id}#invite={invite}``), told to the host alone; null: revoked."""

    invite: str | None


@frame
class Seated(TypedDict):
    seat: int
    token: str


@frame
class Replay(TypedDict):
    """``GET .../games/{n}/replay``: the game step by step as the token's seat saw it."""

    frames: list[TableFrame]

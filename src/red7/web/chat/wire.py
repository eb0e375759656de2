"""The chat's part of the wire: the message a connection says a line with (:class:`Say`)
and the frames that carry lines (:class:`ChatFrame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Final, Literal, NotRequired, get_args

from pydantic import Field
from typing_extensions import TypedDict

from ...ui.i18n import _
from ..http.refusals import Refused
from ..http.wire import Request, Why, frame
from ..table.frames import Version
from ..table.requests import SpectatorChat

MAX_CHAT: Final = 200
"""Characters a chat message may have (:mod:`red7.web.chat.chat`)."""
Reaction = Literal["hello", "gg", "wp", "nice", "oops", "thanks", "sorry", "hurry"]
"""A canned chat reaction (:data:`red7.web.chat.chat.REACTIONS` holds their words)."""


def _text() -> Refused:
    return Refused("chat-too-long", _("A chat message has up to {n} characters.").format(n=MAX_CHAT))


def _reaction() -> Refused:
    return Refused("bad-reaction", _("Reactions: {reactions}.").format(reactions=", ".join(get_args(Reaction))))


class Say(Request):
    """A chat message: a canned ``reaction`` or free ``text`` (exactly one of them). The
    seat it is said from is the connection's: a message naming one is refused."""

    refusals: ClassVar[Mapping[str, Why]] = {"text": _text, "reaction": _reaction}

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=MAX_CHAT)] | None = None
    """Free text, up to :data:`MAX_CHAT` characters (control characters are dropped)."""
    reaction: Reaction | None = None


@frame
class ChatLine(TypedDict):
    """One line of a table's chat. ``seat`` null: a spectator said it. ``text`` is the
    words (a reaction's in the reader's language): plain text, to be shown as text."""

    id: int
    seat: int | None
    name: str
    who: NotRequired[Annotated[str | None, Field(default=None)]]
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


@frame
class ReactionView(TypedDict):
    id: Reaction
    text: str


@frame
class ChatFrame(TypedDict):
    """Chat lines the receiver may read: after the first table frame, the recent
    history (``history``: the page replaces what it shows), then each new line."""

    v: Version
    type: Literal["chat"]
    lines: list[ChatLine]
    history: bool
    spectators: SpectatorChat
    """The table's spectators' chat (the host's choice)."""
    can_post: bool
    """Whether the receiver may say something (a spectator may not when ``spectators`` is off)."""
    reactions: NotRequired[Annotated[list[ReactionView] | None, Field(default=None)]]
    """The canned reactions, in the reader's language (history frames only)."""
    words: NotRequired[Annotated[dict[str, str] | None, Field(default=None)]]
    """The words of the chat panel, in the reader's language (history frames only)."""

"""The reviews' and hints' part of the wire: the ``hint`` message and its answer
(:class:`HintFrame`, to the asking connection only), and a finished game's review
(:class:`ReviewView`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from typing_extensions import TypedDict

from ...play.session import Stop
from ..http.refusals import Refused, session_refusal
from ..http.wire import Number, Request, Tag, Why, frame
from ..table.frames import Version


def _stale() -> Refused:
    return session_refusal(Stop.STALE)


class Hint(Request):
    """The person to move asks what a bot would do with the rest of their turn, at the
    frame whose ``seq`` they saw of game ``game`` (answered to them alone by a ``hint`` frame)."""

    refusals: ClassVar[Mapping[str, Why]] = {"seq": _stale, "game": _stale}

    type: Literal["hint"]
    seq: Number
    game: Number | None = None
    """As :attr:`~red7.web.table.requests.Decide.game`."""


@frame
class HintFrame(TypedDict):
    """The answer to a ``hint``, sent to the asking connection only: the bot's whole
    turn in the person's place, its reason and odds, in words (the terminal game's), and
    its decisions in notation. ``game`` and ``seq``: the position it is for (a later
    frame makes it stale)."""

    v: Version
    type: Literal["hint"]
    game: int
    seq: int
    text: str
    decisions: list[str]


@frame
class ReviewView(TypedDict):
    """``GET .../games/{n}/review``: the review of a finished game, worked out once:
    ``working`` (``done`` of ``total`` decisions marked so far; ask again), ``done``
    (``text``: the review in ``lang``) or ``failed`` (asking again starts it
    again)."""

    status: Literal["working", "done", "failed"]
    lang: Tag
    """The review's language and the page's: the reader's (the request's
    ``Accept-Language``), else the table's (or, for a review kept before reviews were
    worded in each language, the one it has)."""
    done: int
    total: int
    text: str | None

"""The guided first game's part of the wire: ``POST /api/tutorial`` (:class:`TutorialStep`)
and its answer (:class:`TutorialView`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field
from typing_extensions import TypedDict

from ...ui.i18n import LANGUAGES, _
from ..http.refusals import Refused
from ..http.wire import Language, Number, Request, Tag, Text, Why, frame
from ..table.frames import TableFrame

MOST_DECISIONS = 12
"""More decisions than any turn has: a chapter is one turn."""


def no_chapter() -> Refused:
    return Refused("bad-chapter", _("There is no such chapter."))


def bad_decision() -> Refused:
    return Refused("bad-decision", _("That decision is not one of this turn's."))


def _language() -> Refused:
    return Refused("bad-language", _("Languages: {languages}.").format(languages=", ".join(LANGUAGES)))


class TutorialStep(Request):
    """Chapter ``chapter`` (from 0) after the learner's ``decisions`` accepted so far this
    turn (the answers' ``decisions``, sent back), and the ``decision`` to judge now (none:
    just show the chapter). The server keeps nothing: the page holds the turn."""

    refusals: ClassVar[Mapping[str, Why]] = {
        "chapter": no_chapter,
        "decisions": bad_decision,
        "decision": bad_decision,
        "lang": _language,
    }

    chapter: Number
    decisions: Annotated[list[Text], Field(max_length=MOST_DECISIONS)] = []
    decision: Text | None = None
    lang: Language = "en"


@frame
class ChapterInfo(TypedDict):
    key: str
    title: str


@frame
class VerdictView(TypedDict):
    """What became of the decision judged: ``refused`` (not legal), ``missed`` (legal, but
    it would put the learner out: not applied), ``good`` (applied, the turn goes on),
    ``done`` (the turn ended winning); ``text``: why, in words."""

    outcome: Literal["refused", "missed", "good", "done"]
    text: str


@frame
class TutorialView(TypedDict):
    """A chapter as the page shows it: its words, the table as the learner sees it (the
    table page's own frame, seat 0), the decisions accepted so far this turn, and the
    verdict on the decision judged (None when none was)."""

    lang: Tag
    chapter: int
    key: str
    title: str
    lesson: str
    goal: str
    chapters: list[ChapterInfo]
    words: dict[str, str]
    """The page's own words (its buttons and headings), in ``lang``."""
    frame: TableFrame
    decisions: list[str]
    verdict: VerdictView | None
    done: bool

"""A chapter played: the learner's decisions judged by the engine, with the chapter's words.

A :class:`Lesson` seats the learner (seat 0) and an ``easy`` bot (seat 1, never asked:
the chapter ends with the learner's turn) at the chapter's position, through the
:class:`~red7.play.session.Session` every game uses. Each decision the learner makes is
judged (:meth:`Lesson.decide`) by what the engine says of it, never by a second copy of
the rules: an illegal one is refused with the engine's reason; a legal one that is not
safe (R4.7: nothing left this turn keeps the learner winning) or a concession is a miss,
not applied, explained (the standing it would leave, then the chapter's why); a safe one
is applied; the decision that ends the learner's turn winning ends the chapter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..bots import make_bot
from ..core.actions import Action, Kind, to_action
from ..core.model import Option
from ..core.standing import standing_of
from ..play.session import RoundEnd, Session
from ..play.table import Seat, Table, ends_turn_of
from ..ui.i18n import _
from ..ui.words import refusal_text, round_summary, seat_name, unsafe_reason
from .chapters import Chapter, words

LEARNER = 0
"""The learner's seat in every chapter."""


class Outcome(Enum):
    """What became of a decision (:class:`Verdict`)."""

    REFUSED = "refused"
    """Not legal now: nothing changed."""
    MISSED = "missed"
    """Legal, but it would put the learner out: not applied."""
    GOOD = "good"
    """Applied; the turn goes on."""
    DONE = "done"
    """Applied, and the turn ended with the learner winning: the chapter is done."""


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    text: str
    """What the learner is told, in the language in use (empty for :attr:`Outcome.GOOD`)."""


class Lesson:
    """One chapter being played (see the module's docstring)."""

    def __init__(self, chapter: Chapter) -> None:
        self.chapter = chapter
        bot = Seat("", make_bot("easy"), "easy")
        self.session = Session(Table.around(chapter.game(), [Seat(), bot]))
        self.done = False
        self.round_end: RoundEnd | None = None
        """The round the learner's turn ended, if it did (the advanced chapter's score)."""

    @property
    def table(self) -> Table:
        return self.session.table

    def names(self) -> list[str]:
        """The seats' names in the language in use ("You", "Bot 2")."""
        return [seat_name(name) for name in self.session.names()]

    def options(self) -> list[Option]:
        """The learner's legal decisions now (none once the chapter is done)."""
        return [] if self.done else self.table.options()

    def decide(self, action: Action | str | int) -> Verdict:
        """Judge and, unless it is refused or missed, apply the learner's ``action``
        (an ActionError for text that names no decision)."""
        action = to_action(action)
        if self.done:
            return Verdict(Outcome.DONE, self.success())
        option = next((o for o in self.table.options() if o.action == action), None)
        if option is None:
            refusal = self.table.check(action)
            reason = refusal_text(refusal) if refusal is not None else ""
            return Verdict(Outcome.REFUSED, f"{reason} {_('Try another decision.')}".strip())
        if action.kind is Kind.CONCEDE or not option.safe:
            return Verdict(Outcome.MISSED, self.miss(action))
        events = self.session.decide(action)
        if not ends_turn_of(LEARNER, events):
            return Verdict(Outcome.GOOD, "")
        self.done = True
        moment = self.session.next()
        self.round_end = moment if isinstance(moment, RoundEnd) else None
        return Verdict(Outcome.DONE, self.success())

    def miss(self, action: Action) -> str:
        """Why ``action`` (legal, not safe) would put the learner out, and what wins."""
        if action.kind is Kind.CONCEDE:
            first = _("Conceding puts you out of the round.")
        else:
            preview = self.table.preview(action)
            first = unsafe_reason(standing_of(preview) if preview is not None else None, self.names())
        return "\n".join((first, _("Not that one. {why}").format(why=words(self.chapter.why)), _("Try again.")))

    def success(self) -> str:
        """What the learner is told once the chapter is done: why it won (and the round's score)."""
        lines = [_("Well done! {why}").format(why=words(self.chapter.why))]
        if self.round_end is not None:
            over, scores = self.round_end.over, self.round_end.scores
            lines.append(round_summary(over, scores, self.table.config.target, self.names()))
        return "\n".join(lines)

"""A way through each chapter for the tests: the decisions that win it, and one that misses.

The tests' stand-in for a learner who reads the goal: the first decision is one of the
chapter's answers, every later one a safe decision (ending the turn as soon as it may).
"""

from __future__ import annotations

from red7.core.actions import Action, Kind
from red7.tutorial.chapters import Chapter
from red7.tutorial.lesson import Lesson, Outcome


def solution(chapter: Chapter) -> list[Action]:
    """The decisions of a turn that wins ``chapter`` (checked by playing them in a lesson)."""
    lesson = Lesson(chapter)
    first = min(chapter.answers)
    decisions = [Action.parse(first)]
    verdict = lesson.decide(first)
    while verdict.outcome is Outcome.GOOD:
        safe = [o.action for o in lesson.options() if o.safe and o.action.kind is not Kind.CONCEDE]
        ending = [a for a in safe if a.kind in (Kind.END, Kind.DRAW)]
        action = (ending or safe)[0]
        decisions.append(action)
        verdict = lesson.decide(action)
    assert verdict.outcome is Outcome.DONE, (chapter.key, verdict)
    return decisions


def miss(chapter: Chapter) -> Action:
    """A legal first decision that would put the learner out (not the concession)."""
    options = Lesson(chapter).options()
    return next(o.action for o in options if not o.safe and o.action.kind is not Kind.CONCEDE)

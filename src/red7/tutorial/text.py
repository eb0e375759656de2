"""The guided first game in the text game (``red7 tutorial --text``, and ``red7 tutorial``
when not on a terminal).

Each chapter is shown as the text game shows a table (:func:`red7.ui.text_game.describe`,
the same options and the same ways of typing a decision, :func:`~red7.ui.text_game.read_decision`),
with the chapter's lesson and goal above it. The options are offered without the text
game's "(you would be out)" mark: finding the winning decision is the lesson, and a miss
is explained (:meth:`~red7.tutorial.lesson.Lesson.decide`). Commands: skip the chapter,
restart it, the rules, help, quit (the chapters done are kept, :mod:`red7.tutorial.progress`).
"""

from __future__ import annotations

from typing import Final, TextIO

from ..core.actions import ActionError
from ..core.model import Option
from ..ui.i18n import _
from ..ui.text_game import HELP_WORDS, QUIT_WORDS, RULES_WORDS, describe, not_a_decision, read_decision, rules_text, say
from ..ui.words import decision_text
from .chapters import CHAPTERS, words
from .lesson import Lesson, Outcome
from .progress import TutorialProgress

SKIP_WORDS: Final = frozenset({"skip", "pular"})
RESTART_WORDS: Final = frozenset({"restart", "recomeçar", "recomecar"})
"""The tutorial's own commands, each in English and in Portuguese whatever the language in
use (help, rules and quit are the text game's)."""


def offer(option: Option) -> str:
    """An option as the tutorial offers it: its words and, when they differ, its notation
    in brackets; never whether it is safe (that is what the learner finds)."""
    text, notation = decision_text(option.action), str(option.action)
    return text if text == notation else f"{text} [{notation}]"


def help_text() -> str:
    return _(
        "Type a decision's number or its words as shown. Commands: 'skip' — the next chapter; 'restart' — "
        "this chapter from its start; 'rules' — the rules; 'quit' — stop (the chapters you finished are kept)."
    )


def play_tutorial_text(stdin: TextIO, out: TextIO, progress: TutorialProgress, start: int | None = None) -> int:
    """Teach the chapters from ``start`` (default: the first not done) on ``stdin``/``out``;
    returns the exit code (0, also when the learner quits or the input ends)."""
    index = progress.next_index() if start is None else start
    say(_("Red7's guided first game: {n} short chapters.").format(n=len(CHAPTERS)) + " " + help_text(), out)
    if index >= len(CHAPTERS):
        say(
            _("You have finished every chapter. 'red7 tutorial --restart' starts again; 'red7 play' plays a game."), out
        )
        return 0
    while index < len(CHAPTERS):
        chapter = CHAPTERS[index]
        lesson = Lesson(chapter)
        say("", out)
        header = _("Chapter {n} of {total}: {title}").format(n=index + 1, total=len(CHAPTERS), title=_(chapter.title))
        say(f"=== {header} ===", out)
        say(words(chapter.lesson), out)
        while not lesson.done:
            say(describe(lesson.table, 0, lesson.names()), out)
            say(_("Goal: {goal}").format(goal=words(chapter.goal)), out)
            options = lesson.options()
            for i, option in enumerate(options, 1):
                say(f"  {i:2d}. {offer(option)}", out)
            print("> ", end="", file=out, flush=True)
            line = stdin.readline()
            typed = line.strip()
            if not line or typed.lower() in QUIT_WORDS:
                say(_("Tutorial stopped. The chapters you finished are kept: 'red7 tutorial' goes on from here."), out)
                return 0
            word = typed.lower()
            if not typed:
                continue
            if word in HELP_WORDS:
                say(help_text(), out)
            elif word in RULES_WORDS:
                say(rules_text(), out)
            elif word in RESTART_WORDS:
                lesson = Lesson(chapter)
                say(_("The chapter starts again."), out)
            elif word in SKIP_WORDS:
                break
            else:
                try:
                    verdict = lesson.decide(read_decision(typed, options))
                except IndexError:
                    say("  " + _("Choose a number from 1 to {n}.").format(n=len(options)), out)
                    continue
                except ActionError:
                    say("  " + not_a_decision(typed, len(options)), out)
                    continue
                if verdict.text:
                    say(verdict.text, out)
                if verdict.outcome is Outcome.DONE:
                    progress.finish(chapter.key)
        index += 1
    say("", out)
    say(_("You finished the guided first game! Play a whole game against a bot: red7 play"), out)
    return 0

"""The guided first game in the terminal game (``red7 tutorial``): the game's own screen.

:class:`TutorialApp` is the terminal game (:class:`~red7.ui.tui.app.PlayApp`: the same
board, keys, buttons, greyed cards and refusals) seated at each chapter's position,
with three changes: the chapter's lesson opens in a dialog and its goal leads the
prompt; a decision goes to the :class:`~red7.tutorial.lesson.Lesson`, which explains a
miss instead of asking "do it anyway?"; the chapter ends with the learner's turn (the
bot never moves). ``s`` skips a chapter, ``r`` starts it again, ``q`` stops (the
chapters done are kept, :mod:`red7.tutorial.progress`).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content

from ..core.model import Option
from ..play.saving import Saver
from ..play.table import Table
from ..ui.i18n import LANGUAGES, _
from ..ui.tui import base
from ..ui.tui.app import PlayApp
from ..ui.tui.base import other_language
from ..ui.tui.screens import Choice
from .chapters import CHAPTERS, words
from .lesson import Lesson, Outcome
from .progress import TutorialProgress


class TutorialApp(PlayApp):
    """The chapters from ``start`` (default: the first not done in ``progress``) on."""

    CSS_PATH = str(Path(base.__file__).parent / base.BoardApp.CSS_PATH)  # else read beside this module
    BINDINGS: ClassVar[list[BindingType]] = [
        *PlayApp.BINDINGS,
        Binding("s", "skip", show=False),
        Binding("r", "restart", show=False),
    ]

    def __init__(self, progress: TutorialProgress, start: int | None = None) -> None:
        self.progress = progress
        self.index = progress.next_index() if start is None else start
        self.lesson = Lesson(CHAPTERS[min(self.index, len(CHAPTERS) - 1)])
        super().__init__(lambda: self.lesson.table, bot_delay=0.0, confirm=False)

    def _start(self, table: Table, autosave: object = None, resumed: bool = False) -> None:
        super()._start(table)
        self.session = self.lesson.session  # the lesson's session: it judges every decision
        self.saver = Saver()  # a lesson is not a game to keep: no record, no autosave

    def on_mount(self) -> None:
        super().on_mount()
        if self.index >= len(CHAPTERS):
            self._finished()
        else:
            self._introduce()

    # --- the chapters -----------------------------------------------------------------

    def _title(self) -> str:
        chapter = CHAPTERS[self.index]
        return _("Chapter {n} of {total}: {title}").format(
            n=self.index + 1, total=len(CHAPTERS), title=_(chapter.title)
        )

    def _introduce(self) -> None:
        chapter = CHAPTERS[self.index]
        body = words(chapter.lesson) + "\n\n" + _("Goal: {goal}").format(goal=words(chapter.goal))
        answers = [("enter", "start", _("Start")), ("s", "skip", _("Skip the chapter")), ("q", "quit", _("Quit"))]
        self._ask(Choice(self._title(), body, answers, "start", id="chapter"), self._introduced)

    def _introduced(self, answer: str) -> None:
        if answer == "skip":
            self.call_later(self._go, self.index + 1)  # once this dialog is gone
        elif answer == "quit":
            self.exit()

    def _go(self, index: int) -> None:
        """Seat the learner at chapter ``index`` (past the last: the end)."""
        self.index = index
        if index >= len(CHAPTERS):
            self._finished()
            return
        self.lesson = Lesson(CHAPTERS[index])
        self._start(self.lesson.table)
        self.refresh_view()
        self._introduce()

    def _finished(self) -> None:
        body = _("You finished the guided first game! Play a whole game against a bot: red7 play")
        answers = [("enter", "quit", _("Quit")), ("r", "again", _("Start again"))]
        self._ask(Choice(_("Well done"), body, answers, "quit", id="tutorial-done"), self._after_all)

    def _after_all(self, answer: str) -> None:
        if answer == "again":
            self.progress.restart()
            self.call_later(self._go, 0)
        else:
            self.exit()

    def action_skip(self) -> None:
        self._go(self.index + 1)

    def action_restart(self) -> None:
        self._go(self.index)

    # --- the flow: a chapter ends with the learner's turn --------------------------------

    def advance(self) -> None:
        if self.index < len(CHAPTERS) and not self.lesson.done:
            super().advance()

    def _prompt(self) -> str:
        goal = _("Goal: {goal}").format(goal=words(CHAPTERS[self.index].goal))
        return f"{goal}\n{super()._prompt()}"

    def _decide(self, option: Option) -> None:
        """The lesson judges the decision: a miss is told, not applied; a win ends the chapter."""
        self._cancel_hint()
        verdict = self.lesson.decide(option.action)
        if verdict.outcome in (Outcome.MISSED, Outcome.REFUSED):
            self.selected = None
            self.say(verdict.text)
            return
        self.selected, self.refused_pick, self.status = None, False, ""
        self.refresh_view()
        if verdict.outcome is Outcome.DONE:
            self.progress.finish(CHAPTERS[self.index].key)
            answers = [
                ("enter", "next", _("Next chapter")),
                ("r", "again", _("Play it again")),
                ("q", "quit", _("Quit")),
            ]
            self._ask(Choice(_("Chapter done"), verdict.text, answers, "next", id="chapter-done"), self._after_chapter)

    def _after_chapter(self, answer: str) -> None:
        if answer == "quit":
            self.exit()
        else:
            self.call_later(self._go, self.index + (answer == "next"))

    def _keys_line(self, picking: bool) -> Content:
        if self.waiting or self.dialog_open:
            return Content("")
        parts = [(_("[←/→] [1-9] pick a card"), "")] if picking else []
        parts += [
            (_("[s] skip the chapter"), "app.skip"),
            (_("[r] start it again"), "app.restart"),
            (_("[?] rules"), "app.rules"),
            (_("[l] {other}").format(other=LANGUAGES[other_language()]), "app.language"),
            (_("[q] quit"), "app.quit_game"),
        ]
        return self.keys_line(parts)

    def action_quit_game(self) -> None:
        """``q``: stop at once; the chapters done are kept already."""
        self.exit()

    def notify_language(self) -> None:
        self._name_seats()
        self.say(self.language_message())

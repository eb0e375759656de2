"""The guided first game on the terminal game's screen (``red7 tutorial``), driven by keys
with Textual's pilot as the terminal game's own tests are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from red7.core.actions import Action
from red7.tutorial.chapters import CHAPTERS, words
from red7.tutorial.progress import TutorialProgress
from red7.tutorial.screen import TutorialApp
from red7.ui.i18n import _, set_language
from tests.support.tui_driver import key_for, run, screen_lines, texts
from tests.tutorial.paths import miss, solution


async def decide(pilot: Pilot[None], action: Action) -> None:
    """Pick the decision's card by its number key, then press its verb, as a person does."""
    app: TutorialApp = pilot.app  # type: ignore[assignment]
    if action.card is not None:
        await pilot.press(str(app.numbered().index(action.card) + 1))
    await pilot.press(key_for(action))
    await pilot.pause()


def shown(app: Any) -> str:
    return "\n".join(screen_lines(app))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_newcomer_finishes_every_chapter_by_keys(lang: str, tmp_path: Path) -> None:
    set_language(lang)
    progress = TutorialProgress(tmp_path / "t.json")
    app = TutorialApp(progress)

    async def script(pilot: Pilot[None]) -> None:
        for n, c in enumerate(CHAPTERS):
            await pilot.pause()
            assert app.screen.id == "chapter"
            assert _("Chapter {n} of {total}: {title}").format(n=n + 1, total=len(CHAPTERS), title=_(c.title)) in texts(
                app, app.screen
            )
            await pilot.press("enter")
            await pilot.pause()
            assert _("Goal: {goal}").format(goal=words(c.goal)) in texts(app)
            await decide(pilot, miss(c))
            assert app.screen.id != "confirm-unsafe"  # a miss is explained, never done "anyway"
            assert words(c.why) in app.status
            for action in solution(c):
                await decide(pilot, action)
            assert app.screen.id == "chapter-done", shown(app)
            assert _("Well done! {why}").format(why=words(c.why)) in texts(app, app.screen)
            await pilot.press("enter")
        await pilot.pause()
        assert app.screen.id == "tutorial-done"
        await pilot.press("enter")

    run(app, script)
    assert progress.done == {c.key for c in CHAPTERS}
    assert TutorialProgress(tmp_path / "t.json").next_index() == len(CHAPTERS)


def test_skip_restart_and_resume(tmp_path: Path) -> None:
    set_language("en")
    path = tmp_path / "t.json"
    app = TutorialApp(TutorialProgress(path))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("s")  # skip from the chapter's dialog
        await pilot.pause()
        assert app.index == 1 and app.screen.id == "chapter"
        await pilot.press("enter")
        await decide(pilot, Action.parse("play R3"))  # an answer of chapter 2 that leaves the turn open
        assert app.table.staged
        await pilot.press("r")  # the chapter again: nothing staged
        await pilot.pause()
        await pilot.press("enter")
        assert app.index == 1 and not app.table.staged
        for action in solution(CHAPTERS[1]):
            await decide(pilot, action)
        await pilot.press("q")  # from the chapter's end: quit

    run(app, script)
    progress = TutorialProgress(path)
    assert progress.done == {CHAPTERS[1].key}
    assert progress.next_index() == 0  # the skipped chapter comes first next time
    again = TutorialApp(progress)

    async def resumed(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert app.index == 1
        assert again.index == 0 and _("Chapter {n} of {total}: {title}").format(
            n=1, total=len(CHAPTERS), title=_(CHAPTERS[0].title)
        ) in texts(again, again.screen)

    run(again, resumed)

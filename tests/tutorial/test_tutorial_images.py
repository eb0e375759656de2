"""The guided first game's pictures in docs/playing.md, made by the game itself: the
terminal screen after a miss in the Orange chapter, in Portuguese (Textual's own SVG of
the screen), and the text game's transcript of a miss, its reason and the winning turn,
each drawn by Debian's Chromium into the browser tests' folder (``RED7_SCREENSHOTS=docs/images``
refreshes the docs' copies, as for the web game's pictures)."""

from __future__ import annotations

import html
import io
from pathlib import Path

import pytest
from textual.pilot import Pilot

from red7.tutorial.chapters import CHAPTERS, words
from red7.tutorial.progress import TutorialProgress
from red7.tutorial.screen import TutorialApp
from red7.tutorial.text import play_tutorial_text
from red7.ui.i18n import _, set_language, using
from red7.ui.words import decision_text
from tests.support.tui_driver import run
from tests.tutorial.paths import miss, solution
from tests.tutorial.test_tutorial_screen import decide

pytestmark = pytest.mark.browser


def drawn(markup: str, path: Path) -> None:
    """``markup`` (an SVG, or a page's body) drawn by Chromium into the PNG ``path``, cut to its size."""
    from tests.support.browser_driver import launched  # (Playwright: the full tier's)

    with launched() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        page.set_content(f"<!doctype html><body style='margin:0;background:#1e1e1e'><div id='shot'>{markup}</div>")
        page.locator("#shot").screenshot(path=str(path))
        page.close()
    assert path.stat().st_size > 10_000  # (a picture, not an empty box)


def test_the_terminal_tutorials_picture_a_miss_told_why_in_portuguese(tmp_path: Path) -> None:
    from tests.support.browser_driver import IMAGES

    set_language("pt-BR")
    orange = next(i for i, c in enumerate(CHAPTERS) if c.key == "orange")
    app = TutorialApp(TutorialProgress(tmp_path / "t.json"))
    svg: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        for _skipped in range(orange):
            await pilot.pause()
            await pilot.press("s")  # (skipped from each chapter's dialog)
        await pilot.pause()
        assert app.index == orange and app.screen.id == "chapter"
        await pilot.press("enter")
        await decide(pilot, miss(CHAPTERS[orange]))
        await pilot.pause()
        assert words(CHAPTERS[orange].why) in app.status
        svg.append(app.export_screenshot(title="Red7"))

    try:
        run(app, script, size=(100, 30))
        assert "Tente de novo" in html.unescape(svg[0]).replace("\xa0", " ")
    finally:
        set_language("en")
    drawn(svg[0], IMAGES / "terminal-tutorial-pt-BR.png")


def test_the_text_tutorials_picture_a_miss_then_the_winning_turn(tmp_path: Path) -> None:
    """Chapter 2 (the first done), as typed: a miss, then the winning turn; then quit."""
    from tests.support.browser_driver import IMAGES

    progress = TutorialProgress(tmp_path / "t.json")
    progress.finish(CHAPTERS[0].key)
    canvas = CHAPTERS[1]
    with using("en"):
        typed = [decision_text(miss(canvas)), *(str(a) for a in solution(canvas)), "quit"]
        out = io.StringIO()
        play_tutorial_text(io.StringIO("".join(f"{line}\n" for line in typed)), out, progress)
        text = out.getvalue()
        assert _("Not that one. {why}").format(why=words(canvas.why)) in text
        assert _("Well done! {why}").format(why=words(canvas.why)) in text
    style = (
        "margin:0;padding:12px;color:#e6e6e6;font:15px/1.27 'DejaVu Sans Mono',monospace;white-space:pre-wrap;"
        "width:976px"
    )
    drawn(f'<pre style="{style}">{html.escape(text)}</pre>', IMAGES / "text-tutorial.png")

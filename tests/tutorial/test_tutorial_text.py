"""The guided first game in the text game, driven by its input as a learner types it."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from red7.tutorial.chapters import CHAPTERS, words
from red7.tutorial.progress import TutorialProgress, progress_path
from red7.tutorial.text import play_tutorial_text
from red7.ui.i18n import _, using
from red7.ui.words import decision_text
from tests.support.helpers import run_main
from tests.tutorial.paths import miss, solution


def typed(lines: list[str]) -> io.StringIO:
    return io.StringIO("".join(f"{line}\n" for line in lines))


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_newcomer_finishes_every_chapter_missing_once_in_each(lang: str, tmp_path: Path) -> None:
    """Each chapter: a miss (typed as the options say it, in the language in use), told why;
    then the winning turn (typed by its number or its notation); every chapter done and kept."""
    with using(lang):
        lines: list[str] = []
        for c in CHAPTERS:
            lines.append(decision_text(miss(c)))
            lines += [str(a) for a in solution(c)]
        out = io.StringIO()
        progress = TutorialProgress(tmp_path / "t.json")
        assert play_tutorial_text(typed(lines), out, progress) == 0
        text = out.getvalue()
        for c in CHAPTERS:
            assert words(c.lesson) in text
            assert _("Not that one. {why}").format(why=words(c.why)) in text
            assert _("Well done! {why}").format(why=words(c.why)) in text
        assert _("You finished the guided first game! Play a whole game against a bot: red7 play") in text
        assert "{" not in text
    assert json.loads((tmp_path / "t.json").read_text())["done"] == [c.key for c in CHAPTERS]


def test_quit_keeps_the_chapters_done_and_the_next_run_resumes(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    first = [str(a) for a in solution(CHAPTERS[0])]
    out = io.StringIO()
    play_tutorial_text(typed([*first, "quit"]), out, TutorialProgress(path))
    assert "Tutorial stopped" in out.getvalue()
    out = io.StringIO()
    play_tutorial_text(typed([]), out, TutorialProgress(path))  # the input ends at once
    assert f"Chapter 2 of {len(CHAPTERS)}" in out.getvalue()
    assert "Chapter 1 of" not in out.getvalue()


def test_skip_restart_help_and_a_refusal(tmp_path: Path) -> None:
    progress = TutorialProgress(tmp_path / "t.json")
    refused = CHAPTERS.index(next(c for c in CHAPTERS if c.key == "refused"))
    lines = ["help", "rules", str(solution(CHAPTERS[refused])[0]), "restart", "canvas O1", "skip", "quit"]
    out = io.StringIO()
    play_tutorial_text(typed(lines), out, progress, start=refused)
    text = out.getvalue()
    assert "'skip'" in text and "The chapter starts again." in text
    refusal = "With O1 on the canvas you would not be winning. Orange: 1 card of one number against 1; R6 wins the tie."
    assert f"{refusal} Try another decision." in text  # after the restart, with its numbers
    assert f"Chapter {refused + 2} of" in text  # skipped to the next one
    assert progress.done == set()  # nothing finished: skipped is not done


def test_every_chapter_done_says_so() -> None:
    progress = TutorialProgress()
    for c in CHAPTERS:
        progress.done.add(c.key)
    out = io.StringIO()
    assert play_tutorial_text(typed([]), out, progress) == 0
    assert "You have finished every chapter" in out.getvalue()


def test_red7_tutorial_text_keeps_progress_in_the_data_directory(capsys: pytest.CaptureFixture[str]) -> None:
    first = [str(a) for a in solution(CHAPTERS[0])]
    import sys

    stdin = sys.stdin
    sys.stdin = typed([*first, "quit"])
    try:
        code, out, _err = run_main(["tutorial", "--text", "--lang", "pt-BR", "--restart"], capsys)
    finally:
        sys.stdin = stdin
    assert code == 0
    assert "Capítulo 1 de" in out
    assert str(progress_path()).startswith(os.environ["XDG_DATA_HOME"])
    assert json.loads(progress_path().read_text())["done"] == [CHAPTERS[0].key]
    code, _out, err = run_main(["tutorial", "--chapter", "99"], capsys)
    assert code == 2 and "--chapter" in err

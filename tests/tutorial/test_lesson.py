"""A lesson judges each decision by the engine: refused, missed (not applied, explained), good, done."""

from __future__ import annotations

import json
from pathlib import Path

from red7.core.actions import Action, Kind
from red7.tutorial.chapters import CHAPTERS, chapter, words
from red7.tutorial.lesson import Lesson, Outcome
from red7.tutorial.progress import TutorialProgress
from red7.ui.i18n import _, using
from tests.tutorial.paths import miss, solution


def test_a_miss_is_not_applied_and_says_the_standing_and_the_why() -> None:
    c = chapter("winning")
    lesson = Lesson(c)
    before = lesson.table.game.decisions
    verdict = lesson.decide(miss(c))
    assert verdict.outcome is Outcome.MISSED
    assert lesson.table.game.decisions == before and not lesson.table.staged
    assert words(c.why) in verdict.text
    assert "Y5" in verdict.text  # the standing it would leave: the bot's Y5 wins


def test_conceding_is_a_miss() -> None:
    lesson = Lesson(chapter("orange"))
    verdict = lesson.decide(Action.of(Kind.CONCEDE))
    assert verdict.outcome is Outcome.MISSED
    assert _("Conceding puts you out of the round.") in verdict.text
    assert lesson.table.current == 0


def test_an_illegal_decision_is_refused_with_the_engines_reason() -> None:
    lesson = Lesson(chapter("refused"))
    verdict = lesson.decide("canvas O1")
    assert verdict.outcome is Outcome.REFUSED
    assert verdict.text.startswith("With O1 on the canvas you would not be winning.")


def test_the_refused_canvas_becomes_legal_after_the_play_that_wins() -> None:
    lesson = Lesson(chapter("refused"))
    assert lesson.decide("play V5").outcome is Outcome.GOOD
    assert lesson.decide("canvas O1").outcome is Outcome.DONE
    assert lesson.done and lesson.options() == []


def test_the_advanced_chapter_ends_the_round_and_tells_the_score_in_portuguese() -> None:
    with using("pt-BR"):
        lesson = Lesson(chapter("advanced"))
        assert lesson.decide("canvas G6").outcome is Outcome.GOOD
        verdict = lesson.decide("draw")
        assert verdict.outcome is Outcome.DONE
        assert lesson.round_end is not None and lesson.round_end.scores == (6, 0)
        assert "Lj4 Vd2 = 6 pontos" in verdict.text, verdict.text


def test_every_chapter_is_won_by_its_solution() -> None:
    for c in CHAPTERS:
        lesson = Lesson(c)
        outcomes = [lesson.decide(a).outcome for a in solution(c)]
        assert outcomes[-1] is Outcome.DONE and set(outcomes[:-1]) <= {Outcome.GOOD}


def test_progress_is_kept_resumed_and_restarted(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tutorial.json"
    progress = TutorialProgress(path)
    assert progress.next_index() == 0
    progress.finish(CHAPTERS[0].key)
    progress.finish(CHAPTERS[1].key)
    again = TutorialProgress(path)
    assert again.next_index() == 2
    assert json.loads(path.read_text())["done"] == [CHAPTERS[0].key, CHAPTERS[1].key]
    again.restart()
    assert TutorialProgress(path).next_index() == 0


def test_a_broken_progress_file_is_no_progress(tmp_path: Path) -> None:
    path = tmp_path / "tutorial.json"
    path.write_text("[not json")
    assert TutorialProgress(path).next_index() == 0
    path.write_text('["a list"]')
    assert TutorialProgress(path).next_index() == 0

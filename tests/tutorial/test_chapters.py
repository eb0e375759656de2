"""The chapters are sound: each one's answers are what the engine says wins (R4.7), its
words fill in both languages, and each one has a decision to miss."""

from __future__ import annotations

import re

import pytest

from red7.core.actions import Kind
from red7.tutorial.chapters import CARD_FIELD, CHAPTERS, chapter, words
from red7.tutorial.lesson import Lesson
from red7.ui.i18n import using
from red7.ui.words import card_label
from tests.tutorial.paths import miss, solution

KEYS = [c.key for c in CHAPTERS]


def test_the_chapters_have_distinct_keys_and_are_found_by_them() -> None:
    assert len(set(KEYS)) == len(KEYS)
    assert all(chapter(key).key == key for key in KEYS)
    with pytest.raises(KeyError):
        chapter("nope")


@pytest.mark.parametrize("key", KEYS)
def test_the_answers_are_the_first_decisions_the_engine_calls_safe(key: str) -> None:
    """A rule change that makes another decision win, or the answer lose, fails here."""
    game = chapter(key).game()
    assert game.current_player == 0
    safe = {str(o.action) for o in game.options() if o.safe}
    assert safe == set(chapter(key).answers)


@pytest.mark.parametrize("key", KEYS)
def test_each_chapter_has_a_decision_to_miss_and_a_way_through(key: str) -> None:
    c = chapter(key)
    assert miss(c).kind is not Kind.CONCEDE
    assert solution(c)


def test_the_chapters_teach_every_rule_the_canvas_draw_and_the_action_cards() -> None:
    """Every rule is in force in some chapter (the start card is Red); the advanced game's draw
    and each action card the chapters name are used on their way through."""
    rules = {Lesson(c).table.observe(0).rule for c in CHAPTERS}
    assert rules == set(range(7))
    used = {(a.kind, c.advanced, c.actions) for c in CHAPTERS for a in solution(c)}
    assert (Kind.DRAW, True, False) in used
    assert (Kind.CANVAS, False, False) in used
    assert (Kind.MOVE, False, True) in used  # the 7
    sevens_fives_ones = {a.card.value for c in CHAPTERS if c.actions for a in solution(c) if a.card is not None}
    assert {7, 5, 3, 1} <= sevens_fives_ones


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_words_show_cards_as_the_language_does(lang: str) -> None:
    with using(lang):
        for c in CHAPTERS:
            for text in (c.title, c.lesson, c.goal, c.why):
                shown = words(text)
                assert not re.search(r"\{\w*\}", shown), (c.key, shown)
                for card in CARD_FIELD.findall(text):
                    assert card_label(card) in shown

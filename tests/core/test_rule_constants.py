"""Every figure stated from a rule constant agrees with its one definition.

The constants are defined once: the targets, the hand, the players and the round limit in
:mod:`red7.core.model`, the deck in :mod:`red7.core.cards`. Code reads them (the C header
is generated, ``tests/test_native_sources.py``); the texts that state them either fill them
in (the rules screen's words) or are written by hand (the rules pages, a few docs), and
those are read back here: a change of a constant fails below until every page says it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from red7.core.cards import NUM_CARDS
from red7.core.model import HAND_SIZE, MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, TARGETS
from red7.ui import rules_text
from red7.ui.i18n import using

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAYERS = range(MIN_PLAYERS, MAX_PLAYERS + 1)


def _text(page: str) -> str:
    """The page's text with its lines joined (a figure may sit across a line break)."""
    return " ".join((DOCS / page).read_text(encoding="utf-8").split())


def _rule(page: str, rule: str) -> str:
    """The text of one rule (``R8.4``) of a rules page: from its ID to the next rule or heading."""
    text = _text(page)
    start = text.index(f"**{rule}")
    end = re.compile(r"\*\*R|#").search(text, start + 2)
    return text[start : end.start() if end else None]


def _in_words(numbers: list[int], last: str) -> str:
    """E.g. "16, 24 or 32"."""
    return ", ".join(map(str, numbers[:-1])) + f" {last} {numbers[-1]}"


@pytest.mark.parametrize("page", ["rules.md", "regras.md"])
def test_the_targets_table_of_the_rules_is_the_engines_R8_3(page: str) -> None:
    rows = re.findall(r"\| (\d+) \| (\d+) \|", _rule(page, "R8.3"))
    assert {int(players): int(points) for players, points in rows} == TARGETS, (
        f"docs/{page}'s table of R8.3 differs from red7.core.model.TARGETS: write the table again"
    )


DEALT = [(HAND_SIZE + 1) * n for n in PLAYERS]
STATED = [
    ("rules.md", "R1.1", f"The deck has {NUM_CARDS} cards"),
    ("rules.md", "R2.1", f"{MIN_PLAYERS} to {MAX_PLAYERS} players"),
    ("rules.md", "R2.2", f"Shuffle the {NUM_CARDS} cards. Deal {HAND_SIZE} cards to each player's hand"),
    (
        "rules.md",
        "R8.4",
        f"deal {HAND_SIZE + 1} to each player ({HAND_SIZE} for the hand and 1 for the palette: "
        f"{_in_words(DEALT, 'or')} cards)",
    ),
    ("rules.md", "R8.6", f"ends an advanced match after its {MAX_ROUNDS}th round"),
    ("regras.md", "R1.1", f"O baralho tem {NUM_CARDS} cartas"),
    ("regras.md", "R2.1", f"De {MIN_PLAYERS} a {MAX_PLAYERS} jogadores"),
    ("regras.md", "R2.2", f"Embaralhe as {NUM_CARDS} cartas. Distribua {HAND_SIZE} cartas para a mão"),
    (
        "regras.md",
        "R8.4",
        f"dar {HAND_SIZE + 1} a cada jogador ({HAND_SIZE} para a mão e 1 para a Paleta: "
        f"{_in_words(DEALT, 'ou')} cartas)",
    ),
    ("regras.md", "R8.6", f"encerra a partida avançada depois da sua {MAX_ROUNDS}ª rodada"),
    ("library.md", None, f"The engine ends every match after its {MAX_ROUNDS}th round"),
    ("research.md", None, f"advanced match ends after {MAX_ROUNDS} rounds in the engine (R8.6)"),
]
"""The sentences of the docs that state a rule constant: (page, rule or None for the whole
page, the words as they must read)."""


@pytest.mark.parametrize(
    ("page", "rule", "words"), STATED, ids=[f"{page}:{rule or 'page'}" for page, rule, _ in STATED]
)
def test_the_docs_state_the_rule_constants_as_defined(page: str, rule: str | None, words: str) -> None:
    text = _rule(page, rule) if rule else _text(page)
    assert words in text, (
        f"docs/{page}{f' ({rule})' if rule else ''} no longer says {words!r}, as the constants in "
        "red7.core.model and red7.core.cards have it: write the page again (or, where only its "
        "wording changed, this test's words)"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "the match ends at {0[2]} points with 2 players, {0[3]} with 3, {0[4]} with 4."),
        ("pt-BR", "a partida termina com {0[2]} pontos para 2 jogadores, {0[3]} para 3 e {0[4]} para 4."),
    ],
)
def test_the_rules_screen_states_the_targets_it_reads_R8_3(
    lang: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules screen's text (terminal and web) fills the targets in from the one definition,
    in each language: another target there is another figure on the screen."""
    other = {players: target + 5 for players, target in TARGETS.items()}
    for targets in (TARGETS, other):
        monkeypatch.setattr(rules_text, "TARGETS", targets)
        with using(lang):
            assert said.format(targets) in " ".join(rules_text.rules_markdown("").split())

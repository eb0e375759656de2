"""The rules every front end shows (issue 47, point 2: rules that show): a worked example
under each of the seven rules whose marked cards are the engine's answer, why you want a
colour before how a card is written, and the complete rules carried by the package (so an
installed red7 shows them offline), in both languages."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest

from red7.core.cards import COLOURS, Card
from red7.core.rules import qualifying
from red7.ui.i18n import _, using
from red7.ui.rules_text import COMPLETE_RULES, COUNTS, complete_rules, rule_examples, rules_markdown
from red7.ui.text_game import rules_text
from red7.ui.words import COLOUR_NAMES, card_label

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"\| \*\*(?P<colour>[^*]+)\*\* \([^)]+\) \| [^|]+ \| (?P<example>[^|]+) \|")


def cards_of(example: str) -> tuple[list[Card], set[Card]]:
    """An example cell read back as a person reads it: its cards, and those marked as counting."""
    labels = {card_label(card): card for card in map(Card, range(49))}
    cards, marked = [], set()
    for part in example.split(" · "):
        text = part.strip().strip("*").strip()
        counts = text.endswith(COUNTS)
        card = labels[text.removesuffix(COUNTS).strip()]
        cards.append(card)
        if counts:
            marked.add(card)
    return cards, marked


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_each_rule_shows_an_example_whose_marked_cards_are_the_engines(lang: str) -> None:
    with using(lang):
        rows = ROW.findall(rules_markdown("keys"))
        names = [_(COLOUR_NAMES[colour]) for colour in COLOURS]
    assert [colour for colour, _example in rows] == names  # the seven rules, Red first, each with its example
    for colour, (_name, example) in zip(COLOURS, rows, strict=True):
        with using(lang):
            cards, marked = cards_of(example)
        assert marked == set(qualifying(colour, cards)), colour  # what the engine counts, and nothing else


def test_each_example_shows_its_rule_at_work() -> None:
    """Every example has cards that count and cards that do not, and its rule counts
    other cards than some other rule would: the example shows a choice."""
    for example in rule_examples():
        palette = list(example.cards)
        assert example.counting and len(example.counting) < len(palette), example.colour
        others = {frozenset(qualifying(rule, palette)) for rule in COLOURS if rule != example.colour}
        assert any(other != frozenset(example.counting) for other in others), example.colour


@pytest.mark.parametrize(
    ("lang", "rules", "cards"),
    [("en", "## The seven rules", "## Cards"), ("pt-BR", "## As sete regras", "## As cartas")],
)
def test_why_you_want_a_colour_comes_before_how_a_card_is_written(lang: str, rules: str, cards: str) -> None:
    with using(lang):
        text = rules_markdown("keys")
    assert text.index(rules) < text.index(cards)
    why = text[text.index(rules) : text.index("|")]
    assert COUNTS in why and len(why) > 200  # why a rule matters to you, and how the examples are marked


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_package_carries_the_complete_rules_every_rules_screen_names(lang: str) -> None:
    carried = complete_rules(lang)
    document = ROOT / "docs" / COMPLETE_RULES[lang]
    assert carried.is_file()
    assert carried.read_text(encoding="utf-8") == document.read_text(encoding="utf-8"), (
        f"copy {document.relative_to(ROOT)} to src/red7/ui/rules/ (the package's copy is stale)"
    )
    with using(lang):
        for shown in (rules_markdown("keys"), rules_text()):  # the terminal's screen, the text game's 'rules'
            assert shown.rstrip().endswith(str(carried)) and "docs/" not in shown
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["red7"]
    assert any(fnmatch(f"ui/rules/{COMPLETE_RULES[lang]}", pattern) for pattern in data)  # and so does a wheel


@pytest.mark.slow
def test_a_built_wheel_carries_the_complete_rules(tmp_path: Path) -> None:
    """The wheel ``pip`` builds from this checkout holds both rules files, as the checkout has them."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("red7-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name in COMPLETE_RULES.values():
            assert archive.read(f"red7/ui/rules/{name}") == (ROOT / "docs" / name).read_bytes()

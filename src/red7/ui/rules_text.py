"""The rules as every front end tells them: the terminal game's rules screen (``?``), the
text game's ``rules`` and the web game's page (``/rules``) show :func:`rules_markdown`,
written once here, in the language in use; the complete rules, rule by rule, are files
this package carries (:func:`complete_rules`: ``red7/ui/rules/``, copies of docs/rules.md
and docs/regras.md), so an installed red7 shows them offline.

Why you want a colour comes first: the seven rules, each with a worked example
(:func:`rule_examples`), a small palette chosen here to show its rule at work and the
cards of it that count under that rule. Which cards count is the engine's answer
(:func:`red7.core.rules.qualifying`), never a list written here, so an example cannot
tell a rule the engine does not play.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Final

from ..core.cards import COLOURS, Card, CardSet
from ..core.model import TARGETS
from ..core.rules import qualifying
from .i18n import N_, _, language
from .words import COLOUR_NAMES, RULE_TEXT, card_label, card_marks, cards_explained

COMPLETE_RULES: Final = {"en": "rules.md", "pt-BR": "regras.md"}
"""The complete rules' file in each language, in ``red7/ui/rules/`` (copies of docs/: a
test fails while one differs)."""


def complete_rules(lang: str | None = None) -> Traversable:
    """The complete rules this package carries, in ``lang`` (default: the language in use)."""
    return files("red7.ui").joinpath("rules", COMPLETE_RULES[lang or language()])


PALETTES: Final[Mapping[str, str]] = {
    "red": "G7 R5 Y4",  # one card counts: the highest
    "orange": "V6 B5 R3 G3",  # two 3s
    "yellow": "B6 R4 B2 O1",  # two blues
    "green": "V7 I6 G4 O3 R2",  # three even numbers
    "blue": "R6 B5 R4 B2",  # the highest card of each colour: two colours
    "indigo": "B6 G5 Y3 R2 O1",  # 1-2-3 is longer than 5-6
    "violet": "I6 B5 G3 R1",  # 1 and 3
}
"""Each colour's example palette (notation, highest card first, as a palette is read)."""


@dataclass(frozen=True)
class RuleExample:
    """A palette and the cards of it that count under ``colour``'s rule (the engine's)."""

    colour: str
    """The rule: its colour's English name (:data:`red7.core.cards.COLOURS`)."""
    cards: tuple[Card, ...]
    """The palette, highest card first."""
    counting: CardSet
    """The cards of the palette that count under the rule (:func:`~red7.core.rules.qualifying`)."""


@functools.cache
def rule_examples() -> tuple[RuleExample, ...]:
    """The seven rules' examples, Red first."""
    examples = []
    for colour in COLOURS:
        palette = CardSet(Card.parse(text) for text in PALETTES[colour].split())
        examples.append(RuleExample(colour, tuple(palette), qualifying(colour, palette)))
    return tuple(examples)


COUNTS: Final = "✓"
"""The mark of a card that counts, in the examples' text (a colour alone would not read
in the text game, nor to a person who does not see colours)."""


def example_text(example: RuleExample) -> str:
    """The example as Markdown in the language in use: its cards as a person reads them,
    those that count in bold and marked :data:`COUNTS`, e.g. "**Vd7 ✓** · Vm5 · Am4"."""
    return " · ".join(
        f"**{card_label(card)} {COUNTS}**" if card in example.counting else card_label(card) for card in example.cards
    )


RULES_MD = """\
# {title}

{goal}

## {rules_title}
{why}

| | | |
|---|---|---|
{rules}

{tie}

## {turn_title}
{turn}

## {cards_title}
{cards}

## {advanced_title}
{advanced}

## {actions_title}
{actions}

{board}## {keys_title}
{keys}
{complete}"""
"""The rules screen: why you want a colour (the seven rules, each with its example) comes
before how a card is written."""


def rules_markdown(keys: str, board: bool = True, keys_title: str = N_("Keys"), complete: bool | str = True) -> str:
    """The rules screen's text, in the language in use: how the screen writes a card
    (and, where that is not the notation, the notation's letters), the rules with each
    colour's mark, what the screen shows (``board``: the terminal game's board) and
    ``keys`` (the interface's keys or commands, translated) under ``keys_title`` (to
    translate); with ``complete``, it ends with where the complete rules are, rule IDs
    and all: the file this package carries (:func:`complete_rules`), or where ``complete``
    (a string: Markdown) says."""
    rules = "\n".join(
        f"| **{_(COLOUR_NAMES[e.colour])}** ({mark}) | {_(RULE_TEXT[e.colour])} | {example_text(e)} |"
        for e, mark in zip(rule_examples(), card_marks(), strict=True)
    )
    return RULES_MD.format(
        title=_("The rules of Red7"),
        goal=_(
            "Be the only player left in the round. At the end of each of your turns you must be winning "
            "under the rule in force (the colour on top of the canvas); otherwise you are out."
        ),
        cards_title=_("Cards"),
        cards=cards_explained(),
        turn_title=_("Your turn"),
        turn=_(
            "Do one of these: play a hand card to your palette; put a hand card on the canvas to change "
            "the rule; play a card and then put another on the canvas; or concede. A card may go on the "
            "canvas only if you are winning right after it. Cards compare by number first, then by colour: "
            "Red, Orange, Yellow, Green, Blue, Indigo, Violet."
        ),
        rules_title=_("The seven rules"),
        why=_(
            "The rule in force decides who is winning, so each card of your hand does one of two jobs: in your "
            "palette it makes you stronger under the rule; on the canvas it changes the rule to its colour's, one "
            "you win. Beside each rule, an example palette: {mark} marks its cards that count."
        ).format(mark=COUNTS),
        rules=rules,
        tie=_("More qualifying cards wins; on a tie, the player whose qualifying cards include the highest card wins."),
        advanced_title=_("Advanced game"),
        advanced=_(
            "When you put a card on the canvas and its number is greater than the number of cards in "
            "your palette, you may draw a card. The round winner scores the cards that satisfy the final "
            "rule; the match ends at {two} points with 2 players, {three} with 3, {four} with 4."
        ).format(two=TARGETS[2], three=TARGETS[3], four=TARGETS[4]),
        actions_title=_("Action cards (optional)"),
        actions=_(
            "A card played to your palette acts: **7** move another card of your palette to the canvas "
            "or onto the deck; **5** play one more card to your palette; **3** draw a card; **1** take a "
            "card from a palette at least as large as yours and put it on the deck."
        ),
        board=_board_section() if board else "",
        keys_title=_(keys_title),
        keys=keys,
        complete=(
            "\n"
            + _("Complete rules, rule by rule, with the decisions taken where the rulebook is silent: {path}").format(
                path=complete_rules() if complete is True else complete
            )
            + "\n"
            if complete
            else ""
        ),
    )


def _board_section() -> str:
    """The rules screen's section on what the terminal game's board shows."""
    return "## {title}\n{board}\n\n".format(
        title=_("On the board"),
        board=_(
            "The cards you can use now carry their number key; the others are greyed. The card you picked is "
            "framed ›7‹. Underlined palette cards are those that count under the rule in force; a card marked + is "
            "one you have just drawn. ★ marks the player who is winning."
        ),
    )

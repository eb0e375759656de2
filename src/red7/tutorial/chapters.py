"""The chapters of the guided first game, as data.

Each :class:`Chapter` is a position given card by card (the learner in seat 0, a bot
in seat 1), the decisions that win it, and its words (marked for the catalogs with
``N_``; a front end shows them with :func:`words`, which translates them and writes
their cards, ``{B6}``, as the language in use shows cards). The decisions that win are written
down (:attr:`Chapter.answers`) so that a reader of the chapter sees them, and a test
checks that they are exactly the first decisions the engine calls safe (R4.7) in that
position: a change of the rules breaks that test, never a lesson silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from ..core.game import Game
from ..ui.i18n import N_, _
from ..ui.words import card_label

CARD_FIELD: Final = re.compile(r"\{([ROYGBIV][1-7])\}")
"""A card in a chapter's words, ``{B6}``: shown as the language shows cards (``Az6`` in Portuguese)."""


def words(text: str) -> str:
    """A chapter's ``text`` in the language in use, its cards (``{B6}``) as that language shows them."""
    return CARD_FIELD.sub(lambda m: card_label(m[1]), _(text))


@dataclass(frozen=True)
class Chapter:
    """One lesson: a position, what to find in it, and why."""

    key: str
    """A stable name (progress is kept by it)."""
    title: str
    lesson: str
    """What the chapter teaches, read before the learner decides."""
    goal: str
    """What the learner must find, shown while they decide."""
    why: str
    """Why the winning decision wins: told when the learner misses it, and when they find it."""
    hand: tuple[str, ...]
    palettes: tuple[tuple[str, ...], tuple[str, ...]]
    """The learner's palette, then the bot's."""
    answers: frozenset[str]
    """The first decisions (notation) that keep the learner winning: the engine's safe ones."""
    canvas: tuple[str, ...] = ()
    """The canvas, bottom first (empty: the Red start card)."""
    deck: tuple[str, ...] = ()
    """The deck, top first."""
    deck_known: int = 0
    """How many of the deck's top cards everyone knows (R7.z: a 7 or a 1 put them there)."""
    advanced: bool = False
    actions: bool = False
    other_hand: tuple[str, ...] = field(default=("G1",))
    """The bot's hand (hidden from the learner; empty: the bot is out at its turn, R4.1)."""

    def game(self) -> Game:
        """The chapter's position, built by the engine: the learner (seat 0) to move."""
        return Game.from_position(
            [list(self.hand), list(self.other_hand)],
            [list(p) for p in self.palettes],
            deck=list(self.deck),
            deck_known=self.deck_known,
            canvas=list(self.canvas),
            advanced=self.advanced,
            actions=self.actions,
        )


CHAPTERS: Final[tuple[Chapter, ...]] = (
    Chapter(
        "winning",
        N_("Your palette and who is winning"),
        N_(
            "Each player lays cards face up in front of them: their palette. The card on the canvas sets the "
            "rule, and at the start it is Red: the highest card wins. A higher number beats a lower one; between "
            "equal numbers the colour decides, in the order of the rainbow (Red, Orange, Yellow, Green, Blue, "
            "Indigo, Violet). At the end of your turn you must be winning, or you are out."
        ),
        N_("Play a card to your palette that makes you win under Red."),
        N_("{B6} is higher than the bot's {Y5}, so with it you hold the highest card; {R3} is not."),
        hand=("B6", "R3"),
        palettes=(("O4",), ("Y5", "G4", "I2")),
        answers=frozenset({"play B6"}),
    ),
    Chapter(
        "canvas",
        N_("The canvas changes the rule"),
        N_(
            "Instead of playing to your palette (or after it) you may put a hand card on the canvas: its colour "
            "becomes the rule for everyone. Nobody beats the bot's {R7} under Red here, so change the rule."
        ),
        N_("Find a turn that ends with you winning."),
        N_(
            "{O1} on the canvas makes the rule Orange, most cards of one number: your two 2s beat a single card. "
            "(Playing {R3} first and then putting {O1} on the canvas wins too.)"
        ),
        hand=("O1", "R3"),
        palettes=(("O2", "B2", "G6"), ("R7", "Y5")),
        answers=frozenset({"canvas O1", "play R3"}),
    ),
    Chapter(
        "orange",
        N_("Orange: most cards of one number"),
        N_(
            "Under Orange you count your largest group of equal numbers. On a tie in size the group holding "
            "the highest card wins: every rule breaks its ties this way."
        ),
        N_("Play the card that makes you win under Orange."),
        N_("{V6} makes a pair of 6s: two against the bot's two 5s, and your {Y6} beats their {O5}."),
        hand=("B4", "V6"),
        palettes=(("R4", "Y6"), ("O5", "G5", "I7")),
        canvas=("O1",),
        answers=frozenset({"play V6"}),
    ),
    Chapter(
        "yellow",
        N_("Yellow: most cards of one colour"),
        N_("Under Yellow you count your largest group of one colour; on a tie, the group with the highest card."),
        N_("Play the card that makes you win under Yellow."),
        N_("{R7} makes two Reds against the bot's two Yellows, and {R7} beats {Y7}."),
        hand=("R7", "B1"),
        palettes=(("B5", "R4"), ("Y7", "I2", "Y3")),
        canvas=("Y2",),
        answers=frozenset({"play R7"}),
    ),
    Chapter(
        "green",
        N_("Green: most even cards"),
        N_("Under Green you count your cards of 2, 4 and 6; on a tie, the highest of them wins."),
        N_("Play the card that makes you win under Green."),
        N_(
            "{O6} gives you two even cards against the bot's one ({Y4}); with {R3} it would be one each, "
            "and {Y4} beats {B2}."
        ),
        hand=("O6", "R3"),
        palettes=(("B2", "R5"), ("Y4", "V7")),
        canvas=("G3",),
        answers=frozenset({"play O6"}),
    ),
    Chapter(
        "blue",
        N_("Blue: most different colours"),
        N_("Under Blue you count how many colours your palette holds; on a tie, the highest card wins."),
        N_("Play the card that makes you win under Blue."),
        N_("{G7} makes three colours against the bot's three, and {G7} beats their {I6}; {B6} adds no colour."),
        hand=("G7", "B6"),
        palettes=(("B3", "O5"), ("V2", "I6", "Y1")),
        canvas=("B1",),
        answers=frozenset({"play G7"}),
    ),
    Chapter(
        "indigo",
        N_("Indigo: the longest run of consecutive numbers"),
        N_(
            "Under Indigo you count your longest run of numbers in a row (3, 4, 5…); on a tie, the run with the "
            "highest card."
        ),
        N_("Play the card that makes you win under Indigo."),
        N_("{Y3} makes the run 1-2-3, three cards against the bot's 4-5; {I6} makes no longer run."),
        hand=("Y3", "I6"),
        palettes=(("O1", "B2"), ("G4", "V5", "R7")),
        canvas=("I1",),
        answers=frozenset({"play Y3"}),
    ),
    Chapter(
        "violet",
        N_("Violet: most cards below 4"),
        N_("Under Violet you count your cards of 1, 2 and 3; on a tie, the highest of them wins."),
        N_("Play the card that makes you win under Violet."),
        N_(
            "{O1} gives you two cards below 4 against the bot's two, and your {Y3} beats their {G3}; "
            "{V5} is not below 4."
        ),
        hand=("O1", "V5"),
        palettes=(("Y3", "I7"), ("R2", "G3", "R7")),
        canvas=("V1",),
        answers=frozenset({"play O1"}),
    ),
    Chapter(
        "refused",
        N_("Why a decision is refused"),
        N_(
            "A card may go on the canvas only if you are winning right after it lands: you may not change the "
            "rule on your way out. The game refuses such a decision and says why. Try putting {O1} on the canvas "
            "now, read the answer, then find the way."
        ),
        N_("Find a turn that ends with you winning."),
        N_(
            "Play {V5} first: then {O1} on the canvas makes the rule Orange, and your pair of 5s ({I5}, {V5}) beats "
            "a single card. Without {V5} the canvas is refused."
        ),
        hand=("V5", "O1"),
        palettes=(("B3", "I5"), ("R6", "G3", "Y2")),
        answers=frozenset({"play V5"}),
    ),
    Chapter(
        "advanced",
        N_("The advanced game: the draw and the score"),
        N_(
            "In the advanced game, when you put a card on the canvas whose number is greater than the number of "
            "cards in your palette, you may draw a card. The round's winner scores the cards that win under the "
            "final rule, each worth its number; the first to 40 points wins the match. The bot has no card "
            "left: it will be out at its turn, and you win the round."
        ),
        N_("Win the round, then draw a card."),
        N_(
            "{G6} on the canvas makes the rule Green: your {G2} and {O4} are even, and the bot has no even card. "
            "6 is more than your 2 cards, so you may draw; you score 2 + 4 = 6 points."
        ),
        hand=("G6",),
        palettes=(("G2", "O4"), ("B7", "Y1")),
        deck=("V7", "R1"),
        advanced=True,
        other_hand=(),
        answers=frozenset({"canvas G6"}),
    ),
    Chapter(
        "seven",
        N_("Action cards: the 7"),
        N_(
            "With the action cards, an odd card played to your palette acts. A 7 moves another card of your "
            "palette to the canvas (the rule changes) or onto the deck."
        ),
        N_("Find a turn that ends with you winning."),
        N_("Play {B7}, then move {G4} to the canvas: under Green your {O4} ties the bot's {V2} and {O4} is higher."),
        hand=("B7", "Y2"),
        palettes=(("O4", "G4"), ("R7", "Y5", "I3", "V2")),
        actions=True,
        answers=frozenset({"play B7"}),
    ),
    Chapter(
        "five",
        N_("Action cards: the 5"),
        N_("A 5 played to your palette lets you play one more card from your hand to your palette."),
        N_("Find a turn that ends with you winning under Blue."),
        N_(
            "Play {B5}, then {Y6} or {R2}: three colours against the bot's two. One card alone only ties, "
            "and {R7} wins it."
        ),
        hand=("B5", "R2", "Y6"),
        palettes=(("O6",), ("R7", "I4")),
        canvas=("B1",),
        actions=True,
        answers=frozenset({"play B5"}),
    ),
    Chapter(
        "three",
        N_("Action cards: the 3"),
        N_(
            "A 3 played to your palette draws the top card of the deck. Nobody knows that card, as a rule; "
            "here a 7 put {G6} on top face up, so everyone knows what a 3 draws now."
        ),
        N_("Find a turn that ends with you winning."),
        N_(
            "Play {Y3}: you draw {G6}, and {G6} on the canvas makes the rule Green: your {O2} and {B4} beat "
            "the bot's {I2}."
        ),
        hand=("Y3", "V6"),
        palettes=(("O2", "B4"), ("R7", "Y1", "I2")),
        deck=("G6", "R1"),
        deck_known=1,
        actions=True,
        answers=frozenset({"play Y3"}),
    ),
    Chapter(
        "one",
        N_("Action cards: the 1"),
        N_(
            "A 1 played to your palette takes a card from a palette at least as large as yours and puts it on "
            "top of the deck."
        ),
        N_("Find a turn that ends with you winning."),
        N_("Play {G1} and take the bot's {O6}: then your {R5} is the highest card."),
        hand=("G1", "Y4"),
        palettes=(("R5",), ("O6", "B3")),
        other_hand=("G2",),
        actions=True,
        answers=frozenset({"play G1"}),
    ),
)
"""The chapters in the order they are taught."""


def chapter(key: str) -> Chapter:
    """The chapter named ``key`` (KeyError: none)."""
    for c in CHAPTERS:
        if c.key == key:
            return c
    raise KeyError(key)

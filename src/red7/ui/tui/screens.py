"""The dialogs of the terminal game: confirmations, rules, round and game ends, hotseat."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from ...core.cards import COLOURS
from ..i18n import _


class Choice(ModalScreen[str]):
    """A question with a few answers; each answer is a (key, value, label) and the
    dialog returns the value. Escape returns ``cancel``'s value."""

    def __init__(
        self, title: str, body: str, answers: list[tuple[str, str, str]], cancel: str, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.title_text, self.body, self.answers, self.cancel = title, body, answers, cancel
        self._keys = {key: value for key, value, _label in answers}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Content.styled(self.title_text, "bold"), classes="dialog-title")
            yield Static(Content(self.body), classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                for key, value, label in self.answers:
                    shown = "esc" if key == "escape" else key
                    button = Button(Content(f"{label} [{shown}]"), id=f"answer-{value}", compact=True)
                    button.can_focus = False
                    yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        assert event.button.id is not None
        self.dismiss(event.button.id.removeprefix("answer-"))

    def on_key(self, event: events.Key) -> None:
        if event.key in self._keys:
            event.stop()
            self.dismiss(self._keys[event.key])
        elif event.key == "escape":
            event.stop()
            self.dismiss(self.cancel)


class Pass(ModalScreen[str]):
    """Hotseat: hides the table until the next person says they are at the screen
    (answer ``ready``), or someone asks to quit (``q``: answer ``quit``)."""

    BINDINGS = [Binding("enter", "answer('ready')", show=False), Binding("q", "answer('quit')", show=False)]

    def __init__(self, name: str) -> None:
        super().__init__(id="pass")
        self.person = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Content.styled(_("Pass the device to {name}").format(name=self.person), "bold"), classes="dialog-title"
            )
            yield Static(Content(_("The table is hidden so nobody sees another player's hand.")), classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                for answer, label in (
                    ("ready", _("I am {name}: show my hand [enter]").format(name=self.person)),
                    ("quit", _("Quit [q]")),
                ):
                    button = Button(Content(label), id=answer, compact=True)
                    button.can_focus = False
                    yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "ready")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


RULES_MD = """\
# {title}

{goal}

## {cards_title}
{cards}

## {turn_title}
{turn}

## {rules_title}
| | |
|---|---|
{rules}

{tie}

## {advanced_title}
{advanced}

## {actions_title}
{actions}

## {board_title}
{board}

## {keys_title}
{keys}

{complete}
"""


def rules_markdown() -> str:
    """The rules screen's text, in the language in use: how the screen writes a card
    (and, where that is not the notation, the notation's letters), the rules with each
    colour's mark, the keys; it ends with where the complete rules are (docs/rules.md,
    docs/regras.md in Portuguese), rule IDs and all."""
    from ..words import COLOUR_NAMES, RULE_TEXT, card_marks, cards_explained

    rules = "\n".join(
        f"| **{_(COLOUR_NAMES[c])}** ({mark}) | {_(RULE_TEXT[c])} |"
        for c, mark in zip(COLOURS, card_marks(), strict=True)
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
        rules=rules,
        tie=_("More qualifying cards wins; on a tie, the player whose qualifying cards include the highest card wins."),
        advanced_title=_("Advanced game"),
        advanced=_(
            "When you put a card on the canvas and its number is greater than the number of cards in "
            "your palette, you may draw a card. The round winner scores the cards that satisfy the final "
            "rule; the match ends at 40 points with 2 players, 35 with 3, 30 with 4."
        ),
        actions_title=_("Action cards (optional)"),
        actions=_(
            "A card played to your palette acts: **7** move another card of your palette to the canvas "
            "or onto the deck; **5** play one more card to your palette; **3** draw a card; **1** take a "
            "card from a palette at least as large as yours and put it on the deck."
        ),
        board_title=_("On the board"),
        board=_(
            "The cards you can use now carry their number key; the others are greyed. The card you picked is "
            "framed ›7‹. Underlined palette cards are those that count under the rule in force; a card marked + is "
            "one you have just drawn. ★ marks the player who is winning."
        ),
        keys_title=_("Keys"),
        keys=_(
            "Arrows or 1-9 pick a card (or click it). [p] play, [c] canvas, [e] end the turn, [x] concede, "
            "[u] take the turn back, [k] onto the deck (7), [t] take (1), [d] draw, [n] decline, [h] hint, "
            "[f] confirm turns on or off, [PgUp/PgDn] scroll the last moves, [l] language, [?] rules, [q] quit."
        ),
        # the rules document in the language in use: its path is part of the translation
        complete=_("Complete rules, rule by rule: docs/rules.md"),
    )


class Rules(ModalScreen[None]):
    """The rules in the language in use (key ``?``)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog rules"):
            yield Markdown(rules_markdown())
            button = Button(Content(_("Back to the game [esc]")), id="close", compact=True)
            button.can_focus = False
            yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

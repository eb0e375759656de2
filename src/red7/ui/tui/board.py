"""The table as one seat sees it: palettes, canvas, rule, standing, hand and log.

:class:`Board` renders an observation and the move log as that seat sees it (R9) and
nothing else, so what it shows is what that seat may see. Cards are drawn in their colour *and* as ``R7`` text, so the
screen reads without colour too; a click on a card runs the app action ``pick(card)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...core.cards import COLOURS, Card, CardSet
from ...core.observation import Observation
from ...core.standing import standing_of
from ..i18n import _, ngettext
from ..words import RULE_TEXT, colour_name, winning_line

CARD_STYLE: Final = {
    "red": "bold #ffffff on #c62828",
    "orange": "bold #000000 on #f57c00",
    "yellow": "bold #000000 on #fdd835",
    "green": "bold #ffffff on #2e7d32",
    "blue": "bold #ffffff on #1565c0",
    "indigo": "bold #ffffff on #3f1d8f",
    "violet": "bold #ffffff on #8e24aa",
}
"""How a card (or the rule) of each colour is drawn, by the engine's colour name."""
LOG_LINES: Final = 6


def card_text(card: Card, selected: bool = False) -> Content:
    """One clickable card: ``R7`` on its colour; the selected card is framed ``›R7‹``."""
    label = f"›{card}‹" if selected else f" {card} "
    style = CARD_STYLE[card.colour_name] + (" underline" if selected else "")
    return Content.from_markup(f"[{style} @click=app.pick('{card}')]{label}[/]")


def cards_text(cards: Sequence[Card], selected: Card | None = None) -> Content:
    return Content(" ").join(card_text(card, card == selected) for card in cards)


def cards_shown(mask: int) -> list[Card]:
    """The cards of a card-set mask of an observation in the order the board shows them:
    highest first (as a palette is read)."""
    return list(CardSet(mask))


@dataclass
class BoardView:
    """What the board shows: an observation, the players' names, the move log as the
    observation's seat sees it, and the person's state."""

    obs: Observation
    names: Sequence[str]
    selected: Card | None = None
    prompt: str = ""
    status: str = ""
    title: str = ""
    marks: dict[int, str] = field(default_factory=dict)
    """A short label after a seat's name, e.g. the bot's level."""
    log: Sequence[str] = ()
    """The move log's lines, oldest first: :func:`red7.ui.words.log_lines` of the events
    as the observation's seat may see them (R9)."""


class Board(Vertical):
    """The table for one viewer; update it with :meth:`show`."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="rule")
        yield Static(id="standing")
        yield Static(id="seats")
        yield Static(id="hand")
        yield Static(id="prompt")
        yield Static(id="status")
        yield Static(id="log")

    def show(self, view: BoardView) -> None:
        obs, names = view.obs, view.names
        self.query_one("#title", Static).update(Content.styled(view.title or self._title(obs), "bold"))
        self.query_one("#rule", Static).update(self._rule(obs))
        self.query_one("#standing", Static).update(Content(winning_line(standing_of(obs), names)))
        self.query_one("#seats", Static).update(self._seats(view))
        self.query_one("#hand", Static).update(self._hand(view))
        self.query_one("#prompt", Static).update(Content.styled(view.prompt, "bold"))
        self.query_one("#status", Static).update(Content.styled(view.status, "italic"))
        lines = view.log[-LOG_LINES:]
        log = Content.assemble((_("Last moves:") + "\n", "dim"), "\n".join(lines) if lines else _("(none yet)"))
        self.query_one("#log", Static).update(log)

    @staticmethod
    def _title(obs: Observation) -> str:
        parts = ["Red7", _("Round {n}").format(n=obs.round)]
        if obs.advanced:
            parts.append(_("advanced game, {target} points to win").format(target=obs.target))
        else:
            parts.append(_("basic game"))
        if obs.actions:
            parts.append(_("action rules"))
        return " · ".join(parts)

    @staticmethod
    def _rule(obs: Observation) -> Content:
        rule = COLOURS[obs.rule]
        deck = ngettext("{n} card", "{n} cards", obs.deck_size).format(n=obs.deck_size)
        parts: list[Content | str | tuple[str, str]] = [
            _("Rule: "),
            (f" {colour_name(rule)} ", CARD_STYLE[rule]),
            " " + _(RULE_TEXT[rule]),
            "   " + _("Canvas: "),
            cards_text([Card(c) for c in obs.canvas[-3:]]) if obs.canvas else _("only the Red rule card"),
            "   " + _("Deck: {cards}").format(cards=deck),
        ]
        if obs.deck_known_top:
            known = " ".join(str(Card(c)) for c in obs.deck_known_top)
            parts.append(" " + _("(known on top: {cards})").format(cards=known))
        return Content.assemble(*parts)

    @staticmethod
    def _seats(view: BoardView) -> Content:
        obs, names = view.obs, view.names
        leader = standing_of(obs).leader
        parts: list[Content | str | tuple[str, str]] = []
        width = max(len(n) + len(view.marks.get(s, "")) for s, n in enumerate(names)) + 3
        for seat, name in enumerate(names):
            if seat:
                parts.append("\n")
            turn = "▶ " if seat == obs.current_player else "  "
            label = name + (f" {view.marks[seat]}" if seat in view.marks else "")
            parts.append((turn + label.ljust(width), "bold" if seat == obs.seat else ""))
            if not obs.alive[seat]:
                parts.append((_("out of the round"), "dim"))
                continue
            size = obs.hand_sizes[seat]
            parts.append(ngettext("{n} card in hand", "{n} cards in hand", size).format(n=size).ljust(18))
            if obs.advanced:
                points = _("{score}/{target} pts").format(score=obs.scores[seat], target=obs.target)
                parts.append(points.ljust(12))
            parts.append(("★ " if seat == leader else "  ", "bold yellow"))
            parts.append(cards_text(cards_shown(obs.palettes[seat]), view.selected))
            known = obs.known_hand_cards[seat]
            if known and seat != obs.seat:
                parts.append(("  " + _("(drew {cards})").format(cards=CardSet(known)), "dim"))
        return Content.assemble(*parts)

    @staticmethod
    def _hand(view: BoardView) -> Content:
        hand = view.obs.hand
        if hand is None:
            return Content.styled(_("Hands are hidden."), "dim")
        return Content.assemble(
            (_("Your hand: "), "bold"), cards_text(cards_shown(hand), view.selected) if hand else _("(empty)")
        )

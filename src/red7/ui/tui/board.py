"""The table as one seat sees it: palettes, canvas, rule, standing, hand and log.

:class:`Board` renders an observation and the move log as that seat sees it (R9) and
nothing else, so what it shows is what that seat may see. Cards are drawn in their colour *and* as ``R7`` text, so the
screen reads without colour too; a click on a card runs the app action ``pick(card)``.

Every card label reaches WCAG AA contrast (4.5:1) against its own background, in
truecolor and in 256-colour terminals alike: the selected card is framed ``›R7‹`` and
drawn reversed, so it shows without colour; a card that cannot be used now is muted:
plain (not bold), its colour a light tint on dark grey, still at AA contrast.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...core.cards import COLOURS, Card, CardSet
from ...core.events import Event, GameOver, RoundDealt, RoundOver
from ...core.observation import Observation
from ...core.standing import standing_of
from ..i18n import _, ngettext
from ..words import RULE_TEXT, colour_name, log_lines, round_winner, winners_line, winning_line

CARD_COLOURS: Final = {
    "red": ("#c62828", "#ffffff", "#ef9a9a"),
    "orange": ("#f57c00", "#000000", "#ffcc80"),
    "yellow": ("#fdd835", "#000000", "#fff59d"),
    "green": ("#266b2a", "#ffffff", "#a5d6a7"),
    "blue": ("#1565c0", "#ffffff", "#90caf9"),
    "indigo": ("#3f1d8f", "#ffffff", "#b39ddb"),
    "violet": ("#8e24aa", "#ffffff", "#ce93d8"),
}
"""Each colour's card, by the engine's colour name: its background and text, and the
text of the card muted (a light tint of its colour on :data:`MUTED_BACKGROUND`). Every
pair is at least 4.5:1 (WCAG AA), also as a 256-colour terminal shows it."""
MUTED_BACKGROUND: Final = "#333333"
"""A muted card's background: dark grey, apart from the screen's and every card colour,
also in 256 colours (where dark tints of the colours would merge)."""
CARD_STYLE: Final = {colour: f"bold {text} on {background}" for colour, (background, text, _) in CARD_COLOURS.items()}
"""How a card (or the rule) of each colour is drawn."""
MUTED_STYLE: Final = {colour: f"not bold {tint} on {MUTED_BACKGROUND}" for colour, (_, _, tint) in CARD_COLOURS.items()}
"""How a card that cannot be used now is drawn: plain, its colour as a tint on grey."""
NUMBER_KEYS: Final = 9
"""The number keys 1-9 pick the first nine cards the board numbers."""


def card_text(card: Card, selected: bool = False, usable: bool = True, key: int | None = None) -> Content:
    """One clickable card, ``R7`` on its colour: the selected card is framed ``›R7‹`` and
    reversed; a card that cannot be used now is muted; ``key`` (1-9) is the number key
    that picks it, written before it."""
    label = f"›{card}‹" if selected else f" {card} "
    style = (CARD_STYLE if usable else MUTED_STYLE)[card.colour_name] + (" reverse" if selected else "")
    shown = Content.from_markup(f"[{style} @click=app.pick('{card}')]{label}[/]")
    if key is None:
        return shown
    return Content.assemble((str(key), "bold"), shown)


def cards_text(
    cards: Sequence[Card],
    selected: Card | None = None,
    usable: Collection[Card] | None = None,
    keys: Mapping[Card, int] | None = None,
) -> Content:
    """Cards side by side; those outside ``usable`` (when given) muted, each with its number key."""
    keys = keys or {}
    return Content(" ").join(
        card_text(card, card == selected, usable is None or card in usable, keys.get(card)) for card in cards
    )


def cards_shown(mask: int) -> list[Card]:
    """The cards of a card-set mask of an observation in the order the board shows them:
    highest first (as a palette is read)."""
    return list(CardSet(mask))


def move_log(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The move log: :func:`~red7.ui.words.log_lines` of ``events`` (as one seat sees
    them, R9), with each round's winner, the game's winners and a marker before every
    round after the first ("— Round 2 —"), so the move that ends a round stays in the log."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, RoundDealt):
            if event.round > 1:
                lines.append(_("— Round {n} —").format(n=event.round))
        elif isinstance(event, RoundOver):
            lines.append(round_winner(event, names))
        elif isinstance(event, GameOver):
            lines.append(winners_line(event.winners, names))
        else:
            lines += log_lines([event], names)
    return lines


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
    """The move log's lines, oldest first: :func:`move_log` of the events as the
    observation's seat may see them (R9)."""
    numbered: Sequence[Card] = ()
    """The cards the number keys count now, in the order the board shows them (the
    first :data:`NUMBER_KEYS` show their key)."""
    usable: Collection[Card] | None = None
    """The cards the person can pick now; the other cards of :attr:`numbered` are muted.
    None: nobody picks a card now, nothing is muted."""


class Cards(Static):
    """A line with cards: each card keeps its own colours. (Textual draws every
    ``@click`` span as a link, in the theme's link colour and underlined, which made
    yellow cards grey on yellow and underlined every card: links are off here.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto_links = False


class MoveLog(VerticalScroll):
    """The move log: it scrolls (PgUp/PgDn, the mouse wheel), and its newest line shows
    again whenever its text changes (:meth:`Board.show`) or it is resized (a longer
    prompt, a resize of the terminal)."""

    can_focus = False

    def on_resize(self) -> None:
        self.scroll_end(animate=False)


class Board(Vertical):
    """The table for one viewer; update it with :meth:`show`."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Cards(id="rule")
        yield Static(id="standing")
        yield Cards(id="seats")
        yield Cards(id="hand")
        yield Static(id="prompt")
        yield Static(id="status")
        yield Static(id="log-title")
        with MoveLog(id="log"):
            yield Static(id="log-lines")

    def show(self, view: BoardView) -> None:
        obs, names = view.obs, view.names
        self.query_one("#title", Static).update(Content.styled(view.title or self._title(obs), "bold"))
        self.query_one("#rule", Static).update(self._rule(obs))
        self.query_one("#standing", Static).update(Content(winning_line(standing_of(obs), names)))
        self.query_one("#seats", Static).update(self._seats(view))
        self.query_one("#hand", Static).update(self._hand(view))
        self.query_one("#prompt", Static).update(Content.styled(view.prompt, "bold"))
        self.query_one("#status", Static).update(Content.styled(view.status, "italic"))
        self.query_one("#log-title", Static).update(Content.styled(_("Last moves:"), "dim"))
        text = "\n".join(view.log) if view.log else _("(none yet)")
        lines = self.query_one("#log-lines", Static)
        if str(lines.render()) != text:
            lines.update(Content(text))
            # the newest line shows whenever the log changes, even if it was scrolled
            # back (scroll_end waits for the layout that makes the log longer)
            self.query_one(MoveLog).scroll_end(animate=False)

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
    def _keys(view: BoardView) -> dict[Card, int]:
        return {card: n for n, card in enumerate(view.numbered[:NUMBER_KEYS], 1)}

    @classmethod
    def _cards(cls, view: BoardView, cards: Sequence[Card]) -> Content:
        usable = None if view.usable is None else [c for c in cards if c in view.usable or c not in view.numbered]
        return cards_text(cards, view.selected, usable, cls._keys(view))

    @classmethod
    def _seats(cls, view: BoardView) -> Content:
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
            parts.append(cls._cards(view, cards_shown(obs.palettes[seat])))
            known = obs.known_hand_cards[seat]
            if known and seat != obs.seat:
                parts.append(("  " + _("(drew {cards})").format(cards=CardSet(known)), "dim"))
        return Content.assemble(*parts)

    @classmethod
    def _hand(cls, view: BoardView) -> Content:
        hand = view.obs.hand
        if hand is None:
            return Content.styled(_("Hands are hidden."), "dim")
        return Content.assemble(
            (_("Your hand: "), "bold"), cls._cards(view, cards_shown(hand)) if hand else _("(empty)")
        )

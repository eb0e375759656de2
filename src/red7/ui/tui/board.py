"""The table as one seat sees it: palettes, canvas, rule, standing, hand and log.

:class:`Board` renders an observation and the move log as that seat sees it (R9) and
nothing else, so what it shows is what that seat may see. Cards are drawn in their
colour *and* as text in the language in use (``R7``; ``Vm7`` in Portuguese, see
:func:`~red7.ui.words.card_label`), so the screen reads without colour too; a click on
a card runs the app action ``pick(card)`` with the card's notation. Every card of a
language takes the same width, and a row of cards too long for the screen goes on
under its first card, so palettes stay readable at 80 columns.

Every card label reaches WCAG AA contrast (4.5:1) against its own background, in
truecolor and in 256-colour terminals alike: the selected card is framed ``›R7‹`` and
drawn reversed, so it shows without colour; a card that cannot be used now is muted:
plain (not bold), its colour a light tint on dark grey, still at AA contrast.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...core.cards import COLOURS, Card, CardSet
from ...core.observation import Observation
from ...core.standing import standing_of
from ..i18n import _, ngettext
from ..words import (
    RULE_TEXT,
    card_label,
    card_marks,
    cards_label,
    colour_name,
    config_words,
    game_over_line,
    winning_line,
)

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


def card_text(
    card: Card,
    selected: bool = False,
    usable: bool = True,
    key: int | None = None,
    counts: bool = False,
    new: bool = False,
) -> Content:
    """One clickable card, ``R7`` (:func:`~red7.ui.words.card_label`) on its colour, as
    wide as every card of the language in use: the selected card is framed ``›R7‹``
    and reversed; a card that cannot be used now is muted; ``key`` (1-9) is the number
    key that picks it, written before it. A palette card that ``counts`` under the rule
    (its owner's qualifying set, R3.1) is underlined; a ``new`` card (just drawn) is
    marked ``R7+``. Every mark shows without colour."""
    width = max(map(len, card_marks())) + 1  # the mark and one digit
    name = card_label(card).ljust(width)
    label = f"›{name}‹" if selected else f" {name}{'+' if new else ' '}"
    style = (CARD_STYLE if usable else MUTED_STYLE)[card.colour_name]
    style += (" reverse" if selected else "") + (" underline" if counts else "")
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


def wrapped(items: Sequence[Content], indent: int, width: int, gap: int = 1) -> Content:
    """``items`` side by side, ``gap`` spaces apart, on a line that begins at column
    ``indent``; an item that would pass column ``width`` begins a new line at
    ``indent`` (at least one item a line), so a long row of cards goes on under its
    first card and no item is cut in two."""
    parts: list[Content | str] = []
    used = indent
    for item in items:
        if parts and used + gap + item.cell_length > width:
            parts.append("\n" + " " * indent)
            used = indent
        elif parts:
            parts.append(" " * gap)
            used += gap
        parts.append(item)
        used += item.cell_length
    return Content.assemble(*parts)


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
    """The move log's lines, oldest first: :func:`move_log` of the events as the
    observation's seat may see them (R9)."""
    numbered: Sequence[Card] = ()
    """The cards the number keys count now, in the order the board shows them (the
    first :data:`NUMBER_KEYS` show their key)."""
    usable: Collection[Card] | None = None
    """The cards the person can pick now; the other cards of :attr:`numbered` are muted.
    None: nobody picks a card now, nothing is muted."""
    drawn: Collection[Card] = ()
    """Cards of the hand just drawn (:func:`just_drawn`), marked ``R7+``."""
    final: Sequence[CardSet] | None = None
    """At the end of a game: each seat's palette as the last round ended
    (:func:`~red7.play.session.cards_at_round_end`), shown in place of the observation's,
    which has lost the winner's scoring cards to the score pile; the seats out of the
    round show theirs too. None during a game."""
    owner: str | None = None
    """Whose hand shows, on a screen several people share (hotseat): "Ana's hand:"
    instead of "Your hand:"."""


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

    @property
    def line_width(self) -> int:
        """The columns a line of the board has: the terminal's, less the padding of the
        game's ``#main`` (read from the app, which is resized before the board is)."""
        return max(self.app.size.width - 2, 1)

    def show(self, view: BoardView) -> None:
        obs, names = view.obs, view.names
        self.query_one("#title", Static).update(Content.styled(view.title or self._title(obs), "bold"))
        self.query_one("#rule", Static).update(self._rule(obs, self.line_width))
        self.query_one("#standing", Static).update(Content(self._standing(obs, names)))
        self.query_one("#seats", Static).update(self._seats(view, self.line_width))
        self.query_one("#hand", Static).update(self._hand(view, self.line_width))
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
    def _standing(obs: Observation, names: Sequence[str]) -> str:
        """Who is winning; at the end of a game, who won and how the last round ended."""
        if obs.result is not None and obs.round_results:
            return game_over_line(obs.result.winners, obs.round_results[-1], obs.advanced, names)
        return winning_line(standing_of(obs), names)

    @staticmethod
    def _title(obs: Observation) -> str:
        return " · ".join(["Red7", _("Round {n}").format(n=obs.round), *config_words(obs.config)])

    @staticmethod
    def _rule(obs: Observation, width: int) -> Content:
        """The rule, the canvas and the deck, on one line if they fit, else each whole on
        a line of its own ("Deck: 22 cards" is never cut in two)."""
        rule = COLOURS[obs.rule]
        deck = ngettext("{n} card", "{n} cards", obs.deck_size).format(n=obs.deck_size)
        known = (
            " " + _("(known on top: {cards})").format(cards=cards_label(obs.deck_known_top))
            if obs.deck_known_top
            else ""
        )
        canvas = cards_text([Card(c) for c in obs.canvas[-3:]]) if obs.canvas else _("only the Red rule card")
        groups = [
            Content.assemble(_("Rule: "), (f" {colour_name(rule)} ", CARD_STYLE[rule]), " " + _(RULE_TEXT[rule])),
            Content.assemble(_("Canvas: "), canvas),
            Content(_("Deck: {cards}").format(cards=deck) + known),
        ]
        return wrapped(groups, 0, width, gap=3)

    @staticmethod
    def _keys(view: BoardView) -> dict[Card, int]:
        return {card: n for n, card in enumerate(view.numbered[:NUMBER_KEYS], 1)}

    @classmethod
    def _cards(cls, view: BoardView, cards: Sequence[Card], counting: Collection[Card] = ()) -> list[Content]:
        """``cards`` as the board draws them (``counting``: those that count under the rule)."""
        usable = None if view.usable is None else [c for c in cards if c in view.usable or c not in view.numbered]
        keys = cls._keys(view)
        return [
            card_text(
                card,
                card == view.selected,
                usable is None or card in usable,
                keys.get(card),
                counts=card in counting,
                new=card in view.drawn,
            )
            for card in cards
        ]

    @classmethod
    def _seats(cls, view: BoardView, width: int) -> Content:
        """A line per seat: its name, hand size, score (advanced game), ★ for the
        leader and its palette, in columns as wide as their longest entry; a palette
        longer than the line goes on under its first card."""
        obs, names = view.obs, view.names
        standing = standing_of(obs)
        leader = standing.leader
        last = obs.round_results[-1] if view.final is not None and obs.round_results else None
        if last is not None:  # the game is over: the star marks the last round's winner
            leader = last.winner
        labels = [name + (f" {view.marks[s]}" if s in view.marks else "") for s, name in enumerate(names)]
        hands = [ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n) for n in obs.hand_sizes]
        points = [_("{score}/{target} pts").format(score=p, target=obs.target) for p in obs.scores]
        columns = [labels, hands, points] if obs.advanced else [labels, hands]
        widths = [max(map(cell_len, column)) + 2 for column in columns]
        parts: list[Content | str | tuple[str, str]] = []
        for seat in range(len(names)):
            if seat:
                parts.append("\n")
            turn = "▶ " if seat == obs.current_player else "  "
            parts.append((turn + _pad(labels[seat], widths[0]), "bold" if seat == obs.seat else ""))
            if not obs.alive[seat]:
                parts.append((_("out of the round"), "dim"))
                if view.final is not None and view.final[seat]:  # the palette it left with, muted
                    parts += ["  ", cards_text(list(view.final[seat]), usable=())]
                continue
            parts += [_pad(column[seat], w) for column, w in zip(columns[1:], widths[1:], strict=True)]
            parts.append(("★ " if seat == leader else "  ", "bold yellow"))
            if view.final is not None:  # the palette as the round ended; the scoring cards count
                palette = list(view.final[seat])
                counting = {Card.parse(c) for c in last.scored} if last is not None and seat == last.winner else set()
            else:
                palette = cards_shown(obs.palettes[seat])
                counting = {Card.parse(c) for c in standing.qualifying[seat]}
            row = cls._cards(view, palette, counting)
            known = obs.known_hand_cards[seat]
            if known and seat != obs.seat:
                row.append(Content.styled(" " + _("(drew {cards})").format(cards=cards_label(known)), "dim"))
            parts.append(wrapped(row, 2 + sum(widths) + 2, width))
        return Content.assemble(*parts)

    @classmethod
    def _hand(cls, view: BoardView, width: int) -> Content:
        hand = view.obs.hand
        if hand is None:
            return Content.styled(_("Hands are hidden."), "dim")
        title = _("Your hand: ") if view.owner is None else _("{name}'s hand: ").format(name=view.owner)
        cards = wrapped(cls._cards(view, cards_shown(hand)), cell_len(title), width) if hand else _("(empty)")
        return Content.assemble((title, "bold"), cards)


def _pad(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` columns."""
    return text + " " * max(width - cell_len(text), 0)

"""``red7 replay FILE``: step through a game record on the game's own board.

The seats are named as in the game when the record says who sat where (its ``seats``,
:func:`~red7.core.record.seats_of`: names and bot levels), else "Player n". ``v``
changes whose view is shown: everyone's public view, each seat's, and once the last
decision of a finished game is shown, every hand (nothing is left to hide then).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...core.actions import Action
from ...core.game import Game
from ...core.record import SeatRecord, initial, steps
from ...play.session import SeatKind, SeatName, cards_at_round_end, seat_names
from ..i18n import LANGUAGES, _
from ..words import action_text, cards_label, move_log, seat_mark, seat_name, winners_line
from .base import BoardApp, other_language
from .board import Board, BoardView, cards_text


def positions(record: dict[str, Any]) -> list[Game]:
    """Every position of a record: before the first decision, then after each one.
    Raises :class:`~red7.core.record.RecordError` on a bad record, before anything is shown."""
    games = [initial(record)]
    games += [game.clone() for _number, _action, game in steps(record)]
    return games


class ReplayApp(BoardApp):
    """Shows ``positions`` one at a time, the seats named from ``seats`` (a record's, if
    it has them); ``v`` changes whose view is shown (everyone's public view, a seat's,
    and at the end of a finished game every hand): the board and the log show only what
    that view may see (R9)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", show=False),
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        Binding("left", "step(-1)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("v", "view", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("l", "language", show=False),
        Binding("q,escape", "quit", show=False),
    ]
    BOARD_ACTIONS: ClassVar[frozenset[str]] = frozenset({"step", "jump", "view", "scroll_log"})

    def __init__(self, games: list[Game], name: str = "", seats: Sequence[SeatRecord] | None = None) -> None:
        super().__init__()
        self.games, self.record_name = games, name
        players = games[0].players
        self.seats: list[SeatName] = (
            seat_names(seats) if seats is not None else [SeatName(s, SeatKind.PLAYER) for s in range(players)]
        )
        self.index = 0
        self.viewer: int | None = None
        self.all_hands = False
        """Every hand is shown (only at the end of a finished game)."""
        self.status = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield Board(id="board")
            yield Static(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.fit()

    def redraw(self) -> None:
        self.show()

    def _names(self) -> list[str]:
        return [seat_name(seat) for seat in self.seats]

    @property
    def at_the_end(self) -> bool:
        """Is the last position of a finished game shown (where every hand may show)?"""
        return self.index == len(self.games) - 1 and self.games[-1].is_over

    def show(self) -> None:
        game = self.games[self.index]
        names = self._names()
        marks = {seat.seat: seat_mark(seat) for seat in self.seats if seat.level is not None}
        obs = game.observe(self.viewer)
        last = len(self.games) - 1
        title = _("Replay {name} · decision {i} of {n}").format(name=self.record_name, i=self.index, n=last)
        if self.all_hands:
            who = _("all hands")
        else:
            who = _("everyone's public view") if self.viewer is None else names[self.viewer]
        title += " · " + _("view: {who}").format(who=who)
        prompt = ""
        if self.index:
            seat, action_id = obs.history[-1]
            prompt = f"{names[seat]}: {action_text(Action.from_id(action_id))}"
        if game.result is not None and self.index == last:
            prompt += "  " + _("Game over.") + " " + winners_line(game.result.winners, names, game.config.advanced)
        events = list(game.events) if self.all_hands else game.events_for(self.viewer)
        log = move_log(events, names)
        # at the end of the game every palette as the last round ended (the engine's
        # has lost the winner's scoring cards to the score pile)
        final = [s.palette for s in cards_at_round_end(events, game.players)] if game.is_over else None
        # the hand of the seat viewed: "Your hand" only for the record's own unnamed person
        owner = None
        if self.viewer is not None and not (
            self.seats[self.viewer].kind is SeatKind.YOU and not self.seats[self.viewer].given
        ):
            owner = names[self.viewer]
        view = BoardView(
            obs, names, None, prompt, self.status, title=title, marks=marks, log=log, final=final, owner=owner
        )
        self.query_one(Board).show(view)
        if self.all_hands:
            self.query_one("#hand", Static).update(self._hands(game, names))
        keys = self.keys_line(
            [
                (_("[←/→] step"), ""),
                (_("[home/end] first/last"), ""),
                (_("[v] change view"), "app.view"),
                (_("[PgUp/PgDn] log"), ""),
                (_("[?] rules"), "app.rules"),
                (_("[l] {other}").format(other=LANGUAGES[other_language()]), "app.language"),
                (_("[q] quit"), "app.quit"),
            ]
        )
        self.query_one("#keys", Static).update(keys)

    @staticmethod
    def _hands(game: Game, names: Sequence[str]) -> Content:
        """Every seat's hand at the end of the game, from every event (nothing is hidden
        any more); a seat out of the round also shows the palette it left with."""
        parts: list[Content | str | tuple[str, str]] = [(_("Every hand at the end:"), "bold")]
        width = max(len(name) for name in names) + 2
        for name, seat in zip(names, cards_at_round_end(game.events, game.players), strict=True):
            parts += ["\n  ", (name + ":").ljust(width), " "]
            parts.append(cards_text(list(seat.hand)) if seat.hand else _("(empty)"))
            if seat.out:
                parts.append(
                    (
                        "   " + _("out of the round, palette: {cards}").format(cards=cards_label(seat.palette) or "—"),
                        "dim",
                    )
                )
        return Content.assemble(*parts)

    def action_step(self, delta: int) -> None:
        new = self.index + delta
        self.status = (
            ""
            if 0 <= new < len(self.games)
            else (_("This is the first position.") if new < 0 else _("This is the last decision of the record."))
        )
        self.index = min(max(new, 0), len(self.games) - 1)
        self._leave_all_hands()
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where % len(self.games)
        self.status = ""
        self._leave_all_hands()
        self.show()

    def _leave_all_hands(self) -> None:
        """Away from the end, every hand would show hidden cards: back to the public view."""
        if self.all_hands and not self.at_the_end:
            self.all_hands, self.viewer = False, None
            self.status = _("Every hand shows only at the end of the game: back to the public view.")

    def action_view(self) -> None:
        """``v``: the public view, then each seat's, then (at the end of a finished game)
        every hand, then the public view again."""
        n = self.games[0].players
        if self.all_hands:
            self.all_hands, self.viewer = False, None
        elif self.viewer is None:
            self.viewer = 0
        elif self.viewer < n - 1:
            self.viewer += 1
        elif self.at_the_end:
            self.all_hands, self.viewer = True, None
        else:
            self.viewer = None
        self.status = ""
        self.show()

    def notify_language(self) -> None:
        self.status = self.language_message()
        self.show()

    def unknown_key(self, key: str) -> None:
        self.status = _("The key {key} does nothing here.").format(key=key)
        self.show()

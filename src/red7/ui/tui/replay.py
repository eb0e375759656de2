"""``red7 replay FILE``: step through a game record on the game's own board."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from ...core.actions import Action
from ...core.game import Game
from ...core.record import initial, steps
from ...play.session import SeatKind, SeatName
from ..i18n import LANGUAGES, _
from ..words import action_text, seat_name
from .base import BoardApp, other_language
from .board import Board, BoardView, move_log


def positions(record: dict[str, Any]) -> list[Game]:
    """Every position of a record: before the first decision, then after each one.
    Raises :class:`~red7.core.record.RecordError` on a bad record, before anything is shown."""
    games = [initial(record)]
    games += [game.clone() for _number, _action, game in steps(record)]
    return games


class ReplayApp(BoardApp):
    """Shows ``positions`` one at a time; ``v`` changes whose view is shown (a seat's, or
    everyone's public view): the board and the log show only what that view may see (R9)."""

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

    def __init__(self, games: list[Game], name: str = "") -> None:
        super().__init__()
        self.games, self.record_name = games, name
        self.index = 0
        self.viewer: int | None = None
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
        return [seat_name(SeatName(s, SeatKind.PLAYER)) for s in range(self.games[0].players)]

    def show(self) -> None:
        game = self.games[self.index]
        names = self._names()
        obs = game.observe(self.viewer)
        last = len(self.games) - 1
        title = _("Replay {name} · decision {i} of {n}").format(name=self.record_name, i=self.index, n=last)
        who = _("everyone's public view") if self.viewer is None else names[self.viewer]
        title += " · " + _("view: {who}").format(who=who)
        prompt = ""
        if self.index:
            seat, action_id = obs.history[-1]
            prompt = f"{names[seat]}: {action_text(Action.from_id(action_id))}"
        if game.result is not None and self.index == last:
            prompt += "  " + _("Game over.")
        log = move_log(game.events_for(self.viewer), names)
        view = BoardView(obs, names, None, prompt, self.status, title=title, log=log)
        self.query_one(Board).show(view)
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

    def action_step(self, delta: int) -> None:
        new = self.index + delta
        self.status = (
            ""
            if 0 <= new < len(self.games)
            else (_("This is the first position.") if new < 0 else _("This is the last decision of the record."))
        )
        self.index = min(max(new, 0), len(self.games) - 1)
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where % len(self.games)
        self.status = ""
        self.show()

    def action_view(self) -> None:
        n = self.games[0].players
        self.viewer = 0 if self.viewer is None else (None if self.viewer == n - 1 else self.viewer + 1)
        self.show()

    def notify_language(self) -> None:
        self.status = self.language_message()
        self.show()

    def unknown_key(self, key: str) -> None:
        self.status = _("The key {key} does nothing here.").format(key=key)
        self.show()

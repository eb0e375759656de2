"""What the game and the replayer share: the stylesheet, the message shown when the
terminal is too small, the language switch, the rules screen and a message for keys
that mean nothing."""

from __future__ import annotations

from typing import Final

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Static

from ..i18n import LANGUAGES, _, language, set_language
from .screens import Rules

MIN_SIZE: Final = (80, 24)
"""The smallest terminal the table fits in (columns, lines)."""
ALWAYS_KEYS: Final = frozenset({"ctrl+q", "ctrl+c", "escape", "enter", "tab", "shift+tab"})


def other_language() -> str:
    return "en" if language() == "pt-BR" else "pt-BR"


class BoardApp(App[None]):
    """A screen with a ``#main`` container and a ``#too-small`` message; subclasses
    redraw in :meth:`redraw` and answer an unknown key in :meth:`unknown_key`."""

    CSS_PATH = "red7.tcss"
    TITLE = "Red7"

    def redraw(self) -> None:
        """Show the current state again (after a resize or a language switch)."""

    def unknown_key(self, key: str) -> None:
        """Tell the person that ``key`` does nothing now."""

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)

    def fit(self, size: tuple[int, int] | None = None) -> None:
        """Show the table, or ask for a larger terminal if it does not fit."""
        width, height = size or self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#main").display = not small
        message = self.query_one("#too-small", Static)
        message.display = small
        message.update(
            Content.styled(
                _(
                    "The terminal is too small ({width}×{height}). Please enlarge it to at least "
                    "{min_width}×{min_height} to play."
                ).format(width=width, height=height, min_width=MIN_SIZE[0], min_height=MIN_SIZE[1]),
                "bold",
            )
        )
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        known = {key for b in self.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")}
        if event.key not in known | ALWAYS_KEYS and len(self.screen_stack) == 1:
            self.unknown_key(event.key)

    def action_rules(self) -> None:
        self.push_screen(Rules(id="rules"))

    def action_language(self) -> None:
        set_language(other_language())
        self.fit()
        self.notify_language()

    def notify_language(self) -> None:
        """Say which language is now in use (subclasses show it where they show messages)."""

    @staticmethod
    def language_message() -> str:
        return _("Language: {name}").format(name=LANGUAGES[language()])

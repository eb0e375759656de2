"""What the game and the replayer share: the stylesheet, the message shown when the
terminal is too small, the language switch, the rules screen, Ctrl+C and Ctrl+Q, and
a message for keys that mean nothing.

While the terminal is too small the board is hidden, and so are its keys: only quit
(``q``, Ctrl+C, Ctrl+Q), the language (``l``) and the rules (``?``) work, so nothing
happens on a table nobody sees. Ctrl+C and Ctrl+Q work over dialogs too; pressed twice,
they quit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from ..i18n import LANGUAGES, _, language, set_language
from .screens import Rules

MIN_SIZE: Final = (80, 24)
"""The smallest terminal the table fits in (columns, lines)."""
SHORT: Final = 30
"""Below this many lines the board leaves out its blank lines."""
ALWAYS_KEYS: Final = frozenset({"ctrl+q", "ctrl+c", "escape", "enter", "tab", "shift+tab"})


def other_language() -> str:
    return "en" if language() == "pt-BR" else "pt-BR"


def scroll_page(widget: Widget, pages: int) -> None:
    """Scroll ``widget`` a page back (``pages`` < 0) or forth, at once."""
    if pages < 0:
        widget.scroll_page_up(animate=False)
    else:
        widget.scroll_page_down(animate=False)


class BoardApp(App[None]):
    """A screen with a ``#main`` container and a ``#too-small`` message; subclasses
    redraw in :meth:`redraw`, answer an unknown key in :meth:`unknown_key` and list in
    :attr:`BOARD_ACTIONS` the actions of the keys that act on the board."""

    CSS_PATH = "red7.tcss"
    TITLE = "Red7"
    # Textual's command palette (Ctrl+P) is in English and its Quit would leave without
    # the game's question and without saving: the game has its own keys for everything
    ENABLE_COMMAND_PALETTE = False
    # priority bindings, so that Ctrl+C works over dialogs too (pressed twice, it quits);
    # Ctrl+Q, Textual's own quit, asks as q does instead of throwing a game away
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "help_quit", show=False, priority=True),
        Binding("ctrl+q", "help_quit", show=False, priority=True),
    ]
    BOARD_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that act on the board: off while it is hidden."""

    def redraw(self) -> None:
        """Show the current state again (after a resize or a language switch)."""

    def unknown_key(self, key: str) -> None:
        """Tell the person that ``key`` does nothing now."""

    def request_quit(self) -> None:
        """``q`` or Ctrl+C: leave (the game asks first)."""
        self.exit()

    @property
    def board_hidden(self) -> bool:
        """Is the board hidden because the terminal is too small?"""
        return not self.query_one("#main").display

    @property
    def dialog_open(self) -> bool:
        """Is a dialog (a modal screen) open over the board?"""
        return len(self.screen_stack) > 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # (over a dialog the app's keys do not reach the board anyway: a modal screen
        # stops every binding of the app but the priority ones, Ctrl+C)
        return not (action in self.BOARD_ACTIONS and self.board_hidden)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)

    def fit(self, size: tuple[int, int] | None = None) -> None:
        """Show the table, or ask for a larger terminal if it does not fit."""
        width, height = size or self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        main = self.query_one("#main")
        main.display = not small
        main.set_class(height < SHORT, "-short")
        message = self.query_one("#too-small", Static)
        message.display = small
        text = _(
            "The terminal is too small ({width}×{height}). Please enlarge it to at least "
            "{min_width}×{min_height} to play."
        ).format(width=width, height=height, min_width=MIN_SIZE[0], min_height=MIN_SIZE[1])
        keys = _("Until then only [q] quit, [l] {other} and [?] rules work.").format(other=LANGUAGES[other_language()])
        message.update(Content.assemble((text, "bold"), "\n\n", keys))
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        known = {key for b in self.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")}
        if event.key not in known | ALWAYS_KEYS and not self.dialog_open and not self.board_hidden:
            self.unknown_key(event.key)

    def keys_line(self, keys: Sequence[tuple[str, str]]) -> Content:
        """The key line from its ``keys``: (text, the action a click on it runs, or "").
        Too long for the terminal, it breaks between two keys, never inside one."""
        width = max(self.size.width - 2, 1)  # #main's padding
        parts: list[Content | str] = []
        used = 0
        for text, action in keys:
            item = Content(text).stylize(f"@click={action}") if action else Content(text)
            if parts and used + 3 + item.cell_length > width:
                parts.append("\n")
                used = 0
            elif parts:
                parts.append(" · ")
                used += 3
            parts.append(item)
            used += item.cell_length
        return Content.assemble(*parts)

    async def action_quit(self) -> None:
        """Textual's own quit (its Ctrl+Q binding, or any other way it is reached) asks
        as ``q`` does: no built-in key leaves without the question and the save."""
        self.request_quit()

    def action_help_quit(self) -> None:
        """Ctrl+C and Ctrl+Q quit as ``q`` does (Textual would only say, in English, to
        press Ctrl+Q, and Ctrl+Q would quit without asking)."""
        self.request_quit()

    def action_scroll_log(self, pages: int) -> None:
        """PgUp/PgDn: scroll the move log a page back or forth."""
        scroll_page(self.query_one("#log"), pages)

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

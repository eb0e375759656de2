"""The dialogs of the terminal game: confirmations, rules, round and game ends, hotseat."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from ..i18n import N_, _
from ..rules_text import rules_markdown


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


TUI_KEYS = N_(
    "Arrows or 1-9 pick a card (or click it). [p] play, [c] canvas, [e] end the turn, [x] concede, "
    "[u] take the turn back, [k] onto the deck (7), [t] take (1), [d] draw, [n] decline, [h] hint, "
    "[f] confirm turns on or off, [PgUp/PgDn] scroll the last moves, [l] language, [?] rules, [q] quit."
)
"""The rules screen's keys (translated where shown)."""


class Rules(ModalScreen[None]):
    """The rules in the language in use (key ``?``)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog rules"):
            yield Markdown(rules_markdown(_(TUI_KEYS)))
            button = Button(Content(_("Back to the game [esc]")), id="close", compact=True)
            button.can_focus = False
            yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

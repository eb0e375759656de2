"""The terminal game (``red7 play``): people and bots around one :class:`~red7.play.table.Table`.

The app holds layout and input only. It asks the table for the options of the seat
to move and shows ``observation(seat)`` of the person at the screen (a spectator's
view while a hotseat device is being passed), so no screen ever holds a hand that is
not its viewer's. Bots think in a worker thread from their own observation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from ...bots import make_bot
from ...bots.base import Option
from ...core.actions import Action
from ...core.standing import standing_of
from ...play.table import Table
from ..i18n import LANGUAGES, _, ngettext
from ..words import (
    LETTER_COLOUR,
    action_text,
    bot_level,
    colour_name,
    decision_text,
    step_prompt,
    unsafe_reason,
    winning_line,
)
from .base import BoardApp, other_language
from .board import Board, View
from .screens import Choice, Pass

# verb (a key or a button) -> the decision it means at each step where it means one;
# {card} is the selected card
_VERBS: Final[dict[str, dict[str, str]]] = {
    "play": {"start": "play {card}", "five": "play {card}"},
    "canvas": {"start": "canvas {card}", "after": "canvas {card}", "seven": "move {card} canvas"},
    "deck": {"seven": "move {card} deck"},
    "take": {"one": "take {card}"},
    "end": {"after": "end"},
    "concede": {step: "concede" for step in ("start", "after", "five", "seven", "one", "draw")},
    "draw": {"draw": "draw"},
    "decline": {"draw": "decline"},
}
_BUTTONS: Final = (
    ("play", "p"),
    ("canvas", "c"),
    ("deck", "k"),
    ("take", "t"),
    ("end", "e"),
    ("draw", "d"),
    ("decline", "n"),
    ("concede", "x"),
    ("undo", "u"),
    ("hint", "h"),
    ("rules", "?"),
)


def _button_label(name: str) -> str:
    return {
        "play": _("Play"),
        "canvas": _("Canvas"),
        "deck": _("Onto the deck"),
        "take": _("Take"),
        "end": _("End turn"),
        "draw": _("Draw"),
        "decline": _("Decline"),
        "concede": _("Concede"),
        "undo": _("Take back"),
        "hint": _("Hint"),
        "rules": _("Rules"),
    }[name]


class PlayApp(BoardApp):
    """A game of Red7 at one screen. ``new_table`` deals the next game for "play again"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        *(Binding(str(n), f"select({n})", show=False) for n in range(1, 10)),
        Binding("p", "verb('play')", show=False),
        Binding("c", "verb('canvas')", show=False),
        Binding("k", "verb('deck')", show=False),
        Binding("t", "verb('take')", show=False),
        Binding("e", "verb('end')", show=False),
        Binding("x", "verb('concede')", show=False),
        Binding("d", "verb('draw')", show=False),
        Binding("n", "verb('decline')", show=False),
        Binding("u,backspace", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("l", "language", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def __init__(
        self,
        new_table: Callable[[], Table],
        hotseat: bool = False,
        bot_delay: float = 0.5,
        hint: str = "hard",
        records: Path | None = None,
        save_to: Path | None = None,
    ) -> None:
        super().__init__()
        self.new_table, self.hotseat, self.bot_delay, self.hint_spec = new_table, hotseat, bot_delay, hint
        self.records, self.save_to = records, save_to
        self.saved: Path | None = None
        self.generation = 0  # bumped for each game: bots' answers from an older game are dropped
        self._start(new_table())

    def _start(self, table: Table) -> None:
        self.table = table
        self._name_seats()
        people = table.people
        self.passing = self.hotseat and len(people) > 1
        self.viewer: int | None = None if self.passing else (people[0] if people else None)
        self.selected: str | None = None
        self.status = ""
        self.rounds_seen = 0
        self.thinking = False
        self.hinting = False
        self.waiting = False  # a dialog is open: the table waits for its answer
        self.generation += 1

    def _name_seats(self) -> None:
        """Each seat's name (the one given, else "You" / "Player 2" / "Bot 2") and each bot's
        level, in the language in use."""
        solo = len(self.table.people) == 1
        self.names = []
        for s, seat in enumerate(self.table.seats):
            if seat.name:
                self.names.append(seat.name)
            elif seat.bot is not None:
                self.names.append(_("Bot {n}").format(n=s + 1))
            else:
                self.names.append(_("You") if solo else _("Player {n}").format(n=s + 1))
        self.marks = {s: f"({bot_level(seat.spec or '')})" for s, seat in enumerate(self.table.seats) if seat.bot}

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield Board(id="board")
            with Horizontal(id="buttons"):
                for name, key in _BUTTONS:
                    button = Button(Content(f"{_button_label(name)} [{key}]"), id=f"b-{name}", compact=True)
                    button.can_focus = False
                    yield button
            yield Static(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.fit()
        self.advance()

    def redraw(self) -> None:
        self.refresh_view()

    # --- what the screen shows ----------------------------------------------------------

    def _my_turn(self) -> bool:
        return (
            not self.thinking
            and not self.hinting
            and not self.waiting
            and self.table.person_to_move
            and self.viewer == self.table.current
        )

    def _options(self) -> list[Option]:
        return self.table.options() if self._my_turn() else []

    def _selectable(self) -> list[str]:
        """The cards the person can pick now: those the legal decisions name, in screen order."""
        cards = {str(o.action.card) for o in self._options() if o.action.card is not None}
        obs = self.table.observation(self.viewer)
        order = list(obs.get("hand", [])) + [c for p in obs["palettes"] for c in p]
        return [c for c in order if c in cards]

    def refresh_view(self) -> None:
        obs = self.table.observation(self.viewer)
        selectable = self._selectable()
        if self.selected not in selectable:
            self.selected = selectable[0] if len(selectable) == 1 else None
        prompt = ""
        if self._my_turn():
            prompt = self._prompt(obs)
        elif self.thinking and self.table.current is not None:
            prompt = _("{name} is thinking…").format(name=self.names[self.table.current])
        view = View(obs, self.names, self.selected, prompt, self.status, marks=self.marks)
        self.query_one(Board).show(view)
        self._show_buttons(obs)
        keys = _("[←/→] or [1-9] pick a card · [h] hint · [?] rules · [l] {other} · [q] quit").format(
            other=LANGUAGES[other_language()]
        )
        self.query_one("#keys", Static).update(Content.styled(keys, "dim"))

    def _show_buttons(self, obs: dict[str, Any]) -> None:
        step = obs["step"]
        mine = self._my_turn()
        for name, key in _BUTTONS:
            button = self.query_one(f"#b-{name}", Button)
            button.label = Content(f"{_button_label(name)} [{key}]")
            if name in _VERBS:
                button.display = mine and step in _VERBS[name]
            elif name == "undo":
                button.display = mine and bool(self.table.staged)
            else:
                button.display = True

    def say(self, message: str) -> None:
        self.status = message
        self.refresh_view()

    # --- the flow of the game -------------------------------------------------------------

    def advance(self) -> None:
        """Move the game on until a person must act: round ends, hotseat passing, bots."""
        if self.waiting or self.thinking:
            return
        obs = self.table.observation(None)
        if self.table.is_over:
            self._game_over(obs)
            return
        if len(obs["round_results"]) > self.rounds_seen:
            self.rounds_seen = len(obs["round_results"])
            self._ask(
                Choice(
                    _("Round {n} is over").format(n=self.rounds_seen),
                    self._round_summary(obs),
                    [("enter", "ok", _("Next round"))],
                    "ok",
                    id="round-over",
                ),
                lambda _: self.advance(),
            )
            return
        seat = self.table.current
        assert seat is not None
        if self.table.seats[seat].is_person:
            if self.passing and self.viewer != seat:
                self.viewer = None
                self.refresh_view()
                self._ask(Pass(self.names[seat]), lambda _: self._reveal(seat))
                return
            self.refresh_view()
            return
        self._think()

    def _reveal(self, seat: int) -> None:
        self.viewer = seat
        self.status = ""
        self.advance()

    def _ask(self, screen: Any, then: Callable[[Any], None]) -> None:
        self.waiting = True

        def answered(answer: Any) -> None:
            self.waiting = False
            then(answer)

        self.push_screen(screen, answered)

    def _think(self) -> None:
        bot, obs, options, rng = self.table.bot_inputs()
        generation = self.generation
        self.thinking = True
        self.refresh_view()

        def work() -> None:
            started = time.perf_counter()
            action = bot.choose(obs, options, rng)
            time.sleep(max(0.0, self.bot_delay - (time.perf_counter() - started)))
            self._from_thread(self._bot_chose, action, generation)

        self.run_worker(work, thread=True, group="bots", exit_on_error=True)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        """Hand a worker's answer to the app, unless the app has closed meanwhile (quit)."""
        try:
            self.call_from_thread(callback, *args)
        except RuntimeError:
            pass

    def _bot_chose(self, action: Action, generation: int) -> None:
        if generation != self.generation:
            return
        self.thinking = False
        self.table.apply_bot(action)
        self.advance()

    def _round_summary(self, obs: dict[str, Any]) -> str:
        r = obs["round_results"][-1]
        lines = [
            _("Round winner: {name}, under the rule {rule}.").format(
                name=self.names[r["winner"]], rule=colour_name(r["rule"])
            )
        ]
        if obs["advanced"]:
            scored = " ".join(r["scored"]) or "—"
            scoring = ngettext(
                "Scoring cards: {cards} = {points} point.", "Scoring cards: {cards} = {points} points.", r["points"]
            )
            lines.append(scoring.format(cards=scored, points=r["points"]))
            lines.append(
                _("Scores (target {target}): {scores}").format(
                    target=obs["target"],
                    scores=", ".join(f"{n} {s}" for n, s in zip(self.names, obs["scores"], strict=True)),
                )
            )
        return "\n".join(lines)

    def _game_over(self, obs: dict[str, Any]) -> None:
        if self.saved is None:
            self._save_record()
        result = obs["result"]
        winners = " & ".join(self.names[w] for w in result["winners"])
        lines = [
            self._round_summary(obs),
            "",
            ngettext("{names} won the game!", "{names} share the victory!", len(result["winners"])).format(
                names=winners
            ),
        ]
        if self.saved is not None:
            lines.append(_("Record saved to {path} (red7 replay {path}).").format(path=self.saved))
        self._ask(
            Choice(
                _("Game over"),
                "\n".join(lines),
                [("enter", "again", _("Play again")), ("q", "quit", _("Quit"))],
                "quit",
                id="game-over",
            ),
            self._after_game,
        )

    def _save_record(self) -> None:
        if self.save_to is not None:
            path = self.save_to
        elif self.records is not None:
            path = self.records / self.table.record_name()
        else:
            return
        try:
            self.saved = self.table.save(path)
        except OSError as err:
            self.status = _("Could not save the record to {path}: {error}").format(path=path, error=err.strerror)

    def _after_game(self, answer: str) -> None:
        if answer != "again":
            self.exit()
            return
        self.saved = None
        self._start(self.new_table())
        self.refresh_view()
        self.advance()

    # --- a person's decisions ---------------------------------------------------------------

    def unknown_key(self, key: str) -> None:
        self.say(_("The key {key} does nothing here. {keys}").format(key=key, keys=self._hint_keys()))

    def _hint_keys(self) -> str:
        if self._my_turn():
            return self._prompt(self.table.observation(self.viewer))
        return _("Press [?] for the rules and the keys.")

    def _prompt(self, obs: dict[str, Any]) -> str:
        can_end = any(o.action.kind == "end" for o in self._options())
        return step_prompt(obs, can_end, bool(self.table.staged))

    def action_move(self, delta: int) -> None:
        cards = self._selectable()
        if not cards:
            self.say(self._not_now())
            return
        i = cards.index(self.selected) if self.selected in cards else (-1 if delta > 0 else 0)
        self.selected = cards[(i + delta) % len(cards)]
        self.say("")

    def action_select(self, n: int) -> None:
        cards = self._selectable()
        if not cards:
            self.say(self._not_now())
        elif n > len(cards):
            self.say(
                ngettext(
                    "There is {n} card to pick: press 1.", "There are {n} cards to pick: press 1 to {n}.", len(cards)
                ).format(n=len(cards))
            )
        else:
            self.selected = cards[n - 1]
            self.say("")

    def action_pick(self, card: str) -> None:
        """A click on a card."""
        if not self._my_turn():
            self.say(self._not_now())
            return
        if card in self._selectable():
            self.selected = card
            self.say("")
            return
        obs = self.table.observation(self.viewer)
        owner = next((s for s, p in enumerate(obs["palettes"]) if card in p), None)
        if owner is not None and owner != self.viewer:
            self.say(
                _("{card} is in {name}'s palette: only a 1's action takes a card from another palette.").format(
                    card=card, name=self.names[owner]
                )
            )
        elif owner is not None:
            self.say(_("{card} is in your palette: only a 7's action moves a palette card.").format(card=card))
        else:
            self.say(_("{card} cannot be used now. {keys}").format(card=card, keys=self._hint_keys()))

    def _not_now(self) -> str:
        if self.thinking and self.table.current is not None:
            return _("Please wait: {name} is thinking.").format(name=self.names[self.table.current])
        if self.table.is_over:
            return _("The game is over.")
        return _("It is not your turn.")

    def action_verb(self, verb: str) -> None:
        if not self._my_turn():
            self.say(self._not_now())
            return
        obs = self.table.observation(self.viewer)
        notation = _VERBS[verb].get(obs["step"])
        if notation is None:
            self.say(_("That is not possible at this point of the turn. {keys}").format(keys=self._hint_keys()))
            return
        if "{card}" in notation:
            if self.selected is None:
                self.say(_("Pick a card first: arrows, 1-9 or a click."))
                return
            notation = notation.format(card=self.selected)
        action = Action.parse(notation)
        option = next((o for o in self._options() if o.action is action), None)
        if option is None:
            self.say(self._refusal(action, obs))
            return
        self._decide(option)

    def _refusal(self, action: Action, obs: dict[str, Any]) -> str:
        if action.kind == "canvas":
            rule = colour_name(LETTER_COLOUR[str(action.card)[0]])
            return _("{card} on the canvas would make the rule {rule}, and you would not be winning (R4.4).").format(
                card=action.card, rule=rule
            )
        if action.kind == "end":
            return _("You cannot end the turn while you are not winning (R4.6).")
        if action.kind in ("play", "move", "take"):
            return _("{decision} is not allowed: you could not stay in the round afterwards (R7).").format(
                decision=decision_text(action)
            )
        return _("That is not possible now. {keys}").format(keys=self._hint_keys())

    def _decide(self, option: Option) -> None:
        action = option.action
        if action.kind == "concede":
            self._ask(
                Choice(
                    _("Concede?"),
                    _("You will be out of this round."),
                    [("enter", "yes", _("Concede")), ("escape", "no", _("Keep playing"))],
                    "no",
                    id="confirm-concede",
                ),
                lambda answer: self._commit(action) if answer == "yes" else self.say(""),
            )
            return
        if not option.safe:
            preview = self.table.preview(action)
            reason = unsafe_reason(standing_of(preview) if preview is not None else None, self.names)
            self._ask(
                Choice(
                    _("This choice is not safe"),
                    reason + "\n\n" + _("Do it anyway?"),
                    [("enter", "yes", _("Do it")), ("escape", "no", _("Choose again"))],
                    "no",
                    id="confirm-unsafe",
                ),
                lambda answer: self._commit(action) if answer == "yes" else self.say(""),
            )
            return
        if self.table.ends_turn(action):
            self._confirm_turn(action)
            return
        self._commit(action)

    def _confirm_turn(self, action: Action) -> None:
        obs = self.table.observation(self.viewer)
        steps = [*self.table.staged, action]
        summary = ", ".join(action_text(a) for a in steps)
        rule = LETTER_COLOUR[str(action.card)[0]] if action.kind == "canvas" else None
        after = winning_line(standing_of(obs, rule), self.names)
        answers = [("enter", "confirm", _("Confirm")), ("escape", "cancel", _("Choose again"))]
        if self.table.staged:
            answers.insert(1, ("u", "undo", _("Take the turn back")))
        self._ask(
            Choice(
                _("Confirm your turn"),
                _("You {summary}.").format(summary=summary) + "\n" + after,
                answers,
                "cancel",
                id="confirm-turn",
            ),
            lambda answer: self._turn_answer(action, answer),
        )

    def _turn_answer(self, action: Action, answer: str) -> None:
        if answer == "confirm":
            self._commit(action)
        elif answer == "undo":
            self.action_undo()
        else:
            self.say("")

    def _commit(self, action: Action) -> None:
        seat = self.table.current
        self.table.decide(action)
        self.selected = None
        self.status = ""
        if self.passing and self.table.current != seat:
            self.viewer = None  # the turn is over: hide this hand before anything else shows
        self.refresh_view()
        self.advance()

    def action_undo(self) -> None:
        if not self._my_turn():
            self.say(self._not_now())
        elif self.table.take_back():
            self.selected = None
            self.say(_("Turn taken back."))
        else:
            self.say(_("Nothing to take back: you have not played this turn, or a card was drawn since."))

    def action_hint(self) -> None:
        if not self._my_turn():
            self.say(self._not_now())
            return
        obs, options = self.table.observation(self.viewer), self.table.options()
        bot = make_bot(self.hint_spec)
        self.hinting = True
        self.say(_("Thinking of a hint…"))
        generation = self.generation

        def work() -> None:
            action = bot.choose(obs, options, random.Random(obs["turns"]))
            self._from_thread(self._hinted, action, generation)

        self.run_worker(work, thread=True, group="hint", exit_on_error=True)

    def _hinted(self, action: Action, generation: int) -> None:
        self.hinting = False
        if generation != self.generation:
            return
        if action.card is not None:
            self.selected = str(action.card)
        self.say(
            _("Hint: the {level} bot would {decision}.").format(
                level=bot_level(self.hint_spec), decision=decision_text(action)
            )
        )

    def notify_language(self) -> None:
        self._name_seats()
        self.say(self.language_message())

    def action_quit_game(self) -> None:
        if self.table.is_over:
            self.exit()
            return
        self._ask(
            Choice(
                _("Quit?"),
                _("The game in progress will not be saved."),
                [("enter", "yes", _("Quit")), ("escape", "no", _("Keep playing"))],
                "no",
                id="confirm-quit",
            ),
            lambda answer: self.exit() if answer == "yes" else self.say(""),
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("b-")
        if name in _VERBS:
            self.action_verb(name)
        elif name == "undo":
            self.action_undo()
        elif name == "hint":
            self.action_hint()
        elif name == "rules":
            self.action_rules()

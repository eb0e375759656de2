"""The terminal game (``red7 play``): people and bots around one table, through a
:class:`~red7.play.session.Session`.

The app holds widgets and keys only. The session says what happens now (whose turn,
a bot's turn, a round's or the game's end); the app shows ``observe(viewer)`` of the
person at the screen (a spectator's view while a hotseat device is being passed) and
the move log as that viewer may see it, so no screen ever holds a hand that is not its
viewer's (R9). Bots think in a worker thread from what the session hands out.

Keys and buttons name a kind of decision (:class:`~red7.core.actions.Kind`); with the
selected card they make the decision, which the engine checks: a refused one is
explained from its refusal code (:func:`~red7.ui.words.refusal_text`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from ...bots import make_bot
from ...core.actions import Action, Kind
from ...core.cards import Card
from ...core.model import STEP_KINDS, Option
from ...core.observation import Observation
from ...core.standing import standing_of
from ...play.session import BotTurn, GameEnd, PersonTurn, RoundEnd, Session
from ...play.table import Table
from ..i18n import LANGUAGES, _, ngettext
from ..words import (
    ActionKey,
    action_text,
    bot_level,
    decision_text,
    log_lines,
    refusal_text,
    round_summary,
    seat_mark,
    seat_name,
    step_prompt,
    unsafe_reason,
    winners_line,
    winning_line,
)
from .base import BoardApp, other_language
from .board import Board, BoardView, cards_shown
from .screens import Choice, Pass

VERBS: Final[Mapping[str, tuple[ActionKey, ...]]] = {
    "play": ((Kind.PLAY, None),),
    "canvas": ((Kind.CANVAS, None), (Kind.MOVE, "canvas")),
    "deck": ((Kind.MOVE, "deck"),),
    "take": ((Kind.TAKE, None),),
    "end": ((Kind.END, None),),
    "concede": ((Kind.CONCEDE, None),),
    "draw": ((Kind.DRAW, None),),
    "decline": ((Kind.DECLINE, None),),
}
"""What each verb (a key or a button) may decide: a kind of decision and, for a 7's
move, its destination. At a step the verb means the first one the step accepts
(``c`` puts a hand card on the canvas, or at the 7's step moves a palette card there)."""
CARD_KINDS: Final = frozenset({Kind.PLAY, Kind.CANVAS, Kind.MOVE, Kind.TAKE})
"""The kinds of decision that name a card (the selected one)."""
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


def decision_of(key: ActionKey, card: Card | None) -> Action:
    """The decision of ``key`` (a kind and a 7's destination) about ``card``."""
    kind, destination = key
    return Action.of(kind, card, destination)


class PlayApp(BoardApp):
    """A game of Red7 at one screen. ``new_table`` deals the next game for "play again";
    each game is a :class:`Session` that saves its record into ``records`` (or to
    ``save_to``) when it ends."""

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
        self.generation = 0  # bumped for each game: bots' answers from an older game are dropped
        self._start(new_table())

    def _start(self, table: Table) -> None:
        self.session = Session(table, self.records, self.save_to)
        self.saved: Path | None = None
        self._name_seats()
        people = table.people
        self.passing = self.hotseat and len(people) > 1
        self.viewer: int | None = None if self.passing else (people[0] if people else None)
        self.selected: Card | None = None
        self.status = ""
        self.thinking = False
        self.hinting = False
        self.waiting = False  # a dialog is open: the table waits for its answer
        self.generation += 1

    @property
    def table(self) -> Table:
        """The table of the game in progress (read it; change it through the session)."""
        return self.session.table

    def _name_seats(self) -> None:
        """Each seat's name and each bot's level, in the language in use."""
        labels = self.session.names()
        self.names = [seat_name(label) for label in labels]
        self.marks = {label.seat: seat_mark(label) for label in labels if label.level is not None}

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

    def my_turn(self) -> bool:
        """Is it the turn of the person at the screen, with nothing else going on?"""
        return (
            not self.thinking
            and not self.hinting
            and not self.waiting
            and self.table.person_to_move
            and self.viewer == self.table.current
        )

    def _options(self) -> list[Option]:
        return self.table.options() if self.my_turn() else []

    def selectable(self) -> list[Card]:
        """The cards the person can pick now: those the legal decisions name, in screen
        order (the hand, then the palettes seat by seat)."""
        cards = {o.action.card for o in self._options() if o.action.card is not None}
        if not cards:
            return []
        obs = self.table.observe(self.viewer)
        order = cards_shown(obs.hand or 0) + [c for p in obs.palettes for c in cards_shown(p)]
        return [c for c in order if c in cards]

    def refresh_view(self) -> None:
        obs = self.table.observe(self.viewer)
        selectable = self.selectable()
        if self.selected not in selectable:
            self.selected = selectable[0] if len(selectable) == 1 else None
        prompt = ""
        if self.my_turn():
            prompt = self._prompt(obs)
        elif self.thinking and self.table.current is not None:
            prompt = _("{name} is thinking…").format(name=self.names[self.table.current])
        log = log_lines(self.session.log(self.viewer), self.names)
        view = BoardView(obs, self.names, self.selected, prompt, self.status, marks=self.marks, log=log)
        self.query_one(Board).show(view)
        self._show_buttons()
        keys = _("[←/→] or [1-9] pick a card · [h] hint · [?] rules · [l] {other} · [q] quit").format(
            other=LANGUAGES[other_language()]
        )
        self.query_one("#keys", Static).update(Content.styled(keys, "dim"))

    def _show_buttons(self) -> None:
        """A verb's button shows when a legal decision is of its kind (and the person may
        decide); take-back when something is staged; hint and rules always."""
        offered = {(o.action.kind, o.action.destination) for o in self._options()}
        for name, key in _BUTTONS:
            button = self.query_one(f"#b-{name}", Button)
            button.label = Content(f"{_button_label(name)} [{key}]")
            if name in VERBS:
                button.display = not offered.isdisjoint(VERBS[name])
            elif name == "undo":
                button.display = self.my_turn() and bool(self.table.staged)
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
        moment = self.session.next()
        if isinstance(moment, GameEnd):
            self._game_over(moment)
        elif isinstance(moment, RoundEnd):
            summary = round_summary(moment.over, moment.scores, self.table.config.target, self.names)
            title = _("Round {n} is over").format(n=moment.over.round)
            self._ask(
                Choice(title, summary, [("enter", "ok", _("Next round"))], "ok", id="round-over"),
                lambda _: self.advance(),
            )
        elif isinstance(moment, PersonTurn):
            if self.passing and self.viewer != moment.seat:
                self.viewer = None
                self.refresh_view()
                self._ask(Pass(self.names[moment.seat]), lambda _: self._reveal(moment.seat))
                return
            self.refresh_view()
        else:
            self._think(moment)

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

    def _think(self, turn: BotTurn) -> None:
        generation = self.generation
        self.thinking = True
        self.refresh_view()

        def work() -> None:
            started = time.perf_counter()
            action = turn.choose()
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
        self.session.apply_bot(action)
        self.advance()

    def _game_over(self, end: GameEnd) -> None:
        self.saved = end.saved
        if end.save_error is not None:
            self.status = _("Could not save the record to {path}: {error}").format(
                path=end.record, error=end.save_error.strerror
            )
        lines = [
            round_summary(end.last_round, end.over.scores, self.table.config.target, self.names),
            "",
            winners_line(end.over.winners, self.names),
        ]
        if end.saved is not None:
            lines.append(_("Record saved to {path} (red7 replay {path}).").format(path=end.saved))
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

    def _after_game(self, answer: str) -> None:
        if answer != "again":
            self.exit()
            return
        self._start(self.new_table())
        self.refresh_view()
        self.advance()

    # --- a person's decisions ---------------------------------------------------------------

    def unknown_key(self, key: str) -> None:
        self.say(_("The key {key} does nothing here. {keys}").format(key=key, keys=self._hint_keys()))

    def _hint_keys(self) -> str:
        if self.my_turn():
            return self._prompt(self.table.observe(self.viewer))
        return _("Press [?] for the rules and the keys.")

    def _prompt(self, obs: Observation) -> str:
        can_end = any(o.action.kind is Kind.END for o in self._options())
        return step_prompt(obs.step, can_end, bool(self.table.staged))

    def action_move(self, delta: int) -> None:
        cards = self.selectable()
        if not cards:
            self.say(self._not_now())
            return
        i = cards.index(self.selected) if self.selected in cards else (-1 if delta > 0 else 0)
        self.selected = cards[(i + delta) % len(cards)]
        self.say("")

    def action_select(self, n: int) -> None:
        cards = self.selectable()
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

    def action_pick(self, name: str) -> None:
        """A click on a card (``name`` in notation)."""
        if not self.my_turn():
            self.say(self._not_now())
            return
        card = Card.parse(name)
        if card in self.selectable():
            self.selected = card
            self.say("")
            return
        obs = self.table.observe(self.viewer)
        owner = next((s for s, p in enumerate(obs.palettes) if p >> card & 1), None)
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
        """A verb's key or button: its decision at this step, about the selected card."""
        if not self.my_turn():
            self.say(self._not_now())
            return
        accepted = STEP_KINDS[self.table.observe(self.viewer).step]
        key = next((k for k in VERBS[verb] if k[0] in accepted), None)
        if key is None:
            self.say(_("That is not possible at this point of the turn. {keys}").format(keys=self._hint_keys()))
            return
        if key[0] in CARD_KINDS and self.selected is None:
            self.say(_("Pick a card first: arrows, 1-9 or a click."))
            return
        action = decision_of(key, self.selected if key[0] in CARD_KINDS else None)
        refusal = self.table.check(action)
        if refusal is not None:
            self.say(refusal_text(refusal))
            return
        self._decide(next(o for o in self._options() if o.action is action))

    def _decide(self, option: Option) -> None:
        action = option.action
        if action.kind is Kind.CONCEDE:
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
        obs = self.table.observe(self.viewer)
        staged = self.table.staged
        summary = ", ".join(action_text(a) for a in [*staged, action])
        # the standing the turn ends with: under the new rule if the last decision sets one
        rule = action.card.colour if action.kind is Kind.CANVAS and action.card is not None else None
        after = winning_line(standing_of(obs, rule), self.names)
        answers = [("enter", "confirm", _("Confirm")), ("escape", "cancel", _("Choose again"))]
        if staged:
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
        self.session.decide(action)
        self.selected = None
        self.status = ""
        if self.passing and self.table.current != seat:
            self.viewer = None  # the turn is over: hide this hand before anything else shows
        self.refresh_view()
        self.advance()

    def action_undo(self) -> None:
        if not self.my_turn():
            self.say(self._not_now())
        elif self.session.take_back():
            self.selected = None
            self.say(_("Turn taken back."))
        else:
            self.say(_("Nothing to take back: you have not played this turn, or a card was drawn since."))

    def action_hint(self) -> None:
        if not self.my_turn():
            self.say(self._not_now())
            return
        turn = self.session.advice(make_bot(self.hint_spec))
        self.hinting = True
        self.say(_("Thinking of a hint…"))
        generation = self.generation

        def work() -> None:
            self._from_thread(self._hinted, turn.choose(), generation)

        self.run_worker(work, thread=True, group="hint", exit_on_error=True)

    def _hinted(self, action: Action, generation: int) -> None:
        self.hinting = False
        if generation != self.generation:
            return
        if action.card is not None:
            self.selected = action.card
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
        if name in VERBS:
            self.action_verb(name)
        elif name == "undo":
            self.action_undo()
        elif name == "hint":
            self.action_hint()
        elif name == "rules":
            self.action_rules()

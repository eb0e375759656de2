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

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from ...bots import make_bot
from ...core.actions import Action, Kind
from ...core.cards import Card
from ...core.events import Event, RoundOver
from ...core.model import STEP_KINDS, Option, Step
from ...core.standing import standing_of
from ...play.session import BotTurn, GameEnd, PersonTurn, RoundEnd, Session
from ...play.table import Table
from ..i18n import LANGUAGES, _, ngettext
from ..words import (
    ActionKey,
    action_text,
    bot_level,
    decision_text,
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
from .board import Board, BoardView, cards_shown, move_log
from .screens import Choice, Pass, Rules

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
)
"""The buttons: the kinds of decision, and taking the turn back. The other keys (hint,
rules, log, language, quit) are on the key line below, clickable too: the buttons fit
80 columns in both languages at the step that shows the most of them."""


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
    }[name]


def decision_of(key: ActionKey, card: Card | None) -> Action:
    """The decision of ``key`` (a kind and a 7's destination) about ``card``."""
    kind, destination = key
    return Action.of(kind, card, destination)


class PlayApp(BoardApp):
    """A game of Red7 at one screen. ``new_table`` deals the next game for "play again";
    each game is a :class:`Session` that saves its record into ``records`` (or to
    ``save_to``) when it ends.

    The flow never stops behind a dialog: while one is open (a question, the rules, a
    hotseat pass) the game waits, a bot's answer that arrives meanwhile is applied and
    shown, and the game goes on when the last dialog closes.
    """

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
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("l", "language", show=False),
        Binding("q", "quit_game", show=False),
    ]
    BOARD_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"move", "select", "verb", "undo", "hint", "pick", "scroll_log"}
    )

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
        self.dialogs = 0  # how many dialogs are open: the table waits for their answers
        self.closing = False
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
        self.last_move: list[Event] = []  # the events of the last decision applied
        self.generation += 1

    @property
    def table(self) -> Table:
        """The table of the game in progress (read it; change it through the session)."""
        return self.session.table

    @property
    def waiting(self) -> bool:
        """Is a dialog open, so that the table waits for its answer?"""
        return self.dialogs > 0

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

    def numbered(self) -> list[Card]:
        """The cards the number keys count now, in the order the board shows them: the
        hand when the step plays or canvases a hand card, your palette at a 7's step, the
        other palettes seat by seat at a 1's step (the step's kinds of decision decide,
        not whether each card is usable). Empty when the person picks no card now."""
        if not self.my_turn():
            return []
        obs = self.table.observe(self.viewer)
        kinds = STEP_KINDS[obs.step]
        cards = cards_shown(obs.hand or 0) if kinds & {Kind.PLAY, Kind.CANVAS} else []
        for seat, palette in enumerate(obs.palettes):
            if (Kind.MOVE in kinds and seat == obs.seat) or (Kind.TAKE in kinds and seat != obs.seat):
                cards += cards_shown(palette)
        return cards

    def selectable(self) -> list[Card]:
        """The cards the person can pick now (those the legal decisions name), in the
        order the board shows them."""
        named = {o.action.card for o in self._options() if o.action.card is not None}
        return [c for c in self.numbered() if c in named]

    def refresh_view(self) -> None:
        obs = self.table.observe(self.viewer)
        numbered = self.numbered()
        selectable = self.selectable()
        if self.selected not in selectable:
            self.selected = selectable[0] if len(selectable) == 1 else None
        prompt = ""
        if self.my_turn():
            prompt = self._prompt()
        elif self.thinking and self.table.current is not None:
            prompt = _("{name} is thinking…").format(name=self.names[self.table.current])
        log = move_log(self.session.log(self.viewer), self.names)
        view = BoardView(
            obs,
            self.names,
            self.selected,
            prompt,
            self.status,
            marks=self.marks,
            log=log,
            numbered=numbered,
            usable=selectable if numbered else None,
        )
        self.query_one(Board).show(view)
        self._show_buttons()
        self.query_one("#keys", Static).update(self._keys_line(bool(numbered)))

    def _keys_line(self, picking: bool) -> Content:
        """The keys that work now beside the buttons, each clickable: picking a card
        (when there is one to pick), a hint (on the person's turn), the rules, the log,
        the language and quitting."""
        parts = [(_("[←/→] [1-9] pick a card"), "")] if picking else []
        if self.my_turn():
            parts.append((_("[h] hint"), "app.hint"))
        parts += [
            (_("[?] rules"), "app.rules"),
            (_("[PgUp/PgDn] log"), ""),
            (_("[l] {other}").format(other=LANGUAGES[other_language()]), "app.language"),
            (_("[q] quit"), "app.quit_game"),
        ]
        return self.keys_line(parts)

    def _show_buttons(self) -> None:
        """A verb's button shows when a legal decision is of its kind (and the person may
        decide); take-back when something is staged."""
        offered = {(o.action.kind, o.action.destination) for o in self._options()}
        for name, key in _BUTTONS:
            button = self.query_one(f"#b-{name}", Button)
            button.label = Content(f"{_button_label(name)} [{key}]")
            if name in VERBS:
                button.display = not offered.isdisjoint(VERBS[name])
            else:
                button.display = self.my_turn() and bool(self.table.staged)

    def say(self, message: str) -> None:
        self.status = message
        self.refresh_view()

    # --- the flow of the game -------------------------------------------------------------

    def advance(self) -> None:
        """Move the game on until a person must act: round ends, hotseat passing, bots.
        It waits while a dialog is open or a bot thinks (each calls it again when done)."""
        if self.waiting or self.thinking or self.closing:
            return
        moment = self.session.next()
        if isinstance(moment, GameEnd):
            self._game_over(moment)
            self.refresh_view()  # the final move in the log; no prompt or button behind the dialog
        elif isinstance(moment, RoundEnd):
            summary = round_summary(moment.over, moment.scores, self.table.config.target, self.names)
            title = _("Round {n} is over").format(n=moment.over.round)
            self._ask(
                Choice(
                    title,
                    self._final_move(moment.over) + summary,
                    [("enter", "ok", _("Next round"))],
                    "ok",
                    id="round-over",
                ),
                lambda _: None,
            )
            self.refresh_view()  # the final move in the log; no prompt or button behind the dialog
        elif isinstance(moment, PersonTurn):
            if self.passing and self.viewer != moment.seat:
                self.viewer = None
                self.refresh_view()
                self._ask(Pass(self.names[moment.seat]), lambda _: self._reveal(moment.seat))
                return
            self.refresh_view()
        else:
            self._think(moment)

    def _final_move(self, over: RoundOver) -> str:
        """The log lines of the decision that ended the round ``over`` (a concession, or
        the turn after which a player with no card left was out, R4.1), ending with a
        blank line; empty if the last decision applied was another one."""
        if over not in self.last_move:
            return ""
        seen = [e.seen_by(self.viewer) for e in self.last_move[: self.last_move.index(over)]]
        lines = move_log(seen, self.names)
        return "\n".join(lines) + "\n\n" if lines else ""

    def _reveal(self, seat: int) -> None:
        self.viewer = seat
        self.status = ""

    def _ask(self, screen: Any, then: Callable[[Any], None]) -> None:
        """Open a dialog; its answer goes to ``then``, and then the game goes on."""
        self.dialogs += 1

        def answered(answer: Any) -> None:
            self.dialogs -= 1
            then(answer)
            self.advance()  # whatever happened meanwhile (a bot's answer) moves on now

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
        if generation != self.generation or self.closing:
            return
        self.thinking = False
        self.last_move = self.session.apply_bot(action)
        self.refresh_view()  # the move shows at once, also behind a dialog or before a round's end
        self.advance()

    def _game_over(self, end: GameEnd) -> None:
        self.saved = end.saved
        if end.save_error is not None:
            self.status = _("Could not save the record to {path}: {error}").format(
                path=end.record, error=end.save_error.strerror
            )
        lines = [
            self._final_move(end.last_round)
            + round_summary(end.last_round, end.over.scores, self.table.config.target, self.names),
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

    def exit(self, result: None = None, return_code: int = 0, message: RenderableType | None = None) -> None:
        """Leave the app; the game stops moving at once (no bot starts thinking)."""
        self.closing = True
        super().exit(result, return_code, message)

    # --- a person's decisions ---------------------------------------------------------------

    def unknown_key(self, key: str) -> None:
        self.say(_("The key {key} does nothing here. {keys}").format(key=key, keys=self._hint_keys()))

    def _hint_keys(self) -> str:
        if self.my_turn():
            return self._prompt()
        return _("Press [?] for the rules and the keys.")

    def _prompt(self) -> str:
        """What the person to move can do now, with its keys: only what the legal
        decisions allow (an empty hand is not asked for a card, End turn only while
        winning); "[u] takes the turn back." when something is staged."""
        offered = {(o.action.kind, o.action.destination) for o in self._options()}
        step = self.table.observe(self.viewer).step
        if offered <= {(Kind.CONCEDE, None)}:
            text = _("Nothing you can do now keeps you in the round: concede [x].")
        elif step is Step.AFTER:
            can_end, can_canvas = (Kind.END, None) in offered, (Kind.CANVAS, None) in offered
            text = (
                step_prompt(step, can_end, False)
                if can_canvas
                else _("You are winning and no hand card can go on the canvas: end your turn [e].")
            )
        elif step is Step.START and (Kind.CANVAS, None) not in offered:
            text = _("Your turn: pick a hand card and play it to your palette [p].")
        elif step is Step.START and (Kind.PLAY, None) not in offered:
            text = _("Your turn: pick a hand card and put it on the canvas [c].")
        elif step is Step.SEVEN and (Kind.MOVE, "deck") not in offered:
            text = _("The 7: pick another card of your palette and move it to the canvas [c].")
        elif step is Step.SEVEN and (Kind.MOVE, "canvas") not in offered:
            text = _("The 7: pick another card of your palette and move it onto the deck [k].")
        else:
            text = step_prompt(step, False, False)
        return text + (" " + _("[u] takes the turn back.") if self.table.staged else "")

    def action_move(self, delta: int) -> None:
        cards = self.selectable()
        if not cards:
            self.say(self._no_card())
            return
        i = cards.index(self.selected) if self.selected in cards else (-1 if delta > 0 else 0)
        self.selected = cards[(i + delta) % len(cards)]
        self.say("")

    def action_select(self, n: int) -> None:
        """Number key ``n``: the n-th card the board numbers (see :meth:`numbered`)."""
        cards = self.numbered()
        if not cards:
            self.say(self._no_card())
        elif n > len(cards):
            self.say(
                ngettext(
                    "There is {n} card to pick: press 1.", "There are {n} cards to pick: press 1 to {n}.", len(cards)
                ).format(n=len(cards))
            )
        elif cards[n - 1] not in self.selectable():
            self.say(self._why_not(cards[n - 1]))
        else:
            self.selected = cards[n - 1]
            self.say("")

    def _no_card(self) -> str:
        if not self.my_turn():
            return self._not_now()
        return _("There is no card to pick now. {keys}").format(keys=self._prompt())

    def _why_not(self, card: Card) -> str:
        """Why ``card`` cannot be used at this step: the engine's refusal of each decision
        of this step about it (play, canvas, a 7's move, a 1's take), in words."""
        accepted = STEP_KINDS[self.table.observe(self.viewer).step]
        keys = dict.fromkeys(k for ks in VERBS.values() for k in ks if k[0] in accepted and k[0] in CARD_KINDS)
        reasons = dict.fromkeys(
            refusal_text(refusal) for key in keys if (refusal := self.table.check(decision_of(key, card))) is not None
        )
        return _("{card} cannot be used now: {reasons}").format(card=card, reasons=" ".join(reasons))

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
        if card in self.numbered():
            self.say(self._why_not(card))
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
            # the basic game is one round (R6.3): out of it, the game is lost
            consequence = (
                _("You will be out of this round.")
                if self.table.config.advanced
                else _("You will be out, and the basic game has only this round: you lose the game.")
            )
            self._ask(
                Choice(
                    _("Concede?"),
                    consequence,
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
            self._take_back()
        else:
            self.say("")

    def _commit(self, action: Action) -> None:
        seat = self.table.current
        self.last_move = self.session.decide(action)
        self.selected = None
        self.status = ""
        if self.passing and self.table.current != seat:
            self.viewer = None  # the turn is over: hide this hand before anything else shows
        self.refresh_view()
        self.advance()

    def action_undo(self) -> None:
        if not self.my_turn():
            self.say(self._not_now())
        else:
            self._take_back()

    def _take_back(self) -> None:
        if self.session.take_back():
            self.selected = None
            self.say(_("Turn taken back."))
        elif self.table.observe(self.viewer).step is Step.START:
            self.say(_("Nothing to take back: you have not played anything this turn."))
        else:
            self.say(_("Nothing to take back: a card was drawn, and a draw cannot be taken back."))

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

    def action_rules(self) -> None:
        """The rules, as a dialog: the table waits while they are read."""
        self._ask(Rules(id="rules"), lambda _: None)

    def request_quit(self) -> None:
        self.action_quit_game()

    def action_quit_game(self) -> None:
        """``q`` or Ctrl+C: ask first, unless the game is over or the question is on the
        screen already (pressed twice: quit)."""
        if self.table.is_over or self.screen.id == "confirm-quit":
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

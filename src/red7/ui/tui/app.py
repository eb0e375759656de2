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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Static

from ...bots import make_bot
from ...bots.base import Appraiser
from ...core.actions import Action, Kind
from ...core.cards import Card
from ...core.events import Event, RoundOver
from ...core.model import STEP_KINDS, Option, Step
from ...core.standing import standing_of
from ...play.saving import Saved, Saver
from ...play.session import BotTurn, GameEnd, PersonTurn, Plan, RoundEnd, Session, cards_at_round_end
from ...play.table import Table, ends_turn_of
from ...solver.marks import Mark
from ..i18n import LANGUAGES, _, language, ngettext
from ..words import (
    ActionKey,
    bot_level,
    card_label,
    cards_label,
    colour_name,
    concession_consequence,
    just_drawn,
    move_log,
    plan_text,
    refusal_text,
    review_text,
    round_summary,
    saved_so_far,
    seat_mark,
    seat_name,
    turn_prompt,
    turn_summary,
    unsafe_reason,
    unusable_reason,
    winners_line,
    winning_line,
)
from .base import BoardApp, other_language, scroll_page
from .board import Board, BoardView, cards_shown
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


def match_summary(
    events: Sequence[Event], scores: Sequence[int], names: Sequence[str], opening: Sequence[int] | None = None
) -> str:
    """An advanced match round by round, from its events as one seat sees them (round
    ends are public) and its final ``scores``: each round's winner, final rule, scoring
    cards and points, and the scores after it (R8.2); then every palette at the end of
    the last round, as each player left it (``opening``: as in :func:`palette_lines`)."""
    overs = [e for e in events if isinstance(e, RoundOver)]
    # the scores after each round, counted back from the final ones (a match set up
    # mid-way, Game.from_position, has score piles from rounds it has no events of)
    after, running = [], list(scores)
    for over in reversed(overs):
        after.append(tuple(running))
        running[over.winner] -= over.points
    lines = [_("Round by round:")]
    for over, standing in zip(overs, reversed(after), strict=True):
        won = ngettext(
            "Round {n}: {name} under {rule}, scoring {cards} = {points} point",
            "Round {n}: {name} under {rule}, scoring {cards} = {points} points",
            over.points,
        )
        name, rule, cards = names[over.winner], colour_name(over.rule), cards_label(over.scored) or "—"
        lines.append(won.format(n=over.round, name=name, rule=rule, cards=cards, points=over.points))
        board = ", ".join(f"{name} {score}" for name, score in zip(names, standing, strict=True))
        lines.append("   " + _("scores: {scores}").format(scores=board))
    lines += ["", _("Final palettes (round {n}):").format(n=overs[-1].round if overs else 1)]
    return "\n".join(lines + palette_lines(events, names, opening))


def palette_lines(events: Sequence[Event], names: Sequence[str], opening: Sequence[int] | None = None) -> list[str]:
    """Each player's palette as the last round ``events`` deal ended (or stands), one
    indented line each: "   Ana: R7 B3". ``opening``: the palettes the events begin
    from when no deal begins them (the table's :attr:`~red7.play.table.Table.opening`)."""
    return [
        f"   {name}: {cards_label(seat.palette) or '—'}"
        for name, seat in zip(names, cards_at_round_end(events, len(names), opening), strict=True)
    ]


def _scrolling(text: str, classes: str = "") -> VerticalScroll:
    """``text`` in a box that scrolls when it is taller than the room a dialog leaves
    (PgUp/PgDn, the wheel), so a dialog's answers always show, also at 80×24."""
    return VerticalScroll(Static(Content(text)), classes=f"dialog-scroll {classes}".strip())


SCROLL_CSS: Final = """
.dialog-scroll { height: auto; max-height: 50vh; margin-bottom: 1; scrollbar-size-vertical: 1; }
"""


class Summary(Choice):
    """A :class:`Choice` whose body scrolls when it is long (the end of a match, round by
    round): PgUp/PgDn scroll it."""

    DEFAULT_CSS = SCROLL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "scroll_body(-1)", show=False),
        Binding("pagedown", "scroll_body(1)", show=False),
    ]

    # rows a dialog spends around its scrolling body: border 2, padding 2, the title and
    # its margin 2, the body's margin 1, the answers 1
    AROUND_BODY: Final = 8

    def on_mount(self) -> None:
        body = self.query_one(".dialog-body")
        self.query_one(".dialog").mount(_scrolling(self.body), before=body)
        body.remove()
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The body takes all the height the dialog may have (90 % of the screen), not
        half the screen as in the other dialogs, so a match's summary scrolls less."""
        room = int(0.9 * self.app.size.height) - self.AROUND_BODY
        self.query_one(".dialog-scroll").styles.max_height = max(3, room)

    def action_scroll_body(self, pages: int) -> None:
        scroll_page(self.query_one(".dialog-scroll"), pages)


class PassWithNews(Pass):
    """The hotseat pass screen, with what happened since the next person's last turn
    (the moves as a spectator sees them, R9: the pass screen is read before anyone has
    said who is at the screen), scrolled to the newest (PgUp/PgDn scroll it): nothing
    is added when nothing happened (the first turn of the game)."""

    DEFAULT_CSS = SCROLL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "scroll_body(-1)", show=False),
        Binding("pagedown", "scroll_body(1)", show=False),
    ]

    def __init__(self, name: str, news: Sequence[str], played: bool = True) -> None:
        """``played``: the person has had a turn in this session (else the news are
        everything so far, not what happened since their last turn)."""
        super().__init__(name)
        self.news, self.played = list(news), played

    def on_mount(self) -> None:
        if self.news:
            text = "\n".join([_("Since your last turn:") if self.played else _("So far:"), *self.news])
            box = _scrolling(text, "news")
            self.query_one(".dialog").mount(box, after=self.query_one(".dialog-body"))
            # the newest news shows first (issue 34); the older scroll back with PgUp
            box.call_after_refresh(box.scroll_end, animate=False)

    def action_scroll_body(self, pages: int) -> None:
        scroll_page(self.query_one(".news"), pages)


class PlayApp(BoardApp):
    """A game of Red7 at one screen. ``new_table`` deals the next game for "play again";
    each game is a :class:`Session` whose :class:`~red7.play.saving.Saver` saves its
    record into ``records`` (or to ``save_to``) when it ends, and with ``autosaves`` (a
    directory) keeps the game in progress in a file of its own there until it ends (see
    :mod:`red7.play.records`).
    ``resume`` is a table to play on first (:meth:`Table.resume`), read from the file
    ``resumed_from``: when that file is in ``autosaves`` the game goes on being saved
    there. ``confirm``: the last decision of a turn asks for confirmation (``f``
    switches it; unsafe decisions and conceding always ask).

    ``hotseat`` with several people: a person's hand shows from their pass screen (which
    names them) to the end of their turn, and never behind a round's or the game's
    dialog; a pass screen comes before every hand, also when the person who ended a
    round starts the next one.

    ``notice``: a sentence shown once, as a notification, when the app starts (the
    compiled core not in use: :func:`red7.ui.fallback.fallback_notice`).

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
        Binding("f", "confirm_turns", show=False),
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("l", "language", show=False),
        Binding("q", "quit_game", show=False),
    ]
    BOARD_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"move", "select", "verb", "undo", "hint", "pick", "scroll_log", "confirm_turns"}
    )

    def __init__(
        self,
        new_table: Callable[[], Table],
        hotseat: bool = False,
        bot_delay: float = 0.5,
        hint: str = "hard",
        records: Path | None = None,
        save_to: Path | None = None,
        confirm: bool = True,
        autosaves: Path | None = None,
        resume: Table | None = None,
        resumed_from: Path | None = None,
        notice: str | None = None,
    ) -> None:
        super().__init__()
        self.notice = notice  # shown once, at the start: the compiled core not in use (red7.ui.fallback)
        self.new_table, self.hotseat, self.bot_delay, self.hint_spec = new_table, hotseat, bot_delay, hint
        self.records, self.save_to, self.confirm, self.autosaves = records, save_to, confirm, autosaves
        self.generation = 0  # bumped for each game: bots' answers from an older game are dropped
        self.dialogs = 0  # how many dialogs are open: the table waits for their answers
        self.closing = False
        if resume is None:
            self._start(new_table())
        else:
            here = resumed_from is not None and autosaves is not None and resumed_from.parent == autosaves
            self._start(resume, resumed_from if here else None, resumed=True)

    def _start(self, table: Table, autosave: Path | None = None, resumed: bool = False) -> None:
        if autosave is None and self.autosaves is not None:
            autosave = self.autosaves / table.record_name()
        self.session = Session(table, resumed)
        self.saver = Saver(self.records, self.save_to, autosave)  # the files of what the session reports
        table.settings.update(lang=language(), confirm=self.confirm)  # what a resumed game takes up
        self.saved: Path | None = None
        self._name_seats()
        people = table.people
        self.passing = self.hotseat and len(people) > 1
        self.viewer: int | None = None if self.passing else (people[0] if people else None)
        # per person: how many events they had seen when their view was last hidden
        # (the hotseat pass screen tells them what happened since); in a resumed game,
        # where their last turn ended (issue 34: not the whole game again, nor nothing)
        self.seen: dict[int, int] = {p: n for p, n in table.turns_seen().items() if p in people}
        self.selected: Card | None = None
        # a refused pick leaves nothing picked, not even the only usable card that the
        # board picks by itself, until the person picks again or a decision is made
        self.refused_pick = False
        self.status = ""
        self.status_waits = False  # the status says to wait for a bot: stale once a bot has moved
        self.thinking = False
        self.hinting = False  # a hint is being worked out (keys still work meanwhile: see action_hint)
        self.hints = 0  # hints asked or cancelled in this game: a hint's answer counts only if it is the last
        self.picks = 0  # picks made or refused in this game: a hint does not change a pick made meanwhile
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
        if self.notice:
            self.notify(self.notice, severity="warning", timeout=30)
        self.advance()

    def redraw(self) -> None:
        self.refresh_view()

    # --- what the screen shows ----------------------------------------------------------

    def my_turn(self) -> bool:
        """Is it the turn of the person at the screen, with nothing else going on?"""
        return (
            not self.thinking and not self.waiting and self.table.person_to_move and self.viewer == self.table.current
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
            self.selected = selectable[0] if len(selectable) == 1 and not self.refused_pick else None
        prompt = ""
        if self.my_turn():
            prompt = self._prompt()
        elif self.thinking and self.table.current is not None:
            prompt = _("{name} is thinking…").format(name=self.names[self.table.current])
        seen = self.session.log(self.viewer)
        log = move_log(seen, self.names, self.viewer)
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
            drawn=just_drawn(seen, self.viewer) & set(cards_shown(obs.hand or 0)),
            owner=self._owner(),
            # the game is over: every palette as the last round ended, scoring cards included
            final=(
                [s.palette for s in cards_at_round_end(seen, len(self.names), self.table.opening)]
                if self.table.is_over
                else None
            ),
        )
        self.query_one(Board).show(view)
        self._show_buttons()
        self.query_one("#keys", Static).update(self._keys_line(bool(numbered)))

    def _keys_line(self, picking: bool) -> Content:
        """The keys that work now beside the buttons, each clickable: picking a card
        (when there is one to pick), a hint (on the person's turn), the rules, the log,
        the language and quitting. None while a dialog is open: a dialog takes only its
        own answers' keys (and Ctrl+C, which asks to quit), so the line behind it offers
        nothing it would ignore."""
        if self.waiting or self.dialog_open:
            return Content("")
        parts = [(_("[←/→] [1-9] pick a card"), "")] if picking else []
        if self.my_turn():
            parts.append((_("[h] hint"), "app.hint"))
        parts.append((_("[f] confirm turns: on") if self.confirm else _("[f] confirm turns: off"), "app.confirm_turns"))
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
            label = Content(f"{_button_label(name)} [{key}]")
            if label != button.label:  # (another language: its width too, or "Jogar [p]" shows cut to "Jogar")
                button.label = label
                button.refresh(layout=True)
            if name in VERBS:
                button.display = not offered.isdisjoint(VERBS[name])
            else:
                button.display = self.my_turn() and bool(self.table.staged)

    def say(self, message: str) -> None:
        self.status = message
        self.status_waits = False
        self.refresh_view()

    def _say_not_now(self) -> None:
        """Say why a key does nothing now (a bot thinks, the game is over, another
        player's turn); a "please wait" goes away when a bot has moved, so it never stays
        on the person's own turn."""
        self.say(self._not_now())
        self.status_waits = True

    # --- the flow of the game -------------------------------------------------------------

    def advance(self) -> None:
        """Move the game on until a person must act: round ends, hotseat passing, bots.
        It waits while a dialog is open or a bot thinks (each calls it again when done)."""
        if self.waiting or self.thinking or self.closing:
            return
        moment = self.session.next()
        self.saver.keep(self.session)
        if isinstance(moment, GameEnd):
            self._game_over(moment, self.saver.finished)
            self.refresh_view()  # the final move in the log; no prompt or button behind the dialog
        elif isinstance(moment, RoundEnd):
            summary = round_summary(moment.over, moment.scores, self.table.config.target, self.names)
            # the board already shows the next deal: the dialog shows how the palettes ended
            seen = self.session.log(self.viewer)
            ended = [i for i, e in enumerate(seen) if isinstance(e, RoundOver) and e.round == moment.over.round]
            if ended:
                summary += (
                    "\n\n"
                    + _("Final palettes:")
                    + "\n"
                    + "\n".join(palette_lines(seen[: ended[-1]], self.names, self.table.opening))
                )
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
                self._hide()
                self.refresh_view()
                # as a spectator sees it: whoever is at the screen has not said who they are yet
                news = move_log(self.session.log(None, self.seen.get(moment.seat, 0)), self.names)
                played = moment.seat in self.seen
                self._ask(
                    PassWithNews(self.names[moment.seat], news, played),
                    lambda answer: self._passed(moment.seat, answer),
                )
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
        lines = move_log(seen, self.names, self.viewer)
        return "\n".join(lines) + "\n\n" if lines else ""

    def _passed(self, seat: int, answer: str) -> None:
        """The pass screen's answer: show ``seat``'s hand, or ask to quit (kept playing,
        the pass screen comes back: the hand stays hidden)."""
        if answer == "quit":
            self.action_quit_game()
        else:
            self._reveal(seat)

    def _reveal(self, seat: int) -> None:
        self.viewer = seat
        self.status = ""

    def _hide(self) -> None:
        """Hotseat: hide the hand at the screen (the table shows a spectator's view), and
        note how much of the game its person has seen."""
        if self.viewer is not None:
            self.seen[self.viewer] = self.table.event_count
        self.viewer = None
        self.selected = None

    def _ask(self, screen: Any, then: Callable[[Any], None]) -> None:
        """Open a dialog; its answer goes to ``then``, and then the game goes on."""
        self.dialogs += 1

        def answered(answer: Any) -> None:
            self.dialogs -= 1
            then(answer)
            self.refresh_view()  # the key line again, if this was the last dialog
            self.advance()  # whatever happened meanwhile (a bot's answer) moves on now

        self.push_screen(screen, answered)
        self.refresh_view()  # no key line behind the dialog

    def _think(self, turn: BotTurn) -> None:
        generation = self.generation
        self.thinking = True
        self.refresh_view()

        def work() -> None:
            started = time.perf_counter()
            action = turn.choose()
            time.sleep(max(0.0, self.bot_delay - (time.perf_counter() - started)))
            self._from_thread(self._bot_chose, turn, action, generation)

        self.run_worker(work, thread=True, group="bots", exit_on_error=True)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        """Hand a worker's answer to the app, unless the app has closed meanwhile (quit)."""
        try:
            self.call_from_thread(callback, *args)
        except RuntimeError:
            pass

    def _bot_chose(self, turn: BotTurn, action: Action, generation: int) -> None:
        if generation != self.generation or self.closing:
            return
        self.thinking = False
        events = self.session.apply_bot(action, turn)
        if events is None:  # late: the table moved on while the bot thought (nothing does, today)
            self.advance()
            return
        self.last_move = events
        if self.status_waits:  # "Please wait: <this bot> is thinking." is over
            self.status, self.status_waits = "", False
        self.refresh_view()  # the move shows at once, also behind a dialog or before a round's end
        self.advance()

    def _game_over(self, end: GameEnd, saved: Saved | None) -> None:
        self.saved = saved.saved if saved is not None else None
        if saved is not None and saved.error is not None:
            self.status = _("Could not save the record to {path}: {error}").format(
                path=saved.record, error=saved.error.strerror
            )
        if self.table.config.advanced:  # a match: every round, and how the last one ended
            summary = match_summary(self.session.log(self.viewer), end.over.scores, self.names, self.table.opening)
        else:  # the one round: how it was won, and every palette as it ended, the winner's included
            summary = round_summary(end.last_round, end.over.scores, self.table.config.target, self.names)
            palettes = palette_lines(self.session.log(self.viewer), self.names, self.table.opening)
            summary += "\n\n" + _("Final palettes:") + "\n" + "\n".join(palettes)
        # the outcome first: a match's story may be longer than the dialog's room
        lines = [
            winners_line(end.over.winners, self.names, self.table.config.advanced),
            "",
            self._final_move(end.last_round) + summary,
        ]
        if self.saved is not None:
            lines += ["", _("Record saved to {path} (red7 replay {path}).").format(path=self.saved)]
        answers = [("enter", "again", _("Play again")), ("r", "review", _("Review")), ("q", "quit", _("Quit"))]
        self._ask(Summary(_("Game over"), "\n".join(lines), answers, "quit", id="game-over"), self._after_game)

    def _after_game(self, answer: str) -> None:
        if answer == "review":
            self._review()
            return
        if answer != "again":
            self.exit()
            return
        self._start(self.new_table())
        self.refresh_view()

    def _review(self) -> None:
        """Mark every decision, off the screen's thread (the first positions of a deal
        take the solver up to seconds; the hint's bot estimates each decision of the
        people where the solver cannot say), showing how far it is, then show it."""
        self.say(_("Reviewing the game…"))
        self.dialogs += 1  # the review's dialog is on its way: the table waits for it
        generation = self.generation
        session = self.session
        bot = make_bot(self.hint_spec)
        people = {seat for seat, s in enumerate(self.table.seats) if s.is_person}

        def progress(done: int, total: int) -> None:
            self._from_thread(self._reviewing, done, total, generation)

        def work() -> None:
            marks = session.review(bot if isinstance(bot, Appraiser) else None, people, progress)
            self._from_thread(self._reviewed, marks, generation)

        self.run_worker(work, thread=True, group="review", exit_on_error=True)

    def _reviewing(self, done: int, total: int, generation: int) -> None:
        if generation == self.generation and not self.closing:
            self.say(_("Reviewing the game… {done} of {total} decisions").format(done=done, total=total))

    def _reviewed(self, marks: list[Mark], generation: int) -> None:
        self.dialogs -= 1
        if generation != self.generation or self.closing:
            return
        self.say("")
        answers = [("enter", "again", _("Play again")), ("q", "quit", _("Quit"))]
        people = {seat for seat, s in enumerate(self.table.seats) if s.is_person}
        text = review_text(marks, self.names, self.table.config.advanced, people or None)
        self._ask(Summary(_("Review"), text, answers, "quit", id="review"), self._after_game)

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
        step = self.table.observe(self.viewer).step
        # on a shared screen "your" would not say whose turn it is
        return turn_prompt(step, self._options(), bool(self.table.staged), self._owner())

    def _owner(self) -> str | None:
        """The name of the person whose hand the board shows when several people share
        the screen (hotseat); None when the screen is one person's."""
        return self.names[self.viewer] if self.passing and self.viewer is not None else None

    def action_move(self, delta: int) -> None:
        if not self.my_turn():
            self._say_not_now()
            return
        cards = self.selectable()
        if not cards:
            self.say(self._no_card())
            return
        i = cards.index(self.selected) if self.selected in cards else (-1 if delta > 0 else 0)
        self._pick(cards[(i + delta) % len(cards)])

    def action_select(self, n: int) -> None:
        """Number key ``n``: the n-th card the board numbers (see :meth:`numbered`)."""
        if not self.my_turn():
            self._say_not_now()
            return
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
            self._refuse_pick(self._why_not(cards[n - 1]))
        else:
            self._pick(cards[n - 1])

    def _pick(self, card: Card) -> None:
        """``card`` is picked: the next verb acts on it (a hint being worked out goes on)."""
        self.selected = card
        self.refused_pick = False
        self.picks += 1
        self.say(_("Thinking of a hint…") if self.hinting else "")

    def _refuse_pick(self, why: str) -> None:
        """A pick is refused (``why``, in words): nothing stays picked, so the next verb
        asks for a card instead of acting on the one picked before."""
        self.selected = None
        self.refused_pick = True
        self.picks += 1
        self.say(why)

    def _no_card(self) -> str:
        if not self.my_turn():
            return self._not_now()
        return _("There is no card to pick now. {keys}").format(keys=self._prompt())

    def _why_not(self, card: Card) -> str:
        """Why ``card`` cannot be used now, in words (:func:`~red7.ui.words.unusable_reason`,
        shared with the web game), or, for a card no decision of this step could pick,
        which keys decide now."""
        why = unusable_reason(self.table.observe(self.viewer), card, self.table.check, self.names)
        if why is not None:
            return why
        return _("{card} cannot be used now. {keys}").format(card=card_label(card), keys=self._hint_keys())

    def action_pick(self, name: str) -> None:
        """A click on a card (``name`` in notation)."""
        if not self.my_turn():
            self._say_not_now()
            return
        card = Card.parse(name)
        if card in self.selectable():
            self._pick(card)
            return
        self._refuse_pick(self._why_not(card))

    def _not_now(self) -> str:
        if self.thinking and self.table.current is not None:
            return _("Please wait: {name} is thinking.").format(name=self.names[self.table.current])
        if self.table.is_over:
            return _("The game is over.")
        return _("It is not your turn.")

    def action_verb(self, verb: str) -> None:
        """A verb's key or button: its decision at this step, about the selected card."""
        if not self.my_turn():
            self._say_not_now()
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
        self._cancel_hint()  # the hint was for the position this decision leaves
        action = option.action
        if action.kind is Kind.CONCEDE:
            consequence = concession_consequence(self.table.config.advanced)
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
        if self.confirm and self.table.ends_turn(action):
            self._confirm_turn(action)
            return
        self._commit(action)

    def action_confirm_turns(self) -> None:
        """``f``: whether the last decision of a turn asks for confirmation (unsafe
        decisions and conceding ask either way)."""
        self.confirm = not self.confirm
        self.table.settings["confirm"] = self.confirm
        self.say(
            _("The last decision of a turn asks for confirmation again.")
            if self.confirm
            else _("Turns end without asking for confirmation (unsafe choices and conceding still ask).")
        )

    def _confirm_turn(self, action: Action) -> None:
        obs = self.table.observe(self.viewer)
        staged = self.table.staged
        # the standing the turn ends with: under the new rule if the last decision sets one
        rule = action.card.colour if action.kind is Kind.CANVAS and action.card is not None else None
        after = winning_line(standing_of(obs, rule), self.names)
        answers = [("enter", "confirm", _("Confirm")), ("escape", "cancel", _("Choose again"))]
        if staged:
            answers.insert(1, ("u", "undo", _("Take the turn back")))
        self._ask(
            Choice(
                _("Confirm your turn"),
                turn_summary(staged, action) + "\n" + after,
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
        self.refused_pick = False
        self.status = ""
        if self.passing and seat is not None and ends_turn_of(seat, self.last_move):
            # The turn is over: hide this hand before anything else shows, also when the
            # same person moves next (they ended a round and start the next one): the
            # round's or the game's dialog is read by everyone, and a pass screen comes
            # before the next hand.
            self._hide()
        self.refresh_view()
        self.advance()

    def action_undo(self) -> None:
        if not self.my_turn():
            self._say_not_now()
        else:
            self._take_back()

    def _take_back(self) -> None:
        if self.session.take_back():
            self._cancel_hint()  # the hint was for the position taken back
            self.selected = None
            self.refused_pick = False
            self.say(_("Turn taken back."))
        elif self.table.observe(self.viewer).step is Step.START:
            self.say(_("Nothing to take back: you have not played anything this turn."))
        else:
            self.say(_("Nothing to take back: a card was drawn, and a draw cannot be taken back."))

    def action_hint(self) -> None:
        """``h``: what the hint's bot would do with the rest of the turn, worked out in a
        worker thread on a copy of the game. The keys keep working meanwhile, as a player
        expects: a card picked is picked at once (the hint, when it comes, shows but
        leaves that pick alone); a decision or taking the turn back cancels the hint,
        which was for a position that is gone. ``h`` again while it is worked out only
        says so."""
        if not self.my_turn():
            self._say_not_now()
            return
        if self.hinting:
            self.say(_("Thinking of a hint…"))
            return
        hint = self.session.hint(make_bot(self.hint_spec))
        self.hinting = True
        self.hints += 1
        asked, picks = (self.generation, self.hints), self.picks
        self.say(_("Thinking of a hint…"))

        def work() -> None:
            self._from_thread(self._hinted, hint.plan(), asked, picks)

        self.run_worker(work, thread=True, group="hint", exit_on_error=True)

    def _cancel_hint(self) -> None:
        """Forget the hint being worked out: its answer, when it comes, is dropped."""
        if self.hinting:
            self.hinting = False
            self.hints += 1

    def _hinted(self, plan: Plan, asked: tuple[int, int], picks: int) -> None:
        """Show the hint's plan (the whole turn), its first card picked unless the person
        picked a card meanwhile; dropped if the hint was cancelled (or the game is
        another one) since it was ``asked``."""
        if asked != (self.generation, self.hints) or self.closing:
            return
        self.hinting = False
        first = plan.decisions[0].card
        if picks == self.picks and first is not None and first in self.selectable():
            self.selected = first
            self.refused_pick = False
        self.say(plan_text(plan, bot_level(self.hint_spec), self.names, self.table.config.advanced))

    def notify_language(self) -> None:
        self.table.settings["lang"] = language()
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
                self._saved_so_far(),
                [("enter", "yes", _("Quit")), ("escape", "no", _("Keep playing"))],
                "no",
                id="confirm-quit",
            ),
            lambda answer: self.exit() if answer == "yes" else self.say(""),
        )

    def farewell(self) -> str | None:
        """What the terminal is left with once the app has ended: where the unfinished
        game is saved and how to resume it (:func:`~red7.ui.words.saved_so_far`); None
        when the game was over."""
        return None if self.table.is_over else self._saved_so_far()

    def _saved_so_far(self) -> str:
        """What quitting now costs (:func:`~red7.ui.words.saved_so_far`)."""
        return saved_so_far(self.saver, bool(self.table.staged) and self.table.current == self.viewer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("b-")
        if name in VERBS:
            self.action_verb(name)
        elif name == "undo":
            self.action_undo()

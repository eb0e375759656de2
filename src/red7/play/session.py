"""A session: the flow of one game at a table, the same for every interface.

Every front end (the terminal game, the text game, later the web) repeats the same
loop: ask :meth:`Session.next` what happens now, and handle it:

* :class:`PersonTurn`: a person decides (:meth:`Session.decide`, and take-backs);
* :class:`BotTurn`: a bot decides from its own observation (``turn.choose()``, in a
  worker thread if the interface likes), then :meth:`Session.apply_bot` takes the
  answer; the session itself never starts a thread;
* :class:`RoundEnd`: a round of the match ended (from its
  :class:`~red7.core.events.RoundOver` event); returned once;
* :class:`GameEnd`: the game is over; the record was saved (once) where the session
  was told to save it.

A session told where to ``autosave`` keeps the game in progress there: after every
decision that can no longer be taken back (each turn's end, a card drawn, every bot
decision) the record of the game so far, with its seats, replaces the file, and the
file goes when the game ends. :meth:`Table.resume` makes a table of such a record
again, and a session over it (``resumed=True``) reports only what happens next.

A hint is a bot's whole turn in the person's place (:meth:`Session.hint`, a
:class:`Plan`): the bot chooses from the person's own observation, step by step, on a
copy of the game, and the plan stops at a card drawn from the unknown part of the
deck, so it never shows one.

The session also names the seats as data (:class:`SeatName`: "you", "player n",
"bot n" or a given name; the words are the interface's) and gives the move log as one
seat may see it (:meth:`Session.log`, R9). It imports no user interface: the words,
the screens and the threads belong to the front ends.

Everything that changes the game goes through the session (:meth:`decide`,
:meth:`take_back`, :meth:`apply_bot`), so it always knows which events it has
reported; the table (:attr:`Session.table`) may be read freely.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..bots.base import Appraisal, Appraiser, Bot
from ..core.actions import Action, Kind
from ..core.cards import CardSet
from ..core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    Event,
    GameOver,
    PlayerEliminated,
    RoundDealt,
    RoundOver,
    draws_unknown,
)
from ..core.game import Game
from ..core.model import GameError
from ..core.record import SeatRecord
from ..core.seeds import derive_seed
from ..core.standing import Standing, standing_of
from ..solver.marks import Mark, review
from .judge import judge
from .table import BotTurn, Table, ends_turn_of

__all__ = [
    "BotTurn",
    "GameEnd",
    "Moment",
    "PersonTurn",
    "Plan",
    "PlanEnd",
    "RoundEnd",
    "SeatCards",
    "SeatKind",
    "SeatName",
    "Session",
    "TurnHint",
    "cards_at_round_end",
    "seat_names",
]


class SeatKind(Enum):
    """How an unnamed seat is called: "you" (the only person at the table), "player n"
    (one of several people) or "bot n"."""

    YOU = "you"
    PLAYER = "player"
    BOT = "bot"


@dataclass(frozen=True)
class SeatName:
    """A seat's name as data; an interface turns it into words in its language."""

    seat: int
    kind: SeatKind
    given: str = ""
    """The name the person gave (empty: call the seat by ``kind`` and :attr:`number`)."""
    level: str | None = None
    """A bot's spec (its level, e.g. ``easy``); None for a person."""

    @property
    def number(self) -> int:
        """The seat counted from 1, as people count."""
        return self.seat + 1


@dataclass(frozen=True)
class PersonTurn:
    """The person in ``seat`` decides now."""

    seat: int


@dataclass(frozen=True)
class RoundEnd:
    """A round of the match ended, and the next one is dealt (advanced game, R6.2, R8.2).

    ``scores`` are the match scores after it (R8.2)."""

    over: RoundOver
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnd:
    """The game is over (R6.3, R8.3, R8.4, R8.6); ``last_round`` is its final round."""

    over: GameOver
    last_round: RoundOver
    record: Path | None = None
    """Where the record was saved, or was to be saved (None: the session saves nowhere)."""
    save_error: OSError | None = None
    """Why writing the record failed (None: it did not fail)."""

    @property
    def saved(self) -> Path | None:
        """Where the record was saved; None if it was not."""
        return self.record if self.save_error is None else None


Moment = PersonTurn | BotTurn | RoundEnd | GameEnd
"""What :meth:`Session.next` reports."""


def seat_names(seats: Sequence[SeatRecord]) -> list[SeatName]:
    """Each seat's name as data: the given name, else "you" when one person plays
    alone, "player n" when several people share the table, "bot n" for a bot (with
    its spec as :attr:`SeatName.level`). The same for a table and for a record's seats."""
    alone = sum(seat.bot is None for seat in seats) == 1
    names = []
    for s, seat in enumerate(seats):
        if seat.bot is not None:
            kind = SeatKind.BOT
        else:
            kind = SeatKind.YOU if alone else SeatKind.PLAYER
        names.append(SeatName(s, kind, seat.name, seat.bot))
    return names


@dataclass(frozen=True)
class SeatCards:
    """One seat's cards at the end of a round (see :func:`cards_at_round_end`)."""

    palette: CardSet
    hand: CardSet | None
    """None where the events hide it (another seat's hand)."""
    out: bool
    """The seat left the round (conceded, or had no card left, R4.1); its cards are as
    they were then (R6.1: they left the round face down)."""


def cards_at_round_end(events: Sequence[Event], players: int, opening: Sequence[int] | None = None) -> list[SeatCards]:
    """Each seat's palette and hand at the end of the last round that ``events`` deal
    (as the round stands, if it is still played), worked out from the events alone: as
    one seat sees them (``game.events_for(seat)``, R9) they show every palette and
    that seat's hand; all of them (``game.events``) show every hand too. A seat that
    left the round keeps the cards it left with.

    ``opening`` is the palettes (card masks) the events begin from when no deal begins
    them: a game's :attr:`~red7.core.game.Game.opening` (a position given card by card,
    ``Game.from_position``, whose first round has no deal; its hands are unknown here,
    None). Without it such a round's palettes would hold only the cards played in it."""
    palettes: list[int] = list(opening) if opening is not None else [0] * players
    hands: list[int | None] = [None] * players
    out = [False] * players
    for event in events:
        match event:
            case RoundDealt():
                palettes = [1 << card for card in event.palettes]
                hands = [None if hand is None else hand.mask for hand in event.hands]
                out = [False] * players
            case CardPlayed(seat=seat, card=card):
                palettes[seat] |= 1 << card
                hands[seat] = _without(hands[seat], card)
            case CanvasPlayed(seat=seat, card=card):
                hands[seat] = _without(hands[seat], card)
            case CardMoved(seat=seat, card=card):
                palettes[seat] &= ~(1 << card)
            case CardTaken(owner=owner, card=card):
                palettes[owner] &= ~(1 << card)
            case CardDrawn(seat=seat, card=card):
                held = hands[seat]
                hands[seat] = None if held is None or card is None else held | 1 << card
            case PlayerEliminated(seat=seat):
                out[seat] = True
    return [
        SeatCards(CardSet(palette), None if hand is None else CardSet(hand), gone)
        for palette, hand, gone in zip(palettes, hands, out, strict=True)
    ]


def _without(hand: int | None, card: int) -> int | None:
    return None if hand is None else hand & ~(1 << card)


class PlanEnd(Enum):
    """How a :class:`Plan` ends."""

    TURN = "turn"
    """The turn ends, with :attr:`Plan.standing`."""
    DRAW = "draw"
    """The last decision draws a card from the unknown part of the deck: what follows
    depends on it, so the plan stops there (it never shows the card)."""
    CONCEDE = "concede"
    """The bot concedes (and nothing else: a plan never plays and then concedes)."""


@dataclass(frozen=True)
class Plan:
    """A bot's whole turn in the place of the person in ``seat`` (see :meth:`Session.hint`)."""

    seat: int
    decisions: tuple[Action, ...]
    """From the position the hint was asked in, to the end of the plan."""
    end: PlanEnd
    standing: Standing | None = None
    """The standing the turn ends with (:attr:`PlanEnd.TURN`; None otherwise)."""
    forced: bool = False
    """No decision was safe when the hint was asked (R4.7): nothing keeps the person
    in the round (a concession is then forced, not a choice)."""
    appraisal: Appraisal | None = None
    """Why: the bot's appraisal of the first decision (a bot that appraises,
    :class:`~red7.bots.base.Appraiser`; None for the others)."""

    @property
    def runner_up(self) -> tuple[Action, float] | None:
        """The first decision the bot rated best after its own, with its chance (the
        reason's comparison); None when it weighed no other."""
        if self.appraisal is None:
            return None
        others = [(a, c) for a, c in self.appraisal.chances.items() if a != self.decisions[0].id]
        if not others:
            return None
        best, chance = max(others, key=lambda other: (other[1], -other[0]))  # ties: the lower id
        return Action.from_id(best), chance


class TurnHint:
    """Works out a :class:`Plan` for the person to move (made by :meth:`Session.hint`).

    It holds its own copy of the game (made when the hint is asked), so :meth:`plan`
    may run in a worker thread while the game goes on; the bot sees only the person's
    observation and options at each of its steps, as when it plays."""

    MOST = 12
    """More decisions than any turn has (play, the 5's card, the 7's move, canvas, a
    draw...): a bot that never ends its turn is an error, not a hang."""

    def __init__(self, seat: int, bot: Bot, game: Game, rng: random.Random) -> None:
        self.seat, self.bot, self.rng = seat, bot, rng
        self._game = game

    def plan(self) -> Plan:
        """The bot's decisions until the person's turn ends, the bot concedes, or a card
        is drawn from the unknown part of the deck (see :class:`PlanEnd`)."""
        game, seat = self._game, self.seat
        forced = not any(option.safe for option in game.options())
        decisions: list[Action] = []
        why: Appraisal | None = None
        for _ in range(self.MOST):
            seen, options = game.observe(seat), game.options()
            if not decisions and isinstance(self.bot, Appraiser):  # the same choice, with its reason
                why = self.bot.appraise(seen, options, self.rng)
                action = why.choice
            else:
                action = self.bot.choose(seen, options, self.rng)
            if action.kind is Kind.CONCEDE:
                return Plan(seat, (action,), PlanEnd.CONCEDE, forced=forced, appraisal=why)
            events = game.apply(action)
            decisions.append(action)
            if draws_unknown(events):
                return Plan(seat, tuple(decisions), PlanEnd.DRAW, forced=forced, appraisal=why)
            if ends_turn_of(seat, events):
                # The decisions that end a turn (end, canvas, draw, decline) leave the
                # palettes as they were; a canvas sets the rule. The standing comes from
                # the person's view before it: after it a new round may be dealt (R4.1).
                rule = action.card.colour if action.kind is Kind.CANVAS and action.card is not None else None
                return Plan(seat, tuple(decisions), PlanEnd.TURN, standing_of(seen, rule), forced, why)
        raise GameError(f"the hint's bot did not end the turn in {self.MOST} decisions")


class Session:
    """The flow of one game at ``table``.

    The record is saved when the game ends: to ``save_to`` if given, else into the
    directory ``records`` under :meth:`Table.record_name` (the command line passes
    :func:`~red7.play.records.records_dir`), else nowhere.

    With ``autosave`` the game in progress is kept in that file (see the module
    docstring; a failed write is kept in :attr:`autosave_error` and tried again at the
    next decision, and the game goes on). ``resumed``: the table's game was played
    before (:meth:`Table.resume`); what happened then is not reported again.
    """

    def __init__(
        self,
        table: Table,
        records: Path | None = None,
        save_to: Path | None = None,
        autosave: Path | None = None,
        resumed: bool = False,
    ) -> None:
        self.table = table
        self.records, self.save_to, self.autosave = records, save_to, autosave
        self.autosave_error: OSError | None = None
        self._autosaved = 0  # how many decisions the autosave file holds
        # events before this number were looked at by next()
        self._reported = table.event_count if resumed else 0
        past = [e for e in table.events_for(None, 0) if isinstance(e, RoundOver)] if resumed else []
        self._last_round: RoundOver | None = past[-1] if past else None
        self._end: GameEnd | None = None

    # --- names ------------------------------------------------------------------------

    def names(self) -> list[SeatName]:
        """Each seat's name as data (see :func:`seat_names`)."""
        return seat_names(self.table.seat_records())

    # --- the flow -----------------------------------------------------------------------

    def next(self) -> Moment:
        """What happens now. Each round's end is reported once, before the next round's
        first turn; once the game is over, every call returns the same :class:`GameEnd`
        (the record is saved the first time)."""
        if self._end is not None:
            return self._end
        table = self.table
        for event in table.events_for(None, self._reported):
            self._reported += 1
            if isinstance(event, RoundOver):
                self._last_round = event
                if not table.is_over:
                    return RoundEnd(event, table.observe(None).scores)
            elif isinstance(event, GameOver):
                assert self._last_round is not None, "every game ends with a round"
                self._end = self._finish(event, self._last_round)
                return self._end
        seat = table.current
        if seat is None:
            raise GameError("nobody decides now, and the game is not over")
        self._keep()
        return PersonTurn(seat) if table.seats[seat].is_person else table.bot_turn()

    def _keep(self) -> None:
        """Autosave the decisions that can no longer be taken back, if they changed."""
        committed = self.table.committed
        if self.autosave is None or committed == self._autosaved:
            return
        try:
            self.table.save_committed(self.autosave)
        except OSError as err:
            self.autosave_error = err
        else:
            self.autosave_error, self._autosaved = None, committed

    @property
    def autosaved(self) -> Path | None:
        """The file that holds the game in progress as of its last decision that cannot
        be taken back; None when there is none (no autosave, nothing decided yet, the
        last write failed, or the game is over)."""
        if self.autosave is None or self._end is not None or self.autosave_error is not None or not self._autosaved:
            return None
        return self.autosave

    def _finish(self, over: GameOver, last_round: RoundOver) -> GameEnd:
        if self.autosave is not None:  # the game is over: nothing is left to resume
            try:
                self.autosave.unlink(missing_ok=True)
            except OSError:
                pass  # a file that cannot be removed is left; resuming it says the game is over
        path = self.record_path()
        if path is None:
            return GameEnd(over, last_round)
        try:
            return GameEnd(over, last_round, self.table.save(path))
        except OSError as err:
            return GameEnd(over, last_round, path, err)

    def record_path(self) -> Path | None:
        """Where the record will be saved at the end (None: nowhere)."""
        if self.save_to is not None:
            return self.save_to
        if self.records is not None:
            return self.records / self.table.record_name()
        return None

    # --- changing the game ------------------------------------------------------------

    def decide(self, action: Action | str | int) -> list[Event]:
        """A person's decision (see :meth:`Table.decide`); returns its events."""
        return self.table.decide(action)

    def take_back(self) -> bool:
        """Take the person's staged decisions back (see :meth:`Table.take_back`)."""
        if not self.table.take_back():
            return False
        # The events of the staged decisions are gone; none of them ended a round (a
        # round's end ends the turn, which cannot be taken back).
        self._reported = min(self._reported, self.table.event_count)
        return True

    def apply_bot(self, action: Action | str | int) -> list[Event]:
        """The answer of the bot to move (from :class:`BotTurn`); returns its events."""
        return self.table.apply_bot(action)

    # --- what a seat may see --------------------------------------------------------------

    def log(self, viewer: int | None, start: int = 0) -> list[Event]:
        """The game's events from number ``start`` on, as ``viewer`` may see them (R9):
        another seat's draw of an unknown card shows no card."""
        return self.table.events_for(viewer, start)

    def review(
        self,
        bot: Appraiser | None = None,
        seats: Collection[int] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[Mark]:
        """Every decision of the finished game marked (:mod:`red7.solver.marks`): by
        the exact solver where it answers, elsewhere estimated by ``bot`` for the
        players in ``seats`` (:func:`red7.play.judge.judge`; no ``bot``: unmarked).
        ``progress(done, total)`` as in :func:`~red7.solver.marks.review`. It reads
        every hand, so it is only for a game that is over."""
        game = self.table.game
        if not game.is_over:
            raise GameError("the game is not over: a review reads every hand")
        estimator = judge(bot, game.seed, seats) if bot is not None else None
        decisions = [action for _, action in game.history]
        return review(game.config, game.seed, decisions, estimator, progress, deal=game.deal)

    def advice(self, bot: Bot) -> BotTurn:
        """What ``bot`` would decide from in the place of the person to move: their
        observation and options, and an RNG of its own stream (the hint's,
        ``derive_seed(seed, "hint", decisions)``: the same hint for the same position)."""
        seat = self.table.current
        if seat is None or not self.table.seats[seat].is_person:
            raise GameError("it is not a person's turn")
        obs = self.table.observe(seat)
        return BotTurn(seat, bot, obs, self.table.options(), self._hint_rng(obs.history))

    def hint(self, bot: Bot) -> TurnHint:
        """What ``bot`` would do with the rest of the person's turn: a :class:`TurnHint`
        on a copy of the game as it is now (staged decisions included), with the hint's
        RNG stream (as :meth:`advice`); call its ``plan()``, in a worker thread if the
        interface likes."""
        seat = self.table.current
        if seat is None or not self.table.seats[seat].is_person:
            raise GameError("it is not a person's turn")
        game = self.table.game.clone()
        return TurnHint(seat, bot, game, self._hint_rng(game.observe(seat).history))

    def _hint_rng(self, history: Sequence[object]) -> random.Random:
        """The same hint for the same position: ``derive_seed(seed, "hint", decisions)``."""
        return random.Random(derive_seed(self.table.seed, "hint", len(history)))

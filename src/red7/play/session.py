"""A session: the flow of the games at one table, the same for every front end.

:class:`Session` is a pure state machine (no I/O, no threads, no clock): the terminal
game, the text game and the web server all drive it. A front end repeats one loop:
ask :meth:`Session.next` what happens now, and handle it:

* :class:`PersonTurn`: a person decides (:meth:`Session.decide`, and take-backs);
* :class:`BotTurn`: a bot (or a substitute playing for an away person) decides from
  its own observation (``turn.choose()``, in a worker thread or process if the front
  end likes), then :meth:`Session.apply_bot` takes the answer (a late one, for a
  position the table moved on from, is ignored);
* :class:`RoundEnd`: a round of the match ended (from its
  :class:`~red7.core.events.RoundOver` event); returned once;
* :class:`GameEnd`: the game is over; every later call returns the same one.

Time comes in as inputs: the front end's clock decides that a person has been away too
long (:meth:`Session.away`) or is back (:meth:`Session.back`). A table with a clock
(:attr:`Session.clock`: seconds for each person's turn) keeps the deadline of the turn
awaited (:attr:`Session.deadline`), set from the time the front end gives
(:meth:`Session.timed`); once it has passed (:meth:`Session.expire`) the away
substitution plays that turn for the person, and the person has the next one back.

After a game, a new one needs the consent of every person seated (:meth:`Session.agree`,
:meth:`Session.decline`; bots always agree): a front end on one device, where consent is
implicit, calls :meth:`Session.rematch` at once. Inputs made against a
sequence number (:meth:`Session.seq_for`) are checked, a refused one raising
:class:`Refused` with its :class:`Stop`; an illegal decision raises the engine's
:class:`~red7.core.model.IllegalActionError`.

What a front end must persist is reported, never written (:meth:`Session.to_save`):
:class:`Progress` after every decision that can no longer be taken back (each turn's
end, a card drawn, every bot decision), :class:`Finished` once at the game's end.
:mod:`red7.play.saving` turns these into the local games' files (the game in progress,
the record); the web server writes its database. :meth:`Table.resume` makes a table
of a saved game again, and a session over it (``resumed=True``) reports only what
happens next.

A hint is a bot's whole turn in the person's place (:meth:`Session.hint`, a
:class:`Plan`): the bot chooses from the person's own observation, step by step, on a
copy of the game, and the plan stops at a card drawn from the unknown part of the
deck, so it never shows one.

The session also names the seats as data (:class:`SeatName`: "you", "player n",
"bot n" or a given name; the words are the interface's) and gives the move log as one
seat may see it (:meth:`Session.log`, R9). It imports no user interface: the words,
the screens and the threads belong to the front ends.

Everything that changes the game goes through the session (:meth:`decide`,
:meth:`take_back`, :meth:`apply_bot`, :meth:`away`, :meth:`start`...), so it always
knows which events it has reported; the table (:attr:`Session.table`) may be read freely.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from enum import Enum, StrEnum

from ..bots import make_bot
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
from ..core.model import Config, GameError
from ..core.record import SeatRecord
from ..core.seeds import DEAL, derive_seed
from ..core.standing import Standing, standing_of
from ..solver.marks import Mark, review
from .judge import judge
from .table import BotTurn, Seat, Table, ends_turn_of

__all__ = [
    "BotTurn",
    "Finished",
    "GameEnd",
    "Moment",
    "PersonTurn",
    "Plan",
    "PlanEnd",
    "Progress",
    "Refused",
    "Role",
    "RoundEnd",
    "SeatCards",
    "SeatKind",
    "SeatName",
    "Session",
    "Stop",
    "ToSave",
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


class Role(Enum):
    """Who answers for a seat now (:meth:`Session.role`)."""

    PERSON = "person"
    BOT = "bot"
    SUBSTITUTE = "substitute"
    """A bot playing for the person of the seat while they are away; its decisions are
    the person's seat's (taken as :meth:`Table.decide` takes a person's)."""


class Stop(StrEnum):
    """Why the session refuses an input (:class:`Refused`); the front end words it."""

    NO_GAME = "no-game"
    """No game is being played (none started, or it is over)."""
    NOT_YOUR_TURN = "not-your-turn"
    STALE = "stale"
    """The input was made against a sequence number the table has moved on from."""
    NOT_OVER = "not-over"
    """A rematch asked while the game is still played."""
    AGREED = "agreed"
    """An agreement to a rematch from a seat that has agreed already."""
    NO_PROPOSAL = "no-proposal"
    """A rematch declined when nobody proposed one."""
    TIME_UP = "time-up"
    """A person's input on a turn whose time ran out (a table with a clock): the
    substitute plays that turn."""
    CLOSED = "closed"
    """The table was closed (:meth:`Session.close`): nothing more is played at it."""


class Refused(GameError):
    """An input the session does not take, and why (``stop``); nothing changed. An
    illegal decision raises the engine's :class:`~red7.core.model.IllegalActionError`
    (with its :class:`~red7.core.model.Refusal`) instead."""

    def __init__(self, stop: Stop) -> None:
        super().__init__(stop.value)
        self.stop = stop


@dataclass(frozen=True)
class Progress:
    """The decisions that can no longer be taken back changed (now ``committed`` of
    them): a front end that keeps the game in progress saves it again."""

    committed: int


@dataclass(frozen=True)
class Finished:
    """The game ended (reported once): a front end saves its record now."""

    end: GameEnd


ToSave = Progress | Finished
"""What :meth:`Session.to_save` reports."""


class Session:
    """The flow of the games at one table: a state machine with no I/O, no thread and
    no clock (:mod:`red7.play.session` is its module; :mod:`red7.play.saving` keeps a
    local game's files from what it reports).

    It holds the :class:`Table` of the game (None before a first :meth:`start`) and
    the seats' roles (:meth:`role`: a person, a bot, a substitute for an away person),
    says what is awaited now (:meth:`next`, :meth:`awaited`), and takes the inputs
    that change the table: a person's decision (:meth:`decide`) and take-back
    (:meth:`take_back`), a bot's answer (:meth:`apply_bot`), a person away or back
    (:meth:`away`, :meth:`back`: the front end's clock decides when), a new game
    (:meth:`start`, :meth:`rematch`: the seed comes in) and another copy's game
    (:meth:`catch_up`). Inputs that carry the ``seat`` and the sequence number
    (:meth:`seq_for`) they were made against are checked: a refused one raises
    :class:`Refused` and changes nothing; a bot's late answer is ignored (None).

    ``resumed``: the table's game was played before (:meth:`Table.resume`); what
    happened then is not reported again. Nobody is away and nothing was taken back at
    first (a stored table's say so: :meth:`load_seats`).
    """

    def __init__(self, table: Table | None = None, resumed: bool = False) -> None:
        self._table = table
        players = 0 if table is None else len(table.seats)
        self._substitutes: list[str | None] = [None] * players
        self._undone: list[int] = [0] * players
        self.games = 0 if table is None else 1
        """How many games this session has started (a rematch is the next one)."""
        self.clock = 0.0
        """Seconds a person has for each turn (0: no clock); the front end's table option."""
        self.deadline: float | None = None
        """When (the front end's clock) the awaited person's turn runs out (None: no
        clock, nobody's clock running yet, or a bot's turn). Set by :meth:`timed`."""
        self.agreed: frozenset[int] | None = None
        """The seats whose people agreed to a rematch (None: nobody proposed one)."""
        self.declined: int | None = None
        """The seat whose person declined the last proposal (None: nobody did, or a new
        proposal was made since)."""
        self.closed = False
        """Whether the table was closed (:meth:`close`): nobody is awaited any more."""
        self._begin(resumed)

    def _begin(self, resumed: bool) -> None:
        """Start reporting the table's game: from its first event, or (``resumed``) from now."""
        table = self._table
        # events before this number were looked at by next()
        self._reported = table.event_count if resumed and table is not None else 0
        past = [e for e in table.events_for(None, 0) if isinstance(e, RoundOver)] if resumed and table else []
        self._last_round: RoundOver | None = past[-1] if past else None
        self._end: GameEnd | None = None
        self._end_told = False  # Finished reported by to_save()
        self._kept = 0  # the committed decisions last reported by to_save()

    # --- the table and its seats --------------------------------------------------------

    @property
    def table(self) -> Table:
        """The table of the game (raises :class:`Refused` ``no-game`` before any)."""
        if self._table is None:
            raise Refused(Stop.NO_GAME)
        return self._table

    @property
    def started(self) -> bool:
        """Whether a game was started (it may be over)."""
        return self._table is not None

    @property
    def playing(self) -> bool:
        """Whether a game is being played (started, not over, the table not closed)."""
        return self._table is not None and not self._table.is_over and not self.closed

    def names(self) -> list[SeatName]:
        """Each seat's name as data (see :func:`seat_names`)."""
        return seat_names(self.table.seat_records())

    def role(self, seat: int) -> Role:
        """Who answers for ``seat`` now."""
        if not self.table.seats[seat].is_person:
            return Role.BOT
        return Role.PERSON if self._substitutes[seat] is None else Role.SUBSTITUTE

    def substitute(self, seat: int) -> str | None:
        """The spec of the bot playing for the away person of ``seat`` (None: none)."""
        return self._substitutes[seat] if self._substitutes else None

    def undone(self, seat: int) -> int:
        """How many staged decisions ``seat`` took back at this table, in all."""
        return self._undone[seat] if self._undone else 0

    def load_seats(self, substitutes: Sequence[str | None], undone: Sequence[int]) -> None:
        """Take what a stored copy of the table says of the seats' substitutes and
        take-backs (another process may have changed them)."""
        self._substitutes, self._undone = list(substitutes), list(undone)

    # --- sequence numbers ---------------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many decisions the game has had, the mover's staged ones included (what a
        bot's answer is checked against: a bot stages nothing)."""
        return 0 if self._table is None else self._table.game.decisions

    @property
    def staging(self) -> int | None:
        """The seat whose turn is staged now (decisions it may still take back), if any."""
        table = self._table
        return table.current if table is not None and table.staged else None

    def seq_for(self, seat: int | None) -> int:
        """The sequence number ``seat`` (None: a spectator) sees the table at, which its
        next decision or take-back must carry to be accepted.

        For the mover: :attr:`seq` plus twice the decisions it ever took back
        (:meth:`undone`). A take-back of ``n`` decisions then moves the number on by
        ``n`` rather than back: every input made before it (the ``n`` decisions' and
        the take-back's own) carries a smaller number and is refused as stale if it
        comes again. For every other seat and a spectator: the final decisions only (a
        staged turn is its mover's alone until it is committed, R9, and so is the count
        of what a person took back)."""
        table = self._table
        if table is None:
            return 0
        if seat is not None and seat == table.current:
            return self.seq + 2 * self._undone[seat]
        return table.committed

    # --- the flow -----------------------------------------------------------------------

    def mover(self) -> tuple[int, Role] | None:
        """The seat whose decision is awaited now and who answers for it (None: no game
        is played); cheaper than :meth:`awaited`, which builds a bot's observation."""
        table = self._table
        if table is None or table.is_over or table.current is None or self.closed:
            return None
        return table.current, self.role(table.current)

    def awaited(self) -> PersonTurn | BotTurn | None:
        """Whose decision is awaited now, without reporting anything: the person's, or
        what the bot (or substitute) decides from; None when no game is played."""
        table = self._table
        if table is None or table.is_over or table.current is None or self.closed:
            return None
        seat = table.current
        role = self.role(seat)
        if role is Role.PERSON:
            return PersonTurn(seat)
        if role is Role.BOT:
            return replace(table.bot_turn(), game=self.games)
        spec = self._substitutes[seat]
        assert spec is not None
        rng = random.Random(derive_seed(table.seed, "substitute", self.seq))
        return BotTurn(seat, make_bot(spec), table.observe(seat), table.options(), rng, spec, self.seq, self.games)

    def next(self) -> Moment:
        """What happens now. Each round's end is reported once, before the next round's
        first turn; once the game is over, every call returns the same :class:`GameEnd`
        (:meth:`to_save` reports it once)."""
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
                self._end = GameEnd(event, self._last_round)
                return self._end
        awaited = self.awaited()
        if awaited is None:
            raise GameError("nobody decides now, and the game is not over")
        return awaited

    def to_save(self) -> list[ToSave]:
        """What a front end must persist since it last asked: :class:`Progress` when the
        decisions that can no longer be taken back changed (never once the game is over),
        :class:`Finished` once, after :meth:`next` reported the game's end."""
        table = self._table
        if table is None:
            return []
        if self._end is not None:
            if self._end_told:
                return []
            self._end_told = True
            return [Finished(self._end)]
        if table.is_over or table.committed == self._kept:
            return []
        self._kept = table.committed
        return [Progress(self._kept)]

    # --- inputs -------------------------------------------------------------------------

    def check(self, seat: int | None, seq: object) -> Table:
        """The table, if ``seat`` may decide now against ``seq``; else :class:`Refused`
        (no game, stale, not your turn, time up, in that order). A ``seq`` that is not an int is
        stale. Both None: whoever moves, unchecked (a local front end's own person)."""
        table = self._table
        if self.closed:
            raise Refused(Stop.CLOSED)
        if table is None or table.is_over or table.current is None:
            raise Refused(Stop.NO_GAME)
        checked = seat is not None or seq is not None
        if checked and (not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq_for(seat)):
            raise Refused(Stop.STALE)
        if seat is not None and table.current != seat:
            raise Refused(Stop.NOT_YOUR_TURN)
        if not table.seats[table.current].is_person:
            raise Refused(Stop.NOT_YOUR_TURN)
        if seat is not None and self.clock and self._substitutes[seat] is not None:
            raise Refused(Stop.TIME_UP)  # the clock's substitute plays the rest of this turn
        return table

    def decide(self, action: Action | str | int, seat: int | None = None, seq: object = None) -> list[Event]:
        """A person's decision (see :meth:`Table.decide`); returns its events. With
        ``seat`` and ``seq`` it is checked as made by that seat against that sequence
        number (:class:`Refused`: no game, stale, not your turn). A person who decides
        in their seat while a substitute plays for them is back: the substitute stops.
        An illegal decision raises IllegalActionError and changes nothing."""
        table = self.check(seat, seq)
        mover = table.current
        assert mover is not None
        events = table.decide(action)
        if seat is not None:
            self._substitutes[mover] = None  # back in time: the person plays on
        if ends_turn_of(mover, events):
            self._turn_over(mover)
        return events

    def take_back(self, seat: int | None = None, seq: object = None) -> bool:
        """Take the person's staged decisions back (see :meth:`Table.take_back`), counted
        in the mover's :meth:`undone`; False if nothing was staged. ``seat`` and ``seq``
        are checked as by :meth:`decide`; a person who asks in their seat while a
        substitute plays for them is back, even with nothing to take back."""
        if seat is None and seq is None and not self.playing:
            return False
        table = self.check(seat, seq)
        mover, count = table.current, len(table.staged)
        assert mover is not None
        if seat is not None:
            self._substitutes[mover] = None  # the person acts in their seat: back
        if not table.take_back():
            return False
        self._undone[mover] += count
        # The events of the staged decisions are gone; none of them ended a round (a
        # round's end ends the turn, which cannot be taken back).
        self._reported = min(self._reported, table.event_count)
        return True

    def apply_bot(self, action: Action | str | int, asked: BotTurn | None = None) -> list[Event] | None:
        """The answer of the bot (or substitute) to move; returns its events. With the
        :class:`BotTurn` it answers (``asked``), a late answer, for a position the table
        has moved on from (another decision, a new game, the person back from being
        away), is ignored: None, and nothing changes."""
        table = self.table
        seat = table.current
        if self.closed:
            return None
        if asked is not None:
            moved_on = asked.game != self.games or asked.seq != self.seq or asked.seat != seat
            if moved_on or table.is_over or seat is None or self.role(seat) is Role.PERSON:
                return None
        if seat is not None and self.role(seat) is Role.SUBSTITUTE:
            events = table.decide(action)  # a substitute's decisions are the person's seat's
        else:
            events = table.apply_bot(action)
        if seat is not None and ends_turn_of(seat, events):
            self._turn_over(seat)
        return events

    def away(self, seat: int, spec: str) -> bool:
        """The person of ``seat`` has been away too long (the front end's clock says
        so): the bot ``spec`` plays for them from now on, and their staged turn, if any,
        is taken back (they did not commit it). False: nothing changed (not a person's
        seat, or a substitute plays there already)."""
        table = self.table
        if not table.seats[seat].is_person or self._substitutes[seat] is not None:
            return False
        self._substitutes[seat] = spec
        if table.current == seat and table.staged:
            count = len(table.staged)
            table.take_back()
            self._undone[seat] += count
            self._reported = min(self._reported, table.event_count)
        return True

    def back(self, seat: int) -> bool:
        """The person of ``seat`` is back: the substitute stops (False: none played, or
        the table has a clock: its substitute plays the turn whose time ran out to its end)."""
        if self.substitute(seat) is None or self.clock:
            return False
        self._substitutes[seat] = None
        return True

    # --- the clock ----------------------------------------------------------------------

    def timed(self, now: float) -> float | None:
        """Start the awaited person's clock at ``now`` if it is not running (a new turn
        began since the last call); returns :attr:`deadline`. The front end calls it after
        every change, before it keeps the table. No clock, no game or a bot to move: None."""
        mover = self.mover() if self.clock else None
        if mover is None or mover[1] is Role.BOT:
            self.deadline = None
        elif self.deadline is None and mover[1] is Role.PERSON:
            self.deadline = now + self.clock
        return self.deadline

    def expire(self, now: float, spec: str) -> int | None:
        """If the awaited person's deadline has passed at ``now``, the bot ``spec`` plays
        their turn (:meth:`away`; the person has their next turn back); the seat, or None
        when nothing changed (no clock, not a person's turn, time left)."""
        mover = self.mover()
        if mover is None or mover[1] is not Role.PERSON or self.deadline is None or now < self.deadline:
            return None
        return mover[0] if self.away(mover[0], spec) else None

    def load_clock(self, clock: float, deadline: float | None) -> None:
        """Take what a stored copy of the table says of its clock and deadline."""
        self.clock, self.deadline = clock, deadline

    def _turn_over(self, seat: int) -> None:
        """``seat``'s turn ended: the next turn's clock starts at the next :meth:`timed`;
        a substitute the clock brought in played its one turn (with no clock, a
        substitute plays until the person is back)."""
        self.deadline = None
        if self.clock and self._substitutes[seat] is not None:
            self._substitutes[seat] = None

    # --- consent to a rematch -----------------------------------------------------------

    @property
    def consented(self) -> bool:
        """Whether every person seated agreed to a rematch (bots always agree)."""
        table = self._table
        if table is None or self.agreed is None:
            return False
        return all(s in self.agreed for s in table.people)

    def agree(self, seat: int) -> bool:
        """The person of ``seat`` agrees to a rematch (the first agreement is the
        proposal the others see); whether every person has agreed now (then the front
        end calls :meth:`rematch`). :class:`Refused`: no game, ``not-over``, ``agreed``."""
        table = self.table
        if not table.seats[seat].is_person:
            raise GameError("a bot always agrees")
        if self.closed:
            raise Refused(Stop.CLOSED)
        if not table.is_over:
            raise Refused(Stop.NOT_OVER)
        if self.agreed is not None and seat in self.agreed:
            raise Refused(Stop.AGREED)
        self.agreed = (self.agreed or frozenset()) | {seat}
        self.declined = None
        return self.consented

    def decline(self, seat: int) -> None:
        """The person of ``seat`` declines the rematch proposed: the proposal ends (and
        :attr:`declined` says who ended it). :class:`Refused`: no game, ``not-over``,
        ``no-proposal``."""
        table = self.table
        if not table.seats[seat].is_person:
            raise GameError("a bot always agrees")
        if self.closed:
            raise Refused(Stop.CLOSED)
        if not table.is_over:
            raise Refused(Stop.NOT_OVER)
        if self.agreed is None:
            raise Refused(Stop.NO_PROPOSAL)
        self.agreed, self.declined = None, seat

    def load_rematch(self, agreed: Collection[int] | None, declined: int | None) -> None:
        """Take what a stored copy of the table says of the rematch proposed."""
        self.agreed = None if agreed is None else frozenset(agreed)
        self.declined = declined

    # --- closing -----------------------------------------------------------------------

    def close(self) -> None:
        """Close the table (a web server's admin does): the game in progress, if any,
        ends where it stands, unfinished; nobody's decision is awaited any more, every
        input is refused (``closed``), a bot's answer is ignored, and no game starts
        again. The decisions made stay (a replay shows them)."""
        self.closed = True

    # --- new games ------------------------------------------------------------------------

    def start(self, seats: Sequence[Seat], config: Config | None, seed: int, deal: str = DEAL) -> Table:
        """A new game for ``seats`` under ``config``, dealt from ``seed`` (by the
        generator ``deal``); returns its table. Who is away stays away, and the
        take-backs stay counted (they are the table's: :meth:`seq_for` never repeats a
        number an earlier game's input carried at the same point)."""
        table = Table(seats, config, seed, deal)
        if len(self._substitutes) != len(table.seats):  # the first game, or other seats
            self._substitutes, self._undone = [None] * len(table.seats), [0] * len(table.seats)
        self._table = table
        self.games += 1
        self.agreed = self.declined = self.deadline = None
        self._begin(False)
        return table

    def rematch(self, seed: int) -> Table:
        """A new game for the same seats (each bot made again from its spec), once the
        game is over (:class:`Refused` ``not-over`` before); returns its table. A front
        end calls it once every person consented: at once on one device (consent is
        implicit), when :meth:`agree` says so where people play from several."""
        if self.closed:
            raise Refused(Stop.CLOSED)
        table = self.table
        if not table.is_over:
            raise Refused(Stop.NOT_OVER)
        seats = [Seat.of(record) for record in table.seat_records()]
        return self.start(seats, table.config, seed)

    def catch_up(self, decisions: Sequence[Action | str], committed: int) -> None:
        """Bring the game to the ``decisions`` another copy of this table made (the
        first ``committed`` final; see :meth:`Table.catch_up`). What they did is
        counted as reported: another copy reported it."""
        table = self.table
        table.catch_up(decisions, committed)
        self._reported = table.event_count
        if table.is_over:
            over = [e for e in table.events_for(None, 0) if isinstance(e, (RoundOver, GameOver))]
            rounds = [e for e in over if isinstance(e, RoundOver)]
            ends = [e for e in over if isinstance(e, GameOver)]
            if ends and rounds:
                self._end = GameEnd(ends[-1], rounds[-1])
                self._end_told = True

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

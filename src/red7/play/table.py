"""A table: one game, the people and bots in its seats, and a person's staged turn.

Front ends drive a table through a :class:`~red7.play.session.Session`. The table owns
the :class:`~red7.core.game.Game` and hands out only what one seat may see
(:meth:`Table.observe`, :meth:`Table.events_for`, R9): bots choose from their seat's
observation and options, and a screen shows its viewer's observation.

A person's turn is *staged*: their decisions apply at once (so their screen shows
them) but can be taken back, back to the start of the turn, until the decision that
ends the turn. A decision that makes the mover draw a card they did not know (a 3's
draw, the advanced canvas draw; a :class:`~red7.core.events.CardDrawn` event that is
not ``public``) cannot be taken back: the turn can then only be taken back to just
after it, or a player could peek at the deck and change their mind. A public card
(one a 7 or a 1 put on top of the deck, R7.z) hides nothing, so drawing it does not
stop a take-back.

Until they are committed (by the end of the turn, or by such a draw), the staged
decisions are the mover's alone: every other seat and a spectator see the table as it
was before them (:meth:`Table.observe`, :meth:`Table.events_for`), or a card shown and
taken back would be known to all.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots import BotSpecError, make_bot, stored_spec
from ..bots.base import Bot
from ..core.actions import Action, Kind, to_action
from ..core.events import Event, PlayerEliminated, TurnEnded, draws_unknown
from ..core.game import Game
from ..core.model import N_, Config, GameError, Option, Refusal
from ..core.observation import Observation
from ..core.record import RecordError, SeatRecord, replay, seats_of
from ..core.seeds import DEAL, fresh_seed
from .match import bot_rng
from .records import save


def ends_turn_of(seat: int, events: Sequence[Event]) -> bool:
    """Do ``events`` (those one decision of ``seat`` caused) end ``seat``'s turn?

    A turn ends winning (R4.3, :class:`TurnEnded`) or by conceding (R4.2,
    :class:`PlayerEliminated`); whatever follows (the next turn, a round's end) comes
    after one of these.
    """
    return any(isinstance(e, (TurnEnded, PlayerEliminated)) and e.seat == seat for e in events)


@dataclass
class Seat:
    """Who sits in a seat: a person (``bot`` None) or a bot made from ``spec``; an empty
    ``name`` lets the front end name the seat in its language."""

    name: str = ""
    bot: Bot | None = None
    spec: str | None = None

    @property
    def is_person(self) -> bool:
        return self.bot is None

    @property
    def record(self) -> SeatRecord:
        """The seat as a record keeps it: the name, and the bot's spec (None: a person)."""
        return SeatRecord(self.name, self.spec if self.bot is not None else None)

    @classmethod
    def of(cls, record: SeatRecord) -> Seat:
        """The seat a record describes, with a new bot made from its spec (a spec that
        names no bot raises BotSpecError; a level removed since the record was written
        plays as its replacement, :func:`red7.bots.stored_spec`)."""
        spec = stored_spec(record.bot) if record.bot is not None else None
        return cls(record.name, make_bot(spec) if spec is not None else None, spec)


@dataclass(frozen=True)
class BotTurn:
    """What the bot in ``seat`` decides from: its observation and options, and its RNG.

    Call ``bot.choose(observation, options, rng)`` (it may take a while: a thread is
    fine, it touches nothing of the table), then hand the answer back
    (:meth:`Table.apply_bot`, or the session's).
    """

    seat: int
    bot: Bot
    observation: Observation
    options: list[Option]
    rng: random.Random
    spec: str | None = None
    """The bot's spec (what a front end that makes its bots elsewhere makes it from)."""
    seq: int = 0
    """The game's number of decisions when it was asked."""
    game: int = 0
    """Which game of its session it was asked in (:attr:`~red7.play.session.Session.games`).
    With :attr:`seq`, what :meth:`~red7.play.session.Session.apply_bot` knows a late
    answer by."""

    def choose(self) -> Action:
        """The bot's decision (in the calling thread)."""
        return self.bot.choose(self.observation, self.options, self.rng)


@dataclass(frozen=True)
class Previews:
    """The look-aheads of one decision point (:meth:`Table.look_aheads`): of ``game``
    when it had ``point`` (its decisions, its events)."""

    game: Game
    point: tuple[int, int]
    found: dict[int, tuple[bool, Observation | None]]


class Table:
    """One game between ``seats`` under ``config`` (default: the basic game for as many
    players as seats); ``seed`` (default :func:`~red7.core.seeds.fresh_seed`) fixes the
    deal and the bots' choices (:func:`~red7.play.match.bot_rng`); ``deal`` is the
    generator that deals it (:data:`~red7.core.seeds.DEALS`: a resumed game keeps its own)."""

    def __init__(
        self, seats: Sequence[Seat], config: Config | None = None, seed: int | None = None, deal: str = DEAL
    ) -> None:
        config = config or Config(len(seats))
        if config.players != len(seats):
            raise GameError(f"{len(seats)} seats for a game of {config.players} players")
        self.seats = list(seats)
        self.seed = fresh_seed() if seed is None else seed
        self.deal = deal
        self._game = Game(config=config, seed=self.seed, deal=deal)
        self._rngs = [bot_rng(self.seed, s) for s in range(len(seats))]
        self._checkpoint: Game | None = None
        self._staged: list[Action] = []
        self._previews: Previews | None = None
        self.settings: dict[str, Any] = {}
        """How the front end plays this game (JSON values, e.g. ``{"lang": "pt-BR",
        "confirm": False}``): kept in the game in progress's file
        (:meth:`save_committed`) and read back by :meth:`resume`."""

    def turns_seen(self) -> dict[int, int]:
        """For each seat that has ended a turn (R4.3, or by conceding) in this game, the
        number of events up to the end of its last one: where what happened since that
        seat's last turn starts (what a resumed hotseat game tells each person)."""
        seen: dict[int, int] = {}
        for number, event in enumerate(self.events_for(None, 0), 1):
            if isinstance(event, (TurnEnded, PlayerEliminated)):
                seen[event.seat] = number
        return seen

    @classmethod
    def around(cls, game: Game, seats: Sequence[Seat]) -> Table:
        """A table for an existing ``game`` (a position built with Game.from_position, say)."""
        table = cls(seats, game.config, game.seed, game.deal)
        table._game = game
        return table

    @classmethod
    def resume(cls, record: dict[str, Any]) -> Table:
        """The table of an unfinished game's ``record``, to play on: its decisions
        replayed (and checked), the people and bots of its ``seats`` back in their seats
        (each bot made again from its spec; it chooses from its own RNG stream again).
        A record that does not replay, is finished, or does not say who sat where (one
        written before records kept the seats) raises RecordError, saying why."""
        game = replay(record)
        seats = seats_of(record)
        if game.is_over:
            raise RecordError(N_("the game is over: it can be replayed (red7 replay), not resumed"))
        if seats is None:
            raise RecordError(
                N_("the record does not say who sat at the table (it is older than that): it cannot be resumed")
            )
        try:
            table = cls.around(game, [Seat.of(seat) for seat in seats])
        except BotSpecError as err:
            raise RecordError(N_("a seat's bot cannot be made: {reason}"), reason=err) from None
        settings = record.get("settings")
        table.settings = dict(settings) if isinstance(settings, dict) else {}
        return table

    # --- what anyone may ask --------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game itself, hidden cards included: for records, tools and tests. Screens
        and bots use :meth:`observe` and :meth:`events_for`, which keep to R9."""
        return self._game

    @property
    def config(self) -> Config:
        return self._game.config

    @property
    def current(self) -> int | None:
        return self._game.current_player

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def person_to_move(self) -> bool:
        seat = self.current
        return seat is not None and self.seats[seat].is_person

    @property
    def people(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.is_person]

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see (None: a spectator); the only view a screen gets (R9).
        A staged turn is in it for its mover only."""
        return self._seen_by(seat).observe(seat)

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """The game's events from number ``start`` on, as ``seat`` may see them (R9);
        those of a staged turn for its mover only."""
        return self._seen_by(seat).events_for(seat, start)

    @property
    def opening(self) -> tuple[int, ...] | None:
        """The palettes the game's event log begins with when no deal begins it (a
        position set up card by card), public: :attr:`~red7.core.game.Game.opening`."""
        return self.game.opening

    def _seen_by(self, seat: int | None) -> Game:
        """The game as ``seat`` knows it: without the staged decisions of a turn that is
        not its own (they are the mover's until the turn is committed)."""
        if self._staged and self._checkpoint is not None and seat != self.current:
            return self._checkpoint
        return self._game

    def seen_at(self, seat: int | None) -> tuple[int, int, tuple[str, ...]]:
        """Where the game is as ``seat`` sees it (:meth:`observe`, :meth:`events_for`):
        its decisions, its events and the staged decisions in it. Two equal answers for
        the same table and seat mean the same view, so a view is shown again without
        being made again; another seat's staged turn does not change it (R9)."""
        game = self._seen_by(seat)
        staged = tuple(str(a) for a in self._staged) if game is self._game else ()
        return game.decisions, game.event_count, staged

    @property
    def event_count(self) -> int:
        """How many events the game has had (a take-back can make it smaller)."""
        return self._game.event_count

    # --- a person's turn ------------------------------------------------------------

    def options(self) -> list[Option]:
        """The legal decisions of the seat to move, with their safety marks (R4.7)."""
        return self._game.options()

    def check(self, action: Action | str | int) -> Refusal | None:
        """None if ``action`` is legal now, else why not (the engine's refusal)."""
        return self._game.check(action)

    def _trial(self, action: Action | str | int) -> tuple[int, Game, list[Event]]:
        """The mover, and a copy of the game after their legal ``action`` with its events."""
        seat = self.current
        if seat is None:
            raise GameError("nobody decides now")
        trial = self._game.clone()
        return seat, trial, trial.apply(to_action(action))

    def look_ahead(self, action: Action | str | int) -> tuple[bool, Observation | None]:
        """What the mover's legal ``action`` would do: whether it ends their turn
        (:meth:`ends_turn`) and their view right after it (:meth:`preview`).

        Worked out once per decision point (:meth:`look_aheads`), however many frames,
        seats or questions ask: a frame of the same point again does no trial. An
        action that is not legal now raises as :meth:`~red7.core.game.Game.apply` does."""
        a = to_action(action)
        found = self.look_aheads().get(a.id)
        if found is None:  # a concession (none is kept), or not legal now (the engine refuses it)
            seat, trial, events = self._trial(a)
            return ends_turn_of(seat, events), None if draws_unknown(events) else trial.observe(seat)
        return found

    def look_aheads(self) -> dict[int, tuple[bool, Observation | None]]:
        """:meth:`look_ahead` of every legal decision of the mover now but the concession
        (it ends the turn, and a frame asks nothing of it), by its id
        (:attr:`~red7.core.actions.Action.id`), from one trial
        each on a copy of the game, made at the first question of this decision point and
        kept until the game moves (a decision, a take-back, a catch-up, a bot's
        move: anything that changes the game's decisions or events, or the game
        itself). Empty when nobody decides. Read it, never change it."""
        game = self._game
        point = (game.decisions, game.event_count)
        previews = self._previews
        if previews is None or previews.game is not game or previews.point != point:
            found: dict[int, tuple[bool, Observation | None]] = {}
            seat = self.current
            if seat is not None:
                for action in game.legal_actions():
                    if action.kind is Kind.CONCEDE:
                        continue
                    trial = game.clone()
                    events = trial.apply_id(action.id)  # legal: the solver listed it
                    found[action.id] = (
                        ends_turn_of(seat, events),
                        None if draws_unknown(events) else trial.observe(seat),
                    )
            previews = self._previews = Previews(game, point, found)
        return previews.found

    def ends_turn(self, action: Action | str | int) -> bool:
        """Whether the mover's legal ``action`` would end their turn (their last decision of it)."""
        return self.look_ahead(action)[0]

    def preview(self, action: Action | str | int) -> Observation | None:
        """The mover's observation right after their legal ``action``, or None when that
        would show them a card nobody knew (a draw): a preview must not let them peek.
        A public deck-top card (R7.z) is known already, so its draw is previewed."""
        return self.look_ahead(action)[1]

    def decide(self, action: Action | str | int) -> list[Event]:
        """Apply a person's decision and return its events (checked: an illegal one
        raises IllegalActionError carrying its refusal, and changes nothing)."""
        seat = self.current
        if seat is None or not self.seats[seat].is_person:
            raise GameError("it is not a person's turn")
        a = to_action(action)
        checkpoint = self._checkpoint or self._game.clone()
        events = self._game.apply(a)
        if ends_turn_of(seat, events):
            self._checkpoint, self._staged = None, []  # the turn is over: nothing to take back
        elif draws_unknown(events):
            self._checkpoint, self._staged = self._game.clone(), []  # a card was revealed: no peeking
        else:
            self._checkpoint = checkpoint
            self._staged.append(a)
        return events

    @property
    def staged(self) -> list[Action]:
        """The decisions of the person's turn that :meth:`take_back` would undo."""
        return list(self._staged)

    @property
    def committed(self) -> int:
        """How many decisions can no longer be taken back (all but :attr:`staged`)."""
        return self._game.decisions - len(self._staged)

    def catch_up(self, decisions: Sequence[Action | str], committed: int) -> None:
        """Bring the table to the game that ``decisions`` make from its deal: the first
        ``committed`` final, the rest a person's staged turn (which :meth:`take_back`
        can undo), as another copy of this table (another server process) made them.

        A final decision never changes, so this table's final decisions are taken to be
        the start of ``decisions`` when there are at least as many of them: only the
        decisions after them are applied (the staged turn taken back first, unless it
        is unchanged). With fewer, the game is replayed from the deal."""
        staged = [str(action) for action in self._staged]
        if committed == self.committed and [str(a) for a in decisions[committed:]] == staged:
            return
        if committed < self.committed:
            self._game = Game(config=self.config, seed=self.seed, deal=self.deal)
            self._checkpoint, self._staged = None, []
        else:
            self.take_back()
        for action in decisions[self._game.decisions : committed]:
            self._game.apply(to_action(action))
        # the turn staged now (if any) starts here, not where this copy's own began
        self._checkpoint, self._staged = None, []
        for action in decisions[committed:]:
            self.decide(action)

    def take_back(self) -> bool:
        """Undo the staged decisions of the turn (their events too); False if there were none."""
        if not self._staged or self._checkpoint is None:
            return False
        self._game = self._checkpoint.clone()
        self._staged = []
        return True

    # --- bots -----------------------------------------------------------------------

    def bot_turn(self) -> BotTurn:
        """What the bot to move decides from (no game: its observation and options)."""
        seat = self.current
        bot = self.seats[seat].bot if seat is not None else None
        if seat is None or bot is None:
            raise GameError("it is not a bot's turn")
        return BotTurn(
            seat, bot, self.observe(seat), self.options(), self._rngs[seat], self.seats[seat].spec, self._game.decisions
        )

    def apply_bot(self, action: Action | str | int) -> list[Event]:
        """Apply the bot's answer (checked) and return its events."""
        seat = self.current
        if seat is None or self.seats[seat].bot is None:
            raise GameError("it is not a bot's turn")
        return self._game.apply(action)

    def play_bot(self) -> Action:
        """Let the bot to move choose and apply its decision (in this thread)."""
        action = self.bot_turn().choose()
        self.apply_bot(action)
        return action

    # --- the record -----------------------------------------------------------------

    def record_name(self) -> str:
        """A file name for this game's record: when it was saved, and its seed."""
        return f"red7-{time.strftime('%Y%m%d-%H%M%S')}-{self.seed}.json"

    def seat_records(self) -> list[SeatRecord]:
        """Who sits where, as a record keeps it (names and bot specs)."""
        return [seat.record for seat in self.seats]

    def save(self, path: str | Path) -> Path:
        """Write the game's record (red7.core.record) with its seats atomically to ``path``."""
        return save(self._game, path, self.seat_records())

    def save_committed(self, path: str | Path) -> Path:
        """Write the record of the game without the person's staged decisions (those
        they may still take back; see :attr:`committed`) atomically to ``path``: what
        a game in progress is saved as, so that a resumed turn starts where it could
        be taken back to."""
        game = self._checkpoint if self._staged and self._checkpoint is not None else self._game
        return save(game, path, self.seat_records(), self.settings)

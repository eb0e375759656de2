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
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..bots.base import Bot
from ..core.actions import Action
from ..core.events import Event, GameOver, RoundOver
from ..core.model import GameError
from ..core.seeds import derive_seed
from .table import BotTurn, Table

__all__ = ["BotTurn", "GameEnd", "Moment", "PersonTurn", "RoundEnd", "SeatKind", "SeatName", "Session"]


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


class Session:
    """The flow of one game at ``table``.

    The record is saved when the game ends: to ``save_to`` if given, else into the
    directory ``records`` under :meth:`Table.record_name` (the command line passes
    :func:`~red7.play.records.records_dir`), else nowhere.
    """

    def __init__(self, table: Table, records: Path | None = None, save_to: Path | None = None) -> None:
        self.table = table
        self.records, self.save_to = records, save_to
        self._reported = 0  # events before this number were looked at by next()
        self._last_round: RoundOver | None = None
        self._end: GameEnd | None = None

    # --- names ------------------------------------------------------------------------

    def names(self) -> list[SeatName]:
        """Each seat's name as data: the given name, else "you" when one person plays
        alone, "player n" when several people share the table, "bot n" for a bot."""
        alone = len(self.table.people) == 1
        names = []
        for s, seat in enumerate(self.table.seats):
            if seat.bot is not None:
                kind = SeatKind.BOT
            else:
                kind = SeatKind.YOU if alone else SeatKind.PLAYER
            names.append(SeatName(s, kind, seat.name, seat.spec if seat.bot is not None else None))
        return names

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
        return PersonTurn(seat) if table.seats[seat].is_person else table.bot_turn()

    def _finish(self, over: GameOver, last_round: RoundOver) -> GameEnd:
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

    def advice(self, bot: Bot) -> BotTurn:
        """What ``bot`` would decide from in the place of the person to move: their
        observation and options, and an RNG of its own stream (the hint's,
        ``derive_seed(seed, "hint", decisions)``: the same hint for the same position)."""
        seat = self.table.current
        if seat is None or not self.table.seats[seat].is_person:
            raise GameError("it is not a person's turn")
        obs = self.table.observe(seat)
        rng = random.Random(derive_seed(self.table.seed, "hint", len(obs.history)))
        return BotTurn(seat, bot, obs, self.table.options(), rng)

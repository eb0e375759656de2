"""A table: one game, the people and bots in its seats, and a person's staged turn.

Front ends (the terminal game, later the web) drive a :class:`Table`; it owns the
:class:`~red7.core.game.Game` and hands out only ``observation(seat)``: bots choose from
their seat's observation and options, and a screen shows a seat's observation.

A person's turn is *staged*: their decisions apply at once (so the screen shows
them) but can be taken back, back to the start of the turn, until the decision that
ends the turn. A decision that reveals a hidden card (a 3's draw, the advanced
canvas draw) cannot be taken back: the turn can then only be taken back to just after
it, or a player could peek at the deck and change their mind.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.base import Bot, Option
from ..core.actions import Action, to_action
from ..core.game import Game, GameError
from .match import bot_rng
from .records import save


def _turn_over(game: Game, seat: int) -> bool:
    """Has ``seat``'s turn ended (someone else to move, a new turn, or the game over)?"""
    return game.is_over or game.current != seat or game.step_name == "start"


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


class Table:
    """One game between ``seats``; ``seed`` fixes the deal and the bots' choices."""

    def __init__(
        self, seats: Sequence[Seat], advanced: bool = False, actions: bool = False, seed: int | None = None
    ) -> None:
        if not 2 <= len(seats) <= 4:
            raise GameError(f"Red7 is played by 2 to 4 players, not {len(seats)}")
        self.seats = list(seats)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        self.game = Game(len(seats), advanced, actions, seed=self.seed)
        self._rngs = [bot_rng(self.seed, s) for s in range(len(seats))]
        self._checkpoint: Game | None = None
        self._staged: list[Action] = []

    @classmethod
    def around(cls, game: Game, seats: Sequence[Seat]) -> Table:
        """A table for an existing ``game`` (a position built with Game.from_position, say)."""
        if len(seats) != game.n:
            raise GameError(f"{len(seats)} seats for a game of {game.n} players")
        table = cls(seats, game.advanced, game.actions_on, game.seed)
        table.game = game
        return table

    # --- what anyone may ask --------------------------------------------------------

    @property
    def current(self) -> int | None:
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def person_to_move(self) -> bool:
        seat = self.current
        return seat is not None and self.seats[seat].is_person

    @property
    def people(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.is_person]

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator); the only view a screen gets."""
        return self.game.observation(seat)

    # --- a person's turn ------------------------------------------------------------

    def options(self) -> list[Option]:
        """The legal decisions of the seat to move, with their safety marks (R4.7)."""
        return self.game.options()

    def ends_turn(self, action: Action | str | int) -> bool:
        """Whether the mover's legal ``action`` would end their turn (their last decision of it)."""
        trial = self.game.clone()
        seat = trial.current
        trial.apply(to_action(action))
        return _turn_over(trial, seat)

    def preview(self, action: Action | str | int) -> dict[str, Any] | None:
        """The mover's observation right after their legal ``action``, or None when that
        would reveal a card from the deck (a 3's draw): a preview must not let them peek."""
        seat = self.current
        trial = self.game.clone()
        deck_before = len(trial.deck)
        trial.apply(to_action(action))
        if len(trial.deck) < deck_before:
            return None
        return trial.observation(seat)

    def decide(self, action: Action | str | int) -> Action:
        """Apply a person's decision (checked: an illegal one raises and changes nothing)."""
        seat = self.current
        if seat is None or not self.seats[seat].is_person:
            raise GameError("it is not a person's turn")
        a = to_action(action)
        if self._checkpoint is None:
            self._checkpoint = self.game.clone()
        deck_before = len(self.game.deck)
        self.game.apply(a)
        if _turn_over(self.game, seat):
            self._checkpoint, self._staged = None, []  # the turn is over: nothing to take back
        elif len(self.game.deck) < deck_before:
            self._checkpoint, self._staged = self.game.clone(), []  # a card was drawn: no peeking
        else:
            self._staged.append(a)
        return a

    @property
    def staged(self) -> list[Action]:
        """The decisions of the person's turn that :meth:`take_back` would undo."""
        return list(self._staged)

    def take_back(self) -> bool:
        """Undo the staged decisions of the turn; False if there were none."""
        if not self._staged or self._checkpoint is None:
            return False
        self.game = self._checkpoint.clone()
        self._staged = []
        return True

    # --- bots -----------------------------------------------------------------------

    def bot_inputs(self) -> tuple[Bot, dict[str, Any], list[Option], random.Random]:
        """What the bot to move decides from: its observation and options (no game).

        Call :meth:`Bot.choose` with them (it may take a while: a thread is fine, it
        touches nothing of the table), then :meth:`apply_bot` with the answer.
        """
        seat = self.current
        if seat is None or self.seats[seat].bot is None:
            raise GameError("it is not a bot's turn")
        bot = self.seats[seat].bot
        assert bot is not None
        return bot, self.observation(seat), self.options(), self._rngs[seat]

    def apply_bot(self, action: Action) -> None:
        seat = self.current
        if seat is None or self.seats[seat].bot is None:
            raise GameError("it is not a bot's turn")
        self.game.apply(action)

    def play_bot(self) -> Action:
        """Let the bot to move choose and apply its decision (in this thread)."""
        bot, obs, options, rng = self.bot_inputs()
        action = bot.choose(obs, options, rng)
        self.apply_bot(action)
        return action

    # --- the record -----------------------------------------------------------------

    def record_name(self) -> str:
        """A file name for this game's record: when it was saved, and its seed."""
        return f"red7-{time.strftime('%Y%m%d-%H%M%S')}-{self.seed}.json"

    def save(self, path: str | Path) -> Path:
        """Write the game's record (red7.core.record) atomically to ``path``."""
        return save(self.game, path)

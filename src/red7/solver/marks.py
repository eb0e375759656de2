"""Every decision of a game marked by the exact solver: kept, thrown away, or past help.

Where the solver applies (two players left and nothing left to chance: the whole
2-player basic game), each decision is labelled exactly: was the round won for its
player before it, and is it still won after it? A decision that turns a won position
into a lost one *throws the round away*, and hands the other player a lost position
turned into a won one. Positions the solver cannot answer are marked as such.

:func:`review` replays a game's decisions on a fresh game of the same seed (a record's
moves) and marks them: for ``red7 analyse`` and the terminal game's post-game review.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action, to_action
from ..core.game import Game
from ..core.model import Config, Step
from . import solvable, solve


@dataclass(frozen=True)
class Mark:
    """The exact value of one decision for the player who made it."""

    number: int
    """The decision's place in the game, from 1."""
    seat: int
    action: Action
    turn_start: bool
    """Was it the first decision of a turn?"""
    won_before: bool | None
    """Was the round won for ``seat`` before it (None: the solver cannot say)?"""
    won_after: bool | None
    best: tuple[Action, ...]
    """The decisions that kept the round won, when it was won (else empty)."""

    @property
    def threw_away(self) -> bool:
        """A won round turned into a lost one."""
        return bool(self.won_before) and self.won_after is False

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seat": self.seat,
            "action": str(self.action),
            "turn_start": self.turn_start,
            "won_before": self.won_before,
            "won_after": self.won_after,
            "threw_away": self.threw_away,
            "best": [str(a) for a in self.best],
        }


def mark(game: Game, action: Action, number: int) -> Mark:
    """The mark of ``action`` (legal now) in ``game``, which is not changed."""
    seat = game.current_player
    assert seat is not None, "nobody decides now"
    start = game.step == Step.START
    if not solvable(game.observe(None)):
        return Mark(number, seat, action, start, None, None, ())
    solution = solve(game)
    best = tuple(Action.from_id(a) for a in solution.winning_ids)
    return Mark(number, seat, action, start, solution.won, solution.values[action.id], best)


def review(config: Config, seed: int, actions: Iterable[Action | str]) -> list[Mark]:
    """Replay ``actions`` on a new game of ``config`` dealt by ``seed`` and mark each one.

    Raises the engine's :class:`~red7.core.model.IllegalActionError` (naming the
    decision's number) if a decision is not legal where it comes.
    """
    game = Game(config=config, seed=seed)
    marks: list[Mark] = []
    for number, given in enumerate(actions, 1):
        if game.is_over:
            raise ValueError(f"decision {number} ({given}) comes after the end of the game")
        action = to_action(given)
        refusal = game.check(action)
        if refusal is not None:
            raise ValueError(f"decision {number} ({action}) is not legal there: {refusal.message}")
        marks.append(mark(game, action, number))
        game.apply(action)
    return marks

"""The exact solver's labels as a measure over many games (:class:`TurnLabels`).

The marks of single decisions are :mod:`red7.solver.marks`; this is the same labelling
as a :class:`~red7.analysis.runner.Measure` hook, for measurements over many games
(``benchmarks/exact_play.py``).
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..core.model import Step
from ..solver import position_won, solvable


class TurnLabels:
    """A measure (:class:`~red7.analysis.runner.Measure`): the solver's value of every
    turn start, and whether the player still held the round after that turn.

    Its result lists one ``[seat, won_at_start, won_after_turn]`` per turn start the
    solver can answer, in order (after a turn that ended the round: whether the player won it).
    """

    def __init__(self) -> None:
        self.turns: list[list[Any]] = []
        self._open: list[Any] | None = None
        self._rounds = 0  # rounds ended when the open turn began

    def before_decision(self, game: Game) -> None:
        if game.step != Step.START:
            return
        self._close(game)
        if solvable(game.observe(None)):
            seat = game.current_player
            self._open = [seat, position_won(game), None]
            self._rounds = len(game.round_results)
            self.turns.append(self._open)

    def _close(self, game: Game) -> None:
        """Whether the player of the open turn is still winning now (``game`` is at the
        next turn start, or over)."""
        if self._open is None:
            return
        seat = self._open[0]
        if len(game.round_results) > self._rounds:
            self._open[2] = game.round_results[self._rounds].winner == seat
        elif game.current_player == seat:  # every other player left: the round went on to seat
            self._open[2] = position_won(game)
        else:
            self._open[2] = not position_won(game)
        self._open = None

    def result(self, game: Game) -> dict[str, Any]:
        self._close(game)
        return {"turns": self.turns}

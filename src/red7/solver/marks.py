"""Every decision of a game marked: exactly by the solver, or estimated by a judge.

Where the solver applies (two players left and nothing left to chance: the whole
2-player basic game), each decision is labelled exactly: was the round won for its
player before it, and is it still won after it? A decision that turns a won position
into a lost one *throws the round away*, and hands the other player a lost position
turned into a won one.

A *judge* may also estimate it (a :data:`Judge`, which the layers above build from a
search bot: :func:`red7.play.judge.judge`) from the player's own view: the decision the
judge would have made, and its estimates of the player's chance to win after each of
the two (:class:`Estimate`). A decision whose estimate is :data:`COSTLY` below the
judge's choice is *costly*. Where the solver applies too, the two together say whether
a thrown-away round could be seen from what the player could see, or only in hindsight,
with every hand known (:attr:`Mark.visible`). Without a judge, or where it does not
judge, the mark has no estimate.

:func:`review` replays a game's decisions on a fresh game of the same seed (a record's
moves) and marks them: for ``red7 analyse`` and the terminal game's post-game review.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from ..core.actions import Action, to_action
from ..core.game import Game
from ..core.model import Config, Step
from ..core.seeds import DEAL
from . import reference, solvable, solve

COSTLY: Final = 0.10
"""How far below the judge's choice an estimated chance must be for a decision to be
marked costly: more than the noise of the judges' estimates at their budgets."""


@dataclass(frozen=True)
class Estimate:
    """A judge's view of one decision the solver cannot value."""

    suggested: Action
    """The decision the judge would have made."""
    chance: float
    """The judge's estimate of the player's chance to win (the round in the basic game,
    the match in the advanced game) after the decision made."""
    best_chance: float
    """The same after ``suggested``."""
    solved: bool
    """Estimates from sampled worlds solved exactly (True) or from a search's random
    rollouts (False: rougher)."""
    worlds: int = 0
    """Where ``solved``: how many worlds were sampled and solved (the chances are shares
    of them); else 0."""

    @property
    def loss(self) -> float:
        """How much the decision made cost against the judge's choice (0 if nothing)."""
        return max(0.0, self.best_chance - self.chance)

    @property
    def costly(self) -> bool:
        """The decision's estimate is :data:`COSTLY` below the judge's choice's."""
        return self.loss >= COSTLY


Judge = Callable[[Game, Action], Estimate | None]
"""Estimates ``action`` (legal in ``game``, which it must not change) for the player to
move, from that player's observation only; None where it does not judge (one decision
possible, or a seat it was not asked about)."""


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
    estimate: Estimate | None = None
    """The judge's estimate, if it judged the decision: from the player's own view (the
    worlds consistent with their observation), where the solver's exact value, with every
    hand known, may say otherwise (:attr:`visible`)."""
    round: int = 0
    """The round it was made in, from 1 (0: not known, a mark made alone by :func:`mark`)."""
    turn: int = 0
    """The turn of that round it was made in, every player's turns counted from 1 (0:
    not known): with :attr:`round`, how a person finds the decision in a game's log."""

    @property
    def threw_away(self) -> bool:
        """A won round turned into a lost one."""
        return bool(self.won_before) and self.won_after is False

    @property
    def costly(self) -> bool:
        """The judge's estimate of the decision is :data:`COSTLY` below its choice's."""
        return self.estimate is not None and self.estimate.costly

    @property
    def visible(self) -> bool | None:
        """For a decision that threw a won round away: could its player have seen it?
        True when, judged from their own view (the judge's estimate), it was
        :data:`COSTLY` below the judge's choice; False when it was not, so it is lost
        only in hindsight (with every hand known); None when not known (no estimate, or
        it threw nothing away)."""
        if not self.threw_away or self.estimate is None:
            return None
        return self.estimate.costly

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seat": self.seat,
            "action": str(self.action),
            "turn_start": self.turn_start,
            "round": self.round,
            "turn": self.turn,
            "won_before": self.won_before,
            "won_after": self.won_after,
            "threw_away": self.threw_away,
            "visible": self.visible,
            "best": [str(a) for a in self.best],
            "estimate": None
            if self.estimate is None
            else {
                "suggested": str(self.estimate.suggested),
                "chance": round(self.estimate.chance, 4),
                "best_chance": round(self.estimate.best_chance, 4),
                "solved_worlds": self.estimate.solved,
                "worlds": self.estimate.worlds,
                "costly": self.costly,
            },
        }


def mark(
    game: Game, action: Action, number: int, judge: Judge | None = None, memo: reference.Memo | None = None
) -> Mark:
    """The mark of ``action`` (legal now) in ``game``, which is not changed: exact where
    the solver applies, and ``judge``'s estimate (if any) from the player's own view,
    where the solver applies too (whether a thrown-away round could be seen, or only in
    hindsight: :attr:`Mark.visible`). ``memo``: the solver's, shared by the marks of one
    game (see :func:`~red7.solver.solve`)."""
    seat = game.current_player
    assert seat is not None, "nobody decides now"
    start = game.step == Step.START
    estimate = judge(game, action) if judge is not None else None
    if not solvable(game.observe(None)):
        return Mark(number, seat, action, start, None, None, (), estimate)
    solution = solve(game, memo=memo)
    best = tuple(Action.from_id(a) for a in solution.winning_ids)
    return Mark(number, seat, action, start, solution.won, solution.values[action.id], best, estimate)


def review(
    config: Config,
    seed: int,
    actions: Iterable[Action | str],
    judge: Judge | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    deal: str = DEAL,
) -> list[Mark]:
    """Replay ``actions`` on a new game of ``config`` dealt by ``seed`` (from the
    generator ``deal``, :data:`~red7.core.seeds.DEALS`) and mark each one
    (:func:`mark`, with ``judge`` where the solver cannot say). ``progress(done, total)``
    is called before each decision is marked.

    Raises ValueError (naming the decision's number) if a decision is not legal where
    it comes, or comes after the end of the game; nothing is marked then.
    """
    checked = _legal(config, seed, actions, deal)  # all of them first: a judge may take minutes
    game = Game(config=config, seed=seed, deal=deal)
    marks: list[Mark] = []
    memo: reference.Memo = {}  # successive decisions' searches overlap: up to 6 times faster
    round_, turn = 0, 0
    for number, action in enumerate(checked, 1):
        if progress is not None:
            progress(number - 1, len(checked))
        if game.round != round_:
            round_, turn = game.round, 0
        one = mark(game, action, number, judge, memo)
        turn += one.turn_start
        marks.append(dataclasses.replace(one, round=round_, turn=turn))
        game.apply(action)
    return marks


def _legal(config: Config, seed: int, actions: Iterable[Action | str], deal: str) -> list[Action]:
    """``actions`` as actions, each checked legal where it comes (ValueError if not)."""
    game = Game(config=config, seed=seed, deal=deal)
    checked: list[Action] = []
    for number, given in enumerate(actions, 1):
        if game.is_over:
            raise ValueError(f"decision {number} ({given}) comes after the end of the game")
        action = to_action(given)
        refusal = game.check(action)
        if refusal is not None:
            raise ValueError(f"decision {number} ({action}) is not legal there: {refusal.message}")
        game.apply(action)
        checked.append(action)
    return checked

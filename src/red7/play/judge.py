"""A search bot as the judge of a review: where the exact solver cannot value a
decision, the bot appraises it from the mover's own observation (R9).

:func:`judge` turns an :class:`~red7.bots.base.Appraiser` (``hard``, any
``ismcts`` or ``pimc`` spec) into the :data:`~red7.solver.marks.Judge` that
:func:`red7.solver.marks.review` asks; ``red7 analyse`` and the terminal game's
post-game review use it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection

from ..bots.base import Appraiser
from ..core.actions import Action
from ..core.game import Game
from ..core.seeds import derive_seed
from ..solver.marks import Estimate, Judge


def judge(bot: Appraiser, seed: int, seats: Collection[int] | None = None) -> Judge:
    """A judge that asks ``bot`` about every decision with more than one option, of the
    players in ``seats`` (default: all). The player's own decision is always weighed
    (``include``), so its chance is the bot's estimate even where the bot would not
    have considered it. Each decision's RNG is the hint's, ``derive_seed(seed, "hint", n)``
    (``n``: decisions made before it, as :meth:`red7.play.session.Session.hint`), so a
    review of the same game is the same, and the same bot judges a decision from the
    same worlds its hint weighed there: the review says the hint's numbers."""

    def estimate(game: Game, action: Action) -> Estimate | None:
        seat = game.current_player
        if seat is None or (seats is not None and seat not in seats):
            return None
        options = game.options()
        if len(options) < 2:
            return None
        seen = game.observe(seat)
        rng = random.Random(derive_seed(seed, "hint", len(seen.history)))
        appraisal = bot.appraise(seen, options, rng, include=(action.id,))
        chances = appraisal.chances
        if action.id not in chances or appraisal.choice.id not in chances:
            return None  # nothing weighed (one decision considered), or too small a budget
        worlds = appraisal.samples if appraisal.solved else 0
        return Estimate(appraisal.choice, chances[action.id], chances[appraisal.choice.id], appraisal.solved, worlds)

    return estimate


class BudgetedJudge:
    """A judge with a time budget: ``main`` estimates decisions until half of
    ``seconds`` (wall time from the first decision it is asked about) is spent, then ``fallback`` (a
    smaller judge) estimates the rest, so a long match's review ends in about
    ``seconds`` instead of taking minutes. What it trades away: the later decisions
    are estimated less precisely, and which decisions each judge estimated depends on
    the machine's speed (``seconds`` None or 0: ``main`` only, reproducible). Half,
    not all: the rest of the budget is the fallback's, for the decisions still to come.
    :attr:`by_main` and :attr:`by_fallback` count the decisions each estimated."""

    def __init__(
        self, main: Judge, fallback: Judge, seconds: float | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.main, self.fallback, self.seconds, self.clock = main, fallback, seconds, clock
        self.started: float | None = None
        self.by_main = self.by_fallback = 0

    @property
    def spent(self) -> bool:
        """Has the main judge used its share of the budget (later decisions go to the fallback)?"""
        if not self.seconds or self.started is None:
            return False
        return self.clock() - self.started >= self.seconds / 2

    def __call__(self, game: Game, action: Action) -> Estimate | None:
        if self.started is None:
            self.started = self.clock()
        if self.spent:
            estimate = self.fallback(game, action)
            self.by_fallback += estimate is not None
        else:
            estimate = self.main(game, action)
            self.by_main += estimate is not None
        return estimate

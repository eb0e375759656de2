"""Exact solutions of Red7 rounds where chance has nothing left to decide.

When two players remain and no unknown card can be drawn any more, the rest of the
round is a finite two-player game of perfect information: each position is *won* or
*lost* for the player to move, and the round's winner under perfect play is known.
That is the whole 2-player basic game without action cards from its deal on (the
deck is never drawn), and any other configuration once the unknown part of the deck
can no longer be reached (R5.1 and R7.3 draw; R7.z makes tucked cards public).

:func:`solve` takes a complete game (one a player cannot see: an analysis after the
game, or a world a bot sampled from its observation, :mod:`red7.core.worlds`) and
gives, for the player to move, the value of the position and of each legal decision,
and the turn plans that keep the round won.

Two searches answer it:

* :mod:`red7.solver.exact` works on card masks with a transposition table, when no
  action card is in play (the fast path: a fresh deal in tens of milliseconds);
* :mod:`red7.solver.reference` searches through the engine itself (any
  configuration; slow, and the reference the fast path is tested against).

"Won" is about the round: in an advanced match it says who wins the round, not how
many points it scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..core.actions import Action
from ..core.game import Game
from ..core.model import GameError, Step
from ..core.observation import Observation
from . import exact, reference

__all__ = ["Solution", "Unsolvable", "position_won", "solvable", "solve", "why_unsolvable"]

_TURN_STEPS: Final = (Step.START, Step.AFTER)


class Unsolvable(GameError):
    """The position still depends on chance, or more than two players remain."""


@dataclass(frozen=True)
class Solution:
    """The exact value of one decision point, for its mover ``seat``.

    ``won``: the mover wins the round with perfect play (against perfect play).
    ``values``: per legal decision id, whether the mover is still winning after it.
    ``plans``: every sequence of the mover's decisions from here to the end of the
    turn that keeps the round won (empty when the position is lost), in id order.
    """

    seat: int
    won: bool
    values: dict[int, bool]
    plans: tuple[tuple[Action, ...], ...]

    @property
    def winning_ids(self) -> list[int]:
        """The legal decisions that keep the round won, in id order."""
        return [a for a, v in self.values.items() if v]


def why_unsolvable(observation: Observation) -> str | None:
    """None when the position seen in ``observation`` can be solved exactly, else the
    reason (public facts only, so any seat can ask about its own position)."""
    if observation.result is not None or observation.current_player is None:
        return "nobody decides now"
    if observation.step > Step.OVER:
        return "a card is being dealt or drawn"
    if sum(observation.alive) != 2:
        return f"{sum(observation.alive)} players remain: the solver plays two-player endings"
    config = observation.config
    unknown_deck = observation.deck_size - len(observation.deck_known_top)
    if (config.advanced or config.actions) and unknown_deck > 0:
        return f"an unknown card can still be drawn ({unknown_deck} in the deck)"
    return None


def solvable(observation: Observation, *, fast: bool = False) -> bool:
    """Can :func:`solve` answer for this position? (See :func:`why_unsolvable`.) With
    ``fast``, only where the mask solver answers (no action cards; no deck left in the
    advanced game): what a bot with a time budget asks, since the reference search
    through the engine is slow."""
    return why_unsolvable(observation) is None and (not fast or _fast(observation))


def _fast(observation: Observation) -> bool:
    """Does the mask solver apply (no action cards, and no draw: the basic game, or an
    advanced round whose deck is empty)?"""
    config = observation.config
    return not config.actions and (not config.advanced or observation.deck_size == 0)


def _masks(game: Game) -> tuple[int, int, int, int]:
    """(hand, palette, other hand, other palette) of the mover and the other remaining player."""
    me = game.current_player
    assert me is not None
    other = next(s for s, alive in enumerate(game.alive) if alive and s != me)
    mine, theirs = game.observe(me), game.observe(other)
    assert mine.hand is not None and theirs.hand is not None
    return mine.hand, mine.palettes[me], theirs.hand, theirs.palettes[other]


def position_won(game: Game) -> bool:
    """Is the round won for the player to move in ``game``? The same answer as
    ``solve(game).won``, faster: without the value of every decision. Raises
    :class:`Unsolvable` when the position still depends on chance."""
    observation = game.observe(None)
    if why_unsolvable(observation) is None and _fast(observation) and game.step == Step.START:
        return exact.won(*_masks(game), game.rule)
    return solve(game, plans=False).won


def _turn_start_oracle(fast: bool, rounds: int, memo: reference.Memo | None) -> Callable[[Game], bool]:
    """Is a game at the start of a turn (or past the end of the round) won for its
    mover? The fast path reads the masks; the reference path searches the engine."""
    if fast:
        return lambda game: exact.won(*_masks(game), game.rule)
    return lambda game: reference.won(game, rounds, memo)


def solve(game: Game, *, plans: bool = True, memo: reference.Memo | None = None) -> Solution:
    """The exact value of the decision point of ``game`` (see :class:`Solution`).

    ``game`` is a complete game (its hidden cards included); it is not changed.
    ``plans=False`` leaves :attr:`Solution.plans` empty and stops looking past the
    first winning continuation of each decision (what a bot needs: faster).
    ``memo``: where the reference search keeps the positions it valued, to be given again
    to later calls about the same game (see :data:`reference.Memo`; default: this call's).
    Raises :class:`Unsolvable` when chance may still decide (see :func:`why_unsolvable`).
    """
    observation = game.observe(None)
    reason = why_unsolvable(observation)
    if reason is not None:
        raise Unsolvable(f"this position cannot be solved exactly: {reason}")
    me = game.current_player
    assert me is not None
    rounds = len(game.round_results)
    fast = _fast(observation) and game.step in _TURN_STEPS
    oracle = _turn_start_oracle(fast, rounds, memo)
    values: dict[int, bool] = {}
    found: list[tuple[Action, ...]] = []

    def walk(node: Game, path: tuple[Action, ...]) -> bool:
        """Value for ``me`` of a point of its own turn; collects the winning plans."""
        best = False
        for a in node.legal_ids():
            child = node.clone()
            child.apply_id(a)
            step = (*path, Action.from_id(a))
            ended = len(child.round_results) > rounds
            turn_over = ended or child.current_player != me
            if ended:
                value = child.round_results[rounds].winner == me
            elif turn_over:
                value = not oracle(child)
            else:
                value = walk(child, step)
            if value and turn_over:
                found.append(step)
            if not path:
                values[a] = value
            elif value and not plans:
                return True
            best = best or value
        return best

    won = walk(game, ())
    return Solution(me, won, values, tuple(found) if plans else ())

"""The reference search: the value of a round through the engine itself.

It plays every legal decision of every player on clones of the game
(:meth:`~red7.core.game.Game.legal_ids`, :meth:`~red7.core.game.Game.apply_id`) until
the round ends, so it knows nothing of the rules but what the engine does: every
configuration, the action cards included, is searched the same way. It is slow (a
clone per decision), and it is what the fast solver (:mod:`red7.solver.exact`) is
tested against. Like the fast solver, it assumes that no unknown card can be drawn:
a draw takes the card the game holds, so the answer would be about that one deck.
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game

Memo = dict[tuple[Any, ...], bool]
"""Positions already searched: ``(seat, position key)`` to whether ``seat`` wins the round
from there. One memo may serve every call about the positions of one game (a review asks
about each of its decisions, and their searches overlap), not games of other configurations:
the key leaves the configuration out."""


def won(game: Game, rounds: int | None = None, memo: Memo | None = None) -> bool:
    """Is the round won for the player to move in ``game``, under perfect play by the two
    players left? ``rounds`` is how many rounds had ended before this one (default: as
    many as ``game`` shows; if more have ended, the answer is that round's winner).
    Only the decisions of the round are searched; positions are memoized in ``memo``
    (default: for this call only).
    """
    done = len(game.round_results) if rounds is None else rounds
    seat = game.current_player
    if len(game.round_results) > done:
        raise ValueError("the round is over: nobody is to move in it")
    assert seat is not None
    return _value(game, seat, done, {} if memo is None else memo)


def _value(game: Game, seat: int, rounds: int, memo: Memo) -> bool:
    """Does ``seat`` win the round from ``game`` (each player choosing for itself)?"""
    if len(game.round_results) > rounds:
        return game.round_results[rounds].winner == seat
    key = (seat, game.position_key())
    value = memo.get(key)
    if value is not None:
        return value
    mine = game.current_player == seat
    value = not mine
    for a in game.legal_ids():
        child = game.clone()
        child.apply_id(a)
        if _value(child, seat, rounds, memo) == mine:
            value = mine
            break
    memo[key] = value
    return value

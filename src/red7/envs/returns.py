"""The zero-sum outcome of a finished game, shared by every environment."""

from __future__ import annotations


def zero_sum_returns(winners: tuple[int, ...], players: int) -> list[float]:
    """Per seat: each of the ``k`` winners gets ``(n - k) / (k * (n - 1))`` and everyone
    else ``-1 / (n - 1)``, so a lone winner gets +1 and the values add up to 0. With no
    winners (a seat already out of a basic game, before the end) every value is the loss.

    >>> zero_sum_returns((1,), 3), zero_sum_returns((0, 1), 4)
    ([-0.5, 1.0, -0.5], [0.3333333333333333, 0.3333333333333333, -0.3333333333333333, -0.3333333333333333])
    """
    k = len(winners)
    win = (players - k) / (k * (players - 1)) if k else 0.0
    lose = -1.0 / (players - 1)
    return [win if seat in winners else lose for seat in range(players)]

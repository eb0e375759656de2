"""Playing whole games between bots, each seeing only its own observation."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots.base import Bot
from ..core.game import Game


@dataclass
class PlayedGame:
    """What a tournament needs to know about one finished game."""

    game: Game
    winners: tuple[int, ...]
    ranks: list[int]
    """Per seat, 1 for the winner(s); then by final score (advanced) or by how long
    the seat stayed in the last round (basic), equal places sharing a rank."""
    times: list[list[float]] = field(default_factory=list)
    """Per seat, the seconds each of its decisions took to choose."""

    @property
    def decisions(self) -> list[int]:
        """Per seat, the number of decisions made."""
        return [len(t) for t in self.times]

    @property
    def seconds(self) -> list[float]:
        """Per seat, the seconds spent choosing."""
        return [sum(t) for t in self.times]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The RNG of the bot in ``seat`` for the game of ``seed`` (independent of the others)."""
    return random.Random(seed * 8191 + seat + 1)


def play_game(bots: Sequence[Bot], seed: int, advanced: bool = False, actions: bool = False) -> PlayedGame:
    """Play one game with ``bots[seat]`` in each seat; the deal comes from ``seed``.

    Each bot gets ``game.observation(seat)`` and the legal options, never the game; its
    answer is applied with full checks, so a bot returning an illegal decision raises.
    """
    n = len(bots)
    game = Game(n, advanced, actions, seed=seed)
    rngs = [bot_rng(seed, seat) for seat in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    out_order: list[int] = []  # seats in the order they left the last round
    while not game.is_over:
        seat = game.current
        options = game.options()
        started = time.perf_counter()
        action = bots[seat].choose(game.observation(seat), options, rngs[seat])
        times[seat].append(time.perf_counter() - started)
        round_before = game.round
        game.apply(action)
        if game.round != round_before:
            out_order = []
        out_order += [s for s in range(n) if not game.alive[s] and s not in out_order]
    assert game.result is not None
    winners = game.result.winners
    if advanced:
        strength = list(game.result.scores)
    else:
        strength = [0] * n
        for place, s in enumerate(out_order, 1):
            strength[s] = place
        for w in winners:
            strength[w] = n + 1
    ranks = [1 + sum(other > strength[s] for other in strength) for s in range(n)]
    return PlayedGame(game, winners, ranks, times)

"""Playing whole games between bots, each seeing only its own observation."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots.base import Bot
from ..core.events import PlayerEliminated
from ..core.game import Game
from ..core.model import Config
from ..core.seeds import derive_seed


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


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game of ``seed`` (independent of the others)."""
    return derive_seed(seed, "bot", seat)


def bot_rng(seed: int, seat: int) -> random.Random:
    """The RNG of the bot in ``seat`` for the game of ``seed``, seeded with :func:`bot_seed`."""
    return random.Random(bot_seed(seed, seat))


def play_game(
    bots: Sequence[Bot], seed: int, config: Config | None = None, before_decision: Callable[[Game], None] | None = None
) -> PlayedGame:
    """Play one game with ``bots[seat]`` in each seat; the deal comes from ``seed``.

    ``config`` defaults to the basic game for ``len(bots)`` players. Each bot gets
    ``game.observe(seat)`` and the legal options, never the game; its answer is
    applied with full checks, so a bot returning an illegal decision raises.
    ``before_decision`` (for measurements) sees the game before each decision and must
    not change it.
    """
    n = len(bots)
    config = config if config is not None else Config(n)
    if config.players != n:
        raise ValueError(f"{n} bots for a game of {config.players} players")
    game = Game(config=config, seed=seed)
    rngs = [bot_rng(seed, seat) for seat in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if before_decision is not None:
            before_decision(game)
        options = game.options()
        started = time.perf_counter()
        action = bots[seat].choose(game.observe(seat), options, rngs[seat])
        times[seat].append(time.perf_counter() - started)
        game.apply(action)
    assert game.result is not None
    return PlayedGame(game, game.result.winners, ranks_of(game), times)


def ranks_of(game: Game) -> list[int]:
    """Per seat of a finished game, its place: 1 for the winner(s); then by final score
    (advanced) or by how long the seat stayed in the last round (basic), equal places
    sharing a rank. Tournaments and the web's ratings rank games with it."""
    assert game.result is not None, "only a finished game has ranks"
    n = game.config.players
    if game.config.advanced:
        strength = list(game.result.scores)
    else:  # the seats in the order they left the (only) round, from the events: later is stronger
        strength = [0] * n
        out = [e.seat for e in game.events if isinstance(e, PlayerEliminated)]
        for place, s in enumerate(out, 1):
            strength[s] = place
        for w in game.result.winners:
            strength[w] = n + 1
    return [1 + sum(other > strength[s] for other in strength) for s in range(n)]

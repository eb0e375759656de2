"""Types of the compiled module (``_core.c``); see :mod:`red7.native`."""

from collections.abc import Callable, Sequence
from typing import Any

def key(rule: int, palette: int) -> int:
    """The key of ``palette`` under ``rule`` (as red7.core.rules.KEY[rule])."""

def children(hand: int, palette: int, other: int, rule: int) -> list[tuple[int, int, int]]:
    """Where each legal plan leaves its player (as red7.solver.exact._children)."""

def won(hand: int, palette: int, other_hand: int, other_palette: int, rule: int) -> bool:
    """Is the turn start won for its player (as red7.solver.exact.won)?"""

def clear_table() -> None: ...
def table_size() -> int: ...

# The engine (engine.c, engine_type.c): see red7.core.compiled.

RoundKey = Callable[[int], Sequence[int]]

class Engine:
    """A match of Red7 in compiled code (as red7.core.game.Game, without history or events)."""

    def __init__(self, players: int, advanced: bool, actions: bool, round_key: RoundKey) -> None: ...
    @staticmethod
    def load(players: int, advanced: bool, actions: bool, round_key: RoundKey, fields: tuple[Any, ...]) -> Engine: ...
    def fields(self) -> tuple[Any, ...]: ...
    def legal(self) -> list[int]: ...
    def options(self) -> list[tuple[int, bool]]: ...
    def apply(self, action_id: int) -> None: ...
    def playout(self, seed: int) -> None: ...
    def clone(self) -> Engine: ...
    @property
    def current(self) -> int | None: ...
    @property
    def step(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def winners(self) -> tuple[int, ...] | None: ...
    @property
    def round_results(self) -> tuple[tuple[int, int, int, int], ...]: ...

def random_games(
    players: int,
    advanced: bool,
    actions: bool,
    seed: int,
    games: int,
    round_key: Callable[[int, int], Sequence[int]],
    players_seed: Callable[[int], int],
    fast: bool = False,
) -> tuple[list[int], int, int, int]:
    """(wins per seat, decisions, turns, rounds) of random games (red7.analysis.sim)."""

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
    def legal_ids(self) -> list[int]: ...
    def safe_ids(self) -> list[int]: ...
    def apply_id(self, action_id: int) -> None: ...
    def playout(self, seed: int, round_only: bool = False) -> int: ...
    def clone(self) -> Engine: ...
    def redeal(self, viewer: int, seed: int) -> Engine: ...
    def greedy(
        self,
        seed: int,
        worlds: int = 8,
        sampled: bool = False,
        among: Sequence[int] | None = None,
        gamble: bool = False,
    ) -> int:
        """The decision of red7.bots.greedy for the mover (greedy.c)."""
    def turn_values(self) -> list[tuple[int, bool]]:
        """(decision, still won after it) for the mover, two players left without chance (pimc.c)."""
    def explained(
        self,
        viewer: int,
        pool: Sequence[int],
        need: Sequence[int],
        history: Sequence[int],
        worlds: int,
        tries: int,
        seed: int,
    ) -> tuple[list[Engine], int]:
        """Worlds dealt from this round's first position whose other players decided as greedy (pimc.c)."""
    def encode(self, seat: int) -> bytes: ...
    def ismcts(
        self,
        viewer: int,
        seed: int,
        iterations: int,
        steps: int,
        seconds: float,
        c: float,
        extra: Sequence[int],
        forget: bool = False,
    ) -> tuple[int, list[tuple[int, int, float]]]: ...
    @property
    def current(self) -> int | None: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def round(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def step(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...] | None: ...
    @property
    def round_results(self) -> tuple[tuple[int, int, int, int], ...]: ...

def greedy_in(worlds: Sequence[Engine]) -> int:
    """The decision of red7.bots.greedy for the mover of worlds[0], searching these worlds."""

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

class VectorGames:
    """Games stepped together (vector.c; see red7.envs.vector)."""

    def __init__(
        self,
        count: int,
        players: int,
        advanced: bool,
        actions: bool,
        seat: int,
        safe: bool,
        seed: int,
        obs: Any,
        mask: Any,
        reward: Any,
        terminated: Any,
        illegal: Any,
        seats: Any,
        returns: Any,
    ) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: Any) -> None: ...
    def learners(self) -> tuple[int, ...]: ...

def alpha_mu(worlds: Sequence[Engine], depth: int, nodes: int) -> tuple[list[tuple[tuple[int, ...], int]], bool]:
    """([(plan, worlds it keeps won)], searched) by the alpha-mu search of ``depth`` turns (pimc.c)."""

"""Types of the compiled module (``_core.c``, ``engine_type.c``, ``vector.c``); see
:mod:`red7.native` and, for the engine, :mod:`red7.core.compiled`.

Checked against the built module by ``make lint`` (mypy's stubtest: every name, and
every signature the C docstrings declare); mypy reads it wherever red7 calls
``red7.native.core``.
"""

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, final

_RoundKey: TypeAlias = Callable[[int], int | Sequence[int]]
"""A round number -> how that round is shuffled (red7.core.seeds.deal_key): the seed of a
SplitMix64 stream, or the 32-bit words of a Mersenne Twister's key."""
_Plan: TypeAlias = tuple[int, ...]
"""A turn's decisions, in order."""

SOURCES: str
"""The SHA-256 of the C sources the module was compiled from (red7.native.sources.digest)."""

# --- the rules' keys and the exact solver (_core.c over rules.h and exact.c) -------------

def key(rule: int, palette: int, /) -> int:
    """The key of ``palette`` under ``rule`` (as red7.core.rules.KEY[rule])."""

def children(hand: int, palette: int, other: int, rule: int, /) -> list[tuple[int, int, int]]:
    """Where each legal plan leaves its player (as red7.solver.exact._children)."""

def won(hand: int, palette: int, other_hand: int, other_palette: int, rule: int, /) -> bool:
    """Is the turn start won for its player (as red7.solver.exact.won)? Hands of at most 10 cards."""

def clear_table() -> None: ...
def table_size() -> int: ...

# --- the engine (engine.c, engine_type.c): see red7.core.compiled ------------------------

@final
class Engine:
    """A match of Red7 in compiled code (as red7.core.game.Game, without history or events)."""

    def __new__(cls, players: int, advanced: bool, actions: bool, round_key: _RoundKey) -> Engine: ...
    @staticmethod
    def load(players: int, advanced: bool, actions: bool, round_key: _RoundKey, fields: tuple[Any, ...], /) -> Engine:
        """An engine at the position ``fields`` (red7.core.compiled.FIELDS), checked whole:
        a ValueError says what does not hold together."""
    def fields(self) -> tuple[Any, ...]: ...
    def legal(self) -> list[int]: ...
    def options(self) -> list[tuple[int, bool]]: ...
    def legal_ids(self) -> list[int]: ...
    def safe_ids(self) -> list[int]: ...
    def apply(self, action_id: int, /) -> None: ...
    def apply_id(self, action_id: int, /) -> None: ...
    def playout(self, seed: int, round_only: bool = False) -> int: ...
    def clone(self) -> Engine: ...
    def redeal(self, viewer: int, seed: int, /) -> Engine: ...
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
    def plan_values(self) -> list[tuple[_Plan, bool]]:
        """(plan, keeps the round won) of every plan of the mover to the end of its turn (pimc.c)."""
    def replayed(
        self,
        viewer: int,
        dealt: Sequence[int],
        draws: Sequence[tuple[int, int]],
        required: Sequence[tuple[int, int, int]],
        pool: Sequence[int],
        history: Sequence[int],
        most: int,
        worlds: int,
        tries: int,
        seed: int,
        judgements: int = 0,
        /,
    ) -> tuple[list[tuple[Engine, int]], int, int]:
        """([(world, mismatches)], tries made, broken deals): this round's first position
        dealt again and replayed (inference.c; red7.bots.inference); with ``judgements``
        > 0 no deal starts once greedy has judged that many decisions."""
    def encode(self, seat: int, /) -> bytes: ...
    def ismcts(
        self,
        viewer: int,
        seed: int,
        iterations: int,
        steps: int,
        seconds: float,
        c: float,
        extra: Sequence[int],
        pool: Sequence[Engine] | None = None,
        /,
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

def greedy_in(worlds: Sequence[Engine], /) -> int:
    """The decision of red7.bots.greedy for the mover of worlds[0], searching these worlds."""

def random_games(
    players: int,
    advanced: bool,
    actions: bool,
    seed: int,
    games: int,
) -> tuple[list[int], int, int, int]:
    """(wins per seat, decisions, turns, rounds) of random games (red7.analysis.sim)."""

def stream_sample(
    seed: int, count: int, bound: int, length: int, /
) -> tuple[list[int], list[int], list[float], list[int]]:
    """(draws, draws below ``bound``, floats, ``range(length)`` shuffled) of the SplitMix64
    stream of ``seed`` (fast.h), each from a fresh stream (red7.core.stream)."""

def design_game(
    players: int,
    advanced: bool,
    actions: bool,
    round_key: _RoundKey,
    seat_seeds: Sequence[int],
    /,
) -> tuple[
    list[int],
    int,
    int,
    list[int],
    dict[int, int],
    dict[int, int],
    list[int],
    list[int],
    list[int],
    list[int],
    dict[int, int],
]:
    """One game of random players and the figures red7.analysis.stats.DesignFigures takes of it."""

# --- many games for learning (vector.c): see red7.envs.vector ----------------------------

@final
class VectorGames:
    """Games stepped together, judging each decision by what the game allows (never by
    the mask array it writes for the caller)."""

    def __new__(
        cls,
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
        greedy: bool = False,
    ) -> VectorGames: ...
    def reset(self) -> None: ...
    def step(self, actions: Any, /) -> None: ...
    def learners(self) -> tuple[int, ...]: ...

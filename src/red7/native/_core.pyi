"""Types of the compiled module (``_core.c``); see :mod:`red7.native`."""

def key(rule: int, palette: int) -> int:
    """The key of ``palette`` under ``rule`` (as red7.core.rules.KEY[rule])."""

def children(hand: int, palette: int, other: int, rule: int) -> list[tuple[int, int, int]]:
    """Where each legal plan leaves its player (as red7.solver.exact._children)."""

def won(hand: int, palette: int, other_hand: int, other_palette: int, rule: int) -> bool:
    """Is the turn start won for its player (as red7.solver.exact.won)?"""

def clear_table() -> None: ...
def table_size() -> int: ...

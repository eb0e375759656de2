"""αμ over sampled worlds: the reference of the compiled search ``pimc:depth=M`` runs.

Perfect-information Monte Carlo (``pimc``) solves each sampled world as if the bot could
see it: a decision that wins every world, each by another continuation, looks as good as
one that wins them all by the same continuation, although the bot will not know which
world it is in when it must choose that continuation (*strategy fusion*). αμ (Cazenave
& Ventos, 2019, "The αμ search algorithm for the game of Bridge") searches the bot's next
``depth`` turns over the worlds instead: at its own turns the bot picks one plan for all
the worlds it cannot tell apart; at the other player's turns, that player sees its world
and replies what is worst for the bot in it, and the bot then knows which reply was made,
so only that the world is among those where that reply was possible; after ``depth``
turns of the bot each world is solved exactly (:func:`~red7.solver.exact.won`). Depth 1
is PIMC.

A node's value is a *Pareto front*: the sets of worlds (bit ``w`` for world ``w``) that
the bot's strategies from there win, none a subset of another. At the bot's turn the
fronts of its plans are united; at the other player's, the fronts of its replies are
combined world by world (a world where a reply is impossible is no help to the other
player there), and a world where it has no legal plan is won (R6.2). A plan's value is
the most worlds one of its front's sets holds.

Positions are the exact solver's (:mod:`red7.solver.exact`: two players, no action
cards, nothing left to draw, seen from a turn start), the worlds differing only in the
other player's hand. This pure-Python search values every plan in full; the compiled one
(``red7/native/pimc.c``, :func:`red7.core.compiled.alpha_mu`) prunes with PIMC's values,
which bound αμ's from above, and is compared with this one in ``tests/test_alpha_mu.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..core.cards import bits_of
from .exact import Plan, _children, won


def _add(front: list[int], worlds: int) -> None:
    """Add the set ``worlds`` to ``front`` unless a set of it covers it, dropping the
    sets it covers."""
    if any(not worlds & ~kept for kept in front):
        return
    front[:] = [kept for kept in front if kept & ~worlds]
    front.append(worlds)


def _after_plan(
    hands: Sequence[int], depth: int, hand: int, palette: int, other_palette: int, rule: int, played: int, worlds: int
) -> list[int]:
    """The front where the bot's turn ended with ``hand``, ``palette`` under ``rule``, the
    other player (its hand in world ``w``: ``hands[w]`` less ``played``) to move."""
    if depth > 1:
        return _other_turn(hands, depth - 1, hand, palette, other_palette, rule, played, worlds)
    kept = 0
    for w in bits_of(worlds):
        if not won(hands[w] & ~played, other_palette, hand, palette, rule):
            kept |= 1 << w
    return [kept]


def _own_turn(
    hands: Sequence[int], depth: int, hand: int, palette: int, other_palette: int, rule: int, played: int, worlds: int
) -> list[int]:
    """The front of the bot's turn start: one plan for all ``worlds``."""
    children = _children(hand, palette, other_palette, rule)
    if not children:
        return [0]  # out of the round in every world (R4.1, R4.6)
    front: list[int] = []
    for h, m, r in children:
        for kept in _after_plan(hands, depth, h, m, other_palette, r, played, worlds):
            _add(front, kept)
    return front


def _other_turn(
    hands: Sequence[int], depth: int, hand: int, palette: int, other_palette: int, rule: int, played: int, worlds: int
) -> list[int]:
    """The front of the other player's turn start: a reply per world, the worst for the bot."""
    replies: defaultdict[tuple[int, int, int], int] = defaultdict(int)  # (cards spent, palette, rule) -> worlds
    for w in bits_of(worlds):
        other_hand = hands[w] & ~played
        for h, m, r in _children(other_hand, other_palette, palette, rule):
            replies[(played | (other_hand & ~h), m, r)] |= 1 << w
    front = [worlds]
    for (spent, other_after, rule_after), where in replies.items():
        child = _own_turn(hands, depth, hand, palette, other_after, rule_after, spent, where)
        product: list[int] = []
        for a in front:
            for b in child:
                _add(product, a & (b | (worlds & ~where)))
        front = product
    return front


def alpha_mu(
    hand: int, palette: int, other_hands: Sequence[int], other_palette: int, rule: int, depth: int
) -> dict[Plan, int]:
    """For the player at a turn start with ``hand`` and ``palette`` under ``rule``, the
    other player's palette ``other_palette`` and its hand ``other_hands[w]`` in world
    ``w``: how many worlds each legal plan (where it leaves the player, as
    :func:`~red7.solver.exact._children`) keeps won when the player chooses its next
    ``depth`` turns knowing only which worlds remain possible (module docstring)."""
    if depth < 1 or not other_hands:
        raise ValueError("alpha_mu searches a depth of at least 1 over at least one world")
    every = (1 << len(other_hands)) - 1
    return {
        (h, m, r): max(kept.bit_count() for kept in _after_plan(other_hands, depth, h, m, other_palette, r, 0, every))
        for h, m, r in _children(hand, palette, other_palette, rule)
    }

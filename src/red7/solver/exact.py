"""The fast exact solver: two players left, no action cards, nothing left to draw.

In that case a turn is a *plan* (R4.2): play a hand card, canvas a hand card, or both
in that order, and it is legal only if its player ends it winning (R4.3, R4.4, R4.6);
a player with no legal plan (or no card, R4.1) is out, and the other wins the round
(R6.2). No card is ever drawn, so the round is a finite game of perfect information
between two players, and every position is won or lost for the player to move.

A position is ``(hand, palette, other_hand, other_palette, rule)`` seen from the player
at the start of their turn (the card masks of :mod:`red7.core.cards`). :func:`won`
answers by depth-first search over the plans with a transposition table shared by
every call (positions are whole, so an entry stays true in any game), which is what
makes solving many sampled worlds of one game cheap.

Palettes are compared through :mod:`red7.core.rules` (the one owner of the rules'
keys); the plan generator is checked against the engine's legal decisions, and the
values against a search through the engine, in ``tests/bots/test_solver.py``.

Where the compiled core is built (:mod:`red7.native`), :func:`won` runs its twin of
this search (the same plans in the same order, a table of its own), about 20 times
faster; this module stays the reference it is compared with (``tests/native/test_native.py``)
and the fallback.
"""

from __future__ import annotations

from typing import Final

from ..core.cards import COLOUR_MASK, bits_of, colours_in
from ..core.rules import cached_keys, compute_key
from ..native import core as native

_NATIVE_CARDS: Final = 10
"""The most cards in a hand the compiled search takes (a game deals 7)."""

_KEYS: Final = cached_keys()
_TABLE_LIMIT: Final = 1 << 20
"""Entries of the transposition table before it is cleared (~130 bytes each)."""
_table: dict[int, bool] = {}
"""Solved positions, keyed by their five fields packed in one int (a tuple key takes
twice the memory)."""

Plan = tuple[int, int, int]
"""Where a legal plan leaves its player: (hand, palette, rule)."""


def _key(rule: int, palette: int) -> int:
    k = _KEYS[rule].get(palette)
    return compute_key(rule, palette) if k is None else k


def plans(hand: int, palette: int, other: int, rule: int) -> list[tuple[int | None, int | None, Plan]]:
    """Every legal plan of the player holding ``hand`` with ``palette`` against the
    other player's palette ``other`` under ``rule``: ``(played, canvased, after)``
    with each card an index or None, in the order the search tries them."""
    out: list[tuple[int | None, int | None, Plan]] = []
    for h, m, r in _children(hand, palette, other, rule):
        played = m & ~palette
        canvased = hand & ~h & ~played
        out.append(
            (played.bit_length() - 1 if played else None, canvased.bit_length() - 1 if canvased else None, (h, m, r))
        )
    return out


def won(hand: int, palette: int, other_hand: int, other_palette: int, rule: int) -> bool:
    """Is the position won for the player about to start a turn with ``hand`` and
    ``palette``, the other player holding ``other_hand`` and ``other_palette``?"""
    if not hand:
        return False  # R4.1
    if native is not None and hand.bit_count() <= _NATIVE_CARDS and other_hand.bit_count() <= _NATIVE_CARDS:
        return bool(native.won(hand, palette, other_hand, other_palette, rule))
    return _won(hand, palette, other_hand, other_palette, rule, None)


def _won(hand: int, palette: int, other_hand: int, other_palette: int, rule: int, children: list[Plan] | None) -> bool:
    """:func:`won` for a non-empty ``hand``; ``children`` are the position's plans when
    the caller has them already."""
    key = hand | palette << 49 | other_hand << 98 | other_palette << 147 | rule << 196
    table = _table
    value = table.get(key)
    if value is not None:
        return value
    if children is None:
        children = _children(hand, palette, other_palette, rule)
    value = False
    if children and not other_hand:
        value = True  # the other player will start a turn with no card (R4.1)
    elif children:
        # A child known to be lost for the other player wins at once. Otherwise the
        # children with the fewest replies go first: a child without a reply wins at
        # once, and few replies are quickly refuted (this ordering makes a fresh deal's
        # solve ~3x faster). The replies are handed down, not generated again.
        ranked = []
        for h, m, r in children:
            if table.get(other_hand | other_palette << 49 | h << 98 | m << 147 | r << 196) is False:
                value = True
                break
            ranked.append((_children(other_hand, other_palette, m, r), h, m, r))
        if not value:
            ranked.sort(key=lambda child: len(child[0]))
            for replies, h, m, r in ranked:
                if not replies or not _won(other_hand, other_palette, h, m, r, replies):
                    value = True
                    break
    if len(table) >= _TABLE_LIMIT:
        table.clear()
    table[key] = value
    return value


def _children(hand: int, palette: int, other: int, rule: int) -> list[Plan]:
    """Where the legal plans leave the player: plans that spend one card, then those
    that spend two (the hot loop of :func:`won`)."""
    theirs = [0] * 7  # the other player's keys, under the rules the player could end on
    for r in (rule, *colours_in(hand)):
        theirs[r] = _key(r, other)
    single: list[Plan] = []
    double: list[Plan] = []
    keys = _KEYS
    for p in (-1, *bits_of(hand)):
        if p < 0:
            m, h, out = palette, hand, single
        else:
            bit = 1 << p
            m, h, out = palette | bit, hand & ~bit, double
            k = keys[rule].get(m)
            if (compute_key(rule, m) if k is None else k) > theirs[rule]:
                single.append((h, m, rule))
        for colour in colours_in(h):
            k = keys[colour].get(m)
            if (compute_key(colour, m) if k is None else k) > theirs[colour]:
                for c in bits_of(h & COLOUR_MASK[colour]):
                    out.append((h & ~(1 << c), m, colour))
    single += double
    return single


def table_size() -> int:
    """Positions in the transposition tables, the compiled one's included (for benchmarks)."""
    return len(_table) + (int(native.table_size()) if native is not None else 0)


def clear_table() -> None:
    """Empty the transposition tables (benchmarks measure a cold solve with them)."""
    _table.clear()
    if native is not None:
        native.clear_table()

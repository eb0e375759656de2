"""The seven rules: qualifying sets, scores and who is winning (R3).

Each rule maps a palette (a card mask, see :mod:`red7.core.cards`) to one comparable int,
its *key*::

    key = size_of_qualifying_set << 6 | (highest_card_of_that_set + 1)

and 0 when the qualifying set is empty (R3.2). Cards are distinct, so two non-empty
palettes never share a key, and "who is winning" (R3.1) is the player with the
largest non-zero key. Keys are computed with a few shifts and table look-ups, and
:func:`rule_key` memoizes them per palette, because search bots ask millions of times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from .cards import (
    BELOW4_MASK,
    COLOUR_MASK,
    EVEN_MASK,
    CardError,
    CardSet,
    colours_in,
    mask_of,
    parse_colour,
)

_CHUNK_LOW_BITS: Final = sum(1 << (7 * v) for v in range(7))
_GATHER: Final = sum(1 << (42 - 6 * k) for k in range(7))


def _longest_runs() -> tuple[tuple[int, int], ...]:
    """For each 7-bit set of values present: (length, top value index) of the longest
    run of consecutive values, the higher run on a tie (it holds the higher card)."""
    table = []
    for present in range(128):
        best = (0, 0)
        length = 0
        for v in range(7):
            length = length + 1 if present >> v & 1 else 0
            if length and length >= best[0]:
                best = (length, v)
        table.append(best)
    return tuple(table)


_RUN: Final = _longest_runs()


def _values_present(m: int) -> int:
    """7-bit mask of the values (bit v = value v+1) that have a card in ``m``."""
    a = m | (m >> 1)
    b = a | (a >> 2)
    c = b | (b >> 3)  # bit 7v now ORs the whole chunk of value v+1
    return ((c & _CHUNK_LOW_BITS) * _GATHER >> 42) & 127


def key_red(m: int) -> int:
    return 64 | m.bit_length() if m else 0


def key_orange(m: int) -> int:
    best = 0
    base = 0
    while m:
        g = m & 127
        if g:
            k = g.bit_count() << 6 | (base + g.bit_length())
            if k > best:
                best = k
        m >>= 7
        base += 7
    return best


def key_yellow(m: int) -> int:
    best = 0
    for cm in COLOUR_MASK:
        g = m & cm
        if g:
            k = g.bit_count() << 6 | g.bit_length()
            if k > best:
                best = k
    return best


def key_green(m: int) -> int:
    g = m & EVEN_MASK
    return g.bit_count() << 6 | g.bit_length()


def key_blue(m: int) -> int:
    return len(colours_in(m)) << 6 | m.bit_length()


def key_indigo(m: int) -> int:
    if not m:
        return 0
    length, top = _RUN[_values_present(m)]
    return length << 6 | (7 * top + ((m >> 7 * top) & 127).bit_length())


def key_violet(m: int) -> int:
    g = m & BELOW4_MASK
    return g.bit_count() << 6 | g.bit_length()


KEY: Final[tuple[Callable[[int], int], ...]] = (
    key_red,
    key_orange,
    key_yellow,
    key_green,
    key_blue,
    key_indigo,
    key_violet,
)
"""``KEY[rule](palette_mask)``: the key of a palette under each rule (colour index)."""


def _top_card(m: int) -> int:
    return 1 << (m.bit_length() - 1) if m else 0


def qualifying_mask(rule: int, m: int) -> int:
    """The qualifying set of palette ``m`` under ``rule`` (R3 table), as a mask."""
    if rule == 0:
        return _top_card(m)
    if rule == 1:
        k = key_orange(m)
        if not k:
            return 0
        top = (k & 63) - 1
        return m & (127 << (top // 7 * 7))
    if rule == 2:
        k = key_yellow(m)
        if not k:
            return 0
        top = (k & 63) - 1
        return m & COLOUR_MASK[6 - top % 7]
    if rule == 3:
        return m & EVEN_MASK
    if rule == 4:
        return sum(_top_card(m & cm) for cm in COLOUR_MASK)
    if rule == 5:
        if not m:
            return 0
        length, top = _RUN[_values_present(m)]
        return sum(_top_card(m & (127 << 7 * v)) for v in range(top - length + 1, top + 1))
    if rule == 6:
        return m & BELOW4_MASK
    raise CardError(f"rule index {rule} is outside 0..6")


def winner_of_masks(rule: int, palettes: Sequence[int], alive: Sequence[bool] | None = None) -> int | None:
    """The seat winning under ``rule`` (R3.1, R3.2) among ``alive`` seats, or None."""
    best_key = 0
    best: int | None = None
    for seat, m in enumerate(palettes):
        if alive is not None and not alive[seat]:
            continue
        k = rule_key(rule, m)
        if k > best_key:
            best_key = k
            best = seat
    return best


# --- the friendly API -------------------------------------------------------------

PaletteLike = Iterable[object] | CardSet


def _palette_mask(palette: PaletteLike) -> int:
    if isinstance(palette, CardSet):
        return palette.mask
    if isinstance(palette, str):
        palette = palette.split()
    return mask_of(palette)  # type: ignore[arg-type]


def winner(rule: str | int, palettes: Sequence[PaletteLike]) -> int | None:
    """The index of the palette winning under ``rule``, or None if nobody qualifies.

    ``rule`` is an English colour name (any case) or a colour index; each palette is
    a list of cards (``"R7"`` notation or :class:`~red7.core.cards.Card`), a
    space-separated string, or a :class:`~red7.core.cards.CardSet`. A card appearing twice
    anywhere is an error.

    >>> winner("indigo", [["R4", "B5", "G7", "Y6"], ["I2", "I3", "O4", "V5"]])
    0
    """
    r = parse_colour(rule) if isinstance(rule, str) else _check_rule(rule)
    masks = [_palette_mask(p) for p in palettes]
    seen = 0
    for m in masks:
        if seen & m:
            raise CardError(f"card {CardSet(seen & m)} appears in two palettes")
        seen |= m
    return winner_of_masks(r, masks)


def qualifying(rule: str | int, palette: PaletteLike) -> CardSet:
    """The qualifying set of ``palette`` under ``rule`` (R3); also its scoring set (R8.2).

    >>> str(qualifying("blue", ["R4", "R6", "B5", "B2"]))
    'R6 B5'
    """
    r = parse_colour(rule) if isinstance(rule, str) else _check_rule(rule)
    return CardSet(qualifying_mask(r, _palette_mask(palette)))


def _check_rule(rule: int) -> int:
    if not isinstance(rule, int) or not 0 <= rule < 7:
        raise CardError(f"rule index {rule!r} is outside 0..6 (0 = red .. 6 = violet)")
    return rule


_CACHE_LIMIT: Final = 1 << 18
_CACHES: Final[tuple[dict[int, int], ...]] = tuple({} for _ in range(7))


def cached_keys() -> tuple[dict[int, int], ...]:
    """Per-rule memo tables ``palette mask -> key`` shared by the engine's hot paths.

    Palettes are small and recur constantly in play and search, so a dict hit (about
    50 ns) beats recomputing Orange, Yellow, Blue or Indigo (0.4-1 µs). Use
    :func:`rule_key`, which bounds the tables' size.
    """
    return _CACHES


def rule_key(rule: int, m: int) -> int:
    """``KEY[rule](m)``, memoized."""
    k = _CACHES[rule].get(m)
    return compute_key(rule, m) if k is None else k


def compute_key(rule: int, m: int) -> int:
    """``KEY[rule](m)``, computed and memoized: for hot paths that looked the memo up
    themselves (``cached_keys()[rule].get(m)``) and missed."""
    cache = _CACHES[rule]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    k = cache[m] = KEY[rule](m)
    return k

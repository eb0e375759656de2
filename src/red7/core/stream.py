"""The random stream of red7: SplitMix64, defined here once and implemented twice.

This module is the definition; ``src/red7/native/fast.h`` is the same generator in C,
and a test (``tests/core/test_stream.py``) checks that both give the same numbers for many
seeds. Every game dealt since record format version 2 is shuffled from it (see
:mod:`red7.core.seeds`), and so are the random players of ``red7 sim``, so both
engines play the same games from a seed.

All arithmetic is modulo ``2**64``:

* **State.** A stream is one 64-bit integer; ``Stream(seed)`` starts at
  ``seed mod 2**64`` (a negative seed is taken in two's complement, so seeds that
  differ by a multiple of ``2**64`` give the same stream).
* **next()** adds ``GAMMA = 0x9E3779B97F4A7C15`` to the state and returns
  :func:`mix` of the new state (SplitMix64, Steele, Lea & Flood 2014)::

      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
      z = (z ^ (z >> 27)) * 0x94D049BB133111EB
      return z ^ (z >> 31)

* **below(n)**, for ``1 <= n < 2**32``: ``next() * n >> 64``, one draw (Lemire's
  multiply-shift without rejection; its bias is below ``2**-58`` for the deck's 49).
* **random()**: ``(next() >> 11) / 2**53``, 53 bits in ``[0, 1)``.
* **shuffle(x)**: Fisher-Yates in the order of ``random.Random.shuffle``: for ``i``
  from ``len(x) - 1`` down to 1, swap ``x[i]`` with ``x[below(i + 1)]``.
* **split(seed, k)** is ``mix(seed + k * GAMMA)``: the ``k``-th draw of
  ``Stream(seed)`` (``k >= 1``) computed without the ``k - 1`` before it; ``k = 0``
  gives ``mix(seed)``, which no draw of ``Stream(seed)`` is. A game of seed ``s``
  deals round ``r`` from ``Stream(split(s, r))`` and its random players (``red7 sim``)
  draw from ``Stream(split(s, 0))``.

Test vectors (SplitMix64's published first outputs for seed 0, and this module's
bounded draw and shuffle):

>>> s = Stream(0)
>>> [hex(s.next()) for _ in range(3)]
['0xe220a8397b1dcdaf', '0x6e789e6aa1b965f4', '0x6c45d188009454f']
>>> s = Stream(1)
>>> [s.below(49) for _ in range(8)]
[27, 36, 47, 21, 21, 37, 42, 25]
>>> x = list(range(10))
>>> Stream(7).shuffle(x)
>>> x
[9, 5, 8, 6, 1, 2, 4, 7, 0, 3]
>>> split(0, 1) == Stream(0).next()
True
"""

from __future__ import annotations

from typing import Final, TypeVar

GAMMA: Final = 0x9E3779B97F4A7C15
"""The increment of SplitMix64's state (the odd integer nearest ``2**64`` over the golden ratio)."""
MASK: Final = (1 << 64) - 1
_T = TypeVar("_T")


def mix(z: int) -> int:
    """SplitMix64's output function of a 64-bit state (see the module docstring)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def split(seed: int, k: int) -> int:
    """``mix(seed + k * GAMMA)``: the ``k``-th draw of ``Stream(seed)`` for ``k >= 1``,
    in one step; the seeds of a game's substreams (see the module docstring)."""
    return mix((seed + k * GAMMA) & MASK)


class Stream:
    """A SplitMix64 stream (see the module docstring for the exact definition)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"a stream's seed is an integer, not {seed!r}")
        self.state = seed & MASK

    def next(self) -> int:
        """The next 64-bit draw."""
        self.state = z = (self.state + GAMMA) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A draw in ``range(n)``, ``1 <= n < 2**32``, from one 64-bit draw."""
        if not 1 <= n < 1 << 32:
            raise ValueError(f"below(n) draws for 1 <= n < 2**32, not {n}")
        return (self.next() * n) >> 64

    def random(self) -> float:
        """A float in ``[0, 1)`` of 53 random bits."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, x: list[_T]) -> None:
        """Shuffle ``x`` in place (Fisher-Yates, in ``random.Random.shuffle``'s order)."""
        state = self.state  # next() and below() written out: every deal of the reference shuffles
        for i in range(len(x) - 1, 0, -1):
            state = (state + GAMMA) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            x[i], x[j] = x[j], x[i]
        self.state = state

    def __repr__(self) -> str:
        return f"Stream(state={self.state:#x})"

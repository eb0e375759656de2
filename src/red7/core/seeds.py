"""Seeds: how every random choice of red7 follows from one integer.

The reproducibility contract:

* **A game** is a pure function of its configuration, its seed and its decisions (a
  record, :mod:`red7.core.record`): round ``r`` is shuffled by :func:`round_rng`. This
  derivation is part of the record format (version 1) and never changes. (It relies on
  CPython's ``random.Random`` seeding and ``shuffle``, unchanged for many releases; the
  tests pin seeded deals, so a Python release that changed them would be caught.)
* **Everything else** that needs its own random stream (each bot's choices, the random
  players of a simulation, a tournament's deals, an environment's episodes, a hint)
  takes ``random.Random(derive_seed(seed, *labels))``, the labels naming the stream.
  Streams with different labels are independent of each other, and the same
  ``(seed, labels)`` give the same stream on every machine and Python version.
* A seed left out (None) is drawn from the system: :func:`fresh_seed`.
"""

from __future__ import annotations

import hashlib
import random
from typing import Final

SEED_BITS: Final = 63
"""Derived and fresh seeds are non-negative integers below ``2**63``."""


def derive_seed(seed: int, *labels: str | int) -> int:
    """The seed of the stream ``labels`` of ``seed`` (see the module docstring).

    >>> derive_seed(7, "bot", 0) == derive_seed(7, "bot", 0) != derive_seed(7, "bot", 1)
    True
    """
    text = ":".join(["red7", str(seed), *map(str, labels)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def fresh_seed() -> int:
    """A seed from the operating system's randomness (for games nobody seeded)."""
    return random.SystemRandom().randrange(1 << SEED_BITS)


def round_rng(seed: int, round_number: int) -> random.Random:
    """The RNG that shuffles round ``round_number`` (from 1) of the game of ``seed``.

    Part of the record format: round 1 is ``random.Random(seed)``, round ``r > 1`` is
    ``random.Random(f"red7:{seed}:{r - 1}")``; a pure function of the seed and the
    round, so a game carries no RNG state and clones cheaply.
    """
    return random.Random(seed if round_number == 1 else f"red7:{seed}:{round_number - 1}")


def round_key(seed: int, round_number: int) -> tuple[int, ...]:
    """The seeding key of :func:`round_rng` (for the compiled engine, which deals from
    a Mersenne Twister of its own): CPython's ``Random.seed`` turns a str seed into the
    int of its UTF-8 bytes followed by their SHA-512, then seeds with the 32-bit words
    of that int's absolute value, least significant first.

    >>> w = round_key(7, 2)
    >>> random.Random(sum(x << 32 * i for i, x in enumerate(w))).random() == round_rng(7, 2).random()
    True
    """
    a: int | str = seed if round_number == 1 else f"red7:{seed}:{round_number - 1}"
    if isinstance(a, str):
        text = a.encode()
        a = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
    a = abs(a)
    words = []
    while a:
        words.append(a & 0xFFFFFFFF)
        a >>= 32
    return tuple(words) or (0,)

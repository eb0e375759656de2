"""Seeds: how every random choice of red7 follows from one integer.

The reproducibility contract:

* **A game** is a pure function of its configuration, its seed, the generator that
  deals it and its decisions (a record, :mod:`red7.core.record`). Games deal from
  :data:`DEAL`, SplitMix64 (:mod:`red7.core.stream`, the one generator of red7, also
  implemented in C by ``src/red7/native/fast.h``): round ``r`` of the game of seed
  ``s`` is shuffled by ``Stream(split(s, r))`` (:func:`round_rng`), so both engines
  deal the same cards, cheaply. Games recorded before (record format version 1, and
  the web server's games stored then) name no generator and deal from
  :data:`LEGACY_DEAL`: CPython's ``random.Random`` (the Mersenne Twister), round 1 by
  ``Random(s)``, round ``r > 1`` by ``Random(f"red7:{s}:{r - 1}")``. Both derivations
  are part of the record format and never change; the tests pin seeded deals of both.
* **A simulation's random players** (``red7 sim``) draw from ``Stream(split(s, 0))``
  (:func:`red7.analysis.sim.players_rng`), so the compiled engine plays them without
  calling back into Python.
* **Everything else** that needs its own random stream (each bot's choices, a
  tournament's deals, an environment's episodes, a hint) takes
  ``random.Random(derive_seed(seed, *labels))``, the labels naming the stream.
  Streams with different labels are independent of each other, and the same
  ``(seed, labels)`` give the same stream on every machine and Python version.
* A seed left out (None) is drawn from the system: :func:`fresh_seed`.
"""

from __future__ import annotations

import hashlib
import random
from typing import Final, Protocol

from .stream import Stream, split

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


DEAL: Final = "splitmix64"
"""The generator that deals new games: SplitMix64 (:mod:`red7.core.stream`)."""
LEGACY_DEAL: Final = "mt19937"
"""The generator of the games recorded before :data:`DEAL` (record format version 1):
CPython's ``random.Random``."""
DEALS: Final = (DEAL, LEGACY_DEAL)
"""Every generator a game may be dealt from, by the name records give it."""


class Shuffler(Protocol):
    """What shuffles a round: ``random.Random`` or a :class:`~red7.core.stream.Stream`."""

    def shuffle(self, x: list[int], /) -> None: ...


def check_deal(deal: object) -> str:
    """``deal`` if it names a generator of :data:`DEALS`; ValueError otherwise."""
    if deal not in DEALS:
        raise ValueError(f"deal must be one of {', '.join(DEALS)}, not {deal!r}")
    return str(deal)


def round_rng(seed: int, round_number: int, deal: str = DEAL) -> Shuffler:
    """What shuffles round ``round_number`` (from 1) of the game of ``seed`` dealt
    from ``deal`` (one of :data:`DEALS`).

    Part of the record format: with SplitMix64 it is ``Stream(split(seed, r))``; with
    the Mersenne Twister, round 1 is ``random.Random(seed)``, round ``r > 1``
    ``random.Random(f"red7:{seed}:{r - 1}")``. A pure function of the seed and the
    round, so a game carries no RNG state and clones cheaply.
    """
    if deal == DEAL:
        return Stream(split(seed, round_number))
    check_deal(deal)
    return random.Random(seed if round_number == 1 else f"red7:{seed}:{round_number - 1}")


def deal_key(seed: int, round_number: int, deal: str = DEAL) -> int | tuple[int, ...]:
    """How the compiled engine seeds round ``round_number``'s shuffle (it deals in C):
    an int, the seed of that round's SplitMix64 stream (``split(seed, r)``), or, for
    the Mersenne Twister, the words of :func:`round_key`."""
    if deal == DEAL:
        return split(seed, round_number)
    check_deal(deal)
    return round_key(seed, round_number)


def round_key(seed: int, round_number: int) -> tuple[int, ...]:
    """The seeding key of :func:`round_rng`'s Mersenne Twister (for the compiled engine,
    which deals legacy games from a Mersenne Twister of its own): CPython's ``Random.seed`` turns a str seed into the
    int of its UTF-8 bytes followed by their SHA-512, then seeds with the 32-bit words
    of that int's absolute value, least significant first.

    >>> w = round_key(7, 2)
    >>> random.Random(sum(x << 32 * i for i, x in enumerate(w))).random() == random.Random("red7:7:1").random()
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

"""The one random stream (red7.core.stream, SplitMix64) and its C twin (native/fast.h):
the published test vectors, the same draws, bounded draws, floats and shuffles from
both for many seeds, and the deals of both engines from it (red7.core.seeds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from red7 import native
from red7.core.cards import ALL_CARDS
from red7.core.game import Game
from red7.core.model import Config
from red7.core.seeds import DEAL, LEGACY_DEAL, deal_key, round_key, round_rng
from red7.core.stream import GAMMA, MASK, Stream, mix, split
from tests.support.lockstep import checking_player, play_beside

needs_native = pytest.mark.skipif(not native.available(), reason="the compiled engine is not built")

SEEDS = [0, 1, 7, 2**32 - 1, 2**32, 2**63, MASK, *(random.Random(4).getrandbits(64) for _ in range(200))]


def test_the_published_splitmix64_vectors() -> None:
    """SplitMix64's first outputs for seed 0 (Vigna's splitmix64.c) and for seed
    1234567 (Rosetta Code's "Pseudo-random numbers/Splitmix64" task)."""
    s = Stream(0)
    assert [s.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    s = Stream(1234567)
    assert [s.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_split_is_a_draw_of_the_stream_without_the_draws_before() -> None:
    for seed in SEEDS[:20]:
        s = Stream(seed)
        assert [split(seed, k) for k in range(1, 12)] == [s.next() for _ in range(11)]
        assert split(seed, 0) == mix(seed)
        assert split(seed - GAMMA, 1) == mix(seed)


def test_seeds_are_taken_modulo_two_to_the_64() -> None:
    assert Stream(-1).state == MASK and Stream(2**64 + 5).state == 5
    with pytest.raises(TypeError):
        Stream(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Stream(0).below(0)


def test_bounded_draws_floats_and_shuffles_are_what_the_definition_says() -> None:
    """below, random and shuffle from next(), as the module docstring defines them."""
    for seed in SEEDS[:30]:
        a, b = Stream(seed), Stream(seed)
        for n in (1, 2, 7, 49, 2**32 - 1):
            assert a.below(n) == b.next() * n >> 64 < n
        x = b.next()
        assert a.random() == (x >> 11) / 2**53
        deck, reference = list(range(49)), list(range(49))
        a.shuffle(deck)
        for i in range(48, 0, -1):
            j = b.next() * (i + 1) >> 64
            reference[i], reference[j] = reference[j], reference[i]
        assert deck == reference and sorted(deck) == list(range(49))


@needs_native
@pytest.mark.parametrize("bound", [1, 2, 3, 49, 1000, 2**31 + 1, 2**32 - 1])
def test_the_c_stream_is_the_python_stream(bound: int) -> None:
    """fast.h against red7.core.stream for many seeds: draws, bounded draws, floats and
    shuffles of every length a deal has (and more)."""
    assert native.core is not None
    for seed in SEEDS:
        length = seed % 60
        draws, below, floats, shuffled = native.core.stream_sample(seed, 40, bound, length)
        a, b, c = Stream(seed), Stream(seed), Stream(seed)
        assert draws == [a.next() for _ in range(40)]
        assert below == [b.below(bound) for _ in range(40)]
        assert floats == [c.random() for _ in range(40)]
        x = list(range(length))
        Stream(seed).shuffle(x)
        assert shuffled == x
    for wrong in (-1, 2**64):
        with pytest.raises(ValueError, match="a stream's seed is from 0 to 2"):
            native.core.stream_sample(wrong, 1, bound, 1)


@needs_native
@given(st.integers(0, MASK), st.integers(1, 2**32 - 1), st.integers(0, 256))
def test_the_c_stream_is_the_python_stream_for_any_seed(seed: int, bound: int, length: int) -> None:
    assert native.core is not None
    draws, below, floats, shuffled = native.core.stream_sample(seed, 5, bound, length)
    a, b, c = Stream(seed), Stream(seed), Stream(seed)
    assert (draws, below, floats) == (
        [a.next() for _ in range(5)],
        [b.below(bound) for _ in range(5)],
        [c.random() for _ in range(5)],
    )
    x = list(range(length))
    Stream(seed).shuffle(x)
    assert shuffled == x


def test_a_round_is_shuffled_by_the_stream_of_its_split_seed() -> None:
    """The record format (version 2): round r of the game of seed s is shuffled by
    Stream(split(s, r)); version 1 games by CPython's random.Random, as before."""
    for seed in (0, 7, -3, 2**70):
        for r in (1, 2, 5):
            shuffler = round_rng(seed, r)
            assert isinstance(shuffler, Stream) and shuffler.state == split(seed, r) == deal_key(seed, r)
            legacy = round_rng(seed, r, LEGACY_DEAL)
            assert isinstance(legacy, random.Random)
            assert legacy.getstate() == random.Random(seed if r == 1 else f"red7:{seed}:{r - 1}").getstate()
            assert deal_key(seed, r, LEGACY_DEAL) == round_key(seed, r)
    with pytest.raises(ValueError, match="deal must be one of"):
        round_rng(1, 1, "xorshift")


def test_a_seeded_deal_pinned() -> None:
    """The first deal of seed 7 (2 players), which every replay of a version 2 record
    of that seed relies on: the hands are the deck shuffled by Stream(split(7, 1)),
    dealt from its top (its end) one card per seat in turn."""
    deck = list(range(49))
    Stream(split(7, 1)).shuffle(deck)
    game = Game(players=2, seed=7)
    for seat in (0, 1):
        assert set(map(str, game.hand(seat))) == {str(ALL_CARDS[i]) for i in deck[-1 - seat :: -2][:7]}
    assert [" ".join(map(str, game.hand(seat))) for seat in (0, 1)] == [
        "R7 O6 Y6 V6 Y4 I3 V1",
        "B6 G5 R4 B3 I2 R1 O1",
    ]
    assert game.deal == DEAL
    assert Game(players=2, seed=7, deal=LEGACY_DEAL).hand(0) != game.hand(0)


@needs_native
@pytest.mark.parametrize("deal", [DEAL, LEGACY_DEAL])
def test_both_engines_deal_every_round_alike(deal: str) -> None:
    """A match of 4 advanced players through several rounds: the compiled engine deals
    each round as the reference does, from either generator."""
    config = Config(4, True, True)
    rounds = 0
    for seed in (1, 2, 3):
        game = Game(config=config, seed=seed, deal=deal)
        play_beside(game, checking_player(random.Random(seed)))
        rounds += game.round
    assert rounds > 3

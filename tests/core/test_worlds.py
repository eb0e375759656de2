"""Determinization (R9): sampled worlds are consistent with the observation they come from."""

from __future__ import annotations

import json
import random
from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import Card, Game, GameError
from red7.bots.random_bot import random_decision
from red7.core.worlds import WorldSampler, sample_world
from tests.support import configs
from tests.support.tiers import examples

CONFIGS = [astuple(c) for c in configs.CONFIGS]


def dump(obs: dict[str, object]) -> str:
    return json.dumps(obs, sort_keys=True)


@settings(max_examples=examples(60))
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_sampled_world_gives_the_same_observation(config: tuple[int, bool, bool], seed: int, moves: int) -> None:
    """R9: for every viewer (a seat or a spectator), observation(viewer) of a world
    sampled from observation(viewer) is identical, and the mover's legal decisions
    (which depend only on what the mover sees) are the same."""
    game = Game(*config, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply_id(random_decision(game, rng))
    for viewer in [*range(game.players), None]:
        obs = game.observe(viewer)
        world = sample_world(obs, rng)
        assert world.observe(viewer) == obs
        assert dump(world.observation(viewer)) == dump(game.observation(viewer))
        if viewer == game.current_player:
            assert world.legal_actions() == game.legal_actions()
            assert world.safe_actions() == game.safe_actions()


def test_sampled_worlds_vary_the_hidden_cards_only() -> None:
    """R9: the viewer's hand, palettes and known deck top never change; the other hands
    do from sample to sample, and every world holds the 49 cards once."""
    game = Game.from_position(
        [["R1", "O2", "Y3"], ["G4", "B5", "I6"], ["V7", "R2", "O3"]],
        [["R7"], ["O7"], ["Y7"]],
        deck=["G1", "B1", "I1", "V1", "R3"],
        deck_known=1,
        current=0,
    )
    sampler = WorldSampler(game.observe(0))
    rng = random.Random(5)
    others = set()
    for _ in range(200):
        world = sampler.sample(rng)
        assert world.hand(0) == game.hand(0)
        assert [world.palette(s) for s in range(3)] == [game.palette(s) for s in range(3)]
        assert world.deck()[0] == game.deck()[0] == "G1"  # the public top card
        others.add((tuple(world.hand(1)), tuple(world.hand(2))))
        everything = world.out_of_round() + world.deck() + [str(Card(c)) for c in world.observe(None).canvas]
        for s in range(3):
            everything += world.hand(s) + world.palette(s)
        assert len(everything) == len(set(everything)) == 49
    assert len(others) > 150


def test_known_drawn_cards_stay_in_their_hand() -> None:
    """R7.z/R9: a card everyone saw drawn stays in its drawer's hand in every world."""
    game = Game.from_position([["R1"], ["G4", "B5"]], [["R7"], ["O7"]], deck=["G1", "B1"], known=[[], ["B5"]])
    sampler = WorldSampler(game.observe(0))
    rng = random.Random(1)
    assert all("B5" in sampler.sample(rng).hand(1) for _ in range(50))


def test_inconsistent_observation_is_refused() -> None:
    """An observation whose counts do not add up is refused with a clear error."""
    obs = Game(players=2, seed=1).observe(0)
    with pytest.raises(GameError, match="inconsistent observation"):
        WorldSampler(obs._replace(deck_size=obs.deck_size + 1))


def test_worlds_keep_the_face_down_cards_everyone_saw_out_of_the_round_R9() -> None:
    """An eliminated player's palette went face down in front of everyone; the player's
    hand did too, in front of that player only. No world deals those cards elsewhere."""
    game = Game.from_position(
        [["R7"], ["Y6"], ["B3", "B4"], ["O1"]],
        [["O7"], ["G6"], ["I2"], ["V7"]],
        deck=["G1", "G2", "G3", "G4"],
        current=0,
        eliminated=[2],
    )
    rng = random.Random(5)
    for seat in (0, 2, None):
        obs = game.observe(seat)
        for _ in range(30):
            world = sample_world(obs, rng)
            assert world.observe(seat) == obs
            assert "I2" in world.out_of_round()
            if seat == 2:
                assert {"B3", "B4"} <= set(world.out_of_round())

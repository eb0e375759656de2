"""The observation vector of the learning environments (red7.envs.encoding) and the
compact view it is built from (Game.view, R9)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers import make
from red7 import Game
from red7.core.cards import COLOURS, mask_of, names_of, parse_index
from red7.core.game import STEP_NAMES
from red7.core.worlds import sample_world
from red7.envs.encoding import FIELDS, OBS_SIZE, OFFSETS, describe, encode

CONFIGS = [(p, a, x) for p in (2, 3, 4) for a in (False, True) for x in (False, True)]


def random_states(players: int, advanced: bool, actions: bool, seeds: range, rng: random.Random) -> list[Game]:
    states = []
    for seed in seeds:
        game = Game(players, advanced, actions, seed=seed)
        while not game.is_over:
            states.append(game.clone())
            game.apply_id(rng.choice(game.safe_ids() or game.legal_ids()))
        states.append(game)
    return states


def test_the_layout_adds_up() -> None:
    assert OBS_SIZE == sum(size for _, size in FIELDS) == 873
    assert OFFSETS["hand"] == 0 and OFFSETS["palettes"] == 49 and OFFSETS["actions"] == OBS_SIZE - 1


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_the_view_says_what_the_observation_says(players: int, advanced: bool, actions: bool) -> None:
    """Game.view (masks) and Game.observation (names) are the same facts (R9)."""
    rng = random.Random(players)
    for game in random_states(players, advanced, actions, range(3), rng)[::3]:
        for seat in [None, *range(players)]:
            v, obs = game.view(seat), game.observation(seat)
            assert [names_of(p) for p in v.palettes] == obs["palettes"]
            assert [names_of(k) for k in v.known] == obs["known_hand_cards"]
            assert [names_of(p) for p in v.piles] == obs["score_piles"]
            assert COLOURS[v.rule] == obs["rule"] and STEP_NAMES[v.step] == obs["step"]
            assert list(v.hand_sizes) == obs["hand_sizes"] and v.current == obs["current_player"]
            assert [names_of(1 << c)[0] for c in v.deck_known_top] == obs["deck_known_top"]
            assert (v.hand is None) == ("hand" not in obs)
            if v.hand is not None:
                assert names_of(v.hand) == obs["hand"]


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_hidden_cards_never_change_the_vector(players: int, advanced: bool, actions: bool) -> None:
    """Worlds that differ from the real game only in cards a seat cannot see (other
    hands, the unknown deck, eliminated players' cards) encode to identical arrays."""
    rng = random.Random(100 + players)
    checked = 0
    for game in random_states(players, advanced, actions, range(4), rng)[::2]:
        for seat in range(players):
            world = sample_world(game.observation(seat), rng)
            assert np.array_equal(encode(world.view(seat)), encode(game.view(seat)))
            checked += 1
    assert checked > 40


def test_the_vector_differs_when_the_observers_hand_differs() -> None:
    a = make(["R7 B3", "G1"], ["O6", "Y5"])
    b = make(["R7 B2", "G1"], ["O6", "Y5"])
    assert not np.array_equal(encode(a.view(0)), encode(b.view(0)))
    assert np.array_equal(encode(a.view(1)), encode(b.view(1)))  # seat 1 does not see hand 0


def test_fields_are_rotated_so_the_observer_comes_first() -> None:
    game = make(["R7", "G1", "B2"], ["O6", "Y5", "V4"], current=1, deck="I3 I4", actions=True)
    fields = describe(encode(game.view(1)))
    palettes = np.array(fields["palettes"]).reshape(4, 49)
    assert names_of(int(sum(1 << i for i in np.flatnonzero(palettes[0])))) == ["Y5"]  # seat 1 itself
    assert names_of(int(sum(1 << i for i in np.flatnonzero(palettes[1])))) == ["V4"]  # seat 2, to its left
    assert names_of(int(sum(1 << i for i in np.flatnonzero(palettes[2])))) == ["O6"]  # seat 0
    assert not palettes[3].any()
    assert fields["hand"][parse_index("G1")] == 1 and sum(fields["hand"]) == 1
    assert fields["current"] == [1, 0, 0, 0] and fields["seats"] == [1, 1, 1, 0]
    assert fields["alive"] == [1, 1, 1, 0] and fields["hand_sizes"] == [1, 1, 1, 0]
    assert fields["rule"] == [1, 0, 0, 0, 0, 0, 0] and fields["step"][0] == 1
    assert fields["deck_size"] == [2] and fields["actions"] == [1] and fields["advanced"] == [0]


def test_the_pending_seven_and_the_public_deck_top_are_encoded_R7_7() -> None:
    game = make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True)
    game.apply("play R7")
    fields = describe(encode(game.view(0)))
    assert fields["step"][STEP_NAMES.index("seven")] == 1
    assert np.flatnonzero(fields["pending"]).tolist() == [parse_index("R7")]
    game.apply("move Y4 deck")
    fields = describe(encode(game.view(1)))
    assert np.flatnonzero(fields["deck_known_top"]).tolist() == [parse_index("Y4")]
    assert mask_of(["Y4"]) == 1 << parse_index("Y4")


def test_the_core_imports_no_learning_framework() -> None:
    """red7[rl] is optional: the engine, bots and records import none of it (nor the
    terminal game's Textual)."""
    import subprocess
    import sys

    code = (
        "import sys, red7, red7.bots, red7.core.record, red7.core.worlds, red7.analysis.tournament; "
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'torch', 'textual') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

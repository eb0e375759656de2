"""The observation vector of the learning environments (red7.envs.encoding), built from
a seat's typed observation (Game.observe, R9)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import astuple

import numpy as np
import pytest

from red7 import Game, Step
from red7.core.cards import COLOURS, mask_of, names_of, parse_index
from red7.core.seeds import LEGACY_DEAL
from red7.core.worlds import sample_world
from red7.envs.encoding import FIELDS, OBS_SIZE, OFFSETS, describe, encode
from tests.support import configs
from tests.support.helpers import make

CONFIGS = [astuple(c) for c in configs.CONFIGS]

# The vectors of the seeded positions of `pinned_positions`, as computed by the encoder
# before the core was rebuilt (issue 9, from the old `Game.view`): per configuration, how
# many positions and the sha256 of their vectors (a spectator, then each seat, position
# after position). The layout is a contract with every trained network: never update
# these digests to make the test pass.
PINNED = {
    (2, False, False): (16, "f314330c4ff35fb98220e1c98592c4bc0672a6565676b50f56891d59bacce4b7"),
    (2, False, True): (13, "622e24688d588f513a8ceaf09340c290de1d52547cdf461e4bf5519abc19b9ea"),
    (2, True, False): (96, "1ebe91c2eda09ab8662f70e7100c95a8401847e425a766199f173b62d0bf71a6"),
    (2, True, True): (97, "5619d673a9266205b82be30918241cb998bc106c01d2e4b9f08a7cbb547f8261"),
    (3, False, False): (18, "ec0b09e182e0223fb21eb5ccb0c3d97c5a3ff0b77a7f251c0bd116472f293377"),
    (3, False, True): (26, "85cdb588c8fc0e41df430117ca250869bc95a600c6e239b741be734379e3e169"),
    (3, True, False): (123, "b7878b4b274a2cdf5e25c757f39a0a294b58ec6a55e39c0d49a78fc964610c96"),
    (3, True, True): (249, "22ae30b8cd6541d2e4d881e55b4f0975f26ebd13209d8b7425844daf51c3e83c"),
    (4, False, False): (25, "a22c70c2736e4b59ad1ae130f82e083cbbc9d0e0dc7e0b822bee075e2245b805"),
    (4, False, True): (31, "b5a694f059cd23c6e11efc97bafe90fbb8d4585007a7152353f489c48e5be87a"),
    (4, True, False): (174, "8e9992ab9c372b338c4dcc11634561a90e14f37c324970aa6feb26b1707e5983"),
    (4, True, True): (193, "66ada8856b5c8ec55b2a98c3be66965729e4c42c13151c844e8315c376e3dfd1"),
}


def random_states(players: int, advanced: bool, actions: bool, seeds: range, rng: random.Random) -> list[Game]:
    states = []
    for seed in seeds:
        game = Game(players, advanced, actions, seed=seed)
        while not game.is_over:
            states.append(game.clone())
            game.apply_id(rng.choice(game.safe_ids() or game.legal_ids()))
        states.append(game)
    return states


def pinned_positions(players: int, advanced: bool, actions: bool) -> Iterator[Game]:
    """Every 4th decision point of the games of seeds 0, 1, 2 (safe random play, the RNG
    seeded like the game), and each final position. Do not change: PINNED depends on it.
    The games are dealt by random.Random (``deal=LEGACY_DEAL``), as every game was when
    PINNED was computed: the positions are those, so their vectors must be too."""
    for seed in (0, 1, 2):
        rng = random.Random(seed)
        game = Game(players, advanced, actions, seed=seed, deal=LEGACY_DEAL)
        k = 0
        while not game.is_over:
            if k % 4 == 0:
                yield game
            game.apply_id(rng.choice(game.safe_ids() or game.legal_ids()))
            k += 1
        yield game


def test_the_layout_adds_up() -> None:
    assert OBS_SIZE == sum(size for _, size in FIELDS) == 873
    assert OFFSETS["hand"] == 0 and OFFSETS["palettes"] == 49 and OFFSETS["actions"] == OBS_SIZE - 1


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_the_vectors_are_byte_for_byte_those_of_the_old_encoder(players: int, advanced: bool, actions: bool) -> None:
    """The layout did not move when the encoder moved from the old View to the typed
    Observation: the same seeded positions give the same bytes (PINNED)."""
    digest = hashlib.sha256()
    count = 0
    for game in pinned_positions(players, advanced, actions):
        for seat in (None, *range(players)):
            vector = encode(game.observe(seat))
            assert vector.dtype == np.int8 and vector.shape == (OBS_SIZE,)
            digest.update(vector.tobytes())
        count += 1
    assert (count, digest.hexdigest()) == PINNED[(players, advanced, actions)]


def test_the_pinned_positions_cover_every_field() -> None:
    """The digests would not catch a moved field that is always zero in the positions:
    together the positions set every field of the layout (actions and advanced on)."""
    seen = {name: False for name, _ in FIELDS}
    for players, advanced, actions in CONFIGS:
        for game in pinned_positions(players, advanced, actions):
            for seat in (None, *range(players)):
                for name, values in describe(encode(game.observe(seat))).items():
                    seen[name] = seen[name] or any(values)
    assert [name for name, hit in seen.items() if not hit] == []


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_the_observation_says_what_its_json_says(players: int, advanced: bool, actions: bool) -> None:
    """Game.observe (masks, the encoder's input) and Game.observation (names) are the
    same facts (R9)."""
    rng = random.Random(players)
    for game in random_states(players, advanced, actions, range(3), rng)[::3]:
        for seat in [None, *range(players)]:
            o, obs = game.observe(seat), game.observation(seat)
            assert [names_of(p) for p in o.palettes] == obs["palettes"]
            assert [names_of(k) for k in o.known_hand_cards] == obs["known_hand_cards"]
            assert [names_of(p) for p in o.score_piles] == obs["score_piles"]
            assert COLOURS[o.rule] == obs["rule"] and o.step.label == obs["step"]
            assert list(o.hand_sizes) == obs["hand_sizes"] and o.current_player == obs["current_player"]
            assert [names_of(1 << c)[0] for c in o.deck_known_top] == obs["deck_known_top"]
            assert (o.hand is None) == ("hand" not in obs)
            if o.hand is not None:
                assert names_of(o.hand) == obs["hand"]


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_hidden_cards_never_change_the_vector(players: int, advanced: bool, actions: bool) -> None:
    """Worlds that differ from the real game only in cards a seat cannot see (other
    hands, the unknown deck, eliminated players' cards) encode to identical arrays."""
    rng = random.Random(100 + players)
    checked = 0
    for game in random_states(players, advanced, actions, range(4), rng)[::2]:
        for seat in range(players):
            world = sample_world(game.observe(seat), rng)
            assert np.array_equal(encode(world.observe(seat)), encode(game.observe(seat)))
            checked += 1
    assert checked > 40


def test_the_vector_differs_when_the_observers_hand_differs() -> None:
    a = make(["R7 B3", "G1"], ["O6", "Y5"])
    b = make(["R7 B2", "G1"], ["O6", "Y5"])
    assert not np.array_equal(encode(a.observe(0)), encode(b.observe(0)))
    assert np.array_equal(encode(a.observe(1)), encode(b.observe(1)))  # seat 1 does not see hand 0


def test_fields_are_rotated_so_the_observer_comes_first() -> None:
    game = make(["R7", "G1", "B2"], ["O6", "Y5", "V4"], current=1, deck="I3 I4", actions=True)
    fields = describe(encode(game.observe(1)))
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
    fields = describe(encode(game.observe(0)))
    assert fields["step"][Step.SEVEN] == 1 and sum(fields["step"]) == 1
    assert np.flatnonzero(fields["pending"]).tolist() == [parse_index("R7")]
    game.apply("move Y4 deck")
    fields = describe(encode(game.observe(1)))
    assert np.flatnonzero(fields["deck_known_top"]).tolist() == [parse_index("Y4")]
    assert mask_of(["Y4"]) == 1 << parse_index("Y4")


def test_chance_nodes_have_no_step_bit_and_no_one_to_move_R2_2() -> None:
    """With explicit chance a seat may be observed while a deal or a draw is pending
    (Step.DEALING, Step.DRAWING): the seven step numbers and the current seat stay 0,
    the rest describes the position (during a deal, the cards dealt so far)."""
    rng = random.Random(5)
    game = Game(2, advanced=True, actions=True, seed=5, explicit_chance=True)
    steps: set[Step] = set()
    while not game.is_over and len(steps) < 2:
        if game.is_chance_node:
            fields = describe(encode(game.observe(0)))
            assert fields["step"] == [0] * 7 and fields["current"] == [0] * 4
            sizes = [len(game.hand(0)), len(game.hand(1))]
            assert sum(fields["hand"]) == sizes[0] and fields["hand_sizes"][:2] == sizes
            steps.add(game.step)
            game.apply_chance(rng.choice(game.chance_outcomes()))
        else:
            game.apply_id(rng.choice(game.safe_or_concede_ids()))
    assert steps == {Step.DEALING, Step.DRAWING}


def test_the_core_imports_no_learning_framework() -> None:
    """red7[rl] is optional: the engine, bots, matches and records import none of it (nor
    the terminal game's Textual). The import-linter contract "The core imports only the
    standard library" checks the core's own imports statically; this checks at run time,
    through the layers above it, what importing them pulls in."""
    import subprocess
    import sys

    code = (
        "import sys, red7, red7.bots, red7.core.record, red7.core.worlds, red7.play.match, red7.play.records, "
        "red7.analysis.tournament; "
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'torch', 'textual') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

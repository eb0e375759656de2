"""Hostile input at the compiled boundary (red7.native._core, issue 32): every entry
point checks what it is given and answers a bad call with a ValueError that says what
is wrong; none crashes, hangs or writes out of bounds.

The issue's repros run in a Python process of their own (``run_alone``): on the code
before the fix one wrote past the canvas and deck arrays, one looped forever holding
the GIL and one crashed, and none of that may take the test run with it. The random
fuzz of every entry point is ``tests/native/test_native_fuzz.py``; ``make sanitize`` runs both
under AddressSanitizer and UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

from red7 import Game, native
from red7.core import compiled
from red7.core.cards import NAME_OF
from red7.core.model import Config
from red7.envs.encoding import OFFSETS
from red7.envs.vector import Red7VectorEnv

if not compiled.available():
    pytest.skip("the compiled core is off (RED7_NATIVE=0) or not built", allow_module_level=True)

HANG = 120
"""Seconds after which a repro's process counts as hung (it only bounds a hang: the
repros take a fraction of a second when they work)."""

# Every repro starts from one consistent position, changed field by field: seat 0 holds
# R7 and decides (palette O7 Y7), seat 1 holds V1 (palette V3), action rules on.
PRELUDE = """
from red7 import Game
from red7.core import compiled
from red7.native import core
BASE = dict(zip(compiled.FIELDS, compiled.fields_of(
    Game.from_position([["R7"], ["V1"]], [["O7", "Y7"], ["V3"]], actions=True))))
def load(actions=True, **changes):
    fields = {**BASE, **changes}
    return core.Engine.load(2, False, actions, lambda r: (1,), tuple(fields[f] for f in compiled.FIELDS))
def attempt(thunk):
    try:
        result = thunk()
    except ValueError as err:
        print("ValueError:", err)
    else:
        print("accepted:", result)
"""


def run_alone(code: str) -> list[str]:
    """The lines ``code`` (after :data:`PRELUDE`) prints in a Python process of its own;
    the test fails if that process crashes or is still running after :data:`HANG` s."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True, text=True, timeout=HANG
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the process was still running after {HANG} s: it hangs")
    if proc.returncode < 0:
        pytest.fail(f"the process was killed by {signal.Signals(-proc.returncode).name}: {proc.stderr[-3000:]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()


# --- the repros ------------------------------------------------------------------


def test_repro_4_a_load_whose_cards_do_not_add_up_is_refused_before_it_writes_out_of_bounds() -> None:
    """A canvas of all 49 cards beside a hand, then the legal canvas play of that hand
    card: the engine wrote canvas[49]. A deck of 49 beside the palettes, then a 7 that
    tucks a palette card: deck[49]. Both positions place cards twice."""
    out = run_alone(
        """
        def canvas_play():
            engine = load(canvas=tuple(range(49)))
            engine.apply(49 + 48)  # R7 to the canvas: legal, seat 0 wins under red
            return len(engine.fields()[5])
        def seven_tucks():
            engine = load(deck=tuple(range(49)))
            engine.apply(48)  # R7 to the palette (R7.7)
            engine.apply(147 + 46)  # Y7 face down on the deck
            return len(engine.fields()[3])
        attempt(canvas_play)
        attempt(seven_tucks)
        """
    )
    assert out == [
        "ValueError: card V1 is placed twice (canvas)",
        "ValueError: card V1 is placed twice (deck)",
    ]


def test_repro_5_a_round_without_two_players_is_refused_before_it_loops_forever() -> None:
    """alive=(False, False): the end of the turn looked for the next player still in
    the round forever, holding the GIL."""
    out = run_alone(
        """
        def end_turn():
            engine = load(alive=(False, False))
            engine.apply(49 + 48)
            return engine.fields()
        attempt(end_turn)
        """
    )
    assert out == ["ValueError: alive has 0 of the 2 seats in the round: a round needs two (R6.2)"]


def test_repro_6_the_compiled_solver_refuses_hands_beyond_its_limit() -> None:
    """turn_values with two hands of 24 cards: the solver's arrays hold plans of hands of
    at most 10 cards, which only won() checked. plan_values too."""
    out = run_alone(
        """
        big = dict(hands=((1 << 24) - 1, ((1 << 48) - 1) ^ ((1 << 24) - 1)), palettes=(1 << 48, 0),
                   known_hand_cards=(0, 0), deck=(), deck_known_count=0, canvas=(), rule=0,
                   out_of_round=0, current=0, step=0, pending=None)
        attempt(lambda: load(actions=False, **big).turn_values())
        attempt(lambda: load(actions=False, **big).plan_values())
        """
    )
    assert out == ["ValueError: the compiled solver answers hands of at most 10 cards, not 24"] * 2


def test_repro_7_the_vector_environment_judges_legality_from_its_own_state() -> None:
    """``mask[:] = 1`` (the mask array the caller receives, and may write) let 60
    illegal decisions through with ``illegal = 0``, and the deck-size feature reached 89."""
    out = run_alone(
        """
        import numpy as np
        from red7.envs.encoding import OFFSETS
        from red7.envs.vector import Red7VectorEnv
        env = Red7VectorEnv(num_envs=1, players=2, seed=1)
        obs, info = env.reset()
        flagged = most = 0
        for _ in range(60):
            masked_out = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
            info["action_mask"][:] = 1
            obs, reward, terminated, truncated, info = env.step(np.array([masked_out]))
            flagged += int(info["illegal"][0])
            most = max(most, int(obs[0, OFFSETS["deck_size"]]))
        print(flagged, most <= 49)
        """
    )
    assert out == ["60 True"]


def test_repro_8_the_stub_is_the_compiled_modules() -> None:
    """_core.pyi declares what _core.c defines, every name and, where the runtime shows
    one, every signature (mypy's stubtest; ``make lint`` runs it too)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "red7.native._core"], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


# --- every loader: one check of the position ---------------------------------------------------


def base_fields() -> dict[str, Any]:
    """The repros' position (see PRELUDE), field by field."""
    game = Game.from_position([["R7"], ["V1"]], [["O7", "Y7"], ["V3"]], actions=True)
    return dict(zip(compiled.FIELDS, compiled.fields_of(game), strict=True))


ACTIONS = Config(2, False, True)
"""The repros' configuration: two players, the action rules on."""


def load(changes: dict[str, Any], config: Config = ACTIONS) -> Any:
    """A compiled engine at the repros' position with ``changes`` made to its fields."""
    fields = {**base_fields(), **changes}
    return compiled.load(config, fields)


R7, O7, Y7, V1, V3 = (NAME_OF.index(name) for name in ("R7", "O7", "Y7", "V1", "V3"))
REST = ((1 << 49) - 1) & ~(1 << R7 | 1 << O7 | 1 << Y7 | 1 << V1 | 1 << V3)  # out of the round


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": (1 << R7 | 1 << V3, 1 << V1)}, "card V3 is placed twice (palette 1)"),
        ({"palettes": (1 << O7 | 1 << Y7, 1 << V3 | 1 << O7)}, "card O7 is placed twice (palette 1)"),
        ({"deck": (3, 3), "out_of_round": REST & ~(1 << 3)}, "card G1 is placed twice (deck)"),
        ({"canvas": (R7,)}, "card R7 is placed twice (canvas)"),
        ({"score_piles": (1 << V1, 0), "scores": (1, 0)}, "card V1 is placed twice (score pile 0)"),
        ({"out_of_round": REST | 1 << V1}, "card V1 is placed twice (out_of_round)"),
        ({"hands": (1 << 49, 1 << V1)}, "hands: one mask of the 49 cards per seat (2 seats)"),
        ({"hands": (-1, 1 << V1)}, "hands: one mask of the 49 cards per seat (2 seats)"),
        ({"hands": (1 << R7,)}, "hands: one mask of the 49 cards per seat (2 seats)"),
        ({"deck": (49,)}, "deck: at most 49 cards, each from 0 to 48"),
        ({"canvas": tuple(range(50))}, "canvas: at most 49 cards, each from 0 to 48"),
        ({"known_hand_cards": (1 << O7, 0)}, "known_hand_cards of seat 0 (O7) are not in its hand"),
        ({"deck_known_count": 1}, "deck_known_count=1 but the deck holds 0 cards"),
        ({"rule": 3}, "rule 3 with an empty canvas: the Red start card's rule is 0 (R2.3)"),
        ({"rule": 300}, "rule: 300 is out of range"),
        ({"rule": -1}, "rule -1 is not a rule (0 to 6, R3)"),
        ({"out_of_round_known": 1 << R7}, "out_of_round_known holds cards that are not out of the round"),
        ({"out_of_round_own": (0, 1 << 20)}, "out_of_round_own of seat 1 holds cards while it is in the round"),
        ({"scores": (5, 0)}, "seat 0's score 5 is not the value of its score pile (0)"),
        ({"scores": (2**70, 0)}, "scores: a small integer per seat"),
        ({"alive": (True, False)}, "alive has 1 of the 2 seats in the round: a round needs two (R6.2)"),
        ({"alive": (True, 2)}, "alive: True or False per seat"),
        ({"current": 2}, "seat 2 cannot take the turn: the table has 2 seats"),
        ({"step": 6}, "step 6 is not a player's decision (0 to 5: start, after, five, seven, one, draw)"),
        ({"step": 5}, "step 5 (draw) is the advanced draw (R5.1): the game is basic"),
        ({"pending": O7}, "pending names the 7 being resolved, at step 3 (seven) only"),
        ({"step": 3, "pending": R7}, "pending R7 is not a 7 of the mover's palette beside another card (R7.7)"),
        ({"step": 3, "pending": V3}, "pending V3 is not a 7 of the mover's palette beside another card (R7.7)"),
        ({"step": 3, "pending": None}, "step 3 (seven) resolves a 7: pending names it (R7.7)"),
        ({"round": 0}, "round 0: the rounds of a match are numbered 1 to 64 (R8.6)"),
        ({"round": 65}, "round 65: the rounds of a match are numbered 1 to 64 (R8.6)"),
        ({"turns": -1}, "turns -1: a count of turns is never negative"),
        ({"turns": 2**40}, "turns: 1099511627776 is out of range"),
        ({"pending": "R7"}, "an integer is required|'str' object cannot be interpreted as an integer"),
    ],
)
def test_every_inconsistency_of_a_position_is_refused_with_a_sentence(changes: dict[str, Any], message: str) -> None:
    """One field changed at a time in a consistent position: each change breaks one rule
    of Game.from_position or one invariant the rules keep, and the sentence says which."""
    error = TypeError if changes.get("pending") == "R7" else ValueError
    with pytest.raises(error, match=message if error is TypeError else re.escape(message)):
        load(changes)
    assert load({}).fields() == tuple(base_fields()[f] for f in compiled.FIELDS)  # the position unchanged loads


def test_steps_of_the_action_rules_need_them_and_the_draw_needs_the_advanced_game() -> None:
    for step, name in ((2, "five"), (3, "seven"), (4, "one")):
        with pytest.raises(
            ValueError, match=re.escape(f"step {step} ({name}) belongs to the action rules (R7), which are off")
        ):
            load({"step": step}, Config(2, False, False))
    with pytest.raises(ValueError, match=re.escape("step 5 (draw) is the advanced draw (R5.1): the deck is empty")):
        load({"step": 5}, Config(2, True, True))
    seven = load({"step": 3, "pending": O7, "current": 0})  # O7 just played beside Y7
    assert 147 + Y7 in seven.legal() and 147 + O7 not in seven.legal()


def test_positions_of_played_games_load_and_go_on_alike() -> None:
    """The check refuses nothing the rules reach: every decision point of random games
    of every configuration loads (the lock-step tests of test_native_engine.py go on
    from them), and a loaded position is the one given."""
    from red7.bots.random_bot import random_decision

    loaded = 0
    for seed in range(24):
        config = Config(2 + seed % 3, bool(seed & 4), bool(seed & 8))
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            assert compiled.engine_of(game).fields() == compiled.fields_of(game)
            loaded += 1
            game.apply_id(random_decision(game, rng))
    assert loaded > 500


# --- the vector environment -----------------------------------------------------------------------


def test_an_action_the_environment_did_not_allow_is_illegal_whatever_the_mask_array_says() -> None:
    """The environment keeps its own copy of what each game allows: a decision outside
    it (legal or not by the rules) ends the episode as a loss flagged ``illegal``, the
    game is dealt again, and nothing of the refused decision reaches the position."""
    env = Red7VectorEnv(num_envs=16, players=3, actions=True, mask="safe", seed=2)
    obs, info = env.reset()
    for _ in range(30):
        allowed = info["action_mask"].copy()
        info["action_mask"][:] = 1  # a caller writing into the array it was handed
        choice = np.array([int(np.flatnonzero(row == 0)[0]) for row in allowed])
        obs, reward, terminated, _, info = env.step(choice)
        assert info["illegal"].all() and terminated.all() and (reward == -1).all()
        assert (obs[:, OFFSETS["deck_size"]] <= 49).all() and (obs[:, OFFSETS["current"]] == 1).all()
        assert (info["action_mask"].sum(axis=1) >= 1).all()


def test_the_compiled_games_refuse_a_step_before_reset_and_a_second_thread() -> None:
    core = native.core
    arrays = [
        np.zeros((2, 873), np.int8),
        np.zeros((2, 249), np.int8),
        np.zeros(2, np.float32),
        np.zeros(2, np.bool_),
        np.zeros(2, np.bool_),
        np.zeros(2, np.int8),
        np.zeros((2, 4), np.float32),
    ]
    games = core.VectorGames(2, 2, False, False, 0, False, 1, *arrays)
    assert games.learners() == (0, 0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        games.step(np.zeros(2, np.int64))
    games.reset()
    games.step(np.full(2, 246, np.int64))


@pytest.mark.parametrize("huge", [2**63, 2**70, -(2**63) - 1])
def test_a_decision_or_seat_beyond_a_c_long_is_refused_like_any_other(huge: int) -> None:
    """An int too large for C is no decision and no seat: a ValueError naming it (it was an
    OverflowError, which callers that catch ValueError for a bad id did not expect)."""
    engine = load({})
    before = engine.fields()
    with pytest.raises(ValueError, match=re.escape(f"decision {huge} is not legal now")):
        engine.apply(huge)
    with pytest.raises(ValueError, match=re.escape(f"no seat {huge}")):
        engine.encode(huge)
    assert engine.fields() == before


def test_an_int_beyond_a_c_parameter_is_out_of_range_like_any_other() -> None:
    """The arguments Python's parsers read into C ints: one too large for its C type is a
    ValueError (the parsers raise OverflowError), not a TypeError nor a crash."""
    core = native.core
    engine = load({})
    huge = 2**70
    calls = [
        lambda: core.Engine(huge, False, False, lambda r: (1,)),
        lambda: core.Engine.load(huge, False, False, lambda r: (1,), tuple(base_fields().values())),
        lambda: engine.redeal(huge, 0),
        lambda: engine.greedy(0, huge),
        lambda: engine.ismcts(huge, 0, 10, 0, 0.0, 0.7, ()),
        lambda: engine.replayed(huge, (7, 7), (), (), (), (), 0, 1, 1, 0),
        lambda: core.random_games(huge, False, False, 0, 1),
        lambda: core.stream_sample(0, huge, 1, 1),
        lambda: core.design_game(huge, False, False, lambda r: (1,), [1, 2]),
        lambda: core.VectorGames(huge, 2, False, False, 0, False, 1, *[np.zeros(1)] * 7),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=re.escape("an argument is out of range (")):
            call()

"""The compiled core (red7.native) against its pure-Python twins: the rules' keys
(R3), the exact solver's turn plans (R4.2-R4.6) and its values, and the fallback when
the compiled code is off."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import Game
from red7.bots import make_bot
from red7.bots.random_bot import random_decision
from red7.core.rules import KEY
from red7.native import available, core, sources, why_not
from red7.solver import exact
from tests.support.tiers import examples

ALL = (1 << 49) - 1


def test_the_compiled_core_is_built_and_in_use() -> None:
    """The package's own build compiles it (make, pip install): here it must be in use,
    unless the environment turned it off."""
    if os.environ.get("RED7_NATIVE") == "0":
        assert not available() and why_not == "turned off by RED7_NATIVE=0"
    else:
        assert available() and why_not is None, why_not


native = pytest.importorskip("red7.native._core") if core is None else core


@settings(max_examples=examples(3000))
@given(st.integers(0, 6), st.integers(0, ALL))
def test_keys_are_those_of_the_rules_R3(rule: int, palette: int) -> None:
    assert native.key(rule, palette) == KEY[rule](palette)


@st.composite
def positions(draw: st.DrawFn, most: int = 10) -> tuple[int, int, int, int, int]:
    """Disjoint hand, palette, other hand and other palette (hands of at most ``most``
    cards), and a rule."""
    cards = draw(st.permutations(range(49)))
    sizes = [draw(st.integers(0, most)), draw(st.integers(0, 8)), draw(st.integers(0, most)), draw(st.integers(0, 8))]
    masks, at = [], 0
    for size in sizes:
        masks.append(sum(1 << c for c in cards[at : at + size]))
        at += size
    return masks[0], masks[1], masks[2], masks[3], draw(st.integers(0, 6))


@settings(max_examples=examples(2000))
@given(positions())
def test_plans_are_the_reference_generators_in_its_order(position: tuple[int, int, int, int, int]) -> None:
    hand, palette, _, other, rule = position
    assert native.children(hand, palette, other, rule) == exact._children(hand, palette, other, rule)


@settings(max_examples=examples(400))
@given(positions(most=4))
def test_values_are_the_reference_searchs(position: tuple[int, int, int, int, int]) -> None:
    hand, palette, other_hand, other_palette, rule = position
    expected = bool(hand) and exact._won(hand, palette, other_hand, other_palette, rule, None)
    assert native.won(hand, palette, other_hand, other_palette, rule) == expected


@pytest.mark.slow
def test_values_agree_at_every_turn_start_of_random_games() -> None:
    """2-player basic games, from the deal (7 cards each) to the end: the compiled
    search and the reference agree at every turn start, with cold and warm tables."""
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = Game(players=2, seed=seed)
        if seed % 10 == 0:
            exact._table.clear()
            native.clear_table()
        while not game.is_over:
            if game.step_name == "start":
                me = game.current_player
                assert me is not None
                seen = game.observe(None)
                hands = [game.observe(s).hand or 0 for s in range(2)]
                args = (hands[me], seen.palettes[me], hands[1 - me], seen.palettes[1 - me], game.rule)
                expected = bool(args[0]) and exact._won(*args, None)
                assert native.won(*args) == expected, (seed, args)
                checked += 1
            game.apply_id(random_decision(game, rng))
    assert checked > 400
    assert native.table_size() > 0
    native.clear_table()
    assert native.table_size() == 0


def test_bad_arguments_get_a_clear_error() -> None:
    with pytest.raises(ValueError, match="rule index 7 is outside 0..6"):
        native.key(7, 1)
    with pytest.raises(ValueError, match="palette is not a mask of the 49 cards"):
        native.key(0, 1 << 49)
    with pytest.raises(ValueError, match="a card is in two places"):
        native.won(0b11, 0b10, 0, 0, 0)
    with pytest.raises(ValueError, match="a hand holds more than 10 cards"):
        native.won((1 << 11) - 1, 0, 1 << 20, 0, 0)
    with pytest.raises(TypeError):
        native.won(1, 2, 3)  # type: ignore[call-arg]


def test_red7_runs_on_the_reference_code_when_the_compiled_core_is_off() -> None:
    """RED7_NATIVE=0: red7.native says so, the solver gives the same answers, and the
    solver-backed levels solve from 5 cards in hand instead of 7 (their time budget)."""
    script = (
        "from red7 import Game; from red7.native import available, why_not; from red7.solver import solve;"
        "from red7.bots import make_bot;"
        "print(available(), why_not); print([solve(Game(players=2, seed=s)).won for s in range(6)]);"
        "print(make_bot('hard').cards)"
    )
    env = {**os.environ, "RED7_NATIVE": "0"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    from red7.solver import solve

    assert out.splitlines() == [
        "False turned off by RED7_NATIVE=0",
        str([solve(Game(players=2, seed=s)).won for s in range(6)]),
        "5",
    ]
    assert make_bot("hard").cards == (7 if available() else 5)


def test_the_module_carries_the_digest_of_the_sources_it_was_built_from() -> None:
    assert native.SOURCES == sources.digest() is not None


def test_a_module_beside_other_sources_is_refused_saying_how_to_rebuild_it(tmp_path: Path) -> None:
    """A copy of the package with its module: taken as it is; once its defs.h changes, importing
    red7.native (what a test session does first) fails with one sentence that gives the command
    rebuilding the module; RED7_NATIVE=0 still runs the Python engine."""
    shutil.copytree(sources.FOLDER.parent, tmp_path / "red7", ignore=shutil.ignore_patterns("__pycache__"))
    folder = tmp_path / "red7" / "native"
    module = folder / Path(native.__file__ or "").name

    def run(on: str = "1") -> subprocess.CompletedProcess[str]:
        script = "from red7 import native; print(native.why_not, native.core and native.core.__file__)"
        env = {**os.environ, "PYTHONPATH": str(tmp_path), "RED7_NATIVE": on}
        return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=tmp_path)

    taken = run()
    assert (taken.returncode, taken.stdout) == (0, f"None {module}\n"), taken.stderr
    defs = folder / "defs.h"
    defs.write_text(defs.read_text().replace("#define R7_HAND_SIZE 7", "#define R7_HAND_SIZE 8"))
    refused = run()
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == (
        f"red7.native.StaleBuildError: red7's compiled core ({module.name}) was built from other sources than "
        f"the ones in {folder} now: rebuild it with `{sys.executable} -m pip install -e <the project's folder>` "
        "(`make test` and `make play` do it too), or set RED7_NATIVE=0 to run the Python engine alone"
    )
    off = run("0")
    assert (off.returncode, off.stdout) == (0, "turned off by RED7_NATIVE=0 None\n"), off.stderr
    assert sources.digest(tmp_path) is None  # no C sources there: nothing to compare a module with

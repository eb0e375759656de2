"""The compiled engine (red7.core.compiled, src/red7/native/engine.c) against the
reference engine: the same deals (R2), legal decisions and safety marks (R4.7), effects
of every decision (R4-R7), round results and match results (R6, R8) in all 12
configurations, from seeded deals and from positions given card by card; random
simulations that give the same summaries; and the fast streams.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from red7 import Game, native
from red7.analysis.sim import simulate
from red7.bots.random_bot import random_decision
from red7.core import compiled
from red7.core.cards import NAME_OF
from red7.core.model import Config, GameError
from red7.core.seeds import LEGACY_DEAL, round_key, round_rng
from tests.support.configs import CONFIGS
from tests.support.lockstep import EnginesDiffer, checking_player, play_beside
from tests.support.tiers import examples, size

if not compiled.available():
    pytest.skip("the compiled engine is not built (its fallback is tested in test_native.py)", allow_module_level=True)

TIMINGS = ("engine", "seconds", "games_per_second", "decisions_per_second", "turns_per_second")


def lockstep(game: Game, rng: random.Random) -> int:
    return play_beside(game, checking_player(rng))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_seeded_games_are_the_same_decision_by_decision(config: Config) -> None:
    """From the deal on: the compiled engine deals the cards Game deals for the same seed
    (and every later round of a match, R8.4), then agrees after every decision. 25 games;
    the full tier goes on to at least 500,000 decisions (the release run)."""
    compared = seed = 0
    while seed < 25 or compared < size(0, 500_000):
        game = Game(config=config, seed=seed)
        twin = compiled.engine(config, seed)
        assert twin.fields() == compiled.fields_of(game)
        compared += lockstep(game, random.Random(seed))
        replayed = compiled.engine(config, seed)  # a record replays through it (R8: every round's deal)
        for _, action in game.history:
            replayed.apply(action.id)
        assert replayed.fields() == compiled.fields_of(game) and replayed.winners == game.result.winners
        seed += 1
    assert compared > 25 * 8


def test_a_difference_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a twin whose deck is in another order is caught, by name."""
    game = Game(players=2, seed=4)
    fields = list(compiled.fields_of(game))
    fields[3] = fields[3][1:] + fields[3][:1]
    wrong = native.core.Engine.load(2, False, False, lambda r: (1,), tuple(fields))
    monkeypatch.setattr(compiled, "engine_of", lambda g: wrong)
    with pytest.raises(EnginesDiffer, match="positions differ after 0 decisions.*'deck'"):
        play_beside(game, lambda g: g.legal_ids()[0])


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_games_continued_from_any_decision_point(config: Config) -> None:
    """A twin loaded mid-game, mid-turn included (a 5's extra play, a 7's move, a 1's
    take, the advanced draw), goes on as the game does."""
    steps = set()
    for seed in range(100, 130):
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        stop = rng.randrange(60)
        while not game.is_over and game.decisions < stop:
            game.apply_id(random_decision(game, rng))
        if not game.is_over:
            steps.add(game.step.label)
            lockstep(game, rng)
    assert "start" in steps
    with pytest.raises(GameError, match="over"):
        compiled.engine_of(game if game.is_over else Game.from_position([[], ["R1"]], [["R2"], []]))


@st.composite
def positions(draw: st.DrawFn) -> Game:
    """A start of turn given card by card (Game.from_position) in any configuration:
    hands, palettes, a deck with public top cards, a canvas, cards seen drawn, score
    piles, eliminated seats."""
    players = draw(st.integers(2, 4))
    advanced, actions = draw(st.booleans()), draw(st.booleans())
    cards = [NAME_OF[c] for c in draw(st.permutations(range(49)))]

    def take(n: int) -> list[str]:
        taken = cards[:n]
        del cards[:n]
        return taken

    hands = [take(draw(st.integers(0, 7))) for _ in range(players)]
    palettes = [take(draw(st.integers(0, 5))) for _ in range(players)]
    deck = take(draw(st.integers(0, 8)))
    canvas = take(draw(st.integers(0, 3)))
    scores = [take(draw(st.integers(0, 3))) for _ in range(players)] if advanced else None
    known = [h[: draw(st.integers(0, min(2, len(h))))] for h in hands]
    current = draw(st.integers(0, players - 1))
    others = [s for s in range(players) if s != current]
    eliminated = draw(st.lists(st.sampled_from(others), unique=True, max_size=players - 2))
    return Game.from_position(
        hands,
        palettes,
        deck=deck,
        canvas=canvas,
        current=current,
        advanced=advanced,
        actions=actions,
        deck_known=draw(st.integers(0, min(2, len(deck)))),
        known=known,
        scores=scores,
        eliminated=eliminated,
        seed=draw(st.integers(0, 2**63)),
    )


@settings(max_examples=examples(400))
@given(positions(), st.integers(0, 2**32))
def test_positions_given_card_by_card(game: Game, seed: int) -> None:
    assume(not game.is_over)  # an empty hand to begin with ends some at once (R4.1)
    lockstep(game, random.Random(seed))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_simulations_are_the_reference_summaries(config: Config) -> None:
    """`red7 sim` on the compiled engine is the reference's summary, game for game."""
    games = 12 if config.advanced else 60

    def strip(summary: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in summary.items() if k not in TIMINGS}

    compiled_run = simulate(games, config, 7, engine="native")
    assert compiled_run["engine"] == "native" and simulate(games, config, 7)["engine"] == "native"
    assert strip(compiled_run) == strip(simulate(games, config, 7, engine="python"))


def test_the_fast_engine_is_gone_with_a_word() -> None:
    """Every engine deals and plays from the same generator: ``engine="fast"``, which
    once gave up sameness for speed, is refused, saying so."""
    with pytest.raises(ValueError, match="'fast' is gone"):
        simulate(2, Config(), 0, engine="fast")


def test_round_keys_seed_the_round_shuffles() -> None:
    """round_key is Random's own seeding of round_rng's seed (the Mersenne Twister of
    version 1 records): int seeds (negative and
    beyond 64 bits included) for round 1, the hashed string seeds of later rounds."""
    for seed in (0, 1, 7, -5, 2**32, 2**63 + 11, 3**90):
        for r in (1, 2, 9):
            words = round_key(seed, r)
            assert all(0 <= w < 2**32 for w in words)
            as_int = sum(w << 32 * i for i, w in enumerate(words))
            legacy = round_rng(seed, r, LEGACY_DEAL)
            assert isinstance(legacy, random.Random) and random.Random(as_int).getstate() == legacy.getstate()


def test_bad_decisions_and_positions_get_a_clear_error_and_change_nothing() -> None:
    twin = compiled.engine(Config(), 3)
    before = twin.fields()
    legal = twin.legal()
    for bad in (247, 98, -1, 249):
        with pytest.raises(ValueError, match="is not legal now"):
            twin.apply(bad)
    assert twin.fields() == before and twin.legal() == legal
    mover = twin.current
    twin.apply(246)  # concede: the game is over
    with pytest.raises(ValueError, match="the game is over"):
        twin.apply(246)
    assert twin.legal() == [] and twin.current is None and twin.winners == (1 - mover,)
    core = native.core
    with pytest.raises(ValueError, match="2 to 4 players"):
        core.Engine(5, False, False, lambda r: (1,))
    with pytest.raises(ValueError, match="18 fields"):
        core.Engine.load(2, False, False, lambda r: (1,), (1, 2))
    with pytest.raises(ValueError, match="a round key holds"):
        core.Engine(2, False, False, lambda r: ())
    with pytest.raises(ValueError, match="seat 7 cannot take the turn: the table has 2 seats"):
        core.Engine.load(2, False, False, lambda r: (1,), (*before[:13], 7, *before[14:]))
    with pytest.raises(ValueError, match="needs the compiled engine|seeds"):
        simulate(2, Config(), -1, engine="native")


def test_clones_and_playouts_are_independent() -> None:
    """A clone shares nothing with its original; a playout ends the game with the
    reference's random players (the same choices as play_random_game's loop)."""
    twin = compiled.engine(Config(3, True, True), 11)
    copy = twin.clone()
    copy.playout(123)
    assert copy.winners is not None and twin.winners is None and twin.fields() != copy.fields()
    game = Game(config=Config(3, True, True), seed=11)
    rng = random.Random(123)
    while not game.is_over:
        game.apply_id(random_decision(game, rng))
    assert copy.winners == game.result.winners and copy.fields() == compiled.fields_of(game)


def test_sim_runs_on_the_reference_when_the_compiled_engine_is_off() -> None:
    script = (
        "from red7.analysis.sim import simulate; s = simulate(5, seed=2); print(s['engine'], s['decisions']);"
        "from red7.cli import main; raise SystemExit(main(['sim', '--engine', 'native', '--games', '2']))"
    )
    env = {**os.environ, "RED7_NATIVE": "0"}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert proc.stdout.split() == ["python", str(simulate(5, seed=2)["decisions"])]
    assert proc.returncode == 2 and "needs the compiled engine, which is not in use: turned off" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_redealt_worlds_are_worlds_of_the_viewer(config: Config) -> None:
    """Engine.redeal (the compiled twin of red7.core.worlds, R9): what the viewer sees
    stays, the hidden cards move between the places that hold them, each keeping its
    size, and the twin goes on by the same rules."""
    for seed in range(8):
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.decisions < 15 + seed * 3:
            game.apply_id(random_decision(game, rng))
        if game.is_over:
            continue
        viewer = (game.current_player + seed) % config.players  # any seat, the mover's or not
        f = compiled.fields_of(game)
        hidden = _hidden(f, viewer)
        moved = set()
        for k in range(20):
            w = compiled.engine_of(game).redeal(viewer, k).fields()
            assert w[0][viewer] == f[0][viewer] and w[1:3] == f[1:3] and w[4:7] == f[4:7] and w[8] == f[8]
            assert w[9][viewer] == f[9][viewer] and w[10:] == f[10:]
            assert w[3][len(w[3]) - f[4] :] == f[3][len(f[3]) - f[4] :]  # the public top of the deck
            assert [h.bit_count() for h in w[0]] == [h.bit_count() for h in f[0]] and len(w[3]) == len(f[3])
            assert all(w[0][s] & f[2][s] == f[2][s] for s in range(config.players))  # cards seen drawn stay
            assert w[7] & (f[8] | f[9][viewer]) == f[7] & (f[8] | f[9][viewer]) and w[7].bit_count() == f[7].bit_count()
            assert _hidden(w, viewer) == hidden
            moved.add((w[0], w[3], w[7]))
        assert len(moved) > 1 or hidden == 0
        world = compiled.engine_of(game).redeal(viewer, 99)
        world.playout(5)
        assert world.winners is not None


def _hidden(f: tuple, viewer: int) -> int:
    """The cards of a position (fields) that ``viewer`` cannot see."""
    unknown_deck = sum(1 << c for c in f[3][: len(f[3]) - f[4]])
    hands = sum(h & ~k for s, (h, k) in enumerate(zip(f[0], f[2], strict=True)) if s != viewer)
    return hands | unknown_deck | f[7] & ~f[8] & ~f[9][viewer]


def test_redealt_worlds_are_uniform() -> None:
    """A hidden card of a fresh 2-player deal lands in the other hand 7 times in 42
    (the rest is the deck), as red7.core.worlds deals it."""
    game = Game(players=2, seed=5)
    twin = compiled.engine_of(game)
    viewer = game.current_player
    card = compiled.fields_of(game)[3][0]  # a card of the deck: hidden from both
    n = 4200
    inside = sum(twin.redeal(viewer, k).fields()[0][1 - viewer] >> card & 1 for k in range(n))
    assert abs(inside / n - 7 / 42) < 4 * (7 / 42 * 35 / 42 / n) ** 0.5


@pytest.mark.slow
@pytest.mark.parametrize("config", [Config(3, True, True), Config(4, False, True), Config(2, True, False)], ids=str)
def test_ismcts_on_compiled_worlds(config: Config) -> None:
    """ISMCTS searches in compiled code by default (red7/native/search.c): about the
    same iterations for a steps budget as the Python search (reference=1), legal
    choices, and the same choice for the same RNG."""
    from red7.bots import make_bot

    compiled_bot, reference = make_bot("ismcts:steps=3000"), make_bot("ismcts:steps=3000,reference=1")
    game = Game(config=config, seed=21)
    rng = random.Random(2)
    ratios = []
    while not game.is_over and game.decisions < 30:
        seat = game.current_player
        obs, options = game.observe(seat), game.options()
        choice = compiled_bot.choose(obs, options, random.Random(game.decisions))
        assert choice.id in game.legal_ids()
        assert compiled_bot.choose(obs, options, random.Random(game.decisions)) == choice
        reference.choose(obs, options, random.Random(game.decisions))
        if reference.last_iterations:  # else a single candidate: no search
            ratios.append(compiled_bot.last_iterations / reference.last_iterations)
        game.apply(choice if rng.random() < 0.5 else random_decision(game, rng))
    assert ratios and 0.8 < statistics.median(ratios) < 1.25

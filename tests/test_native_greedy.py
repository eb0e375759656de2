"""The compiled greedy (red7/native/greedy.c) against the Python bot, the compiled solver's
turn values against red7.solver, and pimc's opponent model (red7.bots.inference): its
compiled sampler against the Python reference."""

from __future__ import annotations

import random

import pytest

from red7 import Game
from red7.bots import inference, make_bot
from red7.bots.greedy import GreedyBot
from red7.bots.pimc import PIMCBot
from red7.bots.random_bot import random_decision
from red7.core import compiled
from red7.core.cards import names_of
from red7.core.model import Config
from red7.core.worlds import WorldSampler
from red7.solver import solve

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is off (RED7_NATIVE=0)")

CONFIGS = [Config(p, advanced, actions) for p in (2, 3, 4) for advanced in (False, True) for actions in (False, True)]
REFERENCE = GreedyBot(reference=1)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_compiled_greedy_decides_as_the_python_bot_in_the_same_worlds(config: Config) -> None:
    """Every decision of seeded games: the Python bot with its lazily sampled worlds, and
    the compiled search given the same eight worlds (sampled eagerly from a copy of the
    stream: the same worlds) decide the same. Among the seeds, advanced matches with
    lines ending a round in different ways (the leaf cache once mixed them up)."""
    decisions = 0
    for seed in range(100):
        if decisions >= 400:
            break
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            observation = game.observe(game.current_player)
            stream = random.Random(rng.random())
            copy = random.Random()
            copy.setstate(stream.getstate())
            expected = REFERENCE.choose(observation, game.options(), stream).id
            sampler = WorldSampler(observation)
            worlds = [compiled.engine_of(sampler.sample(copy)) for _ in range(8)]
            assert compiled.greedy_in(worlds) == expected, (game, decisions)
            game.apply_id(expected)
            decisions += 1
    assert decisions >= 400


def test_the_compiled_greedy_is_the_bot_where_no_card_is_drawn() -> None:
    """In the 2-player basic game no line draws a card: medium (compiled) and the Python
    reference make every decision alike, whatever their streams, also when offered only
    some of the options (pimc's tie-break)."""
    bot = make_bot("medium")
    assert isinstance(bot, GreedyBot) and bot.compiled
    pick = random.Random(0)
    for seed in range(30):
        game = Game(players=2, seed=seed)
        while not game.is_over:
            observation, options = game.observe(game.current_player), game.options()
            choice = bot.choose(observation, options, random.Random(seed)).id
            assert choice == REFERENCE.choose(observation, options, random.Random(seed + 1)).id
            some = pick.sample(options, max(1, len(options) // 2))  # a choice among some options only
            among = bot.choose(observation, some, random.Random(seed)).id
            assert among in {o.action.id for o in some}
            assert among == REFERENCE.choose(observation, some, random.Random(seed + 1)).id
            game.apply_id(choice)


def test_compiled_greedy_refuses_what_it_cannot_search() -> None:
    engine = compiled.engine(Config(2), 1)
    with pytest.raises(ValueError, match="1 to 64 worlds"):
        engine.greedy(1, 0)
    with pytest.raises(ValueError, match="same decision point"):
        compiled.greedy_in([])
    engine.playout(3)
    with pytest.raises(ValueError, match="nobody decides"):
        engine.greedy(1)
    with pytest.raises(ValueError, match="from 1 to 64"):
        GreedyBot(worlds=65)


def _positions(games: int) -> list[Game]:
    """Every decision point of random 2-player basic games (played by the random player)."""
    out = []
    for seed in range(games):
        game = Game(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            game.apply_id(random_decision(game, rng))
    return out


def test_compiled_turn_values_are_the_solvers() -> None:
    """Engine.turn_values gives solve(...).values (R4.2-R4.6, R6.2) at every decision point
    of 2-player basic games and advanced rounds whose deck is empty, mid-turn included."""
    checked = 0
    for game in _positions(40):
        assert dict(compiled.engine_of(game).turn_values()) == solve(game, plans=False).values, game
        checked += 1
    game = Game.from_position(
        [["R7", "O3", "Y2"], ["B5", "I6", "V1"]], [["G4"], ["R2"]], advanced=True, deck=[], current=0
    )
    for _ in range(6):
        if game.is_over:
            break
        assert dict(compiled.engine_of(game).turn_values()) == solve(game, plans=False).values
        game.apply_id(game.legal_ids()[0])
        checked += 1
    assert checked > 400
    with pytest.raises(ValueError, match="without chance"):
        compiled.engine(Config(3), 1).turn_values()


def _candidate(observation, world: Game) -> bool:
    """Does the compiled sampler keep ``world`` (the other hand it gives, the only candidate)?"""
    start = inference.round_start(observation)
    me = observation.seat
    hands = [start.game.observe(s).hand or 0 for s in range(2)]
    hands[1 - me] |= world.observe(1 - me).hand or 0
    palettes = start.game.observe(me).palettes
    template = Game.from_position(
        [names_of(h) for h in hands], [names_of(p) for p in palettes], current=start.game.current_player
    )
    kept, tried = compiled.engine_of(template).explained(me, (), (0, 0), start.history, 1, 1, 7)
    assert tried == 1
    return len(kept) == 1


def test_the_compiled_model_keeps_the_worlds_the_python_reference_keeps() -> None:
    """At every turn of games between greedy players: the true world explains the other
    player, and of sampled worlds the compiled sampler keeps exactly those that
    inference.explains keeps."""
    rng = random.Random(5)
    kept = checked = 0
    for seed in range(12):
        game = Game(players=2, seed=seed)
        while not game.is_over:
            observation = game.observe(game.current_player)
            assert inference.explains(game, observation) and _candidate(observation, game)
            for _ in range(3):
                world = WorldSampler(observation).sample(rng)
                verdict = inference.explains(world, observation)
                assert _candidate(observation, world) == verdict, (seed, observation.history)
                kept += verdict
                checked += 1
            game.apply_id(REFERENCE.choose(observation, game.options(), rng).id)
    assert 0 < kept < checked


def _seen(engine, seat: int) -> tuple:
    """What ``seat`` sees of a compiled game: its hand, the palettes, the canvas, the rule,
    whose turn and which step, every hand's size."""
    f = dict(zip(compiled.FIELDS, engine.fields(), strict=True))
    return (f["hands"][seat], f["palettes"], f["canvas"], f["rule"], f["current"], f["step"],
            tuple(h.bit_count() for h in f["hands"]))  # fmt: skip


@pytest.mark.parametrize("native", [True, False])
def test_explained_worlds_are_worlds_of_the_observation(native: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept worlds give the viewer exactly what it sees, and (Python path) each explains
    the other player; compiled and Python samplers alike."""
    if not native:
        monkeypatch.setattr(compiled, "available", lambda: False)
    rng = random.Random(2)
    for seed in range(4):
        game = Game(players=2, seed=seed)
        while not game.is_over:
            me = game.current_player
            observation = game.observe(me)
            worlds, tried = inference.explained_worlds(observation, rng, 4, 300)
            assert 0 < len(worlds) <= 4 and len(worlds) <= tried <= 300
            for world in worlds:
                if native:
                    assert _seen(world, me) == _seen(compiled.engine_of(game), me)
                else:
                    assert world.observe(me) == observation and inference.explains(world, observation)
            game.apply_id(REFERENCE.choose(observation, game.options(), rng).id)


def test_pimc_model_falls_back_on_plain_worlds_when_nothing_explains_the_other_player() -> None:
    """Against a random player, whose decisions greedy rarely explains, pimc with the model
    still decides, on plain worlds when no candidate explains the other player."""
    bot = PIMCBot(worlds=4, model=1, tries=50)
    fallbacks = 0
    for seed in range(6):
        game = Game(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            options = game.options()
            if game.current_player == 0:
                choice = bot.choose(game.observe(0), options, rng)
                assert choice.id in {o.action.id for o in options}
                fallbacks += bot.last_solved and not bot.last_explained
            else:
                choice = options[int(rng.random() * len(options))].action
            game.apply_id(choice.id)
    assert fallbacks > 0

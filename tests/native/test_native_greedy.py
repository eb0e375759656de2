"""The compiled greedy (red7/native/greedy.c) against the Python bot, and the compiled
solver's turn values against red7.solver (pimc's compiled parts)."""

from __future__ import annotations

import random

import pytest

from red7 import Game
from red7.bots import make_bot
from red7.bots.greedy import GreedyBot
from red7.bots.random_bot import random_decision
from red7.core import compiled
from red7.core.model import Config
from red7.core.worlds import WorldSampler
from red7.solver import solve
from tests.support.configs import CONFIGS

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is off (RED7_NATIVE=0)")

REFERENCE = GreedyBot(reference=1)


@pytest.mark.slow
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
    of 2-player basic games and advanced rounds whose deck is empty, mid-turn included, and
    Engine.plan_values's winning plans are solve(...).plans."""
    checked = 0
    for game in _positions(40):
        engine = compiled.engine_of(game)
        assert dict(engine.turn_values()) == solve(game, plans=False).values, game
        winning = {plan for plan, won in engine.plan_values() if won}
        assert winning == {tuple(a.id for a in plan) for plan in solve(game).plans}, game
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

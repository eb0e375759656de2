"""ISMCTS: budgets, reproducibility, search that sees only the observation, and strength."""

from __future__ import annotations

import random

import pytest

from red7 import Game
from red7.bots import BotSpecError, make_bot, play_game
from red7.bots.base import Option
from red7.bots.ismcts import ISMCTSBot, candidates, rollout_values


def options_of(game: Game) -> list[Option]:
    return [Option(a, s) for a, s in game.options()]


def test_budgets_are_exclusive_and_positive() -> None:
    """One budget per bot: iterations, simulated decisions or seconds, all positive."""
    with pytest.raises(TypeError):
        ISMCTSBot(iters=10, steps=10)
    for bad in ({"iters": 0}, {"steps": -5}, {"seconds": 0.0}, {"c": 0.0}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)  # type: ignore[arg-type]
    with pytest.raises(BotSpecError):
        make_bot("ismcts:steps=0")


def test_iteration_budget_is_exact_and_reproducible() -> None:
    """Deterministic for a seed and an iteration budget: same answer, same iterations."""
    game = Game(players=3, advanced=True, actions=True, seed=11)
    obs, opts = game.observation(game.current), options_of(game)
    answers = set()
    for _ in range(3):
        bot = ISMCTSBot(iters=60)
        answers.add(bot.choose(obs, opts, random.Random(4)))
        assert bot.last_iterations == 60
    assert len(answers) == 1


def test_steps_budget_stops_after_enough_simulated_decisions() -> None:
    """A steps budget ends the search once that many decisions were simulated: a few
    iterations for a small budget, more for a larger one."""
    game = Game(players=2, seed=3)
    obs, opts = game.observation(game.current), options_of(game)
    small, large = ISMCTSBot(steps=50), ISMCTSBot(steps=2000)
    small.choose(obs, opts, random.Random(1))
    large.choose(obs, opts, random.Random(1))
    assert 1 <= small.last_iterations < large.last_iterations


def test_a_single_candidate_is_answered_without_search() -> None:
    """R4.5: when conceding is all that is left, the bot concedes at once."""
    game = Game.from_position([["V1"], ["B2"]], [["O6"], ["R7"]], current=0)
    game.apply("play V1")
    bot = ISMCTSBot(iters=500)
    assert str(bot.choose(game.observation(0), options_of(game), random.Random(0))) == "concede"
    assert bot.last_iterations == 0


def test_candidates_are_the_safe_decisions_plus_an_early_concession_in_the_advanced_game() -> None:
    """R4.7: the search considers safe decisions; in the advanced game also conceding
    at the start of a turn (it can deny an opponent points, as the seeds point out)."""
    basic = Game(players=2, seed=5)
    assert [a for a in candidates(basic)] == [a.id for a in basic.safe_actions()]
    advanced = Game(players=2, advanced=True, seed=5)
    assert candidates(advanced) == [a.id for a in advanced.safe_actions()] + [246]


def test_values_of_a_finished_basic_game_and_of_a_match_in_progress() -> None:
    """Basic game: 1 for the winner. Advanced: a match in progress is valued from the
    scores (more points, more value; the values sum to 1)."""
    game = Game.from_position([["V1"], ["B2"]], [["O6"], ["R7"]], current=0)
    game.apply("concede")
    assert rollout_values(game) == [0.0, 1.0]
    match = Game(players=3, advanced=True, seed=2)
    match.scores = [30, 10, 0]
    values = rollout_values(match)
    assert values[0] > values[1] > values[2] and abs(sum(values) - 1) < 1e-9


def test_search_beats_random_play() -> None:
    """Even a small search wins most 2-player basic games against the random bot
    (20 deals played with both seatings; a fixed outcome for these seeds)."""
    bots = [make_bot("ismcts:iters=150"), make_bot("random")]
    wins = 0
    for deal in range(20):
        for first in (0, 1):
            seats = [bots[first], bots[1 - first]]
            played = play_game(seats, seed=300 + deal)
            wins += sum(seats[w] is bots[0] for w in played.winners)
    assert wins >= 30

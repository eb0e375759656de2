"""ISMCTS: budgets, reproducibility, search that sees only the observation (or, given
another world source, what that source shows it), and strength."""

from __future__ import annotations

import random

import pytest

from red7 import Game, Observation
from red7.bots import BotSpecError, make_bot
from red7.bots.ismcts import ISMCTSBot, candidates, rollout_values
from red7.core.cards import NAME_OF
from red7.core.worlds import WorldSampler
from red7.play import play_game


def test_budgets_are_exclusive_and_positive() -> None:
    """One budget per bot: iterations, simulated decisions or seconds, all positive."""
    with pytest.raises(TypeError):
        ISMCTSBot(iters=10, steps=10)
    for bad in ({"iters": 0}, {"steps": -5}, {"seconds": 0.0}, {"c": 0.0}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)
    with pytest.raises(BotSpecError):
        make_bot("ismcts:steps=0")


def test_iteration_budget_is_exact_and_reproducible() -> None:
    """Deterministic for a seed and an iteration budget: same answer, same iterations."""
    game = Game(players=3, advanced=True, actions=True, seed=11)
    obs, opts = game.observe(game.current_player), game.options()
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
    obs, opts = game.observe(game.current_player), game.options()
    small, large = ISMCTSBot(steps=50), ISMCTSBot(steps=2000)
    small.choose(obs, opts, random.Random(1))
    large.choose(obs, opts, random.Random(1))
    assert 1 <= small.last_iterations < large.last_iterations


def test_a_single_candidate_is_answered_without_search() -> None:
    """R4.5: when conceding is all that is left, the bot concedes at once."""
    game = Game.from_position([["V1"], ["B2"]], [["O6"], ["R7"]], current=0)
    game.apply("play V1")
    bot = ISMCTSBot(iters=500)
    assert str(bot.choose(game.observe(0), game.options(), random.Random(0))) == "concede"
    assert bot.last_iterations == 0


def test_candidates_are_the_safe_decisions_plus_an_early_concession_in_the_advanced_game() -> None:
    """R4.7: the search considers safe decisions; in the advanced game also conceding
    at the start of a turn (it can deny an opponent points, as the seeds point out)."""
    basic = Game(players=2, seed=5)
    assert candidates(basic) == [a.id for a in basic.safe_actions()]
    advanced = Game(players=2, advanced=True, seed=5)
    assert candidates(advanced) == [a.id for a in advanced.safe_actions()] + [246]


def test_values_of_a_finished_basic_game_and_of_a_match_in_progress() -> None:
    """Basic game: 1 for the winner. Advanced: a match in progress is valued from the
    scores (more points, more value; the values sum to 1)."""
    game = Game.from_position([["V1"], ["B2"]], [["O6"], ["R7"]], current=0)
    game.apply("concede")
    assert rollout_values(game) == [0.0, 1.0]
    match = Game.from_position(
        [["V1", "V2"], ["B2", "B3"], ["G2", "G3"]],
        [["O6"], ["R6"], ["Y6"]],
        scores=[["R7", "O7", "Y7", "G7", "O2"], ["B7", "I3"], []],  # 30, 10 and 0 points (R8.2)
        advanced=True,
    )
    assert match.scores == (30, 10, 0)
    values = rollout_values(match)
    assert values[0] > values[1] > values[2] and abs(sum(values) - 1) < 1e-9


# --- where the worlds come from --------------------------------------------------------------


class Recording:
    """A world source that samples as WorldSampler does and records its use."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self.samples = 0

    def __call__(self, observation: Observation) -> Recording:
        self.observations.append(observation)
        self.sampler = WorldSampler(observation)
        return self

    def sample(self, rng: random.Random) -> Game:
        self.samples += 1
        return self.sampler.sample(rng)


def test_the_world_source_is_asked_once_per_decision_and_sampled_once_per_iteration() -> None:
    """Injection: the source gets the decision's observation; every iteration plays in
    a world of its own from it (on the compiled engine, a compiled copy of it). With the
    default source's sampling, the answer is the default bot's, on Python worlds
    (reference=1: the compiled default samples its worlds in compiled code)."""
    game = Game(players=3, advanced=True, actions=True, seed=11)
    obs = game.observe(game.current_player)
    for reference in (0, 1):
        source = Recording()
        bot = ISMCTSBot(iters=40, reference=reference, world_source=source)
        answer = bot.choose(obs, game.options(), random.Random(2))
        assert source.observations == [obs]
        assert source.samples == bot.last_iterations == 40
    assert answer == ISMCTSBot(iters=40, reference=1).choose(obs, game.options(), random.Random(2))


def last_card_position(hidden_hand: str, deck: str) -> Game:
    """Basic game, rule Red, player 0 to move with its last card, V6, against player
    1's I4; player 1 holds one card, the other card player 0 cannot see is the deck;
    every other card is on the canvas (its top card R1 keeps the rule Red).

    Player 0 wins now either way, and whoever is left without an answer loses: after
    ``play V6`` player 1 survives only by playing a card above V6 (R3: a 7 or a
    stronger 6); after ``canvas V6`` (Violet, R3: B3 is the only card below 4) it
    survives by putting any non-violet card on the canvas. If player 1 survives,
    player 0 begins its next turn with an empty hand and is out (R4.1)."""
    hands = [["V6"], [hidden_hand]]
    palettes = [["B3"], ["I4"]]
    placed = {c for cards in (*hands, *palettes, [deck]) for c in cards}
    canvas = [name for name in NAME_OF if name not in placed and name != "R1"] + ["R1"]
    return Game.from_position(hands, palettes, deck=[deck], canvas=canvas)


class TrueGame:
    """A world source that shows the search the real game: every world is a copy of it."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, observation: Observation) -> TrueGame:
        assert observation == self.game.observe(observation.seat)
        return self

    def sample(self, rng: random.Random) -> Game:
        return self.game.clone()


def test_a_bot_shown_the_true_game_sees_the_hidden_card() -> None:
    """With the real game as every world (a fixed world), the search answers what only
    the hidden card decides, for every seed: against V7 the canvas (V7 cannot help
    under Violet), against O5 the play (O5 does not beat V6). The two positions look
    the same to player 0, and the honest bot decides the same in both (R9)."""
    violet, orange = last_card_position("V7", deck="O5"), last_card_position("O5", deck="V7")
    assert violet.observe(0) == orange.observe(0)
    assert [str(o.action) for o in violet.options()] == ["play V6", "canvas V6", "concede"]
    for seed in range(4):
        for game, answer in ((violet, "canvas V6"), (orange, "play V6")):
            seer = ISMCTSBot(iters=60, world_source=TrueGame(game))
            assert str(seer.choose(game.observe(0), game.options(), random.Random(seed))) == answer
        honest = ISMCTSBot(iters=60)
        assert honest.choose(violet.observe(0), violet.options(), random.Random(seed)) == honest.choose(
            orange.observe(0), orange.options(), random.Random(seed)
        )


def test_a_world_source_must_be_callable() -> None:
    with pytest.raises(ValueError, match="world_source"):
        ISMCTSBot(iters=10, world_source=3)  # type: ignore[arg-type]


# --- strength -------------------------------------------------------------------------------


def test_search_beats_random_play() -> None:
    """Even a small search wins most 2-player basic games against the random bot
    (20 deals played with both seatings)."""
    bots = [make_bot("ismcts:iters=150"), make_bot("random")]
    wins = 0
    for deal in range(20):
        for first in (0, 1):
            seats = [bots[first], bots[1 - first]]
            played = play_game(seats, seed=300 + deal)
            wins += sum(seats[w] is bots[0] for w in played.winners)
    assert wins >= 30

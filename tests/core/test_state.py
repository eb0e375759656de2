"""The game as one owner of its state: clones, fingerprints, position keys, and the
end of a match that never reaches its target (R8.6).

A :class:`Game` is fully described by its configuration, seed and decisions; its
state is private. These tests reach it only through the public API: ``clone()``
must share nothing mutable, ``fingerprint()`` must tell games apart exactly, and
``position_key()`` must forget how a position was reached.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import red7.core.game
from red7 import Config, Game, GameError, Step
from red7.core.model import MAX_ROUNDS, TARGETS
from tests.support.configs import CONFIGS
from tests.support.helpers import choose, settle
from tests.support.tiers import examples

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def position(config: Config, seed: int, moves: int, explicit_chance: bool = False) -> Game:
    """The game of ``seed`` after up to ``moves`` random decisions (chance settled
    at random when explicit); it may be over."""
    game = Game(config=config, seed=seed, explicit_chance=explicit_chance)
    rng = random.Random(seed)
    for _ in range(moves):
        settle(game, rng)
        if game.is_over:
            break
        game.apply_id(choose(game, rng))
    if rng.random() < 0.5:
        settle(game, rng)  # else it may stop at a chance node
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a caller can read of a game (beyond its fingerprint)."""
    return (
        game.fingerprint(),
        game.events,
        [game.hand(s) for s in range(game.players)],
        [game.palette(s) for s in range(game.players)],
        game.deck(),
        game.out_of_round(),
        game.legal_ids(),
        game.safe_ids(),
        game.chance_outcomes(),
        [game.observe(s) for s in [*range(game.players), None]],
    )


def branch(game: Game, rng: random.Random) -> tuple[list[Any], Any]:
    """Two different next steps of ``game`` (decision ids or chance outcomes) and the
    function applying one, or ([], None) when the game is over or has one way on."""
    if game.is_chance_node:
        return list(game.chance_outcomes()), game.apply_chance
    return game.legal_ids(), game.apply_id


# --- clone ------------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, moves=st.integers(0, 120), explicit=st.booleans())
def test_clone_shares_nothing_mutable(config: Config, seed: int, moves: int, explicit: bool) -> None:
    """clone(): a game and its clone, given different decisions (or chance outcomes),
    each leave the other exactly as it was; given the same one they stay equal."""
    game = position(config, seed, moves, explicit)
    rng = random.Random(seed)
    options, _ = branch(game, rng)
    if len(options) < 2:
        return
    a, b = rng.sample(options, 2)
    before = snapshot(game)
    copy, twin = game.clone(), game.clone()
    assert snapshot(copy) == before
    branch(game, rng)[1](a)
    assert snapshot(copy) == before and snapshot(twin) == before
    after = snapshot(game)
    branch(copy, rng)[1](b)
    assert snapshot(game) == after
    assert snapshot(copy) != after
    branch(twin, rng)[1](a)
    assert snapshot(twin) == after


def test_query_results_are_copies() -> None:
    """Lists a game hands out (hands, palettes, deck, legal decisions, outcomes) are
    the caller's: changing them changes nothing in the game."""
    game = Game(players=3, advanced=True, actions=True, seed=4)
    before = snapshot(game)
    for got in (game.hand(0), game.palette(1), game.deck(), game.out_of_round(), game.legal_ids(), game.safe_ids()):
        got.clear()
    game.legal_actions().clear()
    game.safe_or_concede_ids().append(-1)
    assert snapshot(game) == before


# --- fingerprint ----------------------------------------------------------------------------


@settings(max_examples=examples(40))
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, moves=st.integers(0, 120))
def test_fingerprint_tells_games_apart(config: Config, seed: int, moves: int) -> None:
    """fingerprint(): the same configuration, seed and decisions give equal
    fingerprints; every legal decision changes it, and different decisions give
    different fingerprints (the history is part of it)."""
    game = position(config, seed, moves)
    again = Game(config=config, seed=seed)
    for _, action in game.history:
        again.apply(action)
    assert again.fingerprint() == game.fingerprint()
    before = game.fingerprint()
    prints = set()
    for a in game.legal_ids():
        trial = game.clone()
        trial.apply_id(a)
        assert trial.fingerprint() != before
        prints.add(trial.fingerprint())
    assert len(prints) == len(game.legal_ids())


def test_fingerprint_covers_the_seed_and_the_chance_mode() -> None:
    """Equal deals from different sources are still different games: the seed decides
    the later rounds, and an explicit-chance game waits for its chance."""
    a = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]], seed=1)
    b = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]], seed=2)
    assert a.fingerprint() != b.fingerprint() and a.position_key() == b.position_key()
    assert Game(seed=5).fingerprint() == Game(seed=5).fingerprint()
    assert Game(seed=5).fingerprint() != Game(seed=5, explicit_chance=True).fingerprint()


# --- position_key -----------------------------------------------------------------------


def test_position_key_is_equal_for_transpositions() -> None:
    """R7.5: B5 then G5, or G5 then B5, reach the same position (palette, hand, step
    five): equal position keys, different fingerprints (different histories)."""
    hands, palettes = [["B5", "G5", "Y2", "V1"], ["O3"]], [["I4"], ["V2"]]
    first = Game.from_position(hands, palettes, actions=True)
    second = Game.from_position(hands, palettes, actions=True)
    for game, order in ((first, ("play B5", "play G5")), (second, ("play G5", "play B5"))):
        for action in order:
            game.apply(action)
        assert game.step is Step.FIVE
    assert first.position_key() == second.position_key()
    assert first.fingerprint() != second.fingerprint()
    assert first.observe(0).hand == second.observe(0).hand
    third = Game.from_position(hands, palettes, actions=True)
    third.apply("play B5")
    third.apply("play Y2")  # a different position: another palette
    assert third.position_key() != first.position_key()


@settings(max_examples=examples(30))
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, moves=st.integers(0, 120))
def test_position_key_differs_after_every_decision(config: Config, seed: int, moves: int) -> None:
    """Every decision changes the position (a card moves, or the step or player does),
    so the key changes too; decisions whose positions coincide are transpositions."""
    game = position(config, seed, moves)
    for a in game.legal_ids():
        trial = game.clone()
        trial.apply_id(a)
        assert trial.position_key() != game.position_key()


# --- R8.6: a match ends after its 64th round -----------------------------------------------


def test_r8_6_the_bound_is_64_rounds() -> None:
    """R8.6: the engine's bound is the rules' 64 rounds (the tests below lower the one
    red7.core.game reads; monkeypatch refuses a name that module does not have)."""
    assert MAX_ROUNDS == 64


@pytest.mark.parametrize("bound", [1, 2])
@pytest.mark.parametrize("config", [c for c in CONFIGS if c.advanced], ids=str)
def test_r8_6_a_match_ends_after_its_last_round_scored_as_r8_4(
    bound: int, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.6 (bound lowered to ``bound``): a match ends after round ``bound`` at the
    latest; unless a target (R8.3) or the cards (R8.4) ended it earlier, the highest
    score wins and equal highest scores share the victory (R8.4)."""
    monkeypatch.setattr(red7.core.game, "MAX_ROUNDS", bound)
    for seed in range(6):
        game = Game(config=config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply_id(choose(game, rng))
        result = game.result
        assert result is not None and result.rounds == game.round == len(game.round_results)
        assert result.rounds <= bound
        top = max(result.scores)
        if top >= TARGETS[config.players]:  # R8.3: the player who reached it
            assert result.winners == (game.round_results[-1].winner,)
        else:
            assert result.rounds == bound
            assert result.winners == tuple(s for s, score in enumerate(result.scores) if score == top)
        assert game.events[-1].to_json() == {"event": "game_over", **result.as_dict()}


def test_r8_6_equal_highest_scores_share_the_victory(monkeypatch: pytest.MonkeyPatch) -> None:
    """R8.6 + R8.4 Decision: both players hold 7 points; seat 1 concedes under Green and
    seat 0, with no even card, scores nothing (R8.2). With the bound at 1 the match ends
    there, shared; with the real bound a second round is dealt."""

    def tied() -> Game:
        return Game.from_position(
            [["B1"], ["B2"]], [["R7"], ["O5"]], canvas=["G3"], current=1, advanced=True, scores=[["V7"], ["I7"]]
        )

    game = tied()
    game.apply("concede")
    assert not game.is_over and game.round == 2 and game.scores == (7, 7)
    monkeypatch.setattr(red7.core.game, "MAX_ROUNDS", 1)
    game = tied()
    game.apply("concede")
    assert game.is_over and game.result is not None
    assert game.round_results[-1].points == 0
    assert (game.result.winners, game.result.scores, game.result.rounds) == ((0, 1), (7, 7), 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r8_6_random_matches_end_within_64_rounds(players: int) -> None:
    """R8.6 with the real bound: every match of random players ends, after at most 64
    rounds, consistently reported."""
    for seed in range(10):
        game = Game(players, advanced=True, actions=seed % 2 == 1, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply_id(choose(game, rng))
        assert game.result is not None and 1 <= game.result.rounds == len(game.round_results) <= 64


def test_r6_2_a_position_with_one_remaining_player_is_refused() -> None:
    """R6.2: a round ends as soon as one player is left, so a position whose other seats
    are all eliminated is not a turn: from_position refuses it (GameError) rather than
    build a game whose concession would leave nobody in the round."""
    with pytest.raises(GameError, match="R6.2"):
        Game.from_position([["R1"], ["B2"]], [["O7"], ["G6"]], eliminated=[1])

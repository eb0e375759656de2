"""The αμ search over sampled worlds (``pimc:depth=M``): the compiled search against
its pure-Python reference (red7.solver.alpha_mu), PIMC as its depth 1, and the bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from red7 import Game
from red7.bots import BotSpecError, make_bot
from red7.bots.pimc import PIMCBot
from red7.core import compiled
from red7.core.model import Step
from red7.core.worlds import WorldSampler
from red7.play import play_game
from red7.solver.alpha_mu import alpha_mu
from red7.solver.exact import clear_table
from tiers import size

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built here")


def turn_starts(games: int, worlds: int, seed: int, cards: int = 7) -> Iterator[tuple[Game, list[Game]]]:
    """Turn starts of random 2-player basic games where the mover holds at most ``cards``
    cards, each with ``worlds`` worlds sampled from the mover's observation (the first is
    the game itself)."""
    rng = random.Random(seed)
    for game_seed in range(games):
        game = Game(players=2, seed=seed * 1000 + game_seed)
        while not game.is_over:
            mover = game.current_player
            if game.step == Step.START and mover is not None and len(game.hand(mover)) <= cards:
                sampler = WorldSampler(game.observe(game.current_player))
                yield game, [game.clone()] + [sampler.sample(rng) for _ in range(worlds - 1)]
            game.apply_id(rng.choice(game.safe_or_concede_ids()))


def where_plan_leaves(game: Game, plan: tuple[int, ...]) -> tuple[int, int, int] | None:
    """Where a plan of decisions leaves the mover as the exact solver writes it (hand,
    palette, rule), as the engine plays it; None for a plan that puts the mover out (a
    lost turn, a concession)."""
    me = game.current_player
    assert me is not None
    after = game.clone()
    for action_id in plan:
        after.apply_id(action_id)
    if after.is_over and me not in (after.result.winners if after.result else ()):
        return None
    observation = after.observe(me)
    return observation.hand or 0, observation.palettes[me], after.rule


def reference(game: Game, worlds: list[Game], depth: int) -> dict[tuple[int, int, int], int]:
    me = game.current_player
    assert me is not None
    other = 1 - me
    hands = [w.observe(other).hand or 0 for w in worlds]
    observation = game.observe(me)
    return alpha_mu(
        observation.hand or 0, observation.palettes[me], hands, observation.palettes[other], game.rule, depth
    )


# Depths 2 and 3 take the reference half a minute: the full tier's.
@pytest.mark.parametrize("depth", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])
def test_compiled_alpha_mu_agrees_with_the_reference(depth: int) -> None:
    """On turn starts of random games, each with 6 worlds: the compiled search's best
    value is the reference's, every plan valued best is valued alike by both, and no
    plan is valued below its reference value (a plan left unsearched keeps its PIMC
    value, which bounds its αμ value from above). Depth 1 is exact for every plan. (The
    reference is slow: at depth 3 only hands of at most 6 cards.)"""
    compared = fused = 0
    for game, worlds in turn_starts(games=12, worlds=6, seed=depth, cards=7 if depth < 3 else 6):
        values, searched = compiled.alpha_mu([compiled.engine_of(w) for w in worlds], depth, 10**9)
        if not searched:
            continue  # a front grew too large: nothing to compare
        expected = reference(game, worlds, depth)
        ours: dict[tuple[int, int, int], int] = {}
        for plan, kept in values:
            leaves = where_plan_leaves(game, plan)
            if leaves is None:
                assert kept in (0, len(worlds)), f"a plan that ends the round keeps {kept} worlds"
            else:
                ours[leaves] = kept
        assert set(expected) <= set(ours), "a legal plan of the reference is missing"
        for leaves, kept in ours.items():
            assert kept >= expected.get(leaves, 0)
            if depth == 1 or kept == max(ours.values()):
                assert kept == expected.get(leaves, 0), (depth, leaves)
        assert max(ours.values(), default=0) == max(expected.values(), default=0)
        compared += 1
        fused += depth > 1 and max(expected.values(), default=0) < max(reference(game, worlds, 1).values(), default=0)
    assert compared >= 40
    if depth == 2:  # the sample holds a position where seeing the world would mislead the bot
        assert fused >= 1


def test_depth_one_is_pimc_over_plans() -> None:
    """At depth 1 a plan keeps the worlds in which it keeps the round won, as each
    world's exact plan values say (pimc's plans=1), at turn starts and within turns."""
    rng = random.Random(9)
    checked = 0
    for seed in range(8):
        game = Game(players=2, seed=seed)
        while not game.is_over:
            sampler = WorldSampler(game.observe(game.current_player))
            worlds = [compiled.engine_of(sampler.sample(rng)) for _ in range(10)]
            counts: Counter[tuple[int, ...]] = Counter()
            for world in worlds:
                counts.update({plan: int(won) for plan, won in world.plan_values()})
            values, searched = compiled.alpha_mu(worlds, 1, 1)
            assert searched and dict(values) == dict(counts)
            checked += 1
            game.apply_id(rng.choice(game.safe_or_concede_ids()))
    assert checked > 100


def test_deeper_values_never_exceed_shallower_ones() -> None:
    """Choosing more turns blind can only lose worlds: depth 2 values each plan at most
    as depth 1 does, and the best at depth 3 is at most the best at depth 2."""
    compared = deeper = 0
    for _game, worlds in turn_starts(games=size(2, 6), worlds=16, seed=4):
        engines = [compiled.engine_of(w) for w in worlds]
        shallow, _ = compiled.alpha_mu(engines, 1, 1)
        middle, searched = compiled.alpha_mu(engines, 2, 10**9)
        deep, deep_searched = compiled.alpha_mu(engines, 3, 10**9)
        if searched:
            assert all(v2 <= v1 for (_, v1), (_, v2) in zip(shallow, middle, strict=True))
            compared += 1
            if deep_searched:
                assert max(v for _, v in deep) <= max(v for _, v in middle)
                deeper += 1
    assert compared >= size(10, 40) and deeper >= size(10, 40), (
        "too few searches were done for the comparison to say anything"
    )


def test_a_search_past_its_nodes_gives_up_to_pimc_values() -> None:
    """With too few positions of the solver allowed, the search says it gave up and
    the values are depth 1's."""
    game = Game(players=2, seed=3)
    sampler = WorldSampler(game.observe(game.current_player))
    rng = random.Random(3)
    engines = [compiled.engine_of(sampler.sample(rng)) for _ in range(32)]
    clear_table()  # so that the search meets positions the solver has not seen
    values, searched = compiled.alpha_mu(engines, 2, 1)
    assert not searched
    assert values == compiled.alpha_mu(engines, 1, 1)[0]


def test_alpha_mu_refuses_worlds_of_different_positions() -> None:
    """The worlds must share the position but for the other player's hand."""
    a, b = Game(players=2, seed=1), Game(players=2, seed=2)
    with pytest.raises(ValueError, match="same position"):
        compiled.alpha_mu([compiled.engine_of(a), compiled.engine_of(b)], 2, 1000)
    with pytest.raises(ValueError, match="two players without chance"):
        compiled.alpha_mu([compiled.engine_of(Game(players=3, seed=1))], 2, 1000)
    with pytest.raises(ValueError, match="at least 1"):
        compiled.alpha_mu([compiled.engine_of(a)], 0, 1000)


def test_pimc_with_depth_plays_whole_games() -> None:
    """``pimc:depth=2`` plays legal decisions through whole games against ``medium``, its
    decisions coming from the search, and its options are checked."""
    bot = make_bot("pimc:worlds=12,depth=2,model=1,tries=2000")
    assert isinstance(bot, PIMCBot) and bot.depth == 2
    searched = 0

    def count(game: Game) -> None:  # the bot's last decision, seen before the next one
        nonlocal searched
        searched += bot.last_searched

    for seed in range(3):
        played = play_game([bot, make_bot("medium")], seed, before_decision=count)
        assert played.game.is_over
    assert searched > 0
    with pytest.raises(BotSpecError, match="depth"):
        make_bot("pimc:depth=0")
    with pytest.raises(BotSpecError, match="nodes"):
        make_bot("pimc:depth=2,nodes=0")

"""A fuzz of every entry point of the compiled module (red7.native._core): random
fields, random sizes, random arguments and random decisions, illegal ones included.

Each call either answers or refuses with ValueError, TypeError (an argument of the
wrong type) or RuntimeError (the engine called back, or used out of turn); nothing
else, and never a crash, a hang or a write out of bounds, which the test cannot see
by itself: ``make sanitize`` runs this module (with the differential tests of the
compiled core) on a build under AddressSanitizer and UndefinedBehaviorSanitizer, where
any such finding fails the run. One property the test checks itself: every position a
call leaves where a player decides loads again, that is, the legal decisions keep a
position whole (so the engine needs no check per decision, only ``Engine.load``'s).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from red7 import native
from red7.core import compiled
from red7.core.cards import COLOUR_OF, VALUE_OF
from red7.core.model import Config
from red7.core.seeds import DEAL, LEGACY_DEAL, deal_key
from red7.envs.encoding import OFFSETS
from tests.support.tiers import examples

if native.core is None:
    pytest.skip("the compiled core is off (RED7_NATIVE=0) or not built", allow_module_level=True)

core = native.core
REFUSALS = (ValueError, TypeError, RuntimeError)
"""How an entry point may refuse a call."""
DECIDING = 6
"""Steps below this one are a player's decision (red7.core.model.Step.OVER is 6)."""
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.lists(st.integers(-3, 2**50), max_size=60).map(tuple),
    st.lists(st.one_of(st.none(), st.integers(-(2**65), 2**65), st.text(max_size=2)), max_size=5),
)
"""Anything a caller might pass where the engine wants something else."""


def ints(low: int, high: int) -> st.SearchStrategy[int]:
    """Mostly ints of [low, high], sometimes ones beyond any C integer type (for an argument
    whose every value out of [low, high] is refused: never a count of work to do)."""
    return st.one_of(st.integers(low, high), st.integers(low, high), st.integers(-(2**70), 2**70))


def round_keys(seed: int) -> Callable[[int], Any]:
    """How the rounds of the game of ``seed`` are shuffled: from SplitMix64 for an even
    seed, the Mersenne Twister of version 1 records for an odd one (both in C)."""
    deal = LEGACY_DEAL if seed % 2 else DEAL
    return lambda r: deal_key(seed, r, deal)


@st.composite
def whole_positions(draw: st.DrawFn) -> tuple[Config, dict[str, Any]]:
    """A position where a player decides that holds together (``r7_check``'s rules):
    any configuration, seats out of the round, known cards, a deck with a public top,
    score piles, and every step (a 5's, a 7's with its pending card, a 1's, the draw);
    hands mostly of a game's sizes, sometimes of 24 cards (beyond the solver's limit)."""
    players = draw(st.integers(2, 4))
    advanced, actions = draw(st.booleans()), draw(st.booleans())
    cards = list(draw(st.permutations(range(49))))

    def take(n: int) -> list[int]:
        taken = cards[:n]
        del cards[:n]
        return taken

    def mask(cs: list[int]) -> int:
        return sum(1 << c for c in cs)

    alive = [True] * players
    for seat in draw(st.lists(st.integers(0, players - 1), unique=True, max_size=players - 2)):
        alive[seat] = False
    big = draw(st.sampled_from([7, 7, 7, 24]))  # (the solver takes long on hands of 10)
    hands = [mask(take(draw(st.integers(0, big)))) if alive[s] else 0 for s in range(players)]
    palettes = [mask(take(draw(st.integers(0, 5)))) if alive[s] else 0 for s in range(players)]
    known = [h & draw(st.integers(0, (1 << 49) - 1)) if draw(st.booleans()) else 0 for h in hands]
    deck = take(draw(st.integers(0, 10)))
    canvas = take(draw(st.integers(0, 4)))
    piles = [mask(take(draw(st.integers(0, 3)))) for _ in range(players)] if advanced else [0] * players
    out = mask(cards)
    out_known = out & draw(st.integers(0, (1 << 49) - 1))
    out_own = [0] * players
    free = out & ~out_known
    for seat in range(players):
        if not alive[seat]:
            out_own[seat] = free & draw(st.integers(0, (1 << 49) - 1))
            free &= ~out_own[seat]
    current = draw(st.sampled_from([s for s in range(players) if alive[s]]))
    step = draw(st.integers(0, 5))
    pending = None
    sevens = [c for c in range(49) if palettes[current] >> c & 1 and VALUE_OF[c] == 7]
    if step in (2, 3, 4) and not actions or step == 5 and not (advanced and deck):
        step = 0
    if step == 3:
        if sevens and palettes[current] & ~(1 << sevens[0]):
            pending = draw(st.sampled_from(sevens))
        else:
            step = 1
    fields = {
        "hands": tuple(hands),
        "palettes": tuple(palettes),
        "known_hand_cards": tuple(known),
        "deck": tuple(deck),
        "deck_known_count": draw(st.integers(0, len(deck))),
        "canvas": tuple(canvas),
        "rule": COLOUR_OF[canvas[-1]] if canvas else 0,
        "out_of_round": out,
        "out_of_round_known": out_known,
        "out_of_round_own": tuple(out_own),
        "score_piles": tuple(piles),
        "scores": tuple(sum(VALUE_OF[c] for c in range(49) if p >> c & 1) for p in piles),
        "alive": tuple(alive),
        "current": current,
        "step": step,
        "pending": pending,
        "round": draw(st.integers(1, 64)),
        "turns": draw(st.integers(0, 2000)),
    }
    return Config(players, advanced, actions), fields


def load(config: Config, fields: dict[str, Any], seed: int = 0) -> Any:
    return core.Engine.load(*config.as_dict().values(), round_keys(seed), tuple(fields[f] for f in compiled.FIELDS))


def reload(engine: Any, config: Config) -> None:
    """Where a player decides, the position loads again: it still holds together."""
    if engine.step < DECIDING:
        again = core.Engine.load(*config.as_dict().values(), round_keys(0), engine.fields())
        assert again.fields() == engine.fields()


def refused(call: Callable[[], Any]) -> Any:
    """The call's answer, or None when it refuses as an entry point may."""
    try:
        return call()
    except REFUSALS:
        return None


@settings(FUZZ, max_examples=examples(3000))
@given(whole_positions(), st.sampled_from(compiled.FIELDS), junk, st.booleans())
def test_any_fields_load_whole_or_are_refused(
    position: tuple[Config, dict[str, Any]], field: str, value: Any, spoil: bool
) -> None:
    """A whole position loads and gives back its fields; one field replaced by anything
    loads only if the result still holds together (it then loads again), else it is
    refused with a ValueError or a TypeError."""
    config, fields = position
    engine = load(config, fields)
    assert engine.fields() == tuple(fields[f] for f in compiled.FIELDS)
    if spoil:
        engine = refused(lambda: load(config, {**fields, field: value}))
        if engine is not None:
            reload(engine, config)


@settings(FUZZ, max_examples=examples(2000))
@given(ints(-1, 6), st.booleans(), st.booleans(), st.tuples(*[junk] * 4), st.integers(0, 25))
def test_any_arguments_of_the_loaders_are_refused_or_answered(
    players: int, advanced: bool, actions: bool, args: tuple[Any, ...], length: int
) -> None:
    """Engine(), Engine.load and the round keys they call for: wrong counts, wrong
    types, keys of any length and words of any size, a key function that raises."""
    refused(lambda: core.Engine(players, advanced, actions, lambda r: args[0]))
    refused(lambda: core.Engine(players, advanced, actions, args[1]))
    refused(lambda: core.Engine.load(players, advanced, actions, round_keys(1), args[2]))
    refused(lambda: core.Engine.load(players, advanced, actions, args[3], tuple(range(length))))

    def broken(r: int) -> list[int]:
        raise LookupError(f"no key for round {r}")

    with pytest.raises(LookupError if 2 <= players <= 4 else ValueError):  # the key's own error comes through
        core.Engine(players, advanced, actions, broken)


def engines_like(engine: Any, config: Config, data: st.DataObject) -> list[Any]:
    """1 to 9 worlds: mostly the engine's own worlds (sampled for its mover), sometimes
    other positions (which the searches over worlds must refuse)."""
    worlds = [engine]
    for _ in range(data.draw(st.integers(0, 8))):
        if data.draw(st.integers(0, 4)):
            world = refused(lambda: engine.redeal(engine.current or 0, data.draw(st.integers(0, 2**64 - 1))))
        else:
            other, fields = data.draw(whole_positions())
            world = load(other, fields)
        if world is not None:
            worlds.append(world)
    return worlds


def call_at_random(engine: Any, config: Config, data: st.DataObject) -> None:
    """One entry point of the engine (or of the module, on this engine's worlds) with
    arguments drawn at random, right and wrong."""
    draw = data.draw
    seed = draw(st.integers(0, 2**64 - 1))
    seat = draw(st.one_of(st.just(engine.current or 0), ints(-2, 5)))
    ids = draw(st.lists(st.integers(-2, 260), max_size=6))
    legal = engine.legal()
    kind = draw(st.integers(0, 14))
    if kind <= 3:  # decisions: legal ones mostly, illegal ones too
        choice = draw(st.sampled_from(legal)) if legal and kind else draw(st.one_of(st.integers(-5, 300), junk))
        before = engine.fields()
        try:
            engine.apply(choice)
        except REFUSALS:
            assert engine.fields() == before  # a refused decision changes nothing
        else:
            assert choice in legal
    elif kind == 4:
        engine.playout(seed, draw(st.booleans()))
    elif kind == 5:
        refused(lambda: engine.encode(draw(st.one_of(st.integers(-3, 6), junk))))
        assert engine.options() == [(a, a in engine.safe_ids()) for a in engine.legal_ids()]
        assert engine.clone().fields() == engine.fields()
        _ = (engine.current, engine.round, engine.is_over, engine.scores, engine.winners, engine.round_results)
    elif kind == 6:
        among = draw(st.one_of(st.none(), st.just(ids), st.lists(st.sampled_from(legal or [0]), max_size=4)))
        refused(lambda: engine.greedy(seed, draw(st.integers(-1, 9)), draw(st.booleans()), among, draw(st.booleans())))
    elif kind == 7:
        refused(engine.turn_values)
        refused(engine.plan_values)
    elif kind == 8:
        refused(lambda: engine.redeal(seat, seed))
    elif kind == 9:
        extra = draw(st.one_of(st.just(ids), st.lists(st.sampled_from(legal or [246]), max_size=3)))
        pool = draw(st.one_of(st.none(), st.just(engines_like(engine, config, data)), junk))
        budget = draw(st.sampled_from([(30, 0, 0.0), (0, 200, 0.0), (0, 0, 0.0), (-1, 5, 0.0), (5, 0, float("nan"))]))
        c = draw(st.sampled_from([0.7, 0.0, -1.0, float("nan")]))
        refused(lambda: engine.ismcts(seat, seed, *budget, c, extra, pool))
    elif kind == 10:
        refused(lambda: core.greedy_in(engines_like(engine, config, data)))
    elif kind == 11:
        replay_at_random(engine, config, data)
    elif kind == 12:
        refused(lambda: core.greedy_in(draw(junk)))
    else:
        refused(lambda: engine.legal_ids() and engine.apply_id(draw(st.sampled_from(engine.legal_ids()))))


def replay_at_random(engine: Any, config: Config, data: st.DataObject) -> None:
    """Engine.replayed on this engine, or on a round's start made of it (its hands and
    deck out of the round), with random deals, draws, required cards, pool and history."""
    draw = data.draw
    start = engine
    if engine.step < DECIDING and draw(st.booleans()):
        fields = dict(zip(compiled.FIELDS, engine.fields(), strict=True))
        gone = sum(fields["hands"]) | sum(1 << c for c in fields["deck"])
        fields.update(
            hands=(0,) * config.players,
            known_hand_cards=(0,) * config.players,
            deck=(),
            deck_known_count=0,
            out_of_round=fields["out_of_round"] | gone,
            step=0,
            pending=None,
        )
        start = refused(lambda: load(config, fields)) or engine
    n = config.players
    cards = st.integers(-1, 50)
    refused(
        lambda: start.replayed(
            draw(st.integers(-1, n)),
            draw(st.lists(st.integers(-1, 12), min_size=n - 1, max_size=n + 1)),
            draw(st.lists(st.tuples(st.integers(-1, 40), st.integers(-1, n)), max_size=6)),
            draw(st.lists(st.tuples(st.integers(-1, n), cards, st.integers(-1, 40)), max_size=10)),
            draw(st.one_of(st.lists(cards, max_size=49), st.permutations(range(49)).map(lambda p: p[:30]))),
            draw(st.lists(st.integers(-1, 250), max_size=12)),
            draw(st.integers(-1, 3)),
            draw(st.integers(-1, 3)),
            draw(st.integers(-1, 20)),
            draw(st.integers(0, 2**64 - 1)),
        )
    )


@settings(FUZZ, max_examples=examples(1500))
@given(whole_positions(), st.data())
def test_any_call_on_any_position_answers_or_refuses_and_keeps_it_whole(
    position: tuple[Config, dict[str, Any]], data: st.DataObject
) -> None:
    config, fields = position
    engine = load(config, fields, data.draw(st.integers(0, 2**40)))
    for _ in range(data.draw(st.integers(1, 12))):
        call_at_random(engine, config, data)
        reload(engine, config)


def test_a_round_key_that_calls_its_engine_back_deals_nothing() -> None:
    """round_key is Python: one that plays the engine's game to its end while the engine
    waits for the key gets a RuntimeError, and the engine is left as the call left it."""
    engines: list[Any] = []

    def meddling(r: int) -> list[int]:
        if r > 1 and len(engines) == 1:
            engines.append(None)  # once: the playout below asks for keys too
            engines[0].playout(7)
        return [r]

    engine = core.Engine(2, True, False, meddling)
    engines.append(engine)
    with pytest.raises(RuntimeError, match="round_key changed the engine that waited for its key"):
        while not engine.is_over:
            engine.apply(engine.legal()[-1])
    assert engine.is_over and engine.winners is not None


@settings(FUZZ, max_examples=examples(3000))
@given(
    st.integers(-1, 7),
    st.one_of(st.integers(-2, (1 << 49) + 2), junk),
    st.one_of(st.integers(0, (1 << 49) - 1), junk),
    st.integers(0, (1 << 49) - 1),
    st.integers(0, (1 << 49) - 1),
)
def test_the_solvers_functions_answer_or_refuse(rule: int, a: Any, b: Any, c: int, d: int) -> None:
    """key, children and won on any masks: overlapping, beyond the 49 cards, negative,
    of any size (won's search is kept to small hands: a 10-card one takes long)."""
    refused(lambda: core.key(rule, a))
    refused(lambda: core.children(a, b, c, rule))
    small = [sum(1 << k for k in [k for k in range(49) if m >> k & 1][:4]) for m in (c, d)]
    refused(lambda: core.won(small[0], b, small[1], a, rule))
    refused(lambda: core.won(c, 0, d, 0, rule) if max(c.bit_count(), d.bit_count()) > 10 else None)


@settings(FUZZ, max_examples=examples(300))
@given(ints(-1, 5), st.booleans(), st.booleans(), st.integers(-1, 2**64), st.integers(-1, 3), junk)
# found by the full budget under the sanitizers: a negative seat seed was an OverflowError
@example(players=3, advanced=False, actions=False, seed=0, games=0, junk_key=(0, 0, -1))
@example(players=2, advanced=False, actions=False, seed=0, games=1, junk_key=-1)
def test_the_random_games_answer_or_refuse(
    players: int, advanced: bool, actions: bool, seed: int, games: int, junk_key: Any
) -> None:
    refused(lambda: core.random_games(players, advanced, actions, seed, games))
    refused(lambda: core.stream_sample(seed, games, games, games))
    refused(lambda: core.stream_sample(junk_key, 1, 1, 1))
    refused(lambda: core.design_game(players, advanced, actions, round_keys(seed), [1, 2, 3, 4][: max(players, 0)]))
    refused(lambda: core.design_game(players, advanced, actions, lambda r: junk_key, junk_key))


def arrays(count: int, wrong: int) -> list[Any]:
    """The seven arrays of VectorGames, or with the `wrong`-th of another size or type."""
    made = [
        np.zeros((count, 873), np.int8),
        np.zeros((count, 249), np.int8),
        np.zeros(count, np.float32),
        np.zeros(count, np.bool_),
        np.zeros(count, np.bool_),
        np.zeros(count, np.int8),
        np.zeros((count, 4), np.float32),
    ]
    if 0 <= wrong < 7:
        made[wrong] = np.zeros(made[wrong].size + 1, made[wrong].dtype)
    elif wrong == 7:
        made[1] = made[1][:, ::2]  # not contiguous
    return made


@settings(FUZZ, max_examples=examples(600))
@given(
    st.integers(0, 6),
    ints(1, 5),
    st.booleans(),
    st.booleans(),
    ints(-3, 4),
    st.booleans(),
    st.booleans(),
    st.integers(-1, 40),
    st.data(),
)
def test_the_vector_games_judge_any_action_by_their_own_state(
    count: int,
    players: int,
    advanced: bool,
    actions: bool,
    seat: int,
    safe: bool,
    greedy: bool,
    wrong: int,
    data: st.DataObject,
) -> None:
    """VectorGames of any size and arguments, stepped with any actions while the caller
    scribbles over the mask it was handed: an action is illegal exactly when the mask the
    games wrote left it out, and the views stay views of real positions."""
    made = arrays(max(count, 1), wrong)
    games = refused(lambda: core.VectorGames(count, players, advanced, actions, seat, safe, 1, *made, greedy))
    if games is None:
        return
    obs, mask, reward, terminated, illegal, seats, returns = made
    with pytest.raises(RuntimeError, match="reset"):
        games.step(np.zeros(count, np.int64))
    games.reset()
    for _ in range(data.draw(st.integers(1, 20))):
        allowed = mask.copy()
        mask[:] = data.draw(st.integers(0, 1))  # the caller scribbles over the mask
        pick = st.one_of(st.integers(-3, 260), st.integers(-(2**63), 2**63 - 1))
        chosen = np.array(
            [
                data.draw(st.sampled_from(np.flatnonzero(row).tolist()) if data.draw(st.booleans()) else pick)
                for row in allowed
            ],
            np.int64,
        )
        with pytest.raises(ValueError, match="an int64 array of"):
            games.step(chosen[:-1] if data.draw(st.booleans()) else chosen.astype(np.int32))
        games.step(chosen)
        assert illegal.tolist() == [not (0 <= a < 249 and allowed[i, a]) for i, a in enumerate(chosen)]
        assert (obs[:, OFFSETS["deck_size"]] <= 49).all() and (mask.sum(axis=1) >= 1).all()
        assert (reward[illegal] == -1).all() and terminated[illegal].all()

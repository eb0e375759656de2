"""The opponent model's worlds (red7.bots.inference): the round's public log (R9), the
round rebuilt from it, deals that replay to the position the viewer sees, the true deal
among them, and the compiled replay judging deals as the Python reference does."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from red7 import Game
from red7.bots import inference, make_bot
from red7.bots.pimc import PIMCBot
from red7.core import compiled
from red7.core.cards import parse_index
from red7.core.model import Config
from tests.support import corpora
from tests.support.configs import CONFIGS
from tests.support.corpora import played

native = pytest.mark.skipif(not compiled.available(), reason="the compiled core is off (RED7_NATIVE=0)")
SEEN = ("hand", "palettes", "canvas", "rule", "hand_sizes", "alive", "known_hand_cards", "deck_size", "deck_known_top",
        "out_of_round_count", "out_of_round_known", "scores", "step", "current_player")  # fmt: skip
"""What the viewer sees of a position (the fields of its observation that its replay must give)."""


def test_the_round_log_is_public_R9() -> None:
    """Every viewer sees the same log: where the round began, the palettes dealt, and each
    draw with the card only when everyone saw it (a tucked card, R7.z); the history at its
    start belongs to the round before."""
    draws = public = 0
    for game, dealt in played(Config(3, True, True), range(6)):
        log = game.round_log
        assert all(game.observe(seat).round_log == log for seat in (0, 1, 2, None))
        assert log.dealt and log.start == len(dealt.history) and log.palettes == tuple(dealt.observe(None).palettes)
        for i, seat, card in log.draws:
            assert log.start <= i < len(game.history) and 0 <= seat < 3
            public += card >= 0
        draws += len(log.draws)
    assert draws > 50 and 0 < public < draws


def true_past(game: Game, dealt: Game) -> inference.RoundPast:
    """The round rebuilt for the mover, with the true deal as the cards each place held."""
    me = game.current_player
    past = inference.round_past(game.observe(me))
    deck = [parse_index(name) for name in dealt.deck()]  # top first
    required = [(seat, parse_index(c), 0) for seat in range(game.players) for c in dealt.hand(seat)]
    drawn = [(seat, deck[k], at + 1) for k, (at, seat) in enumerate(past.draws)]
    rest = tuple(deck[len(past.draws) :])
    return inference.RoundPast(
        past.observation, past.first, past.dealt, past.draws, tuple(required + drawn), rest, past.history
    )


def same_position(world: object, game: Game) -> None:
    """The compiled ``world`` is ``game``'s position, its deck's unknown order aside."""
    a = dict(zip(compiled.FIELDS, world.fields(), strict=True))  # type: ignore[attr-defined]
    b = dict(zip(compiled.FIELDS, compiled.fields_of(game), strict=True))
    for name in compiled.FIELDS:
        if name == "deck":
            known = b["deck_known_count"]
            assert (
                sorted(a[name]) == sorted(b[name])
                and a[name][len(a[name]) - known :] == b[name][len(b[name]) - known :]
            )
        elif name not in ("round", "turns"):
            assert a[name] == b[name], (name, a[name], b[name])


@native
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_true_deal_replays_to_the_game(config: Config) -> None:
    """Given the true deal as the cards each place held (the deal's hands; the unseen draws
    from the top of the deck, in order), the compiled replay reaches the game itself, every
    hidden card in its place: the places, the deadlines and the deck are rebuilt right."""
    checked = 0
    for game, dealt in played(config, range(4)):
        if not inference.applies(game.observe(game.current_player)):
            continue
        past = true_past(game, dealt)
        start = compiled.load(config, past.start_fields())
        history = [a for _, a in past.history]
        kept, tried, broken = start.replayed(
            game.current_player, past.dealt, past.draws, past.required, past.pool, history, 10**6, 1, 1, 1
        )
        assert broken == 0 and tried == 1 and len(kept) == 1
        same_position(kept[0][0], game)
        checked += 1
    assert checked > 30


@pytest.mark.slow
@pytest.mark.parametrize("use_native", [True, False])
@pytest.mark.parametrize("config", [Config(2), Config(3, True, True), Config(4, True, False)], ids=str)
def test_deals_replay_to_what_the_viewer_sees(
    config: Config, use_native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random deals of the rebuilt round, compiled or in Python, replay legally (the Python
    replay checks every decision) to worlds in which the viewer sees what it sees in the
    game: its hand, the palettes, the canvas, every count."""
    if not use_native:
        monkeypatch.setattr(compiled, "available", lambda: False)
    elif not compiled.available():
        pytest.skip("the compiled core is off")
    rng = random.Random(3)
    checked = 0
    for game, _ in played(config, range(2 if config.advanced else 20)):
        me = game.current_player
        observation = game.observe(me)
        if not inference.applies(observation) or rng.random() < (0.7 if use_native else 0.93):
            continue
        worlds, tried = inference.explained_worlds(observation, rng, 2, 2, most=10**6)
        assert len(worlds) == tried == 2
        for world, unexplained in worlds:
            assert 0 <= unexplained <= len(observation.history)
            seen = world.observe(me) if isinstance(world, Game) else None
            if seen is not None:
                assert all(getattr(seen, k) == getattr(observation, k) for k in SEEN)
            else:
                a = dict(zip(compiled.FIELDS, world.fields(), strict=True))
                b = dict(zip(compiled.FIELDS, compiled.fields_of(game), strict=True))
                assert (
                    a["hands"][me] == b["hands"][me] and a["palettes"] == b["palettes"] and a["canvas"] == b["canvas"]
                )
                assert [h.bit_count() for h in a["hands"]] == [h.bit_count() for h in b["hands"]]
                assert (a["current"], a["step"], len(a["deck"]), a["known_hand_cards"]) == (
                    b["current"], b["step"], len(b["deck"]), b["known_hand_cards"])  # fmt: skip
            checked += 1
    assert checked > 3


@native
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_replay_judges_a_deal_as_the_python_reference(players: int) -> None:
    """Where greedy draws no unknown card (basic games without action cards) its decisions
    do not depend on its stream: a deal dealt in Python leaves as many of the other players'
    decisions unexplained in the compiled replay as in the Python one; and between greedy
    players the true deal leaves none."""
    config = Config(players)
    rng = random.Random(players)
    compared = explained = 0
    for game, dealt in played(config, range(10), mixed=False):
        me = game.current_player
        observation = game.observe(me)
        past = inference.round_past(observation)
        history = [a for _, a in past.history]
        start = compiled.load(config, past.start_fields())
        truth = true_past(game, dealt)
        kept, _, _ = start.replayed(me, truth.dealt, truth.draws, truth.required, truth.pool, history, 0, 1, 1, 1)
        assert len(kept) == 1 and kept[0][1] == 0
        for _ in range(2):
            world = inference.deal(past, rng)
            expected = inference.mismatches(world.clone(), past, 10**6, rng)
            required = tuple((s, parse_index(c), 0) for s in range(players) for c in world.hand(s))
            kept, _, broken = start.replayed(me, past.dealt, (), required, (), history, 10**6, 1, 1, 2)
            assert broken == 0 and kept[0][1] == expected
            compared += 1
            explained += expected == 0
    assert compared > 50 and 0 < explained < compared


@pytest.mark.slow
@pytest.mark.parametrize("compiled_replay", [pytest.param(True, marks=native), False])
def test_a_judgement_budget_bounds_the_work_of_the_replays(compiled_replay: bool) -> None:
    """``judgements=J``: no deal starts once greedy has judged J decisions of the others,
    in the compiled replay as in Python: with J=1 a single deal is tried (a deal of a round
    in which the other player decided judges at least one); a bound never reached changes
    nothing (the same worlds from the same stream)."""
    checked = 0
    for game, _ in played(Config(2), range(6), mixed=False):
        observation = game.observe(game.current_player)
        past = inference.round_past(observation)
        if not any(seat != observation.seat for seat, _ in past.history):
            continue
        kept, tried = inference.explained_worlds(
            observation, random.Random(1), 64, 10**6, native=compiled_replay, judgements=1
        )
        assert tried == 1 and len(kept) <= 1
        free, free_tried = inference.explained_worlds(observation, random.Random(2), 4, 500, native=compiled_replay)
        bound, bound_tried = inference.explained_worlds(
            observation, random.Random(2), 4, 500, native=compiled_replay, judgements=10**9
        )
        assert free_tried == bound_tried and [k for _, k in free] == [k for _, k in bound]
        checked += 1
    assert checked > 3


def test_pimc_model_falls_back_on_plain_worlds_when_nothing_explains_the_other_player() -> None:
    """Against a random player, whose decisions greedy rarely explains, pimc with the model
    still decides, on plain worlds when no deal explains the other player."""
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


def test_a_position_given_card_by_card_has_no_round_to_rebuild() -> None:
    game = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]])
    assert not game.round_log.dealt and not inference.applies(game.observe(0))
    assert make_bot("pimc:model=1,worlds=2").choose(game.observe(0), game.options(), random.Random(0))


@pytest.mark.parametrize("share", [0.01, pytest.param(0.2, marks=pytest.mark.slow)])
def test_weighted_worlds_favour_the_deals_greedy_explains(share: float) -> None:
    """Resampled by weight (MISMATCH ** unexplained decisions), the pool's worlds leave
    fewer of the other players' decisions unexplained than the deals it draws from; the
    search plays them, compiled or in Python, and decides legally (at a ``share`` of the
    decision points of two greedy matches: the Python search takes a second at each)."""
    rng = random.Random(8)
    before = after = positions = 0
    for game, _ in played(Config(3, True, True), range(2), mixed=False):
        observation = game.observe(game.current_player)
        if len(observation.history) - observation.round_log.start < 6 or rng.random() >= share:
            continue
        deals, _ = inference.explained_worlds(observation, random.Random(1), 32, 32, most=10**6)
        pool = inference.weighted_worlds(observation, random.Random(1), 32)
        count = {world_key(w): k for w, k in deals}  # the same stream deals the same worlds
        assert len(pool) == 32 and all(world_key(w) in count for w in pool)
        before += sum(k for _, k in deals) / 32
        after += sum(count[world_key(w)] for w in pool) / 32
        positions += 1
        for spec in ("ismcts:iters=200,model=1,deals=16", "ismcts:iters=30,model=1,deals=4,reference=1"):
            assert make_bot(spec).choose(observation, game.options(), rng) in game.legal_actions()
    assert positions >= 4 and after < before


def world_key(world: object) -> object:
    """The whole position of a world, a compiled engine's or a game's."""
    return world.position_key() if isinstance(world, Game) else world.fields()  # type: ignore[attr-defined]


@native
def test_the_compiled_search_refuses_worlds_of_another_decision_point() -> None:
    engine, other = compiled.engine(Config(2), 1), compiled.engine(Config(2), 3)
    assert engine.current != other.current  # seed 3's deal begins with the other seat
    with pytest.raises(ValueError, match="at this decision point"):
        engine.ismcts(engine.current, 1, 10, 0, 0.0, 0.7, (), [other])


def test_resampling_draws_each_world_in_proportion_to_its_weight() -> None:
    """Systematic resampling: a world of weight w among total W is drawn count * w / W
    times, rounded down or up, whatever the one uniform draw."""
    for seed in range(50):
        drawn = inference.resampled("abc", [1.0, 0.0, 3.0], 8, random.Random(seed))
        assert Counter(drawn) == {"a": 2, "c": 6}
        drawn = inference.resampled("abc", [1.0, 1.0, 1.0], 4, random.Random(seed))
        assert len(drawn) == 4 and sorted(Counter(drawn).values()) == [1, 1, 2]


@pytest.mark.slow
def test_the_recorded_games_are_current() -> None:
    """The games the tests above replay are those greedy plays now (else: run
    tests/support/corpora.py)."""
    assert {key: tuple(ids) for key, ids in corpora.every_game().items()} == corpora.recorded()


def test_the_corpus_command_asked_for_help_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(corpora, "write", lambda: pytest.fail("--help wrote the file"))
    with pytest.raises(SystemExit) as done:
        corpora.main(["--help"])
    assert done.value.code == 0 and "usage: tests/corpora.py" in capsys.readouterr().out

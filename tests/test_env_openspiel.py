"""The OpenSpiel game python_red7: OpenSpiel's own checks, chance for the deal and the
draws, observations that hide what they must, determinization, and OpenSpiel's Python
ISMCTS playing whole games."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot
from open_spiel.python.observation import make_observation

import red7.envs.openspiel as ro
from red7 import Game
from red7.core.actions import CANVAS, CONCEDE, DRAW, NUM_ACTIONS, Action, ActionError
from red7.core.cards import NAME_OF, VALUE_OF
from red7.core.game import GameError, IllegalActionError
from red7.envs.encoding import OBS_SIZE, encode
from red7.envs.returns import zero_sum_returns

CONFIGS = [(p, a, x) for p in (2, 3, 4) for a in (False, True) for x in (False, True)]
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "openspiel_ismcts_vs_hard.py"


def load(players: int = 2, advanced: bool = False, actions: bool = False) -> Any:
    return pyspiel.load_game(ro.SHORT_NAME, {"players": players, "advanced": advanced, "actions": actions})


def chance_step(state: Any, rng: np.random.RandomState) -> int:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    card = int(rng.choice(outcomes, p=probs))
    state.apply_action(card)
    return card


def random_step(state: Any, rng: np.random.RandomState, concede: bool = True) -> None:
    """One chance outcome or one uniformly random decision (``concede=False``: concede
    only when it is the only choice, which makes games longer)."""
    if state.is_chance_node():
        chance_step(state, rng)
        return
    legal = state.legal_actions()
    if not concede and len(legal) > 1:
        legal = [a for a in legal if a != CONCEDE]
    state.apply_action(int(rng.choice(legal)))


def decision_states(
    players: int, advanced: bool, actions: bool, seed: int, every: int = 1, concede: bool = False
) -> Iterator[Any]:
    """Every ``every``-th decision node of one random game (the state itself: do not change it)."""
    rng = np.random.RandomState(seed)
    state = load(players, advanced, actions).new_initial_state()
    k = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            if k % every == 0:
                yield state
            k += 1
        random_step(state, rng, concede)


def hand_from_log(log: list[tuple[int, int, int]], seat: int) -> int:
    """A seat's hand in the current round, from the cards the log shows it got and placed."""
    start = max(i for i, e in enumerate(log) if e[0] == ro.EV_ROUND)
    hand = 0
    for kind, who, value in log[start:]:
        if who != seat:
            continue
        if kind in (ro.EV_HAND, ro.EV_DRAW, ro.EV_KNOWN):
            hand |= 1 << value
        elif kind == ro.EV_ACT and value < CANVAS + 49:
            hand &= ~(1 << (value % 49))
    return hand


# --- the game and OpenSpiel's checks ---------------------------------------------------------


def test_registration_parameters_and_game_info() -> None:
    assert ro.SHORT_NAME in pyspiel.registered_names()
    game = pyspiel.load_game("python_red7(players=3,advanced=true,actions=true)")
    assert game.num_players() == 3
    assert game.get_parameters() == {"players": 3, "advanced": True, "actions": True}
    assert game.num_distinct_actions() == NUM_ACTIONS == 249
    assert game.max_chance_outcomes() == 49
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.5, 1.0, 0.0)
    assert game.max_game_length() == ro.max_decisions_per_round(3) * ro.MAX_ROUNDS
    assert game.observation_tensor_size() == game.information_state_tensor_size() == OBS_SIZE
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    default = pyspiel.load_game(ro.SHORT_NAME)
    assert default.num_players() == 2 and default.max_game_length() == 137
    assert default.get_parameters() == {"players": 2, "advanced": False, "actions": False}
    for bad in ({"players": 5}, {"players": 1}):
        with pytest.raises((ValueError, pyspiel.SpielError)):
            pyspiel.load_game(ro.SHORT_NAME, bad)


@pytest.mark.parametrize(
    ("players", "advanced", "actions"), CONFIGS, ids=[f"{p}p-adv{int(a)}-act{int(x)}" for p, a, x in CONFIGS]
)
def test_openspiel_random_sim_test(players: int, advanced: bool, actions: bool) -> None:
    """OpenSpiel's C++ checks: clones, legal actions sorted and masked, chance outcomes,
    observation and information state sizes, returns within bounds and zero-sum,
    max_game_length respected."""
    game = load(players, advanced, actions)
    pyspiel.random_sim_test(game, num_sims=2 if advanced else 5, serialize=False, verbose=False)


def test_serialization_replays_the_history() -> None:
    """OpenSpiel's serialization round trip works, and a state is a function of its
    history (the engine's own shuffles are never used): replaying it rebuilds the state."""
    game = load(2, True, True)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    for _ in range(60):
        random_step(state, rng)
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert str(replayed) == str(state)
    assert replayed.information_state_string(1) == state.information_state_string(1)


def test_decision_counts_stay_within_the_proven_bound() -> None:
    """max_decisions_per_round is a proof (see its docstring); long random rounds, which
    never concede while something else is legal, stay well within it."""
    rng = random.Random(3)
    for players in (2, 3, 4):
        longest = 0
        for seed in range(150):
            g = Game(players, advanced=False, actions=True, seed=seed)
            n = 0
            while not g.is_over:
                legal = g.legal_ids()
                g.apply_id(rng.choice([a for a in legal if a != CONCEDE] or legal))
                n += 1
            longest = max(longest, n)
        assert longest <= ro.max_decisions_per_round(players)
        assert ro.max_decisions_per_round(players) == 97 + 20 * players


def test_chance_nodes_per_round_stay_within_the_bound() -> None:
    """A round's chance nodes: its 8n deal nodes and one per unknown draw, each from the
    cards dealt to the deck; at most 49 (max_chance_nodes_in_history counts 49 a round)."""
    assert load().max_chance_nodes_in_history() == 49
    assert load(3, True).max_chance_nodes_in_history() == 49 * ro.MAX_ROUNDS
    rng = np.random.RandomState(6)
    for players in (2, 4):
        state = load(players, True, True).new_initial_state()
        per_round: dict[int, int] = {}
        while not state.is_terminal():
            if state.is_chance_node():
                per_round[state.engine.round] = per_round.get(state.engine.round, 0) + 1
            random_step(state, rng, concede=False)
        assert len(per_round) > 2 and max(per_round.values()) <= 49
        assert all(count >= 8 * players for count in per_round.values())


def test_clones_are_independent() -> None:
    rng = np.random.RandomState(2)
    state = load(3, True, True).new_initial_state()
    for _ in range(80):
        random_step(state, rng)
    before = str(state), state.history(), state.information_state_string(0)
    clone = state.clone()
    assert str(clone) == before[0]
    for _ in range(40):
        random_step(clone, rng)
    assert (str(state), state.history(), state.information_state_string(0)) == before
    assert clone.engine is not state.engine


# --- chance: the deal -------------------------------------------------------------------------


def test_the_deal_is_8n_uniform_chance_nodes_over_the_cards_not_dealt() -> None:
    rng = np.random.RandomState(0)
    for players in (2, 4):
        state = load(players).new_initial_state()
        dealt: list[int] = []
        for _ in range(8 * players):
            assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
            assert state.dealing
            outcomes = state.chance_outcomes()
            assert [c for c, _ in outcomes] == sorted(set(range(49)) - set(dealt))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert len({p for _, p in outcomes}) == 1
            assert state.legal_actions() == [c for c, _ in outcomes]
            dealt.append(chance_step(state, rng))
        assert not state.is_chance_node() and not state.dealing
        g = state.engine
        n = players
        for seat in range(n):
            assert g.hands[seat] == sum(1 << dealt[k * n + seat] for k in range(7))
            assert g.palettes[seat] == 1 << dealt[7 * n + seat]
        assert sorted(g.deck) == sorted(set(range(49)) - set(dealt))


def test_a_new_advanced_round_is_dealt_by_chance_from_the_cards_not_scored() -> None:
    rng = np.random.RandomState(1)
    state = load(2, True, False).new_initial_state()
    while not (state.engine.round == 2 and state.dealing):
        random_step(state, rng)
    assert state.dealing and state.engine.round == 2
    piles = state.engine.piles[0] | state.engine.piles[1]
    assert piles  # the first round scored
    outcomes = [c for c, _ in state.chance_outcomes()]
    assert outcomes == [c for c in range(49) if not piles >> c & 1]
    # While dealing, a seat sees the cards dealt so far, and no one is to move.
    view = state.view(0)
    assert view.current is None and view.hand == 0 and view.hand_sizes == (0, 0)
    assert view.deck_size == len(outcomes) and view.scores == tuple(state.engine.scores)
    first = chance_step(state, rng)
    assert state.view(0).hand == 1 << first and state.view(1).hand == 0
    assert state.view(1).hand_sizes == (1, 0)
    assert "0 dealt " + NAME_OF[first] in state.information_state_string(0)
    assert state.information_state_string(1).endswith("round 2, 0 dealt ?")


def test_the_deal_reproduces_an_engine_game() -> None:
    """Chance outcomes of a known order deal exactly that game; with no draws (basic
    game, actions off) the same decisions then give the same game to the end."""
    for seed in range(5):
        players = 2 + seed % 3
        game = Game(players, seed=seed)
        hands = [sorted(bin_cards(h)) for h in game.hands]
        order = [hands[s][k] for k in range(7) for s in range(players)]
        order += [bin_cards(p)[0] for p in game.palettes]
        state = load(players).new_initial_state()
        for card in order:
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"deal {NAME_OF[card]}"
            state.apply_action(card)
        assert state.current_player() == game.current_player
        rng = random.Random(seed)
        while not game.is_over:
            assert state.engine.hands == game.hands and state.engine.palettes == game.palettes
            assert state.legal_actions() == game.legal_ids()
            assert state.observation_tensor(game.current) == [float(x) for x in encode(game.view(game.current))]
            action = rng.choice(game.legal_ids())
            assert state.action_to_string(game.current, action) == str(Action.from_id(action))
            game.apply(action)
            state.apply_action(action)
            assert not state.is_chance_node()
        assert state.is_terminal() and state.winners() == game.result.winners
        assert state.returns() == zero_sum_returns(game.result.winners, players)


def bin_cards(mask: int) -> list[int]:
    return [c for c in range(49) if mask >> c & 1]


# --- chance: the draws ------------------------------------------------------------------------


def find(
    players: int, advanced: bool, actions: bool, test: Any, seeds: range = range(200), concede: bool = False
) -> Any:
    """The first decision node of random games where ``test(state)`` holds."""
    for seed in seeds:
        for state in decision_states(players, advanced, actions, seed, concede=concede):
            if test(state):
                return state.clone()
    raise AssertionError("no such state in the random games tried")


def unknown_three(state: Any) -> bool:
    g = state.engine
    return g.deck_known == 0 and bool(g.deck) and any(a < CANVAS and VALUE_OF[a] == 3 for a in g.legal_ids())


def test_a_three_played_with_actions_is_a_chance_node_over_the_unknown_deck_cards() -> None:
    state = find(2, False, True, unknown_three)
    g = state.engine
    me = g.current
    three = next(a for a in g.legal_ids() if a < CANVAS and VALUE_OF[a] == 3)
    deck = sorted(g.deck)
    hand = g.hands[me]
    before = state.observation_string(me)
    state.apply_action(three)
    assert state.is_chance_node() and state.pending_decision == three
    assert state.engine.hands[me] == hand  # not applied yet: chance picks the card first
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == deck
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    step = f" to {g.step_name},"
    assert state.observation_string(me) == before.replace(step, f"{step[:-1]}, drawing for {Action.from_id(three)},")
    card = deck[len(deck) // 2]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"draw {NAME_OF[card]}"
    state.apply_action(card)
    assert not state.is_chance_node() and state.current_player() == me
    assert state.engine.hands[me] == (hand & ~(1 << three)) | 1 << card
    assert card not in state.engine.deck and len(state.engine.deck) == len(deck) - 1
    assert state.history()[-2:] == [three, card]
    assert state.information_state_string(me).endswith(f"{me} {Action.from_id(three)}, {me} drew {NAME_OF[card]}")
    assert state.information_state_string(1 - me).endswith(f"{me} {Action.from_id(three)}, {me} drew ?")


def test_drawing_a_public_deck_top_card_is_no_chance_event() -> None:
    """After a 7 or a 1 put a card face down on the deck, everyone knows the top card: a
    3 then draws it with no chance node, and the log says so in public."""
    state = find(
        2,
        False,
        True,
        lambda s: s.engine.deck_known > 0 and any(a < CANVAS and VALUE_OF[a] == 3 for a in s.engine.legal_ids()),
    )
    g = state.engine
    me, top = g.current, g.deck[-1]
    three = next(a for a in g.legal_ids() if a < CANVAS and VALUE_OF[a] == 3)
    state.apply_action(three)
    assert not state.is_chance_node()
    assert state.engine.hands[me] >> top & 1 and state.engine.known[me] >> top & 1
    assert state.log[-1] == (ro.EV_KNOWN, me, top)
    for seat in range(2):
        assert state.information_state_string(seat).endswith(f"{me} drew known {NAME_OF[top]}")


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True)])
def test_a_decision_is_a_chance_node_exactly_when_it_draws_an_unknown_card(players: int, advanced: bool) -> None:
    """Checked against the engine: apply each legal decision to a copy of the game and
    see whether an unknown card left the deck."""
    seen_draws = 0
    for seed in range(4):
        for state in decision_states(players, advanced, True, seed, every=2):
            g = state.engine
            for action in g.legal_ids():
                trial = g.clone()
                unknown_before = len(g.deck) - g.deck_known
                trial.apply_id(action)
                same_round = trial.round == g.round
                draws = same_round and g.deck_known == 0 and len(trial.deck) < len(g.deck)
                if action == DRAW and g.deck_known == 0:
                    draws = True  # the draw may end the round: it drew before the next deal
                child = state.child(action)
                assert (child.pending_decision == action) == (draws and unknown_before > 0), (
                    str(state),
                    Action.from_id(action),
                )
                assert child.is_chance_node() == (child.pending_decision is not None or child.dealing)
                assert child.dealing == (trial.round != g.round and not trial.is_over)
                seen_draws += draws
    assert seen_draws > 10


# --- observations -----------------------------------------------------------------------------


def test_states_that_differ_only_in_hidden_cards_look_the_same_to_a_seat() -> None:
    """Two deals differing only in one of seat 1's hand cards (swapped with a deck card):
    seats 0 and 2 see the same, seat 1 does not, then and after the same decisions."""
    game = load(3, False, True)
    order = list(range(24))  # seven passes over 3 seats, then 3 palette cards
    other = order[:]
    other[1] = 40  # seat 1's first card: 40 instead of 1 (1 stays in the deck)
    states = []
    for deal in (order, other):
        state = game.new_initial_state()
        for card in deal:
            state.apply_action(card)
        states.append(state)
    a, b = states
    rng = random.Random(0)
    for _step in range(4):
        for seat in (0, 2):
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        assert a.observation_string(1) != b.observation_string(1)
        assert a.information_state_string(1) != b.information_state_string(1)
        assert str(a) != str(b)
        if a.current_player() == 1:
            break
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        action = rng.choice([x for x in legal if x != CONCEDE])
        a.apply_action(action)
        b.apply_action(action)
        if a.is_chance_node():  # a 3's draw: chance picks a card both decks hold
            card = min(set(dict(a.chance_outcomes())) & set(dict(b.chance_outcomes())))
            a.apply_action(card)
            b.apply_action(card)


def test_observation_tensor_and_string_are_the_seats_view() -> None:
    state = next(s for i, s in enumerate(decision_states(4, True, True, seed=3)) if i == 30)
    g = state.engine
    for seat in range(4):
        assert list(state.observation_tensor(seat)) == encode(g.view(seat)).tolist()
        assert state.information_state_tensor(seat) == state.observation_tensor(seat)
        text = state.observation_string(seat)
        assert text.startswith(f"p{seat}, round {g.round}, ")
        assert "hand " + (" ".join(g.hand(seat)) or "-") in text
    observation = make_observation(load(4, True, True), pyspiel.IIGObservationType(perfect_recall=False))
    observation.set_from(state, 2)  # through OpenSpiel's C++ observer wrapper
    assert observation.tensor.tolist() == encode(g.view(2)).tolist()
    assert observation.dict["palettes"].shape == (4, 49)
    assert observation.dict["palettes"][0].tolist() == [g.palettes[2] >> c & 1 for c in range(49)]
    assert observation.string_from(state, 2) == state.observation_string(2)
    info = make_observation(load(4, True, True), pyspiel.IIGObservationType(perfect_recall=True))
    assert info.string_from(state, 1) == state.information_state_string(1) == state.information_text(1)


def test_the_public_observer_hides_the_hand_and_all_players_is_refused() -> None:
    state = next(iter(decision_states(2, False, False, seed=1)))
    game = load()
    public = game.make_py_observer(
        pyspiel.IIGObservationType(private_info=pyspiel.PrivateInfoType.NONE, perfect_recall=False)
    )
    public.set_from(state, 0)
    assert not public.dict["hand"].any() and public.dict["palettes"].any()
    assert ", hand ?, " in public.string_from(state, 0)
    assert public.string_from(state, 0) == state.observation_string(0).replace(
        "hand " + " ".join(state.engine.hand(0)), "hand ?"
    )
    private = game.make_py_observer()
    private.set_from(state, 0)
    differs = np.flatnonzero(private.tensor != public.tensor)
    assert differs.size == state.engine.hands[0].bit_count() and differs.max() < 49  # the hand piece only
    recall = game.make_py_observer(
        pyspiel.IIGObservationType(private_info=pyspiel.PrivateInfoType.NONE, perfect_recall=True)
    )
    assert recall.string_from(state, 0) == recall.string_from(state, 1) == state.information_text(None)
    assert "dealt ?" in recall.string_from(state, 0) and " dealt V" not in recall.string_from(state, 0)
    with pytest.raises(ValueError, match="every player"):
        game.make_py_observer(
            pyspiel.IIGObservationType(private_info=pyspiel.PrivateInfoType.ALL_PLAYERS, perfect_recall=False)
        )


# --- determinization ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), [(2, False, True), (3, True, True), (4, True, False)])
def test_resample_from_infostate_keeps_the_information_state(players: int, advanced: bool, actions: bool) -> None:
    sampler = random.Random(11).random
    changed = checked = 0
    states = [s.clone() for seed in range(3) for s in decision_states(players, advanced, actions, seed, every=7)]
    for state in states[:: max(1, len(states) // 12)]:
        for seat in range(players):
            info = state.information_state_string(seat)
            for _ in range(3):
                world = state.resample_from_infostate(seat, sampler)
                assert isinstance(world, ro.Red7State) and world.current_player() == state.current_player()
                assert world.information_state_string(seat) == info
                assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert world.observation_string(seat) == state.observation_string(seat)
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                if seat == state.current_player():
                    assert world.legal_actions() == state.legal_actions()
                w = world.engine
                for other in range(players):  # every seat's log agrees with the new world
                    if w.alive[other]:
                        assert hand_from_log(world.log, other) == w.hands[other]
                        assert world.observation_string(other).startswith(f"p{other}, ")
                assert public_log(world.log, seat) == public_log(state.log, seat)
                changed += w.hands != state.engine.hands
                checked += 1
    assert checked > 40 and changed > checked // 2


def public_log(log: list[tuple[int, int, int]], seat: int) -> list[tuple[int, int, int]]:
    """The log with the cards ``seat`` did not see blanked."""
    return [(k, s, -1 if k in (ro.EV_HAND, ro.EV_DRAW) and s != seat else v) for k, s, v in log]


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, True)])
def test_a_resampled_state_is_a_real_history(players: int, advanced: bool) -> None:
    """With actions off (legality then depends on no hidden card), replaying the rebuilt
    log from the start gives the sampled world itself: every seat's hidden cards, past
    and present, were rebuilt consistently."""
    sampler = random.Random(4).random
    game = load(players, advanced, False)
    for state in decision_states(players, advanced, False, seed=7, every=13):
        for seat in range(players):
            world = state.resample_from_infostate(seat, sampler)
            replay = game.new_initial_state()
            for kind, _who, value in world.log:
                if kind in (ro.EV_HAND, ro.EV_PALETTE, ro.EV_DRAW, ro.EV_ACT):
                    replay.apply_action(value)
            a, b = replay.engine, world.engine
            assert (a.hands, a.palettes, a.canvas, a.known, a.alive, a.current, a.step) == (
                b.hands,
                b.palettes,
                b.canvas,
                b.known,
                b.alive,
                b.current,
                b.step,
            )
            assert (a.piles, a.scores, a.removed, sorted(a.deck), a.round) == (
                b.piles,
                b.scores,
                b.removed,
                sorted(b.deck),
                b.round,
            )
            assert replay.information_state_string(seat) == world.information_state_string(seat)


def test_cards_seen_going_face_down_stay_out_of_the_resampled_worlds() -> None:
    """An eliminated player's palette went face down in front of everyone: no world deals
    those cards to a hand or the deck (the observation alone would not tell)."""

    def eliminated_with_palette(state: Any) -> bool:
        return state.engine.removed != 0 and state.engine.out_public != 0

    state = find(4, False, False, eliminated_with_palette, range(60), concede=True)
    out = state.engine.out_public
    sampler = random.Random(1).random
    for seat in range(4):
        for _ in range(20):
            world = state.resample_from_infostate(seat, sampler).engine
            assert world.removed & out == out
            assert world.removed.bit_count() == state.engine.removed.bit_count()
            assert not any(h & out for h in world.hands) and not any(c in world.deck for c in bin_cards(out))


def test_resampling_is_refused_at_chance_nodes_and_follows_the_sampler() -> None:
    state = load().new_initial_state()
    with pytest.raises(ValueError, match="decision nodes"):
        state.resample_from_infostate(0, random.Random(0).random)
    decision = next(iter(decision_states(2, False, True, seed=2)))
    one = decision.resample_from_infostate(0, random.Random(8).random)
    two = decision.resample_from_infostate(0, random.Random(8).random)
    assert str(one) == str(two)
    assert (
        decision.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0)).current_player()
        == decision.current_player()
    )


# --- returns -------------------------------------------------------------------------------------


def test_returns_are_zero_sum_shares_of_the_victory() -> None:
    assert zero_sum_returns((1,), 2) == [-1.0, 1.0]
    assert zero_sum_returns((0,), 4) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert zero_sum_returns((0, 2), 3) == pytest.approx([0.25, -0.5, 0.25])
    assert zero_sum_returns((0, 1, 2), 3) == [0.0, 0.0, 0.0]
    for n in (2, 3, 4):
        for k in range(1, n + 1):
            r = zero_sum_returns(tuple(range(k)), n)
            assert sum(r) == pytest.approx(0.0) and max(r) <= 1.0 and min(r) >= -1 / (n - 1)


def test_an_advanced_match_is_cut_after_max_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cap (rounds could otherwise score 0 forever) ends the match as at the end of
    the deck: the highest scores win."""
    monkeypatch.setattr(ro, "MAX_ROUNDS", 1)
    rng = np.random.RandomState(4)
    state = load(3, True, True).new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    g = state.engine
    assert g.round == 2 and not g.is_over and state.truncated
    top = max(g.scores)
    assert state.winners() == tuple(s for s in range(3) if g.scores[s] == top)
    assert state.returns() == zero_sum_returns(state.winners(), 3)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    view = state.view(0)  # the finished match, no provisional deal of a round not played
    assert view.hand == 0 and view.palettes == (0, 0, 0) and view.step == 6 and view.current is None
    assert view.round == 1 and view.deck_size == 49 - sum(p.bit_count() for p in g.piles)
    assert state.observation_string(0).startswith("p0, round 1, turns ") and ", over, " in state.observation_string(0)
    assert str(state).startswith("match ended after 1 rounds")


# --- OpenSpiel's Python ISMCTS ----------------------------------------------------------------


def play_ismcts(
    players: int, seed: int, advanced: bool = False, simulations: int = 20
) -> tuple[list[float], list[int]]:
    """OpenSpiel's Python ISMCTSBot (seat 0, small budget) against uniform random bots."""
    game = load(players, advanced, True)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    bot.set_resampler(ro.seeded_resampler(seed + 2))
    others = {s: UniformRandomBot(s, np.random.RandomState(seed + 3 + s)) for s in range(1, players)}
    chance = np.random.RandomState(seed + 9)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, chance)
            continue
        player = state.current_player()
        action = int(bot.step(state)) if player == 0 else int(others[player].step(state))
        assert action in state.legal_actions()
        decisions += player == 0
        state.apply_action(action)
    return state.returns(), [decisions, *state.history()]


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_python_ismcts_plays_whole_games(players: int) -> None:
    games = 4
    wins = 0
    for seed in range(games):
        returns, trace = play_ismcts(players, seed)
        assert sum(returns) == pytest.approx(0.0) and max(returns) == 1.0
        assert trace[0] > 0  # the bot decided
        wins += returns[0] == 1.0
    assert play_ismcts(players, 0) == play_ismcts(players, 0)  # reproducible from the seeds
    assert wins >= games // 2  # even 20 simulations beat uniform random play most of the time


def test_openspiel_python_ismcts_plays_a_whole_advanced_match() -> None:
    """Later rounds too: their deals are chance nodes, resampling works across rounds."""
    returns, trace = play_ismcts(2, seed=1, advanced=True, simulations=4)
    assert sorted(returns) == [-1.0, 1.0] and trace[0] > 20


# --- the example --------------------------------------------------------------------------------


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_vs_hard", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ismcts_versus_hard_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    result = example().main(["--games", "1", "--simulations", "5", "--seed", "1"])
    out = capsys.readouterr().out
    assert out.startswith("1 games of python_red7 (2 players)")
    assert "OpenSpiel ISMCTS, seat 0 (5 simulations, random rollouts): " in out and "red7 hard, seat 1: " in out
    assert result["games"] == 1 and sum(result["wins"].values()) == 1  # one winner in a basic game


# --- bad input: OpenSpiel's exceptions ---------------------------------------------------------


def test_bad_actions_raise_and_change_nothing() -> None:
    """An illegal decision, an id outside the space, a card that cannot be dealt, or a
    decision after the end raise (the engine's ValueErrors, or pyspiel's SpielError for
    OpenSpiel's invalid id -1); the state is unchanged."""
    state = load().new_initial_state()
    with pytest.raises(GameError, match="cannot be dealt now"):
        state.apply_action(60)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    history, text = state.history(), str(state)
    with pytest.raises(IllegalActionError, match="'end' decision does not belong to the 'start' step"):
        state.apply_action(245)
    with pytest.raises(ActionError, match="outside 0..248"):
        state.apply_action(300)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(-1)
    assert state.history() == history and str(state) == text
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else 246)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(246)

"""Properties of whole random games in every configuration (2/3/4 players x basic or
advanced x actions off or on).

Games are driven by a hypothesis-chosen game seed and a separate choice seed; the
random player picks among ALL legal decisions (unsafe ones included, so eliminations
by R4.3/R4.6 and unlucky 3s are explored), re-drawing a concede most of the time so
that games last long enough to reach deep states (concede still gets picked).

Properties, each citing its rules:
(a) R1.1/R6.1/R8.2: the 49 cards are each in exactly one place.
(b) R4.3/R4.4/R4.6: a turn that does not eliminate its player ends with that player
    winning.
(c) records: replaying config + seed + decisions re-creates every state.
(d) R9: an observation does not depend on cards hidden from its viewer.
(e) illegal or unreadable decisions raise ValueError and change nothing.
(f) clone(): what happens to the copy never touches the original.
(g) R4.7/R4.2.4: safe decisions are legal ones; concede is always legal.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import astuple
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import COLOURS, Action, Card, Game, Step, winner
from red7.core.actions import NUM_ACTIONS
from red7.core.cards import FULL_DECK, cards_of, mask_of, names_of
from red7.core.record import replay, steps, to_record
from tests.support import configs
from tests.support.configs import name_of
from tests.support.tiers import examples

CONFIGS = [pytest.param(*astuple(c), id=name_of(c)) for c in configs.CONFIGS]
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
CHOICE_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

SAMPLE = 0.25
"""Share of the states after the 12th decision that the costlier checks (d), (f) examine."""

GARBAGE = [
    "",
    "   ",
    "play",
    "play R8",
    "play Z3",
    "play R7 R6",
    "canvas",
    "canvas 7R",
    "move R7",
    "move R7 hand",
    "take",
    "take R0",
    "end turn",
    "pass",
    "concede!",
    "draw R1",
    "hello world",
    "R7",
    "249",
    "-1",
]


# --- driving games ---------------------------------------------------------------------


def choose(game: Game, rnd: random.Random) -> Action:
    """A random legal decision; a concede is re-drawn 85% of the time."""
    legal = game.legal_actions()
    action = rnd.choice(legal)
    if action.kind == "concede" and len(legal) > 1 and rnd.random() < 0.85:
        action = rnd.choice([a for a in legal if a.kind != "concede"])
    return action


def walk(players: int, advanced: bool, actions: bool, seed: int, choice_seed: int) -> Iterator[Game]:
    """Yield the game at every decision point and once more when it is over; between
    two yields one random legal decision is applied (through the checked apply())."""
    game = Game(players, advanced, actions, seed=seed)
    rnd = random.Random(choice_seed)
    while True:
        yield game
        if game.is_over:
            return
        game.apply(choose(game, rnd))


# --- (a) every card in exactly one place --------------------------------------------


def places(game: Game) -> list[tuple[str, list[str]]]:
    """Every place a card can be, with its cards (hidden ones included: a test's view)."""
    obs = game.observe(None)
    out = [(f"hand {s}", game.hand(s)) for s in range(game.players)]
    out += [(f"palette {s}", game.palette(s)) for s in range(game.players)]
    out += [("canvas", [str(Card(c)) for c in obs.canvas]), ("deck", game.deck()), ("removed", game.out_of_round())]
    out += [(f"pile {s}", names_of(p)) for s, p in enumerate(obs.score_piles)]
    return out


def assert_cards_conserved(game: Game) -> None:
    counts = Counter(card for _, cards in places(game) for card in cards)
    twice = [card for card, k in counts.items() if k > 1]
    assert not twice, f"{twice} in two places: {places(game)}"
    assert len(counts) == 49, f"missing cards: {names_of(FULL_DECK & ~mask_of(counts))}"
    obs = game.observe(None)
    for s in range(game.players):
        assert obs.known_hand_cards[s] & ~mask_of(game.hand(s)) == 0, "known cards must be in the hand"
        assert obs.hand_sizes[s] == len(game.hand(s))
    known = [str(Card(c)) for c in obs.deck_known_top]
    assert game.deck()[: len(known)] == known and obs.deck_size == len(game.deck())
    assert obs.out_of_round_count == len(game.out_of_round())


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(25))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_a_every_card_in_exactly_one_place(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(a) R1.1/R2.2/R6.1/R8.2/R8.4: hands, palettes, canvas, deck, face-down cards
    and score piles hold the 49 cards, each exactly once, after every decision."""
    for game in walk(players, advanced, actions, seed, choice_seed):
        assert_cards_conserved(game)


# --- (b) a turn that goes on ends winning --------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(25))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_b_completed_turn_leaves_its_player_winning(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(b) R4.3/R4.4/R4.6/R3.1: when a turn ends and its player is still in the round,
    that player alone is winning under the rule in force (checked also with
    red7.winner); a turn still running belongs to the same player."""
    before: tuple[int, int, int] | None = None
    for game in walk(players, advanced, actions, seed, choice_seed):
        if before is not None:
            mover, turns, rounds_done = before
            assert game.history[-1][0] == mover
            if len(game.round_results) == rounds_done:  # the round goes on
                turn_over = game.turns != turns
                if not turn_over:
                    assert game.current_player == mover and game.alive[mover]
                elif game.alive[mover]:
                    assert game.winning() == mover
                    alive = [s for s in range(game.players) if game.alive[s]]
                    pals = [game.palette(s) for s in alive]
                    best = winner(COLOURS[game.rule], pals)
                    assert best is not None and alive[best] == mover
                else:
                    assert game.history[-1][1] == Action.parse("concede")
        if game.current_player is not None:
            before = (game.current_player, game.turns, len(game.round_results))


# --- (c) records replay ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(15))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_c_record_replays_every_state(players: int, advanced: bool, actions: bool, seed: int, choice_seed: int) -> None:
    """(c) a record (config, seed, decisions; JSON) replayed decision by decision
    reproduces the fingerprint after every decision, and so does re-applying the
    history to a new Game with the same seed."""
    prints: list[tuple[Any, ...]] = []
    last: Game | None = None
    for game in walk(players, advanced, actions, seed, choice_seed):
        if game.history:
            prints.append(game.fingerprint())
        last = game
    assert last is not None and last.is_over
    record = json.loads(json.dumps(to_record(last)))
    replayed = [g.fingerprint() for _, _, g in steps(record)]
    assert replayed == prints
    assert replay(record).fingerprint() == last.fingerprint()
    again = Game(players, advanced, actions, seed=seed)
    for i, (seat, action_id) in enumerate(last.history):
        assert again.current_player == seat
        again.apply(action_id)
        assert again.fingerprint() == prints[i]


# --- (d) observations ignore hidden cards ----------------------------------------------


class Script:
    """A game with explicit chance played at random (chance uniform, decisions by
    :func:`choose`), keeping every step it took so that a twin can replay the current
    round with other hidden cards: ``entries`` holds (chance?, card or decision id, step
    after it), ``round_start`` per round the entry index and a clone before its deal."""

    def __init__(self, players: int, advanced: bool, actions: bool, seed: int, choice_seed: int) -> None:
        self.game = Game(players, advanced, actions, seed=seed, explicit_chance=True)
        self.rnd = random.Random(choice_seed)
        self.entries: list[tuple[bool, int, Step]] = []
        self.round_start: dict[int, tuple[int, Game]] = {}

    def walk(self) -> Iterator[Game]:
        """Yield the game at every decision point and once more when it is over."""
        game, rnd = self.game, self.rnd
        while True:
            if game.is_chance_node:
                if game.step is Step.DEALING and game.round not in self.round_start:
                    self.round_start[game.round] = (len(self.entries), game.clone())
                card = rnd.choice(game.chance_outcomes())
                game.apply_chance(card)
                self.entries.append((True, card, game.step))
                continue
            yield game
            if game.is_over:
                return
            action = choose(game, rnd).id
            game.apply_id(action)
            self.entries.append((False, action, game.step))

    def replay_round(self, sigma: dict[int, int]) -> Game | None:
        """The current round replayed from its deal with every chance outcome ``c``
        replaced by ``sigma[c]``: the same decisions with other hidden cards. None if
        the other cards make a decision illegal or the turn take another step (R7.x,
        R7.y depend on the mover's hand): the viewer would have seen the difference."""
        start, before_deal = self.round_start[self.game.round]
        twin = before_deal.clone()
        for chance, x, step in self.entries[start:]:
            if chance:
                twin.apply_chance(sigma.get(x, x))  # sigma(x) is where x was: an outcome too
            elif twin.check(x) is None:
                twin.apply_id(x)
            else:
                return None
            if twin.step is not step:
                return None
        return twin


def hidden_from(game: Game, viewer: int | None) -> list[int]:
    """The cards ``viewer`` cannot see (R9): other hands minus their publicly known
    cards, the unknown part of the deck, the face-down cards it cannot name."""
    obs = game.observe(viewer)
    hidden = 0
    for s in range(game.players):
        if s != viewer:
            hidden |= mask_of(game.hand(s)) & ~obs.known_hand_cards[s]
    hidden |= mask_of(game.deck()[len(obs.deck_known_top) :])
    hidden |= mask_of(game.out_of_round()) & ~(obs.out_of_round_known | (obs.out_of_round_own or 0))
    return [int(c) for c in cards_of(hidden)]


def permutation(cards: list[int], rnd: random.Random) -> dict[int, int]:
    shuffled = cards[:]
    rnd.shuffle(shuffled)
    return dict(zip(cards, shuffled, strict=True))


def view(game: Game, seat: int | None) -> str:
    return json.dumps(game.observation(seat), sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(8))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_d_observation_ignores_hidden_cards(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(d) R9: for every viewer (each seat, and the spectator), a twin game whose
    current round was dealt and drawn with the cards the viewer cannot see redistributed
    (explicit chance, the same decisions) gives the same observation, typed and
    byte-for-byte in JSON; swapping one of the viewer's own unknown hand cards with a
    hidden card does change it."""
    rnd = random.Random(seed ^ choice_seed)
    script = Script(players, advanced, actions, seed, choice_seed)
    same_checked = changed_checked = 0
    for game in script.walk():
        if game.decisions > 12 and rnd.random() > SAMPLE:
            continue  # observations carry the whole history: check a sample of late states
        for seat in [*range(players), None]:
            hidden = hidden_from(game, seat)
            twin = script.replay_round(permutation(hidden, rnd))
            if twin is not None:
                assert twin.observe(seat) == game.observe(seat)
                assert view(twin, seat) == view(game, seat)
                same_checked += 1
            if seat is None or not hidden:
                continue
            mine = cards_of(mask_of(game.hand(seat)) & ~game.observe(seat).known_hand_cards[seat])
            if mine:
                own, other = int(rnd.choice(mine)), rnd.choice(hidden)
                swapped = script.replay_round({own: other, other: own})
                if swapped is not None:
                    assert swapped.observe(seat) != game.observe(seat)
                    assert view(swapped, seat) != view(game, seat)
                    changed_checked += 1
    assert same_checked > 0 and changed_checked > 0


# --- (e) illegal decisions -------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(15))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_e_illegal_decisions_raise_and_change_nothing(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(e) R4.2-R7: an id in 0..248 that is not legal (as id and as notation), an id
    outside the range, or garbage text is refused with ValueError and leaves the
    game's fingerprint and legal decisions unchanged; after the end everything is
    refused."""
    rnd = random.Random(choice_seed)
    for game in walk(players, advanced, actions, seed, choice_seed):
        legal_ids = {a.id for a in game.legal_actions()}
        before = game.fingerprint()
        illegal = [i for i in range(NUM_ACTIONS) if i not in legal_ids]
        tries: list[object] = []
        for i in rnd.sample(illegal, min(4, len(illegal))):
            tries += [i, str(Action.from_id(i))]
        tries += rnd.sample(GARBAGE, 3) + [rnd.choice([-1, NUM_ACTIONS, 10**6])]
        for attempt in tries:
            with pytest.raises(ValueError):
                game.apply(attempt)  # type: ignore[arg-type]
            assert not game.is_legal(attempt)  # type: ignore[arg-type]
            assert game.fingerprint() == before
        assert {a.id for a in game.legal_actions()} == legal_ids
        if game.is_over:
            assert legal_ids == set()


# --- (f) clones are independent ----------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(12))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_f_clone_is_independent(players: int, advanced: bool, actions: bool, seed: int, choice_seed: int) -> None:
    """(f) clone(): applying any legal decision to a clone leaves the original's
    fingerprint (seed of the later deals included) and legal decisions untouched, two
    clones given the same decision agree; and moving the original leaves an earlier
    clone as it was."""
    previous: tuple[Game, tuple[Any, ...]] | None = None
    rnd = random.Random(seed ^ choice_seed)
    for game in walk(players, advanced, actions, seed, choice_seed):
        if previous is not None:
            copy, print_then = previous
            assert copy.fingerprint() == print_then
            previous = None
        if len(game.history) > 12 and rnd.random() > SAMPLE:
            continue  # clones copy the whole history: check a sample of late states
        before = game.fingerprint()
        legal = game.legal_actions()
        for action in legal:
            a, b = game.clone(), game.clone()
            assert a.fingerprint() == before
            a.apply(action)
            b.apply(action.id)
            assert a.fingerprint() == b.fingerprint()
            assert game.fingerprint() == before
        assert game.legal_actions() == legal
        copy = game.clone()
        previous = (copy, copy.fingerprint())


# --- (g) safe decisions and concede ---------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=examples(25))
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_g_safe_subset_of_legal_and_concede_always_legal(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(g) R4.7: safe decisions are legal decisions (is_safe agrees); R4.2.4: concede
    is legal at every step until the game is over; then nothing is legal."""
    for game in walk(players, advanced, actions, seed, choice_seed):
        legal = game.legal_actions()
        safe = game.safe_actions()
        if game.is_over:
            assert legal == [] and safe == [] and game.current_player is None
            continue
        assert set(safe) <= set(legal)
        assert Action.parse("concede") in legal
        assert all(game.is_safe(a) == (a in safe) for a in legal)
        assert [a.id for a in legal] == sorted(a.id for a in legal)

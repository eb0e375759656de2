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
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import COLOURS, Action, Game, winner
from red7.core.actions import NUM_ACTIONS
from red7.core.cards import FULL_DECK, cards_of, names_of
from red7.core.record import replay, steps, to_record

CONFIGS = [
    pytest.param(p, adv, act, id=f"{p}p-{'advanced' if adv else 'basic'}-{'actions' if act else 'plain'}")
    for p in (2, 3, 4)
    for adv in (False, True)
    for act in (False, True)
]
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


def mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# --- (a) every card in exactly one place --------------------------------------------


def places(game: Game) -> list[tuple[str, int]]:
    out = [(f"hand {s}", game.hands[s]) for s in range(game.n)]
    out += [(f"palette {s}", game.palettes[s]) for s in range(game.n)]
    out += [("canvas", mask(game.canvas)), ("deck", mask(game.deck)), ("removed", game.removed)]
    out += [(f"pile {s}", game.piles[s]) for s in range(game.n)]
    return out


def assert_cards_conserved(game: Game) -> None:
    assert len(set(game.canvas)) == len(game.canvas), "a card twice on the canvas"
    assert len(set(game.deck)) == len(game.deck), "a card twice in the deck"
    seen = 0
    for name, m in places(game):
        assert not seen & m, f"{names_of(seen & m)} also in {name}"
        seen |= m
    assert seen == FULL_DECK, f"missing cards: {names_of(FULL_DECK & ~seen)}"
    for s in range(game.n):
        assert game.known[s] & ~game.hands[s] == 0, "known cards must be in the hand"
    assert 0 <= game.deck_known <= len(game.deck)


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=25)
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
@settings(max_examples=25)
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
                    assert game.current == mover and game.alive[mover]
                elif game.alive[mover]:
                    assert game.winning() == mover
                    alive = [s for s in range(game.n) if game.alive[s]]
                    pals = [game.palette(s) for s in alive]
                    best = winner(COLOURS[game.rule], pals)
                    assert best is not None and alive[best] == mover
                else:
                    assert game.history[-1][1] == Action.parse("concede").id
        if not game.is_over:
            before = (game.current, game.turns, len(game.round_results))


# --- (c) records replay ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=15)
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


def shuffle_hidden(game: Game, viewer: int | None, rnd: random.Random) -> Game:
    """A copy of ``game`` whose cards hidden from ``viewer`` (other hands minus their
    publicly known cards, the unknown part of the deck, the face-down cards of the
    round) are randomly redistributed among those places, each keeping its size."""
    g = game.clone()
    seats = [s for s in range(g.n) if s != viewer]
    pool: list[int] = []
    sizes: dict[int, int] = {}
    for s in seats:
        secret = g.hands[s] & ~g.known[s]
        sizes[s] = secret.bit_count()
        pool += cards_of(secret)
    unknown = len(g.deck) - g.deck_known
    pool += g.deck[:unknown]
    removed = g.removed.bit_count()
    pool += cards_of(g.removed)
    rnd.shuffle(pool)
    for s in seats:
        g.hands[s] = g.known[s] | mask(pool[: sizes[s]])
        del pool[: sizes[s]]
    g.deck = pool[:unknown] + g.deck[unknown:]
    del pool[:unknown]
    assert len(pool) == removed
    g.removed = mask(pool)
    g._legal = None
    assert_cards_conserved(g)
    return g


def view(game: Game, seat: int | None) -> str:
    return json.dumps(game.observation(seat), sort_keys=True)


def swap_own_card(game: Game, seat: int, rnd: random.Random) -> Game | None:
    """A copy where one unknown card of ``seat``'s hand is swapped with a card of the
    unknown deck or of the face-down cards (None if there is nothing to swap)."""
    g = game.clone()
    mine = cards_of(g.hands[seat] & ~g.known[seat])
    unknown = len(g.deck) - g.deck_known
    if not mine or not (unknown or g.removed):
        return None
    card = rnd.choice(mine)
    if unknown:
        i = rnd.randrange(unknown)
        other, g.deck[i] = g.deck[i], card
    else:
        other = rnd.choice(cards_of(g.removed))
        g.removed = g.removed & ~(1 << other) | 1 << card
    g.hands[seat] = g.hands[seat] & ~(1 << card) | 1 << other
    g._legal = None
    return g


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=10)
@given(seed=SEEDS, choice_seed=CHOICE_SEEDS)
def test_d_observation_ignores_hidden_cards(
    players: int, advanced: bool, actions: bool, seed: int, choice_seed: int
) -> None:
    """(d) R9: for every viewer (each seat, and the spectator), re-dealing the cards it
    cannot see leaves its observation byte-for-byte the same; changing the viewer's
    own hand does change it."""
    rnd = random.Random(seed ^ choice_seed)
    changed_checked = 0
    for game in walk(players, advanced, actions, seed, choice_seed):
        if len(game.history) > 12 and rnd.random() > SAMPLE:
            continue  # observations carry the whole history: check a sample of late states
        for seat in [*range(players), None]:
            original = view(game, seat)
            assert view(shuffle_hidden(game, seat, rnd), seat) == original
            if seat is not None:
                other = swap_own_card(game, seat, rnd)
                if other is not None:
                    assert view(other, seat) != original
                    changed_checked += 1
    assert changed_checked > 0


# --- (e) illegal decisions -------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@settings(max_examples=15)
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
@settings(max_examples=12)
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
@settings(max_examples=25)
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

"""R2: setting up a round from Game(players=n, seed=s).

Expected facts come from docs/rules.md R2: 7 cards per hand, one face-up palette card per
player, the Red rule, 49 - 8n cards left in the deck, and the first turn taken by the
seat to the left (next seat) of the player holding the highest palette card (R1.2).
"""

from __future__ import annotations

from typing import Any

import pytest

from red7 import Card, CardSet, Config, Game, GameError, IllegalActionError, RefusalCode, Step
from red7.core.cards import RED, names_of
from red7.core.events import CardDrawn, DrawReason, RoundDealt
from tests.support import helpers

LETTERS = "ROYGBIV"
SEEDS = range(150)
PLAYER_COUNTS = (2, 3, 4)


def strength(name: str) -> tuple[int, int]:
    """R1.2: value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0])


def expected_first_player(game: Game) -> int:
    """R2.4, computed from the public palettes: left of the highest palette card."""
    n = game.players
    tops = [game.palette(s)[0] for s in range(n)]
    leader = max(range(n), key=lambda s: strength(tops[s]))
    return (leader + 1) % n


def deal_of(game: Game, n: int) -> tuple[Any, ...]:
    return (
        tuple(tuple(game.hand(s)) for s in range(n)),
        tuple(tuple(game.palette(s)) for s in range(n)),
        tuple(game.deck()),
        game.current_player,
    )


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_2_hand_and_palette_sizes(n: int) -> None:
    """R2.2: each player holds 7 cards and has exactly one palette card."""
    for seed in SEEDS:
        g = Game(players=n, seed=seed)
        for s in range(n):
            assert len(g.hand(s)) == 7, (n, seed, s)
            assert len(g.palette(s)) == 1, (n, seed, s)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_2_deck_holds_the_rest(n: int) -> None:
    """R2.2: the deck holds 49 - 8n cards; hands, palettes and deck partition the 49."""
    for seed in SEEDS:
        g = Game(players=n, seed=seed)
        obs = g.observe(None)
        assert obs.deck_size == 49 - 8 * n
        placed: list[str] = []
        for s in range(n):
            placed += g.hand(s) + g.palette(s)
        placed += g.deck()
        assert len(placed) == 49
        assert len(set(placed)) == 49
        assert obs.out_of_round_count == 0
        assert obs.hand_sizes == (7,) * n


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_3_rule_starts_red(n: int) -> None:
    """R2.3: the canvas holds only the Red start card, so the rule is Red."""
    for seed in range(30):
        g = Game(players=n, seed=seed)
        assert g.rule == RED
        assert helpers.canvas(g) == []


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_4_first_player_left_of_highest_palette_card(n: int) -> None:
    """R2.4: the seat after the one with the highest palette card (R1.2) starts."""
    seen_first: set[int] = set()
    for seed in range(400):
        g = Game(players=n, seed=seed)
        first = expected_first_player(g)
        assert g.current_player == first, (n, seed, [g.palette(s) for s in range(n)])
        assert g.step_name == "start"
        assert g.alive == (True,) * n
        seen_first.add(first)
    # the deal really varies: every seat starts in some game
    assert seen_first == set(range(n))


def test_r2_4_first_player_uses_colour_to_break_value_ties() -> None:
    """R2.4/R1.2: find a deal where the two highest palette cards share a value;
    the first player is left of the one of stronger colour."""
    found = 0
    for seed in range(3000):
        g = Game(players=4, seed=seed)
        tops = [g.palette(s)[0] for s in range(4)]
        values = sorted((int(t[1]) for t in tops), reverse=True)
        if values[0] != values[1]:
            continue
        found += 1
        assert g.current_player == expected_first_player(g), (seed, tops)
    assert found > 10


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_same_seed_same_deal(n: int) -> None:
    """R2.2: a game is determined by its seed: the same seed deals the same cards."""
    for seed in (0, 1, 7, 12345, 2**40 + 3):
        assert deal_of(Game(players=n, seed=seed), n) == deal_of(Game(players=n, seed=seed), n)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_different_seeds_different_deals(n: int) -> None:
    """R2.2: the deck is shuffled: 60 seeds give 60 different deals."""
    deals = {deal_of(Game(players=n, seed=seed), n)[:2] for seed in range(60)}
    assert len(deals) == 60


def test_r2_2_every_card_can_reach_a_palette() -> None:
    """R2.2: the shuffle covers the whole deck: each of the 49 cards is dealt face up
    to some palette in some of 1500 four-player games."""
    seen: set[str] = set()
    for seed in range(1500):
        g = Game(players=4, seed=seed)
        for s in range(4):
            seen.update(g.palette(s))
    assert len(seen) == 49


@pytest.mark.parametrize("bad", [1, 5, 0, -2, 10, "2", True, False, 2.0, None])
def test_r2_1_player_count_outside_2_to_4_raises(bad: object) -> None:
    """R2.1: Red7 is for 2 to 4 players; anything else is a GameError naming the value."""
    with pytest.raises(GameError) as info:
        Game(players=bad, seed=1)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(bad) in message or str(bad) in message
    assert "2" in message and "4" in message
    with pytest.raises(GameError) as checked:  # the configuration is checked once, by Config
        Config(players=bad)  # type: ignore[arg-type]
    assert str(checked.value) == message


def test_r2_4_turns_pass_left_skipping_eliminated() -> None:
    """R2.4/R2.1: after seat 0 ends a winning turn, the next seat to the left that is
    still in the round (seat 2, seat 1 being out) takes the turn."""
    g = Game.from_position(
        hands=[["V1", "B2"], ["Y3"], ["O1", "I2"]],
        palettes=[["R6"], ["R5"], ["O6"]],
        eliminated=[1],
        current=0,
    )
    g.apply("play V1")  # seat 0 keeps R6, still winning under Red
    g.apply("end")
    assert g.current_player == 2


def test_r2_4_turns_pass_to_the_left_in_seat_order() -> None:
    """R2.4: with everyone in, conceding passes the turn to the next seat."""
    for seed in range(20):
        g = Game(players=4, seed=seed)
        first = g.current_player
        assert first is not None
        g.apply("concede")
        assert g.current_player == (first + 1) % 4
        g.apply("concede")
        assert g.current_player == (first + 2) % 4


# --- dealing chosen card by card: explicit chance (OpenSpiel's chance events) ----------------

# Seat 0 holds a 3 and a 7, seat 1 a 3; the palettes V1 / I1 make seat 0 start (R2.4).
CHOSEN_HANDS = ("R3 R7 I2 B2 G2 Y2 O2", "V3 I3 B3 G3 Y3 O3 R2")
CHOSEN_PALETTES = ("V1", "I1")


def test_explicit_chance_deals_the_cards_in_dealing_order_R2_2() -> None:
    """R2.2: with explicit chance each card of the deal is a chance node, dealt seven
    passes of one hand card per seat from seat 0, then one palette card per seat."""
    game = Game(2, seed=1, explicit_chance=True)
    order = list(range(16))  # V1, I1, B1, ...: seat 0 gets the even positions
    for dealt, card in enumerate(order):
        assert game.is_chance_node and game.step is Step.DEALING
        assert game.current_player is None and game.legal_actions() == []
        assert len(game.chance_outcomes()) == 49 - dealt  # every card of the round not dealt yet
        game.apply_chance(card)
    names = [str(Card(c)) for c in order]
    assert sorted(game.hand(0)) == sorted(names[0:14:2])
    assert sorted(game.hand(1)) == sorted(names[1:14:2])
    assert (game.palette(0), game.palette(1)) == ([names[14]], [names[15]])
    assert len(game.deck()) == 33 and not set(game.deck()) & set(names)
    assert not game.is_chance_node
    assert game.current_player == 0  # R2.4: seat 1's palette card (I3) beats V3, so seat 0 starts
    assert (game.round, game.turns) == (1, 1)
    hands = (CardSet(names[0:14:2]), CardSet(names[1:14:2]))
    assert game.events == (RoundDealt(1, (Card(14), Card(15)), hands, 0),)


def test_explicit_chance_deals_only_this_rounds_cards_and_only_at_chance_nodes() -> None:
    """R2.2: a deal is 8 distinct cards per seat of this round: until all 24 are dealt
    nobody decides, a card already dealt is no outcome, and once play has begun chance
    deals nothing more."""
    game = Game(3, seed=2, explicit_chance=True)
    for card in range(23):
        game.apply_chance(card)
    assert game.is_chance_node and game.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        game.apply("concede")
    assert info.value.refusal.code is RefusalCode.CHANCE
    with pytest.raises(GameError, match="not a chance outcome"):
        game.apply_chance(0)  # already dealt
    game.apply_chance(23)
    assert not game.is_chance_node and game.chance_outcomes() == []
    game.apply("concede")
    with pytest.raises(GameError, match="no chance node"):
        game.apply_chance(24)


def test_explicit_chance_deals_a_new_round_without_the_score_piles_R8_4() -> None:
    """R8.4: a later round is dealt from the cards not in a score pile."""
    game = helpers.deal(CHOSEN_HANDS, CHOSEN_PALETTES, advanced=True)
    game.apply("concede")  # seat 1 wins round 1 and scores its I1 under Red (R8.2)
    assert game.round == 2 and game.step is Step.DEALING
    assert names_of(game.observe(None).score_piles[1]) == ["I1"]
    outcomes = {str(c) for c in game.chance_outcomes()}
    assert len(outcomes) == 48 and "I1" not in outcomes


def test_chance_picks_the_drawn_card_but_no_other_seat_sees_it_R9() -> None:
    """R7.3 / R9: a draw from the unknown deck is a chance node over the deck's cards;
    whichever card chance picks, only the drawer's view shows which."""
    game = helpers.deal(CHOSEN_HANDS, CHOSEN_PALETTES, actions=True)
    game.apply("play R3")  # R3 wins Red against I1; the 3 draws (R7.3)
    assert game.is_chance_node and game.step is Step.DRAWING and game.current_player is None
    outcomes = game.chance_outcomes()
    assert sorted(str(c) for c in outcomes) == sorted(game.deck())
    drawer_views, other_views = set(), set()
    for card in outcomes[:3]:
        drawn = game.clone()
        (event,) = drawn.apply_chance(card)
        assert event == CardDrawn(0, card, public=False, reason=DrawReason.THREE)
        assert str(card) in drawn.hand(0) and drawn.step is Step.AFTER
        drawer_views.add(drawn.observe(0))
        other_views.add((drawn.observe(1), drawn.observe(None), event.seen_by(1), event.seen_by(None)))
    assert len(drawer_views) == 3  # the drawer knows which card it drew
    assert len(other_views) == 1  # nobody else can tell
    with pytest.raises(GameError, match="not a chance outcome"):
        game.apply_chance("V1")  # a palette card


def test_a_public_deck_top_is_drawn_without_chance_R7_z() -> None:
    """R7.z: a card a 7 put on the deck is known to all, so drawing it is no chance event."""
    game = helpers.deal(CHOSEN_HANDS, CHOSEN_PALETTES, actions=True)
    game.apply("play R7")
    game.apply("move V1 deck")  # V1 goes face down on the deck, known to all
    game.apply("end")
    assert game.observe(None).deck_known_top == (Card.parse("V1"),)
    events = game.apply("play V3")  # seat 1's 3 draws the public V1
    assert CardDrawn(1, Card.parse("V1"), public=True, reason=DrawReason.THREE) in events
    assert not game.is_chance_node and game.chance_outcomes() == []
    assert "V1" in game.hand(1)
    with pytest.raises(GameError, match="no chance node"):
        game.apply_chance(game.deck()[0])

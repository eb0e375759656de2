"""R2: setting up a round from Game(players=n, seed=s).

Expected facts come from RULES.md R2: 7 cards per hand, one face-up palette card per
player, the Red rule, 49 - 8n cards left in the deck, and the first turn taken by the
seat to the left (next seat) of the player holding the highest palette card (R1.2).
"""

from __future__ import annotations

from typing import Any

import pytest

import helpers
from red7 import Card, Game, GameError

LETTERS = "ROYGBIV"
SEEDS = range(150)
PLAYER_COUNTS = (2, 3, 4)


def strength(name: str) -> tuple[int, int]:
    """R1.2: value first, then colour (Red strongest)."""
    return int(name[1]), -LETTERS.index(name[0])


def expected_first_player(game: Game) -> int:
    """R2.4, computed from the public palettes: left of the highest palette card."""
    n = len(game.observation(None)["palettes"])
    tops = [game.palette(s)[0] for s in range(n)]
    leader = max(range(n), key=lambda s: strength(tops[s]))
    return (leader + 1) % n


def deal_of(game: Game, n: int) -> tuple[Any, ...]:
    return (
        tuple(tuple(game.hand(s)) for s in range(n)),
        tuple(tuple(game.palette(s)) for s in range(n)),
        tuple(game.deck),
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
        obs = g.observation(None)
        assert obs["deck_size"] == 49 - 8 * n
        placed: list[str] = []
        for s in range(n):
            placed += g.hand(s) + g.palette(s)
        placed += [str(Card(c)) for c in g.deck]
        assert len(placed) == 49
        assert len(set(placed)) == 49
        assert obs["out_of_round"] == 0
        assert obs["hand_sizes"] == [7] * n


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_3_rule_starts_red(n: int) -> None:
    """R2.3: the canvas holds only the Red start card, so the rule is Red."""
    for seed in range(30):
        obs = Game(players=n, seed=seed).observation(None)
        assert obs["rule"] == "red"
        assert obs["canvas"] == []


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_r2_4_first_player_left_of_highest_palette_card(n: int) -> None:
    """R2.4: the seat after the one with the highest palette card (R1.2) starts."""
    seen_first: set[int] = set()
    for seed in range(400):
        g = Game(players=n, seed=seed)
        first = expected_first_player(g)
        assert g.current_player == first, (n, seed, [g.palette(s) for s in range(n)])
        assert g.step_name == "start"
        assert g.observation(None)["alive"] == [True] * n
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
    assert isinstance(info.value, ValueError)


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


# --- dealing chosen by an adapter (OpenSpiel's chance events): Game.redeal, put_on_top ---


def test_redeal_gives_the_cards_in_dealing_order_R2_2() -> None:
    game = Game(2, seed=1)
    order = list(range(16))  # V1, I1, B1, ...: seat 0 gets the even positions
    game.redeal(order)
    assert game.hands[0] == sum(1 << c for c in order[0:14:2])
    assert game.hands[1] == sum(1 << c for c in order[1:14:2])
    assert (game.palettes[0], game.palettes[1]) == (1 << 14, 1 << 15)
    assert len(game.deck) == 33 and not set(game.deck) & set(order)
    assert game.current == 0  # R2.4: seat 1's palette card (I3) beats V3, so seat 0 starts
    assert (game.round, game.turns) == (1, 1)


def test_redeal_only_before_the_rounds_first_decision_and_only_this_rounds_cards() -> None:
    game = Game(3, seed=2)
    with pytest.raises(GameError, match="24 distinct cards"):
        game.redeal(list(range(23)))
    with pytest.raises(GameError, match="24 distinct cards"):
        game.redeal([0] * 24)
    game.apply("concede")
    with pytest.raises(GameError, match="before its first decision"):
        game.redeal(list(range(24)))


def test_put_on_top_changes_the_next_draw_but_no_observation_R9() -> None:
    game = Game(2, actions=True, seed=3)
    card = game.deck[0]  # the bottom card
    before = [game.observation(s) for s in (None, 0, 1)]
    game.put_on_top(card)
    assert game.deck[-1] == card
    assert [game.observation(s) for s in (None, 0, 1)] == before
    with pytest.raises(GameError, match="not in the deck"):
        game.put_on_top(game.palettes[0].bit_length() - 1)


def test_put_on_top_is_refused_while_the_top_is_public_R7_z() -> None:
    game = helpers.make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], deck="I1 I2", actions=True)
    game.apply("play R7")
    game.apply("move Y4 deck")
    with pytest.raises(GameError, match="the top of the deck is known"):
        game.put_on_top(game.deck[0])

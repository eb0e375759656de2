"""Who is winning and why (red7.core.standing, R3.1, R3.2), and its words (red7.ui.words)."""

from __future__ import annotations

import random

import pytest

from red7 import COLOURS, Game
from red7.core.cards import mask_of
from red7.core.standing import standing, standing_of
from red7.ui.i18n import set_language
from red7.ui.words import standing_text, winning_line
from tests.support.helpers import make

NAMES = ["Ana", "Bia", "Caio"]


def masks(*palettes: str) -> list[int]:
    return [mask_of(p.split()) for p in palettes]


def test_more_cards_wins_and_the_reason_is_more() -> None:
    st = standing("blue", masks("R1 O2 Y3 G4 B5", "R7 O6 Y5 G3"), [True, True])
    assert (st.leader, st.challenger, st.reason) == (0, 1, "more")
    assert (st.count(0), st.count(1)) == (5, 4)
    assert standing_text(st, NAMES) == "Blue: 5 colours against 4 (Bia)"
    assert winning_line(st, NAMES) == "Winning: Ana — Blue: 5 colours against 4 (Bia)"


def test_equal_counts_are_decided_by_the_highest_card_R3_1() -> None:
    st = standing("indigo", masks("O4 R5 G7 Y6", "I2 I3 O4 V5".replace("O4", "B4")), [True, True])
    assert (st.leader, st.reason, st.top(0), st.top(1)) == (0, "higher", "G7", "V5")
    assert standing_text(st, NAMES) == (
        "Indigo: a run of 4 cards each, and the highest card decides: G7 against V5 (Bia)"
    )


def test_red_names_both_cards() -> None:
    st = standing("red", masks("R3 B6", "O6 V1", "Y2"), [True, True, True])
    assert (st.leader, st.challenger) == (1, 0)
    assert standing_text(st, NAMES) == "Red: O6 against B6 (Ana)"


def test_nobody_qualifies_under_green_R3_2() -> None:
    st = standing("green", masks("R3 B5", "O1 V7"), [True, True])
    assert st.leader is None and st.reason == "nobody"
    assert winning_line(st, NAMES) == "Green: nobody qualifies"


def test_only_one_qualifies() -> None:
    st = standing("violet", masks("R3 B5", "O6 V7"), [True, True])
    assert (st.leader, st.challenger, st.reason) == (0, None, "alone")
    assert standing_text(st, NAMES) == "Violet: 1 card below 4, nobody else qualifies"


def test_eliminated_players_do_not_count() -> None:
    st = standing("red", masks("R3", "R7", "O5"), [True, False, True])
    assert st.leader == 2 and st.qualifying[1] == ()


def test_words_in_portuguese() -> None:
    set_language("pt-BR")
    st = standing("blue", masks("R1 O2 Y3 G4 B5", "R7 O6 Y5 G3"), [True, True])
    assert winning_line(st, ["Você", "Bot 2"]) == "Vencendo: Você — Azul: 5 cores contra 4 (Bot 2)"


@pytest.mark.parametrize("config", [(2, False, False), (3, True, True), (4, False, True)])
def test_the_leader_is_the_engine_winner_in_random_games(config: tuple[int, bool, bool]) -> None:
    """Over seeded random games, the standing computed from each observation agrees
    with Game.winning() under every rule, and the challenger is never ahead of it."""
    players, advanced, actions = config
    rng = random.Random(7)
    checked = 0
    for seed in range(400):
        game = Game(players, advanced, actions, seed=seed)
        while not game.is_over and checked < 4000:
            obs = game.observe(None)
            for index, rule in enumerate(COLOURS):
                st = standing_of(obs, rule)
                assert st.leader == game.winning(index)
                if st.challenger is not None:
                    assert st.leader is not None
                    assert st.count(st.challenger) <= st.count(st.leader)
                    assert (st.reason == "more") == (st.count(st.challenger) < st.count(st.leader))
            checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 1500


def test_standing_of_a_built_position() -> None:
    game = make(["R1", "O2"], ["G2 G4", "B5"])
    st = standing_of(game.observe(0), "green")
    assert (st.leader, st.reason, st.count(0)) == (0, "alone", 2)

"""Perft-style counts of whole turns (in the spirit of chess perft).

From a game at the start of a turn, :func:`perft` follows every sequence of the
mover's own decisions until the turn is over and counts

* ``first``: the legal decisions at the first step,
* ``sequences``: the complete decision sequences of the turn,
* ``outcomes``: the distinct positions the turn can end in (a key built from public
  queries, without the history and the turn counter, so that different orders reaching
  the same position count once; see :func:`outcome_key`).

Every expected number below was worked out by hand from docs/rules.md, branch by branch, as
the comments show; the engine was only used to print the seeded deals.

Notation in the comments: ``P`` is the mover's palette, ``H`` their hand, ``[x3]``
marks a canvas play that earns the advanced draw (R5.1) and so ends in three
sequences (``draw``, ``decline``, or ``concede``, which is legal at every step, R4.2.4).
"""

from __future__ import annotations

from typing import Any

import pytest

from red7 import Game
from red7.core.seeds import LEGACY_DEAL

OutcomeKey = tuple[Any, ...]


def outcome_key(game: Game) -> OutcomeKey:
    """The position a turn ended in, as the hand counts below define it: every hand and
    palette, the hand cards known to all, the deck in order and how many of its top
    cards are public, the canvas, the rule, the face-down cards out of the round, the
    score piles and scores, who remains, whose turn it is, the step, the round and the
    result. Not the history nor the turn counter, so that different orders reaching the
    same position count once.

    Built from public queries rather than :meth:`Game.position_key`, on purpose:
    ``position_key`` also tells apart *which* face-down cards of an eliminated player
    everyone saw (its palette, cards seen drawn) from those only that player knows, so
    two concessions turning the same cards face down after different plays (a card
    played to the palette before conceding, or kept in hand) would count as two
    outcomes. The hand-worked counts treat a concession's position as fixed by the cards
    it turns face down, the canvas and the deck.
    """
    public = game.observe(None)  # the public facts: known hand cards, deck top, score piles
    return (
        tuple(tuple(game.hand(seat)) for seat in range(game.players)),
        tuple(tuple(game.palette(seat)) for seat in range(game.players)),
        public.known_hand_cards,
        tuple(game.deck()),
        len(public.deck_known_top),
        public.canvas,
        game.rule,
        tuple(game.out_of_round()),
        public.score_piles,
        game.scores,
        game.alive,
        game.current_player,
        game.step,
        game.round,
        game.result,
    )


def turn_over(game: Game, turns_before: int) -> bool:
    """The turn is over when the game ends or a new turn has begun. A new turn is seen
    on the turn counter rather than on the current seat: in the advanced game the same
    seat may start the next round (R8.5, R2.4)."""
    return game.is_over or game.turns != turns_before


def perft(game: Game) -> tuple[int, int, int]:
    """(first-step decisions, complete sequences, distinct outcomes) of the mover's turn.

    Also checks R4.3/R4.4 on every leaf: a mover still in the same round at the end of
    the turn is winning under the final rule.
    """
    assert game.step_name == "start"
    mover, turns_before, round_before = game.current_player, game.turns, game.round
    assert mover is not None
    outcomes: set[OutcomeKey] = set()
    sequences = 0

    def walk(g: Game) -> None:
        nonlocal sequences
        for action in g.legal_actions():
            child = g.clone()
            child.apply(action)
            if turn_over(child, turns_before):
                sequences += 1
                outcomes.add(outcome_key(child))
                if not child.is_over and child.round == round_before and child.alive[mover]:
                    assert child.winning() == mover, f"{g.history} + {action}: mover not winning (R4.3)"
            else:
                walk(child)

    walk(game)
    return len(game.legal_actions()), sequences, len(outcomes)


# --- hand-checked positions -------------------------------------------------------------


def test_perft_basic_three_card_hand() -> None:
    """2 players, basic rules, rule Red. Mover (seat 0): H = R7 B5 G2, P = V6.
    Opponent: P = O7 (hand I4 Y1 I2, never touched). O7 beats V6 (R1.2: 7 > 6), so
    the mover is losing under Red.

    First step (R4.2): play R7, play B5, play G2; canvas only G2 (Green: V6 is one
    even card, O7 none). Canvas R7 keeps Red (O7 > V6), canvas B5 gives Blue where
    both have one colour and O7 is higher. Plus concede: 5.

    Outcomes:
      canvas G2                                     1
      concede (any time: the mover's 4 cards go face down, nothing else moves, so
        conceding at start or after any play is the same position)   1
      play R7: Red R7 > O7 -> end; canvas B5 (Blue: R, V = 2 colours > 1);
        canvas G2 (Green 1 > 0)                     3
      play B5: Red V6 < O7, canvas R7 keeps Red; canvas G2 (Green 1 > 0)   1
      play G2: canvas R7 no; canvas B5 (Blue: V, G = 2 > 1)   1
    Total 7 outcomes. Sequences: 1 + 1 + (3+1) + (1+1) + (1+1) = 10.
    """
    game = Game.from_position(
        hands=[["R7", "B5", "G2"], ["I4", "Y1", "I2"]],
        palettes=[["V6"], ["O7"]],
    )
    assert perft(game) == (5, 10, 7)


def test_perft_actions_three_card_hand() -> None:
    """2 players, action rules (R7), rule Red. Mover: H = B7 O5 I3, P = V6.
    Opponent: P = O7 (hand Y1 G2). Deck, top first: G6 R1.

    First step:
      play B7 is illegal (R7.x): the 7 must move V6 (R7.7 "another card"), leaving
        P = B7, which loses to O7 under Red (O7 > B7), under Violet (canvas V6: no
        card below 4), under Orange (O5) and Indigo (I3): one card each, O7 higher.
      play O5, play I3 (free), no winning canvas (Blue, Orange, Indigo: one card or
      colour each, O7 higher), concede: 3.

    play I3: the 3 draws G6 (R7.3); P = V6 I3, H = B7 O5 G6. Red loses; canvas B7
      (Blue 2 colours) or G6 (Green 1 even); Orange O5 loses (V6 < O7).
      -> 2 outcomes + concede; 3 sequences.
    play O5: the 5 asks for one more play (R7.5) from H = B7 I3:
      B7 is legal: P = V6 O5 B7, moving O5 to the deck leaves V6 B7, and canvas I3
        (Indigo: run 6-7) wins.
      I3: draws G6, P = V6 O5 I3: canvas B7 (Blue 3 colours) or G6 (Green) -> 2
        outcomes + concede: 3 sequences.
      B7 -> seven step: move V6 canvas (Violet: O5 B7 have none below 4) and move O5
        canvas (Orange: one card each, O7 > B7) are illegal (R4.4); move V6 deck,
        move O5 deck, concede: 3.
        move V6 deck: P = O5 B7, Red loses, canvas I3 (no run) loses: concede only.
        move O5 deck: P = V6 B7: canvas I3 wins (run of 2) -> 1 outcome + concede.
        -> 4 sequences.
      concede at the five step: 1.
      -> 3 + 4 + 1 = 8 sequences.
    Sequences: 1 + 3 + 8 = 12.

    Outcomes: 5 non-concede ones (I3+B7, I3+G6, O5 I3+B7, O5 I3+G6, O5 B7 O5-deck+I3)
    and the concede positions, which differ only by the deck: unchanged (conceding at
    start, at the five step, at the seven step), G6 drawn (after I3 alone or O5 I3),
    V6 on top of the deck, O5 on top of the deck: 4. Total 9.
    """
    game = Game.from_position(
        hands=[["B7", "O5", "I3"], ["Y1", "G2"]],
        palettes=[["V6"], ["O7"]],
        deck=["G6", "R1"],
        actions=True,
    )
    assert perft(game) == (3, 12, 9)


def test_perft_leaves_the_game_untouched() -> None:
    game = Game(players=3, advanced=True, actions=True, seed=2)
    before = game.fingerprint()
    perft(game)
    assert game.fingerprint() == before


# --- seeded deals -----------------------------------------------------------------------

# The deals below are those of CPython's random.Random (the generator of version 1
# records, ``deal="mt19937"``), which dealt every game when the counts were worked out
# by hand; games still replay with it, and the counts rest on these very deals.

# Game(players=2, seed=1), basic rules. Deal:
#   seat 0: P = R4      H = V5 G4 I2 V2 R1 Y1 I1
#   seat 1: P = V1      H = I7 O6 I6 G5 B5 B3 R2     (R4 leads, so seat 1 starts, R2.4)
# First step: 7 plays, no canvas (P = V1 loses to R4 under every rule: one card each
# and R4 higher, Green none), concede: 8.
# After play X (P = V1 X against R4):
#   end and canvas R2 (Red), canvas O6 (Orange: groups of one), and Indigo (run of one)
#   iff X > R4; Indigo also iff X = R2 (run 1-2); Blue always (2 colours);
#   Green (G5) iff X is an even card above R4 (O6, I6).
#   X = R2: B3 B5 I6 I7                      4
#   X = B3: B5                               1
#   X = B5: end, R2 O6 B3 I6 I7              6
#   X = G5: end, R2 O6 B5 B3 I7 I6           7
#   X = I6: end, R2 O6 G5 B5 B3 I7           7
#   X = O6: end, R2 G5 B5 B3 I7 I6           7
#   X = I7: end, R2 O6 B5 B3 I6              6
# 38 outcomes + 1 concede position (nothing is drawn in the basic game, so every
# concession turns the same 8 cards face down) = 39; sequences 38 + 8 concessions = 46.
SEED_1_2P_BASIC = (8, 46, 39)

# Game(players=3, advanced=True, actions=True, seed=2). Deal:
#   seat 0: P = I1  H = B7 R6 Y5 B4 O3 R2 G1     (seat 2's Y2 leads: seat 0 starts)
#   seat 1: P = V1; seat 2: P = Y2; deck top first V3 I6 O2 ...
# Against V1 and Y2 the mover wins under any rule with a qualifying set of 2 cards, or
# of 1 card above Y2. Draw (R5.1) iff the canvas card's value > |P|.
# First step: play all 7 (G1 has no victim: the others hold 1 card < 2, R7.1; B7 is
# legal since moving I1 to the canvas leaves B7 winning Indigo), no canvas, concede: 8.
#   G1 (P = I1 G1): Orange O3[x3] (two 1s), Blue B4[x3] B7[x3]; Red, Yellow lose;
#       + concede = 10 sequences.
#   R2 (R2 > Y2): end, R6[x3], O3[x3], Y5[x3], B7[x3], B4[x3], G1 (Green R2 > Y2, no draw)
#       + concede = 18.
#   B4: end, R6[x3], R2, O3[x3], Y5[x3], G1, B7[x3] + concede = 16.
#   R6: end, R2, O3[x3], Y5[x3], G1, B7[x3], B4[x3] + concede = 16.
#   O3 (draws V3; P = I1 O3): end, R6[x3], R2, Y5[x3], B7[x3], B4[x3], V3[x3] (Violet
#       I1 O3); Green loses + concede = 18.
#   B7 -> seven: move I1 canvas, move I1 deck, concede. Either way P = B7 (1 card):
#       end, R6[x3] R2[x3] O3[x3] Y5[x3] B4[x3] (Green none) + concede = 17 each;
#       35 in all.
#   Y5 -> five (7 decisions: 6 plays, B7 legal, G1 without victim, + concede); |P| = 3:
#       G1: end, R6[x3], R2, O3 (two 1s), B7[x3], B4[x3] + concede = 13
#       R2: end, R6[x3], O3, G1, B7[x3], B4[x3] + concede = 13
#       B4: end, R6[x3], R2, O3, G1, B7[x3] + concede = 11
#       R6: end, R2, O3, G1, B7[x3], B4[x3] + concede = 11
#       O3 (draws V3): end, R6[x3], R2, B7[x3], B4[x3], V3 (3 is not > 3) + concede = 13
#       B7 -> seven: I1 or Y5, to canvas (both legal) or deck, + concede; then P has 2
#           cards: end, R6[x3], R2 (2 is not > 2), O3[x3], B4[x3] + concede = 12 each:
#           4 * 12 + 1 = 49
#       + concede at the five step: 111.
# Sequences: 1 + 10 + 18 + 16 + 16 + 18 + 35 + 111 = 225.
# Outcomes: the 76 sequences ending in a concession leave 149 sequences, all different
# positions (palette, canvas, hand and deck tell them apart). A concession turns every
# mover's card not on the canvas or the deck face down, so its position is fixed by the
# canvas and the deck: ([], deck), ([], V3 drawn), ([], I1 tucked), ([], Y5 tucked),
# ([I1], deck), plus a draw step's concession: canvas Z with the deck unchanged for
# Z in {O3, B4, B7, R6, Y5} (5; "move Y5 canvas, concede" is one of them), with V3
# drawn for {R6, Y5, B7, B4, V3} (5), [I1, Z] for {R6, R2, O3, Y5, B4} (5), I1 tucked
# for the same 5, [Y5, Z] for {R6, O3, B4} (3), Y5 tucked for those 3 (3): 31.
# 149 + 31 = 180.
SEED_2_3P_ADVANCED_ACTIONS = (8, 225, 180)

# Game(players=4, actions=True, seed=3), basic scoring. Deal:
#   seat 0: P = B1; seat 1: P = O1; seat 2: P = Y3 (leads); seat 3 starts:
#   seat 3: P = I1  H = R6 O6 I5 R3 O2 I2 V1; deck top first B2 V4 ...
# Every opponent holds one card, Y3 the highest; nobody has an even card. The mover
# wins with 2 qualifying cards, or 1 above Y3, or (Green) any even card.
# First step: 7 plays (V1 has no victim), no canvas, concede: 8.
#   V1 (P = I1 V1): Orange O2 O6 (two 1s)                       2
#   I2: Indigo I5 (run 1-2), Violet V1                          2
#   O2: Indigo I5 I2, Violet V1                                 3
#   R3 (draws B2, R3 > Y3): end, R6, O6 O2, I5 I2, V1, B2        8
#   O6: end, R6 R3, O2, I5 I2 (Violet: I1 alone loses)          6
#   R6: end, R3, O6 O2, I5 I2                                   6
#   I5 -> five: all 6 plays legal; I5 > Y3 so Red wins and end is legal:
#       V1: end, R6 R3, O6 O2 (two 1s), I2                      6
#       I2: end, R6 R3, O6 O2, V1                               6
#       O2: end, R6 R3, O6, I2, V1                              6
#       R3 (draws B2): end, R6, O6 O2, I2, V1, B2               7
#       O6: end, R6 R3, O2, I2 (Violet loses)                   5
#       R6: end, R3, O6 O2, I2                                  5
# 62 outcomes + 2 concede positions (B2 drawn by an R3 or not) = 64.
# Sequences: 62 + 14 concessions (start, after each of 6 plays, at the five step,
# after each of 6 follow-ups) = 76.
SEED_3_4P_ACTIONS = (8, 76, 64)


@pytest.mark.parametrize(
    ("players", "advanced", "actions", "seed", "deck_top", "deal", "expected"),
    [
        (
            2,
            False,
            False,
            1,
            "V7",
            {
                1: (["I7", "O6", "I6", "G5", "B5", "B3", "R2"], ["V1"]),
                0: (["V5", "G4", "I2", "V2", "R1", "Y1", "I1"], ["R4"]),
            },
            SEED_1_2P_BASIC,
        ),
        (
            3,
            True,
            True,
            2,
            "V3",
            {0: (["B7", "R6", "Y5", "B4", "O3", "R2", "G1"], ["I1"]), 1: (None, ["V1"]), 2: (None, ["Y2"])},
            SEED_2_3P_ADVANCED_ACTIONS,
        ),
        (
            4,
            False,
            True,
            3,
            "B2",
            {
                3: (["R6", "O6", "I5", "R3", "O2", "I2", "V1"], ["I1"]),
                0: (None, ["B1"]),
                1: (None, ["O1"]),
                2: (None, ["Y3"]),
            },
            SEED_3_4P_ACTIONS,
        ),
    ],
)
def test_perft_seeded_deals(
    players: int,
    advanced: bool,
    actions: bool,
    seed: int,
    deck_top: str,
    deal: dict[int, tuple[list[str] | None, list[str]]],
    expected: tuple[int, int, int],
) -> None:
    game = Game(players=players, advanced=advanced, actions=actions, seed=seed, deal=LEGACY_DEAL)
    # The hand counts above rest on this deal; check it first so a changed shuffle is
    # reported as such rather than as a wrong count.
    for seat, (hand, palette) in deal.items():
        if hand is not None:
            assert game.hand(seat) == hand
        assert game.palette(seat) == palette
    assert game.current_player == next(iter(deal))  # the first seat listed starts (R2.4)
    assert len(game.deck()) == 49 - 8 * players  # R2.2: 7 in hand + 1 in palette each
    assert game.deck()[0] == deck_top  # what a 3 would draw (R7.3)
    assert perft(game) == expected

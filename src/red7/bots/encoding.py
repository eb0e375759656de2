"""Observations as fixed-size int8 vectors, for learning agents (all environments and the learned bot).

:func:`encode` turns a seat's :class:`~red7.core.observation.Observation` (R9: what that
seat may see, nothing else) into one ``int8`` vector of :data:`OBS_SIZE` numbers. Seats are
*rotated* so that the observer comes first, then the seats to their left, and padded
to 4, so one network plays any seat of any table size. Cards are indexed as in
:mod:`red7.core.cards` (0 = V1 ... 48 = R7, card order). The layout, field by field
(:data:`FIELDS` holds it as data; offsets in :data:`OFFSETS`):

=====================  =====  =====================================================
field                  size   meaning
=====================  =====  =====================================================
hand                   49     1 for each card in the observer's hand
palettes               4×49   per seat (observer first), 1 for each palette card
known_hand_cards       4×49   per seat, hand cards everyone saw drawn (R7.z)
score_piles            4×49   per seat, the cards in their score pile (R8.2)
canvas                 49     1 for each card on the canvas (the rule cards)
deck_known_top         49     public cards on top of the deck (put there by a 7 or 1)
pending                49     the 7 whose action is being chosen (step seven)
out_of_round_known     49     face-down cards of eliminated players the observer knows
                              (their palettes, cards seen drawn, its own former hand)
rule                   7      one-hot rule in force: Red, Orange, ... Violet
step                   7      one-hot: start, after, five, seven, one, draw, over
                              (all zero at a chance node, see below)
current                4      one-hot, relative: whose decision it is
alive                  4      1 for each seat still in the round
seats                  4      1 for each seat at the table (the rest is padding)
hand_sizes             4      cards in each hand
scores                 4      points of each seat (advanced game)
deck_size              1      cards in the deck
out_of_round           1      cards turned face down by eliminated players
round                  1      round number, from 1
target                 1      points that win the match (advanced game; else 0)
advanced, actions      1, 1   the configuration
=====================  =====  =====================================================

The layout is frozen: a test pins the bytes of the vectors of seeded positions, so a
trained network keeps reading the same numbers. Observations taken at a chance node
(``Step.DEALING``/``Step.DRAWING``, only in a game with explicit chance, e.g. the
OpenSpiel adapter) have no bit among the seven ``step`` numbers and none in ``current``
(nobody decides); the rest describes the position as usual (during a deal, the cards
dealt so far).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..core.model import MAX_PLAYERS, Step
from ..core.observation import Observation

MAX_SEATS: Final = MAX_PLAYERS
"""Per-seat fields are padded to the largest table (observer first)."""
CARDS: Final = 49
FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("hand", CARDS),
    ("palettes", MAX_SEATS * CARDS),
    ("known_hand_cards", MAX_SEATS * CARDS),
    ("score_piles", MAX_SEATS * CARDS),
    ("canvas", CARDS),
    ("deck_known_top", CARDS),
    ("pending", CARDS),
    ("out_of_round_known", CARDS),
    ("rule", 7),
    ("step", 7),
    ("current", MAX_SEATS),
    ("alive", MAX_SEATS),
    ("seats", MAX_SEATS),
    ("hand_sizes", MAX_SEATS),
    ("scores", MAX_SEATS),
    ("deck_size", 1),
    ("out_of_round", 1),
    ("round", 1),
    ("target", 1),
    ("advanced", 1),
    ("actions", 1),
)
OFFSETS: Final = {name: sum(size for _, size in FIELDS[:i]) for i, (name, _size) in enumerate(FIELDS)}
OBS_SIZE: Final = sum(size for _, size in FIELDS)
_MASK_ROWS: Final = 1 + 3 * MAX_SEATS + 4  # hand, 3 per-seat mask fields, canvas, known top, pending, out
_SMALL: Final = OFFSETS["rule"]
# _ORDER[n][seat]: the seats in observer-first order (an observer-relative index -> seat)
_ORDER: Final = {n: [[(seat + i) % n for i in range(n)] for seat in range(n)] for n in range(2, MAX_SEATS + 1)}
_PAD: Final = {n: [0] * (MAX_SEATS - n) for n in range(2, MAX_SEATS + 1)}


def encode(obs: Observation) -> npt.NDArray[np.int8]:
    """The vector of the observation ``obs`` of one seat (a spectator is seen from seat 0)."""
    seat = obs.seat or 0
    config = obs.config
    n = config.players
    order = _ORDER[n][seat]
    pad = _PAD[n]
    canvas = known_top = 0
    for c in obs.canvas:
        canvas |= 1 << c
    for c in obs.deck_known_top:
        known_top |= 1 << c
    palettes, known, piles = obs.palettes, obs.known_hand_cards, obs.score_piles
    masks = [
        obs.hand or 0,
        *[palettes[s] for s in order],
        *pad,
        *[known[s] for s in order],
        *pad,
        *[piles[s] for s in order],
        *pad,
        canvas,
        known_top,
        0 if obs.pending is None else 1 << obs.pending,
        obs.out_of_round_known | (obs.out_of_round_own or 0),
    ]
    # Masks fit in 64 bits: unpack their little-endian bytes, keep the 49 card bits of each.
    bits = np.unpackbits(np.array(masks, dtype="<u8").view(np.uint8), bitorder="little")
    out = np.empty(OBS_SIZE, dtype=np.int8)
    out[:_SMALL] = bits.reshape(_MASK_ROWS, 64)[:, :CARDS].ravel()
    alive, sizes, scores = obs.alive, obs.hand_sizes, obs.scores
    small = [0] * (OBS_SIZE - _SMALL)
    small[obs.rule] = 1
    if obs.step <= Step.OVER:  # chance nodes (dealing, drawing) have no step bit
        small[7 + obs.step] = 1
    current = obs.current_player
    if current is not None:
        small[14 + (current - seat) % n] = 1
    small[18 : 18 + n] = [alive[s] for s in order]
    small[22 : 22 + n] = [1] * n
    small[26 : 26 + n] = [sizes[s] for s in order]
    small[30 : 30 + n] = [scores[s] for s in order]
    small[34:] = [
        obs.deck_size,
        obs.out_of_round_count,
        obs.round,
        config.target or 0,
        config.advanced,
        config.actions,
    ]
    out[_SMALL:] = small
    return out


def describe(vector: npt.NDArray[np.int8]) -> dict[str, list[int]]:
    """The vector cut into its named fields (for debugging and documentation)."""
    return {name: vector[OFFSETS[name] : OFFSETS[name] + size].tolist() for name, size in FIELDS}

"""Determinization: whole games consistent with what one seat sees (R9).

Search bots reason over the cards they cannot see by sampling *worlds*: complete
:class:`~red7.core.game.Game` positions whose observation, for the same viewer, is
exactly the observation they were sampled from. The unseen cards (other hands minus
the cards everyone saw drawn, the unknown part of the deck, the face-down cards of
eliminated players the viewer cannot name) are dealt uniformly at random into the
places that hold them, each place keeping its size.

:class:`WorldSampler` reads an observation once and then samples cheaply, which is what
an ISMCTS iteration needs; :func:`sample_world` is the one-shot form. A world's event
log starts empty (its past is in its history), and its later rounds are shuffled from a
seed drawn from the sampling RNG.
"""

from __future__ import annotations

import random

from .cards import FULL_DECK, bits_of
from .game import Game
from .model import GameError, Step
from .observation import Observation
from .seeds import SEED_BITS
from .state import State


class WorldSampler:
    """Samples games consistent with ``observation``.

    Raises :class:`~red7.core.model.GameError` if the observation is not
    self-consistent (its card counts do not add up to the 49 cards), or is taken at a
    chance node.
    """

    def __init__(self, observation: Observation) -> None:
        obs = self.observation = observation
        if obs.step > Step.OVER:
            raise GameError("worlds are sampled at decision points, not while cards are dealt or drawn")
        self.viewer = obs.seat
        self.own_hand = obs.hand or 0
        self.out_own = obs.out_of_round_own or 0
        self.known_top = list(reversed(obs.deck_known_top))  # bottom-to-top order, as the deck is kept
        seen = self.own_hand | obs.out_of_round_known | self.out_own
        for m in (*obs.palettes, *obs.score_piles, *obs.known_hand_cards):
            seen |= m
        for c in (*obs.canvas, *obs.deck_known_top):
            seen |= 1 << c
        self.unseen = list(bits_of(~seen & FULL_DECK))
        # How many unseen cards each place holds: other hands, the deck, the face-down pile.
        self.hand_needs = [
            0 if seat == self.viewer else size - obs.known_hand_cards[seat].bit_count()
            for seat, size in enumerate(obs.hand_sizes)
        ]
        self.deck_need = obs.deck_size - len(self.known_top)
        removed = obs.out_of_round_count - (obs.out_of_round_known | self.out_own).bit_count()
        needed = sum(self.hand_needs) + self.deck_need + removed
        if needed != len(self.unseen) or min(self.hand_needs, default=0) < 0 or self.deck_need < 0 or removed < 0:
            raise GameError(f"inconsistent observation: {len(self.unseen)} unseen cards for {needed} hidden places")

    def sample(self, rng: random.Random, explicit_chance: bool = False) -> Game:
        """A game whose ``observe(viewer)`` equals the sampled observation; with
        ``explicit_chance`` its later deals and unknown draws are chance nodes (as in
        ``Game(..., explicit_chance=True)``) instead of coming from the world's shuffle."""
        obs = self.observation
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands = list(obs.known_hand_cards)
        if self.viewer is not None:
            hands[self.viewer] = self.own_hand
        i = 0
        for seat, need in enumerate(self.hand_needs):
            for c in pool[i : i + need]:
                hands[seat] |= 1 << c
            i += need
        deck = pool[i : i + self.deck_need] + self.known_top
        i += self.deck_need
        out = obs.out_of_round_known | self.out_own
        for c in pool[i:]:
            out |= 1 << c
        own = [0] * obs.players
        if self.viewer is not None:
            own[self.viewer] = self.out_own
        return Game._of(
            State(
                config=obs.config,
                seed=rng.getrandbits(SEED_BITS),
                explicit_chance=explicit_chance,
                hands=hands,
                palettes=list(obs.palettes),
                known_hand_cards=list(obs.known_hand_cards),
                deck=deck,
                deck_known_count=len(self.known_top),
                canvas=list(obs.canvas),
                rule=obs.rule,
                out_of_round=out,
                out_of_round_known=obs.out_of_round_known,
                out_of_round_own=own,
                score_piles=list(obs.score_piles),
                scores=list(obs.scores),
                alive=list(obs.alive),
                current=obs.current_player if obs.current_player is not None else 0,
                step=obs.step,
                pending=obs.pending,
                draw_ends_turn=False,
                round=obs.round,
                turns=obs.turns,
                history=obs.history,
                round_log=obs.round_log,
                round_results=obs.round_results,
                result=obs.result,
            )
        )


def sample_world(observation: Observation, rng: random.Random) -> Game:
    """One game consistent with ``observation``: the unseen cards dealt at random."""
    return WorldSampler(observation).sample(rng)

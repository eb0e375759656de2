"""Determinization: whole games consistent with what one seat sees (R9).

Search bots reason over the cards they cannot see by sampling *worlds*: complete
:class:`~red7.core.game.Game` states whose observation, for the same viewer, is exactly the
observation they were sampled from. The unseen cards (other hands minus the cards
everyone saw drawn, the unknown part of the deck, the cards of eliminated players) are
dealt uniformly at random into the places that hold them, each place keeping its size.

:class:`WorldSampler` reads an observation once and then samples cheaply, which is what
an ISMCTS iteration needs; :func:`sample_world` is the one-shot form.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import Action
from .cards import COLOURS, mask_of, parse_index
from .game import STEP_NAMES, Config, Game, GameError, Result, RoundResult


class WorldSampler:
    """Samples games consistent with ``observation`` (a dict from ``Game.observation``).

    Raises :class:`~red7.core.game.GameError` if the observation is not self-consistent
    (for instance, if its card counts do not add up to the 49 cards).
    """

    def __init__(self, observation: dict[str, Any]) -> None:
        obs = observation
        self.viewer: int | None = obs["seat"]
        self.config = Config(obs["players"], obs["advanced"], obs["actions"])
        n = self.config.players
        self.palettes = [mask_of(p) for p in obs["palettes"]]
        self.piles = [mask_of(p) for p in obs["score_piles"]]
        self.known = [mask_of(k) for k in obs["known_hand_cards"]]
        self.canvas = [parse_index(c) for c in obs["canvas"]]
        top_first = [parse_index(c) for c in obs["deck_known_top"]]
        self.known_top = top_first[::-1]  # bottom-to-top order, as Game.deck
        self.own_hand = mask_of(obs["hand"]) if self.viewer is not None else 0
        self.hand_sizes: list[int] = list(obs["hand_sizes"])
        self.deck_size: int = obs["deck_size"]
        self.out_public = mask_of(obs["out_of_round_known"])
        self.out_own = mask_of(obs.get("out_of_round_own", []))
        self.removed_count: int = obs["out_of_round"] - (self.out_public | self.out_own).bit_count()
        self.alive: list[bool] = list(obs["alive"])
        self.scores: list[int] = list(obs["scores"])
        self.step = STEP_NAMES.index(obs["step"])
        self.current = obs["current_player"] if obs["current_player"] is not None else 0
        self.pending = parse_index(obs["pending"]) if obs["pending"] else -1
        self.rule = COLOURS.index(obs["rule"])
        self.round: int = obs["round"]
        self.turns: int = obs["turns"]
        self.history = [(seat, Action.parse(text).id) for seat, text in obs["history"]]
        self.round_results = [
            RoundResult(r["winner"], COLOURS.index(r["rule"]), tuple(r["scored"]), r["points"])
            for r in obs["round_results"]
        ]
        res = obs["result"]
        self.result = Result(tuple(res["winners"]), tuple(res["scores"]), res["rounds"]) if res else None

        seen = self.own_hand | self.out_public | self.out_own
        for m in (*self.palettes, *self.piles, *self.known):
            seen |= m
        for c in (*self.canvas, *self.known_top):
            seen |= 1 << c
        self.unseen = [c for c in range(49) if not seen >> c & 1]
        # How many unseen cards each place holds: other hands, the deck, the removed.
        self.hand_needs = [
            0 if seat == self.viewer else self.hand_sizes[seat] - self.known[seat].bit_count() for seat in range(n)
        ]
        self.deck_need = self.deck_size - len(self.known_top)
        needed = sum(self.hand_needs) + self.deck_need + self.removed_count
        if needed != len(self.unseen) or min(self.hand_needs, default=0) < 0 or self.deck_need < 0:
            raise GameError(f"inconsistent observation: {len(self.unseen)} unseen cards for {needed} hidden places")

    def sample(self, rng: random.Random) -> Game:
        """A game whose ``observation(viewer)`` equals the sampled observation."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        g = Game.__new__(Game)
        g.config = self.config
        g.seed = rng.getrandbits(63)  # deals the worlds' later rounds
        g._init_fields()
        hands = self.known[:]
        if self.viewer is not None:
            hands[self.viewer] = self.own_hand
        i = 0
        for seat, need in enumerate(self.hand_needs):
            for c in pool[i : i + need]:
                hands[seat] |= 1 << c
            i += need
        g.hands = hands
        g.deck = pool[i : i + self.deck_need] + self.known_top
        i += self.deck_need
        removed = self.out_public | self.out_own
        for c in pool[i:]:
            removed |= 1 << c
        g.removed = removed
        g.out_public = self.out_public
        if self.viewer is not None:
            g.out_own[self.viewer] = self.out_own
        g.palettes = self.palettes[:]
        g.known = self.known[:]
        g.deck_known = len(self.known_top)
        g.canvas = self.canvas[:]
        g.rule = self.rule
        g.piles = self.piles[:]
        g.scores = self.scores[:]
        g.alive = self.alive[:]
        g.current = self.current
        g.step = self.step
        g.pending = self.pending
        g.round = self.round
        g.turns = self.turns
        g.history = self.history[:]
        g.round_results = self.round_results[:]
        g.result = self.result
        return g


def sample_world(observation: dict[str, Any], rng: random.Random) -> Game:
    """One game consistent with ``observation``: the unseen cards dealt at random."""
    return WorldSampler(observation).sample(rng)

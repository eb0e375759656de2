"""Worlds that explain what the other player did: ``pimc``'s opponent model.

A world sampled uniformly from an observation (:mod:`red7.core.worlds`) ignores what
the other players' decisions tell about their hands: a player who kept a card that
would have won probably did not hold it. Here a world must also *explain* those
decisions under a model of play, ``greedy`` (:class:`~red7.bots.greedy.GreedyBot`):
the round is replayed from its first position in the world, and the world is kept only
if ``greedy``, in each other player's place, would have made every decision that player
made. Against ``greedy`` itself (``medium``), and against any player who plays as it
does, the kept worlds are a sample of the true posterior; a player who does not play
like it explains no world, and the caller falls back to plain worlds.

The round is replayed from its first position, which the observation gives only when
every card that left a hand is public since the deal: the basic game without action
cards (no card is drawn), with two players (:func:`applies`). There the other player's
hand at the deal is its hand now and every card it played.

:func:`explained_worlds` deals candidates until enough are kept; in compiled code where
it is built (``Engine.explained``, ``red7/native/pimc.c``, with the compiled ``greedy``),
else in Python with :func:`explains`, the reference the compiled sampler is tested against.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core import actions as A
from ..core import compiled
from ..core.cards import bits_of, names_of
from ..core.game import Game
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from .greedy import GreedyBot

_MODEL = GreedyBot(reference=1)
_ANY_STREAM = random.Random(0)
"""greedy evaluates a chance-free turn once, in one world: in the basic game without
action cards its decision does not depend on the stream it is given."""


def applies(observation: Observation) -> bool:
    """Can the round be replayed from its deal (2 players, basic game, no action cards)?"""
    config = observation.config
    return config.players == 2 and not config.advanced and not config.actions and observation.seat is not None


@dataclass(frozen=True)
class RoundStart:
    """The round's first position as the viewer knows it, and what to deal into it."""

    game: Game
    """The deal: the viewer's hand, the first palettes, in the other hand the cards its
    player has played since; the unseen cards wait in the deck."""
    pool: tuple[int, ...]
    """The cards the viewer has not seen."""
    need: tuple[int, ...]
    """Per seat, how many of them its hand holds now (0 for the viewer)."""
    history: tuple[int, ...]
    """The round's decisions, in order."""


def round_start(observation: Observation) -> RoundStart:
    """The deal of the round seen in ``observation`` (see :func:`applies`), every card
    that left a hand since given back to it."""
    assert applies(observation), "the round is replayed only in the 2-player basic game"
    me = observation.seat
    assert me is not None
    hands = [0, 0]
    hands[me] = observation.hand or 0
    palettes = list(observation.palettes)
    for seat, a in observation.history:
        if a < A.MOVE_CANVAS:  # a play or a canvas: the card left the hand
            card = a % A.CANVAS
            hands[seat] |= 1 << card
            palettes[seat] &= ~(1 << card)
    seen = hands[0] | hands[1] | palettes[0] | palettes[1]
    pool = tuple(bits_of(~seen & ((1 << 49) - 1)))
    first = observation.history[0][0] if observation.history else observation.current_player
    assert first is not None
    game = Game.from_position(
        [names_of(h) for h in hands],
        [names_of(p) for p in palettes],
        deck=names_of(sum(1 << c for c in pool)),
        current=first,
    )
    need = tuple(0 if seat == me else size for seat, size in enumerate(observation.hand_sizes))
    return RoundStart(game, pool, need, tuple(a for _, a in observation.history))


def explains(world: Game, observation: Observation) -> bool:
    """Would ``greedy`` have made every decision the other player made, holding the cards
    ``world`` gives it? (The Python reference of the compiled sampler.)"""
    me = observation.seat
    hands = [world.observe(seat).hand or 0 for seat in range(2)]
    palettes = list(observation.palettes)
    for seat, a in observation.history:
        if a < A.MOVE_CANVAS:
            card = a % A.CANVAS
            hands[seat] |= 1 << card
            palettes[seat] &= ~(1 << card)
    first = observation.history[0][0] if observation.history else observation.current_player
    assert first is not None
    replay = Game.from_position([names_of(h) for h in hands], [names_of(p) for p in palettes], current=first)
    for seat, a in observation.history:
        if seat != me and _MODEL.choose(replay.observe(seat), replay.options(), _ANY_STREAM).id != a:
            return False
        replay.apply_id(a)
    return True


def explained_worlds(observation: Observation, rng: random.Random, worlds: int, tries: int) -> tuple[list[Any], int]:
    """Up to ``worlds`` worlds that explain the other player's decisions, dealt from at
    most ``tries`` candidates drawn with ``rng``; returns them (compiled engines where the
    compiled core is built, else games) and the candidates dealt."""
    if compiled.available():
        start = round_start(observation)
        engine = compiled.engine_of(start.game)
        seed = rng.getrandbits(64)
        kept, made = engine.explained(observation.seat, start.pool, start.need, start.history, worlds, tries, seed)
        return list(kept), int(made)
    sampler = WorldSampler(observation)
    games: list[Game] = []
    dealt = 0
    while len(games) < worlds and dealt < tries:
        dealt += 1
        world = sampler.sample(rng)
        if explains(world, observation):
            games.append(world)
    return list(games), dealt

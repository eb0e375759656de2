"""Worlds that explain what the other players did: the search bots' opponent model.

A world sampled uniformly from an observation (:mod:`red7.core.worlds`) ignores what the
other players' decisions tell about their hands: a player who kept a card that would
have won probably did not hold it. Here a world also comes with the round's past, and is
judged by how well a model of play, ``greedy`` (:class:`~red7.bots.greedy.GreedyBot`),
explains the other players' decisions in it:

1. **The round as the viewer knows it** (:func:`round_past`). The round's public log
   (:class:`~red7.core.model.RoundLog`, R9) gives its first position (the palettes
   dealt, who began), and who drew a card when. Every card a player played from its
   hand was in that hand: dealt to it, or drawn unseen before the decision that played
   it (a card drawn in public is known); the viewer's own hand is known too. The other
   cards nobody has seen form the *pool*.
2. **A deal of the round** (in :func:`explained_worlds`). Each card a hand must have held
   goes to one of that hand's places (a dealt card, or an unseen draw before the decision
   that played it), uniformly among those still free, in the order of those decisions:
   the places open to a card include those open to an earlier one, so this picks
   uniformly among the deals that fit the decisions. The pool fills the other places and
   the deck, the cards drawn unseen on top in the order they were drawn.
3. **The replay**: the round's decisions are replayed on that deal, which reaches a world
   the viewer cannot tell from the real game, and each decision of another player is
   compared with the one ``greedy`` makes in its place. A world keeps weight
   ``MISMATCH ** k`` for ``k`` decisions ``greedy`` would have made otherwise; with
   ``most=0`` only worlds it explains fully are kept (the 2-player basic game against
   ``greedy`` itself: the kept worlds are then a sample of the true posterior).

A player who does not play like ``greedy`` explains few worlds; the callers fall back to
plain worlds when none is kept. The replay runs in compiled code where it is built
(``Engine.replayed``, ``red7/native/inference.c``, with the compiled ``greedy``); this
module's Python replay is the reference it is tested against, and the fallback.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core import actions as A
from ..core import compiled
from ..core.cards import FULL_DECK, NAME_OF, bits_of, names_of
from ..core.game import Game
from ..core.model import Step
from ..core.observation import Observation
from .greedy import GreedyBot

NO_DEADLINE: Final = 2**31 - 1
"""The deadline of a card that is still in the viewer's hand (never played)."""
MISMATCH: Final = 0.3
"""The weight a world keeps per decision of another player that ``greedy`` would have
made otherwise in it (see the module docstring)."""
_MODEL = GreedyBot(reference=1)


def applies(observation: Observation) -> bool:
    """Can the round be rebuilt for this viewer: a seat's observation at a decision,
    in a round that began with a deal (not a position given card by card)?"""
    return observation.seat is not None and observation.round_log.dealt and observation.step < Step.OVER


@dataclass(frozen=True)
class RoundPast:
    """The round seen in an observation, as its viewer can rebuild it (module doc, 1)."""

    observation: Observation
    first: int
    """The seat that began the round."""
    dealt: tuple[int, ...]
    """Per seat, the hand's size at the deal."""
    draws: tuple[tuple[int, int], ...]
    """The unseen draws, in order: (index of the decision in the round, seat)."""
    required: tuple[tuple[int, int, int], ...]
    """(seat, card, deadline) of every card a hand must have held, in increasing
    deadline: the index in the round of the decision that played it, or
    :data:`NO_DEADLINE` for the viewer's hand."""
    pool: tuple[int, ...]
    """The cards nobody has seen."""
    history: tuple[tuple[int, int], ...]
    """The round's decisions: (seat, action id)."""

    def start_fields(self) -> dict[str, Any]:
        """The round's first position without its hands and deck (``compiled.FIELDS``)."""
        obs = self.observation
        n = obs.players
        return {
            "hands": (0,) * n, "palettes": obs.round_log.palettes, "known_hand_cards": (0,) * n, "deck": (),
            "deck_known_count": 0, "canvas": (), "rule": 0, "out_of_round": 0, "out_of_round_known": 0,
            "out_of_round_own": (0,) * n, "score_piles": obs.score_piles, "scores": obs.scores,
            "alive": (True,) * n, "current": self.first, "step": int(Step.START), "pending": None,
            "round": obs.round, "turns": 0,
        }  # fmt: skip


def round_past(observation: Observation) -> RoundPast:
    """What the viewer knows of the round's past (see :func:`applies`)."""
    assert applies(observation), "the round is rebuilt for a seat, from a dealt round"
    obs = observation
    me = obs.seat
    assert me is not None
    log = obs.round_log
    history = obs.history[log.start :]
    drawn_at: dict[int, list[tuple[int, int]]] = {}
    for i, seat, card in log.draws:
        drawn_at.setdefault(i - log.start, []).append((seat, card))
    public = [set[int]() for _ in range(obs.players)]  # cards in hand that everyone saw drawn
    required: list[tuple[int, int, int]] = []
    for i, (seat, a) in enumerate(history):
        if a < A.MOVE_CANVAS:  # a play or a canvas: the card left the hand
            card = a % A.CANVAS
            if card in public[seat]:
                public[seat].discard(card)
            else:
                required.append((seat, card, i))
        for seat_drawing, card in drawn_at.get(i, ()):
            if card >= 0:
                public[seat_drawing].add(card)
    own = (obs.hand or 0) & ~obs.known_hand_cards[me] | (obs.out_of_round_own or 0)
    required += [(me, card, NO_DEADLINE) for card in bits_of(own)]
    placed = sum(log.palettes) | sum(1 << card for _, card, _ in required)
    in_round = FULL_DECK & ~sum(obs.score_piles)
    first = history[0][0] if history else obs.current_player
    assert first is not None
    return RoundPast(
        observation=obs,
        first=first,
        dealt=log.hand_sizes,
        draws=tuple((i - log.start, seat) for i, seat, card in log.draws if card < 0),
        required=tuple(required),
        pool=tuple(bits_of(in_round & ~placed)),
        history=history,
    )


def deal(past: RoundPast, rng: random.Random) -> Game:
    """One deal of the round in Python (module doc, 2): a game at its first position."""
    obs = past.observation
    n = obs.players
    places: list[list[list[int]]] = [[[-1, -1] for _ in range(past.dealt[s])] for s in range(n)]  # [drawn at, card]
    draw_place = []
    for at, seat in past.draws:
        draw_place.append((seat, len(places[seat])))
        places[seat].append([at, -1])
    for seat, card, deadline in past.required:
        open_ = [p for p in places[seat] if p[1] < 0 and p[0] < deadline]
        assert open_, "a card no place of its hand can have held: the round's log is inconsistent"
        open_[int(rng.random() * len(open_))][1] = card
    pool = list(past.pool)
    rng.shuffle(pool)
    for seat in range(n):
        for place in places[seat]:
            if place[1] < 0:
                assert seat != obs.seat, "the viewer's own cards are all known"
                place[1] = pool.pop()
    hands = [[p[1] for p in places[s] if p[0] < 0] for s in range(n)]
    top = [places[seat][k][1] for seat, k in draw_place]  # drawn first, on top
    return Game.from_position(
        [names_of(sum(1 << c for c in h)) for h in hands],
        [names_of(p) for p in obs.round_log.palettes],
        deck=[NAME_OF[c] for c in top + pool],
        scores=[names_of(p) for p in obs.score_piles],
        current=past.first,
        advanced=obs.advanced,
        actions=obs.actions,
    )


def mismatches(
    world: Game, past: RoundPast, most: int, rng: random.Random, judged: list[int] | None = None
) -> int | None:
    """Replay the round on ``world`` (a deal of :func:`deal`) and count the decisions of
    the other players ``greedy`` would have made otherwise; None past ``most``. The
    world ends at the position the viewer sees now. ``judged[0]``, if given, grows by
    the decisions ``greedy`` judged (the work done, as the compiled replay counts it)."""
    me = past.observation.seat
    count = 0
    for seat, a in past.history:
        if seat != me:
            if judged is not None:
                judged[0] += 1
            if _MODEL.choose(world.observe(seat), world.options(), rng).id != a:
                count += 1
                if count > most:
                    return None
        world.apply(a)  # checks it: a deal that does not fit the decisions is a bug
    return count


def explained_worlds(
    observation: Observation,
    rng: random.Random,
    worlds: int,
    tries: int,
    most: int = 0,
    native: bool | None = None,
    judgements: int = 0,
) -> tuple[list[tuple[Any, int]], int]:
    """Up to ``worlds`` worlds whose round ``greedy`` explains but for at most ``most``
    decisions of the other players, from at most ``tries`` deals drawn with ``rng``:
    (world, decisions unexplained) pairs, and the deals tried. With ``judgements`` > 0,
    no deal starts once ``greedy`` has judged that many decisions of the others in the
    replays (a deterministic bound on the work: a deal of a long round with three or four
    players costs many judgements, one of a 2-player basic round few). The worlds are
    compiled engines where the compiled core is built (unless ``native=False``), else games."""
    past = round_past(observation)
    if compiled.available() if native is None else native:
        start = compiled.load(observation.config, past.start_fields())
        me = observation.seat
        assert me is not None  # round_past holds it: a seat's observation
        history = [a for _, a in past.history]
        kept, tried, broken = start.replayed(
            me,
            past.dealt,
            past.draws,
            past.required,
            past.pool,
            history,
            most,
            worlds,
            tries,
            rng.getrandbits(64),
            judgements,
        )
        assert not broken, f"{broken} deals of the round did not fit its decisions"
        return list(kept), int(tried)
    out: list[tuple[Any, int]] = []
    tried = 0
    judged = [0]
    while len(out) < worlds and tried < tries and (judgements <= 0 or judged[0] < judgements):
        tried += 1
        world = deal(past, rng)
        count = mismatches(world, past, most, rng, judged)
        if count is not None:
            out.append((world, count))
    return out, tried


def weighted_worlds(observation: Observation, rng: random.Random, deals: int, native: bool | None = None) -> list[Any]:
    """``deals`` worlds drawn (with replacement) from as many deals of the round, each
    with the weight :data:`MISMATCH` ``** k`` for the ``k`` decisions of the other
    players ``greedy`` would have made otherwise in it (systematic resampling): what the
    search plays instead of plain worlds. Compiled engines or games, as
    :func:`explained_worlds` gives them."""
    explained, _ = explained_worlds(observation, rng, deals, deals, most=len(observation.history), native=native)
    return resampled([world for world, _ in explained], [MISMATCH**k for _, k in explained], deals, rng)


def resampled(worlds: Sequence[Any], weights: Sequence[float], count: int, rng: random.Random) -> list[Any]:
    """``count`` of ``worlds`` drawn with replacement in proportion to ``weights`` (not
    necessarily summing to 1) by systematic resampling: one uniform draw from ``rng``,
    then evenly spaced marks, so a world of weight w is drawn ``count * w / sum`` times,
    rounded up or down."""
    step = sum(weights) / count
    mark = rng.random() * step
    out: list[Any] = []
    total = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        total += weight
        while mark < total and len(out) < count:
            out.append(world)
            mark += step
    while len(out) < count:  # rounding at the very end
        out.append(worlds[-1])
    return out

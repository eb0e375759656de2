"""``greedy`` (level ``medium``): the best end of its own turn, by a hand-written evaluation.

A one-turn lookahead. For the decision in front of it the bot tries every sequence of
its own decisions until its turn ends, in a few worlds sampled from its observation
(:mod:`red7.core.worlds`), scores where each sequence leaves it, and keeps the first
decision whose best continuation scores highest on average over the worlds. It never
looks at what the other players will do, and it sees nothing its seat cannot see: the
worlds are built from its observation, and every position is scored from the bot's own
observation of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Final

from ..core import actions as A
from ..core import compiled
from ..core.actions import Action
from ..core.events import draws_unknown
from ..core.game import Game
from ..core.model import N_
from ..core.observation import Observation
from ..core.rules import cached_keys, compute_key
from ..core.worlds import WorldSampler
from .base import Bot, BotSpecError, Option

GAME_WON: Final = 100_000.0
"""The match (or the basic game) is won."""
GAME_LOST: Final = -100_000.0
"""The match is lost, or the bot is out of a basic game."""
ROUND_WON: Final = 10_000.0
ROUND_LOST: Final = -10_000.0
"""Advanced game: the round is won (plus :data:`W_POINTS` per point scored) or the bot
is out of it (minus :data:`W_POINTS` per point the round's winner scored)."""

_KEYS: Final = cached_keys()
MOST_WORLDS: Final = 64
"""The most worlds greedy averages (what the compiled twin takes)."""

W_HAND: Final = 30.0
"""Per card left in the bot's hand: every turn costs at least one card, so cards in
hand are turns to come and choices for them."""
W_MARGIN: Final = 3.0
"""Per card of lead under the rule in force: own qualifying-set size minus the
largest other one."""
W_FLEX: Final = 4.0
"""Per rule (of the 7) that the bot would be winning under with the palettes as they are."""
W_NEXT: Final = 4.0
"""Per rule the next player would be winning under: their ways to survive their turn."""
W_POINTS: Final = 5.0
"""Advanced game: per point of a finished round (won: added; lost: the winner's points
subtracted)."""


def evaluate(obs: Observation, rounds_before: int) -> float:
    """How good the position seen in ``obs`` is for its viewer once the viewer's turn is
    over (higher is better; the terms are listed in :class:`GreedyBot`).

    Reads the palettes, the viewer's hand size, who is alive, whose turn it is, the
    rule, the result and the round results. ``rounds_before`` is how many rounds were
    finished when the turn began, to tell a round that ended during the turn.
    """
    me = obs.seat
    assert me is not None, "a spectator has no position to evaluate"
    result = obs.result
    if result is not None:
        return GAME_WON if me in result.winners else GAME_LOST
    if len(obs.round_results) > rounds_before:  # advanced: a round ended, a new one is dealt
        ended = obs.round_results[rounds_before]
        if ended.winner == me:
            return ROUND_WON + W_POINTS * ended.points
        return ROUND_LOST - W_POINTS * ended.points
    alive = obs.alive
    if not alive[me]:
        return ROUND_LOST if obs.advanced else GAME_LOST
    palettes = obs.palettes
    rule = obs.rule
    nxt = obs.current_player
    flex = nxt_flex = 0
    mine = other = 0
    for r in range(7):
        cache = _KEYS[r]
        best = best_seat = 0
        for seat, m in enumerate(palettes):
            if alive[seat]:
                k = cache.get(m)
                if k is None:
                    k = compute_key(r, m)
                if k > best:
                    best, best_seat = k, seat
                if r == rule:
                    if seat == me:
                        mine = k >> 6
                    elif k >> 6 > other:
                        other = k >> 6
        if best:
            if best_seat == me:
                flex += 1
            elif best_seat == nxt:
                nxt_flex += 1
    return W_HAND * obs.hand_sizes[me] + W_MARGIN * (mine - other) + W_FLEX * flex - W_NEXT * nxt_flex


class GreedyBot(Bot):
    """One-turn lookahead with a hand-written evaluation.

    options: worlds=N, the number of sampled worlds averaged (default 8, at most 64);
    reference=1, the Python search even where the compiled one is built (default 0)

    **Search.** For each of ``worlds`` worlds sampled from the observation with the RNG
    given to :meth:`choose` (the first one always, the others only if a line needs
    them, see below), every sequence of the bot's own decisions is played out
    until its turn ends (the game's ``turns`` counter changes) or the game ends. At
    each of its own steps only the safe decisions (R4.7) are followed, all of them when
    none is safe (a 3 may still draw a rescue). The value of a first decision in a
    world is the best value over its continuations; the bot returns the first decision
    with the best average over the worlds, ties going to the lowest action id. The
    chance events of a turn (the 3's draw, the advanced canvas draw) are what the
    worlds are for: a line whose events draw an unknown card (a private
    :class:`~red7.core.events.CardDrawn`) is evaluated in every world, each with its
    own deck; a line that draws none ends where the bot sees the same in every world,
    and the evaluation reads only what the bot sees, so it is evaluated once.
    Transpositions within a turn (two 5s played in either order) are evaluated once.

    When nothing is safe, every legal decision is tried (a 3 may draw a rescue), but a
    gamble is taken only if it averages strictly better than conceding.

    **Evaluation** of the position reached, from the bot's seat (:func:`evaluate`):

    - game over: +100000 if the bot is among the winners, -100000 otherwise;
    - advanced game, the round ended during the turn: +10000 + 5 x points if the bot
      won it, -10000 - 5 x the winner's points otherwise;
    - the bot is out of the round: -100000 (basic game) or -10000 (advanced);
    - otherwise the sum of
        * +30 per card left in the bot's hand,
        * +3 x (the bot's qualifying-set size - the largest other remaining player's)
          under the rule in force,
        * +4 per rule (of the 7) the bot would be winning under with the palettes now,
        * -4 per rule the next player would be winning under.

    **Compiled.** Where the compiled core is built (:mod:`red7.native`), the search runs
    in C (``red7/native/greedy.c``, some 80 times faster): the same search on the same
    first world, so the same decision wherever no line draws an unknown card; the other
    worlds are sampled there from their own stream. ``reference=1`` keeps this module's.

    How the weights were tuned, with every figure: docs/bots.md, "How the bots were built and tuned".
    """

    name = "greedy"

    def __init__(self, worlds: int = 8, reference: int = 0) -> None:
        """options: worlds=N, the number of sampled worlds averaged; reference=1, search in
        Python even where the compiled greedy is built"""
        worlds = whole_worlds(worlds)
        if reference not in (0, 1):
            raise BotSpecError(N_("option {key}={value!r} must be 0 or 1"), key="reference", value=reference)
        self.worlds = worlds
        self.compiled = compiled.available() and not reference

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        choices, gamble = turn_choices(options)
        if len(choices) == 1:
            return choices[0]
        me = observation.seat
        assert me is not None, "a bot plays a seat"
        sampler = WorldSampler(observation)
        first = sampler.sample(rng)
        if self.compiled:  # the same search in C (red7/native/greedy.h), its later worlds its own
            engine = compiled.engine_of(first)
            ids = sorted(a.id for a in choices)
            return Action.from_id(
                engine.greedy(rng.getrandbits(64), self.worlds, sampled=True, among=ids, gamble=gamble)
            )
        return search_turn(TurnSearch, me, sampler, first, choices, gamble, self.worlds, rng)


def whole_worlds(worlds: int | float) -> int:
    """The option ``worlds=N`` of a one-turn search, checked: a whole number from 1 to
    :data:`MOST_WORLDS` (a float that is whole is taken). Raises BotSpecError."""
    if isinstance(worlds, float) and worlds == int(worlds):
        worlds = int(worlds)
    if not isinstance(worlds, int) or isinstance(worlds, bool) or not 1 <= worlds <= MOST_WORLDS:
        raise BotSpecError(
            N_("option worlds={worlds!r} must be a whole number of worlds, from 1 to {most}"),
            worlds=worlds,
            most=MOST_WORLDS,
        )
    return worlds


def turn_choices(options: Sequence[Option]) -> tuple[list[Action], bool]:
    """(the decisions a one-turn search weighs, whether it is a gamble): the safe ones
    (R4.7), or every legal one when none is safe (a 3 may still draw a rescue)."""
    choices = [o.action for o in options if o.safe]
    if choices:
        return choices, False
    return [o.action for o in options], True


def search_turn(
    search: Callable[[int, Game], TurnSearch],
    me: int,
    sampler: WorldSampler,
    first: Game,
    choices: Sequence[Action],
    gamble: bool,
    worlds: int,
    rng: random.Random,
) -> Action:
    """The first decision among ``choices`` whose best continuation to the end of seat
    ``me``'s turn scores highest on average over the worlds (ties: the lowest id; when
    ``gamble``, conceding unless something averages strictly better).

    ``search(me, world)`` makes the :class:`TurnSearch` of one world (its
    :meth:`~TurnSearch.leaf_value` is the evaluation); ``first`` is the first world, the
    others (up to ``worlds``) are drawn from ``sampler`` with ``rng`` when a line needs
    them (see :class:`GreedyBot`).
    """
    searches = [search(me, first)]
    totals: dict[int, float] = {}
    for a in choices:
        value, chance = searches[0].value_after(a.id)
        if chance:
            # The other worlds are sampled when a line first needs them, in order and
            # from the same RNG as the first, so they are the worlds an eager sampler
            # would draw; a decision whose lines draw nothing unknown samples one.
            while len(searches) < worlds:
                searches.append(search(me, sampler.sample(rng)))
            value += sum(s.value_after(a.id)[0] for s in searches[1:])
            value /= len(searches)
        totals[a.id] = value
    best = max(totals.values())
    if gamble and totals.get(A.CONCEDE) == best:
        return Action.from_id(A.CONCEDE)
    return Action.from_id(min(i for i, v in totals.items() if v == best))


class TurnSearch:
    """Exhaustive search of the rest of one turn of seat ``me`` in one world.

    Positions are compared by :meth:`Game.position_key` (within a turn, equal keys are
    transpositions); finished turns are scored by :meth:`leaf_value`: here
    :func:`evaluate` on the bot's own observation, cached by what the evaluation reads
    (a subclass may score them otherwise: :mod:`red7.bots.learned`).
    """

    def __init__(self, me: int, game: Game) -> None:
        self.me = me
        self.game = game
        self.turns = game.turns
        self.rounds = len(game.round_results)
        self.memo: dict[Hashable, tuple[float, bool]] = {}
        self.leaves: dict[Hashable, float] = {}

    def value_after(self, action_id: int, game: Game | None = None) -> tuple[float, bool]:
        """(best value reachable after ``action_id`` from ``game`` (default: the world's
        position), whether an unknown card may be drawn on the way)."""
        g = (self.game if game is None else game).clone()
        chance = draws_unknown(g.apply_id(action_id))
        value, later = self._best(g)
        return value, chance or later

    def _best(self, g: Game) -> tuple[float, bool]:
        if g.is_over or g.turns != self.turns:
            return self.leaf_value(g), False
        key = g.position_key()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        ids = g.safe_ids() or g.legal_ids()
        best = -float("inf")
        chance = False
        for i in ids:
            value, c = self.value_after(i, g)
            chance = chance or c
            if value > best:
                best = value
        self.memo[key] = (best, chance)
        return best, chance

    def leaf_value(self, g: Game) -> float:
        """The value for ``me`` of ``g``, where ``me``'s turn (or the game) has ended."""
        obs = g.observe(self.me)
        # Exactly what evaluate reads: lines that differ elsewhere score the same. A round
        # that ended is read whole (who won it, its points): lines that end it differently
        # may still reach the same deal of the next round.
        leaf = (
            obs.rule,
            obs.palettes,
            obs.alive,
            obs.current_player,
            obs.hand_sizes[self.me],
            obs.round_results[self.rounds :],
            obs.result,
        )
        value = self.leaves.get(leaf)
        if value is None:
            value = self.leaves[leaf] = evaluate(obs, self.rounds)
        return value

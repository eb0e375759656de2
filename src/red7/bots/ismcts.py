"""``ismcts`` (levels ``hard`` and ``expert``): Information-Set Monte Carlo Tree Search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012, "Information Set Monte
Carlo Tree Search"), max-n for 2-4 players:

1. Each iteration samples a *determinization*: a full game consistent with the bot's
   observation (:class:`red7.worlds.WorldSampler`; known deck-top cards and cards seen
   drawn stay where everyone knows they are, the other hidden cards are dealt at random).
2. It descends one tree whose edges are decisions. Every decision in Red7 is public
   and chance (shuffles, draws) is hidden, so a path of decisions from the root is an
   information set of the observer: the same node collects statistics from every
   world. Options differ between worlds (other players' hands differ), so selection
   uses UCB1 with *availability* counts: ``mean + c * sqrt(ln(available) / visits)``.
3. At the first decision not yet tried it expands it and plays a random rollout (each
   player uniform among safe decisions) to the end of the round.
4. It backs up a value for *every* player (max-n): each edge accumulates the value of
   the player who made that decision, so each player in the tree maximizes its own.

Candidate decisions are the safe ones (R4.7), plus ``concede`` at the start of a
turn in the advanced game (conceding early can deny an opponent points); when nothing
is safe, every legal decision is a candidate.

Value of a finished rollout: in the basic game 1 for the winner, 0 for the others. In
the advanced game the match matters, not the round: when the match ends, winners share
1; otherwise each player's value is an estimated chance to win the match from the
scores after this round is scored, ``softmax(4 * score / target)`` over the players.

The answer is the most visited candidate at the root. With an iteration budget the bot
is deterministic for a given RNG; with a time budget it stops when time is up.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from ..actions import CANVAS, CONCEDE, END, MOVE_CANVAS, Action
from ..game import START, TARGETS, Game
from ..sim import random_decision
from ..rules import winner_of_masks
from ..worlds import WorldSampler
from .base import Bot, Option


class _Node:
    """Statistics of the decision leading here, and the decisions tried from here."""

    __slots__ = ("children", "visits", "available", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0  # summed value of the player who made the decision


def candidates(game: Game) -> list[int]:
    """The decisions the search considers for the mover of ``game`` (see module doc)."""
    ids, safe = game._legal_ids()
    chosen = [a for a, s in zip(ids, safe, strict=True) if s]
    if not chosen:
        return list(ids)
    if game.advanced and game.step == START:
        chosen.append(CONCEDE)
    return chosen


def rollout_decision(game: Game, rng: random.Random) -> int:
    """The rollout policy: end the turn whenever possible (a card kept in hand is worth
    more than a rule change), otherwise uniform among the safe decisions."""
    ids, safe = game._legal_ids()
    if ids[-1] == END or (len(ids) > 1 and ids[-2] == END):
        return END
    choices = [a for a, s in zip(ids, safe, strict=True) if s]
    return choices[int(rng.random() * len(choices))] if choices else CONCEDE


def thrifty_decision(game: Game, rng: random.Random) -> int:
    """A rollout policy that spends one card per turn when it can: at the start of a
    turn, uniform among the canvas plays and the plays that win on their own (each
    costs one card), else among the safe decisions; after a play, end the turn."""
    ids, safe = game._legal_ids()
    if game.step == START:
        me = game.current
        pals = game.palettes
        old = pals[me]
        cheap = []
        for a, s in zip(ids, safe, strict=True):
            if not s:
                continue
            if a < CANVAS:
                pals[me] = old | 1 << a
                if game._wins(me, game.rule):
                    cheap.append(a)
                pals[me] = old
            elif a < MOVE_CANVAS:
                cheap.append(a)
        if cheap:
            return cheap[int(rng.random() * len(cheap))]
    elif END in ids:
        return END
    choices = [a for a, s in zip(ids, safe, strict=True) if s]
    return choices[int(rng.random() * len(choices))] if choices else CONCEDE


def static_values(game: Game, temperature: float) -> list[float]:
    """Each player's chance to win the round, estimated from the position: a softmax
    over the remaining players of (cards in hand + half the number of rules under
    which the player would be winning now)."""
    n = game.n
    alive = game.alive
    pals = game.palettes
    feats = [float(game.hands[s].bit_count()) if alive[s] else -1e9 for s in range(n)]
    for r in range(7):
        w = winner_of_masks(r, pals, alive)
        if w is not None:
            feats[w] += 0.5
    weights = [math.exp(f / temperature) if alive[s] else 0.0 for s, f in enumerate(feats)]
    total = sum(weights)
    return [w / total for w in weights]


def rollout_values(game: Game) -> list[float]:
    """Each player's value of a position where the rollout stopped (see module doc)."""
    n = game.n
    result = game.result
    if result is not None and (not game.advanced or game.is_over):
        share = 1.0 / len(result.winners)
        return [share if s in result.winners else 0.0 for s in range(n)]
    target = TARGETS[n]
    weights = [math.exp(4.0 * s / target) for s in game.scores]
    total = sum(weights)
    return [w / total for w in weights]


class ISMCTSBot(Bot):
    """Information-set MCTS; see the module docstring.

    options: iters=N (iterations per decision, default 1000) or seconds=S (a time
    budget instead), c=C (UCB exploration constant, default 0.7).
    """

    name = "ismcts"

    def __init__(self, iters: int | None = None, seconds: float | None = None, c: float = 0.7, rollout: int = 0,
                 depth: int = 1000, temperature: float = 1.5) -> None:
        if iters is not None and seconds is not None:
            raise TypeError("give iters or seconds, not both")
        self.iters = int(iters) if iters is not None else (None if seconds is not None else 1000)
        self.seconds = seconds
        self.c = c
        self.rollout = (random_decision, rollout_decision, thrifty_decision)[int(rollout)]
        self.depth = depth
        self.temperature = temperature
        self.game_advanced_dummy = False
        self.last_iterations = 0

    def choose(self, observation: dict[str, Any], options: Sequence[Option], rng: random.Random) -> Action:
        me = observation["seat"]
        sampler = WorldSampler(observation)
        first = sampler.sample(rng)
        root_moves = candidates(first)
        if len(root_moves) == 1:
            self.last_iterations = 0
            return Action.from_id(root_moves[0])
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        iterations = 0
        world = first
        while True:
            self._iterate(root, world, rng)
            iterations += 1
            if self.iters is not None and iterations >= self.iters:
                break
            if time.perf_counter() >= deadline:
                break
            world = sampler.sample(rng)
        self.last_iterations = iterations
        best = max(root_moves, key=lambda a: (root.children[a].visits if a in root.children else -1, -a))
        legal = {o.action.id for o in options}
        assert best in legal, f"ISMCTS chose {Action.from_id(best)} for seat {me}, not legal"
        return Action.from_id(best)

    def _iterate(self, root: _Node, world: Game, rng: random.Random) -> None:
        node = root
        path: list[tuple[_Node, int]] = []  # (edge node, player who decided)
        round_start = world.round
        c = self.c
        log = math.log
        sqrt = math.sqrt
        while not world.is_over and world.round == round_start:
            moves = candidates(world)
            mover = world.current
            children = node.children
            untried = []
            best_score = -1.0
            best_move = -1
            for a in moves:
                child = children.get(a)
                if child is None:
                    child = children[a] = _Node()
                child.available += 1
                if child.visits == 0:
                    untried.append(a)
                elif not untried:
                    score = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                    if score > best_score:
                        best_score, best_move = score, a
            if untried:
                move = untried[int(rng.random() * len(untried))]
                world.apply_id(move)
                path.append((children[move], mover))
                break
            world.apply_id(best_move)
            node = children[best_move]
            path.append((node, mover))
        steps = 0
        while not world.is_over and world.round == round_start and steps < self.depth:
            world.apply_id(self.rollout(world, rng))
            steps += 1
        if world.is_over or world.round != round_start or self.game_advanced_dummy:
            values = rollout_values(world)
        else:
            values = static_values(world, self.temperature)
        for edge, mover in path:
            edge.visits += 1
            edge.total += values[mover]

"""``ismcts`` (inside the level ``hard``): Information-Set Monte Carlo Tree Search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012, "Information Set Monte
Carlo Tree Search"), max-n for 2-4 players:

1. Each iteration samples a *determinization*: a full game consistent with the bot's
   observation (by default :class:`red7.core.worlds.WorldSampler`: known deck-top cards
   and cards seen drawn stay where everyone knows they are, the other hidden cards are
   dealt at random; another source can be given, see :class:`ISMCTSBot`).
2. It descends one tree whose edges are decisions. Every decision in Red7 is public
   and chance (shuffles, draws) is hidden, so a path of decisions from the root is an
   information set of the observer: the same node collects statistics from every
   world. Options differ between worlds (other players' hands differ), so selection
   uses UCB1 with *availability* counts: ``mean + c * sqrt(ln(available) / visits)``.
3. At the first decision not yet tried it expands it and plays a random rollout (each
   player uniform among safe decisions) to the end of the round; with ``solve=N``, in
   positions the exact solver answers (:mod:`red7.solver`: the 2-player basic game),
   the rollout stops at the first turn start with at most N cards in the two hands,
   and the solver's exact value of that world ends it (a *solved leaf*).
4. It backs up a value for *every* player (max-n): each edge accumulates the value of
   the player who made that decision, so each player in the tree maximizes its own.

Candidate decisions are the safe ones (R4.7), plus ``concede`` at the start of a
turn in the advanced game (conceding early can deny an opponent points); when nothing
is safe, every legal decision is a candidate.

Value of a finished rollout: in the basic game 1 for the winner, 0 for the others. In
the advanced game the match matters, not the round: when the match ends, winners share
1; otherwise each player's value is an estimated chance to win the match from the
scores after this round is scored, ``softmax(4 * score / target)`` over the players.

The answer is the most visited candidate at the root; :meth:`ISMCTSBot.appraise` also
gives each root decision's mean value for the mover, an estimate of its chance to win.
**Compiled.** Where the compiled core is built (:mod:`red7.native`), the search of the
default world sampler without solved leaves runs whole in C (``red7/native/search.c``:
the same steps 1-4, its worlds dealt from the first by ``Engine.redeal``), some 70 times
faster; only its random stream differs (one Mersenne Twister seeded from the RNG).
Another world source, or solved leaves, keep this module's tree, walking compiled
copies of the worlds where it can; ``reference=1`` keeps the Python search throughout.

With an iteration budget the bot is deterministic for a given RNG; with a time budget
it stops when time is up. The search reads worlds through the game's public queries
only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from ..core import compiled
from ..core.actions import CONCEDE, Action
from ..core.game import Game
from ..core.model import Config, Step
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from ..solver import position_won, solvable
from . import inference
from .base import Appraisal, Appraiser, Option
from .random_bot import random_decision

if TYPE_CHECKING:
    from ..native._core import Engine


class Worlds(Protocol):
    """Complete games for one observation (what :class:`~red7.core.worlds.WorldSampler` is)."""

    def sample(self, rng: random.Random) -> Game:
        """A game for the search to play on; the search changes it, so each call must
        return a game of its own."""
        ...


WorldSource = Callable[[Observation], Worlds]
"""Builds the :class:`Worlds` of one decision from the bot's observation."""


class _InTurn:
    """The worlds of a pool in turn, a copy of each (the Python search's pool)."""

    def __init__(self, pool: Sequence[Game]) -> None:
        self.pool = pool
        self.next = 0

    def sample(self, rng: random.Random) -> Game:
        world = self.pool[self.next % len(self.pool)].clone()
        self.next += 1
        return world


class _Node:
    """Statistics of the decision leading here, and the decisions tried from here."""

    __slots__ = ("children", "visits", "available", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0  # summed value of the player who made the decision


Walk: TypeAlias = "Game | Engine"
"""What the search walks on: a :class:`Game`, or its compiled twin
(:mod:`red7.core.compiled`), which answers the same queries."""


def candidates(game: Walk, advanced: bool | None = None) -> list[int]:
    """The decisions the search considers for the mover of ``game`` (see module doc);
    ``advanced``: is the game advanced (read from a :class:`Game` when not given)?"""
    chosen = game.safe_ids()
    if not chosen:
        return game.legal_ids()
    if advanced is None:
        assert isinstance(game, Game), "a compiled twin does not know its configuration"
        advanced = game.config.advanced
    if advanced and game.step == Step.START:
        chosen.append(CONCEDE)
    return chosen


def rollout_values(game: Game) -> list[float]:
    """Each player's value of a position where the rollout stopped (see module doc)."""
    result = game.result
    return _values(result.winners if result is not None else None, game.scores, game.config.target)


def _values(winners: tuple[int, ...] | None, scores: Sequence[int], target: int | None) -> list[float]:
    """:func:`rollout_values` of a game over (``winners``) or of a match after a round."""
    if winners is not None:
        share = 1.0 / len(winners)
        return [share if s in winners else 0.0 for s in range(len(scores))]
    assert target is not None, "only an advanced match outlives the rollout's round"
    weights = [math.exp(4.0 * s / target) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def _other_remaining(game: Game) -> int:
    """The remaining player who is not to move (two remain where leaves are solved)."""
    return next(s for s, alive in enumerate(game.alive) if alive and s != game.current_player)


class ISMCTSBot(Appraiser):
    """Information-set MCTS; see the module docstring.

    options: one budget per decision, iters=N (iterations, default 1000), steps=N
    (decisions simulated in the tree and the rollouts, which makes the budget scale with
    the cost of the game at hand) or seconds=S (time; not reproducible); c=C (UCB
    exploration constant, default 0.7); solve=N (solved leaves at N cards in the two
    hands, see the module docstring; default 0: none); reference=1 (walk the reference's
    Python worlds even where the compiled engine is built, for comparisons; default 0);
    model=1 (play worlds weighted by the opponent model instead: ``deals`` deals of the
    round replayed, :func:`red7.bots.inference.weighted_worlds`, each iteration the next
    of them; default 0), deals=N (default 64).

    ``world_source`` (not an option of a spec; for experiments and tests) builds, from
    the observation of each decision, what the iterations' worlds are sampled from:
    :class:`~red7.core.worlds.WorldSampler` by default. A source that returns copies of
    the true game makes a bot that sees every card (``tests/bots/test_ismcts.py`` builds one).
    """

    name = "ismcts"

    def __init__(
        self,
        iters: int | None = None,
        steps: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        solve: int = 0,
        reference: int = 0,
        model: int = 0,
        deals: int = 64,
        *,
        world_source: WorldSource = WorldSampler,
    ) -> None:
        """options: iters=N, steps=N or seconds=S (one budget), c=C, solve=N, reference=0|1, model=0|1, deals=N"""
        budgets = [b for b in (iters, steps, seconds) if b is not None]
        if len(budgets) > 1:
            raise TypeError("give one budget: iters, steps or seconds")
        if any(not b > 0 for b in budgets) or not c > 0:
            raise ValueError("budgets and c must be positive")
        if not callable(world_source):
            raise ValueError(f"world_source must build worlds from an observation, not {world_source!r}")
        self.iters = int(iters) if iters is not None else (1000 if not budgets else None)
        self.steps = int(steps) if steps is not None else None
        self.seconds = seconds
        self.c = c
        if solve != int(solve) or solve < 0:
            raise ValueError(f"solve={solve} must be a whole number of cards")
        self.solve = int(solve)
        if reference not in (0, 1):
            raise ValueError(f"reference={reference} must be 0 or 1")
        self.reference = bool(reference)
        if model not in (0, 1) or deals != int(deals) or deals < 1:
            raise ValueError(f"model={model} must be 0 or 1, and deals={deals} a whole number, at least 1")
        self.model = bool(model)
        self.deals = int(deals)
        if self.model and world_source is not WorldSampler:
            raise ValueError("model=1 replaces the default world sampler, not another world source")
        self._solved_leaves = False  # does the decision being searched use them?
        self.world_source = world_source
        self.last_iterations = 0

    def appraise(
        self,
        observation: Observation,
        options: Sequence[Option],
        rng: random.Random,
        include: Collection[int] = (),
    ) -> Appraisal:
        """The most visited candidate, and each root decision's mean rollout value for
        the mover (see :class:`~red7.bots.base.Appraisal`); ``include`` joins the root's
        candidates in every iteration."""
        me = observation.seat
        default = self.world_source is WorldSampler
        sampler = self.world_source(observation)
        first = sampler.sample(rng)
        first_moves = candidates(first)
        extra = tuple(a for a in include if a not in first_moves)
        root_moves = first_moves + list(extra)
        if len(root_moves) == 1:
            self.last_iterations = 0
            return Appraisal(Action.from_id(root_moves[0]), {}, solved=False, samples=0)
        self._solved_leaves = self.solve > 0 and solvable(observation, fast=True)
        twins = not self.reference and compiled.available() and not self._solved_leaves
        pool: list[Any] = []
        if self.model and inference.applies(observation):
            pool = inference.weighted_worlds(observation, rng, self.deals, native=twins)
            if not twins:  # the Python search plays them in turn
                sampler = _InTurn(pool)
                first = sampler.sample(rng)
        if twins and default and me is not None:
            # The whole search in compiled code (red7/native/search.h): the same algorithm.
            budget = (self.iters or 0, self.steps or 0, self.seconds or 0.0)
            engine = compiled.engine_of(first)
            iterations, stats = engine.ismcts(me, rng.getrandbits(64), *budget, self.c, extra, pool)
            visits = {a: v for a, v, _ in stats}
            chances = {a: total / v for a, v, total in stats if v}
        else:
            iterations, root = self._search(sampler, first, rng, extra, twins)
            visits = {a: node.visits for a, node in root.children.items()}
            chances = {a: node.total / node.visits for a, node in root.children.items() if node.visits}
        self.last_iterations = iterations
        best = max(root_moves, key=lambda a: (visits.get(a, -1), -a))
        legal = {o.action.id for o in options}
        assert best in legal, f"ISMCTS chose {Action.from_id(best)} for seat {me}, not legal"
        return Appraisal(Action.from_id(best), chances, solved=False, samples=iterations)

    def _search(
        self, sampler: Worlds, first: Game, rng: random.Random, extra: tuple[int, ...], twins: bool
    ) -> tuple[int, _Node]:
        """The search in Python: iterations until the budget is spent, on the sampler's
        worlds beginning with ``first``, or on compiled copies of them (``twins``)."""
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        iterations = steps = 0
        world: Walk = compiled.engine_of(first) if twins else first
        while True:
            steps += self._iterate(root, world, rng, extra, first.config)
            iterations += 1
            if self.iters is not None and iterations >= self.iters:
                break
            if self.steps is not None and steps >= self.steps:
                break
            if time.perf_counter() >= deadline:
                break
            world = sampler.sample(rng)
            if twins:
                world = compiled.engine_of(world)
        return iterations, root

    def _iterate(self, root: _Node, world: Walk, rng: random.Random, extra: tuple[int, ...], config: Config) -> int:
        """One iteration in ``world`` (``extra``: decision ids added to the root's
        candidates); returns the number of decisions it simulated. A compiled world plays
        its rollout in compiled code; a :class:`Game` is walked in Python, with solved
        leaves where they apply."""
        node = root
        path: list[tuple[_Node, int]] = []  # (edge node, player who decided)
        round_start = world.round
        c = self.c
        log = math.log
        sqrt = math.sqrt
        while not world.is_over and world.round == round_start:
            moves = candidates(world, config.advanced)
            if extra and node is root:
                moves += [a for a in extra if a not in moves]
            mover = world.current_player
            assert mover is not None  # a world at a decision point, not over
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
        steps = len(path)
        if not isinstance(world, Game):  # a compiled twin
            if not world.is_over and world.round == round_start:
                steps += world.playout(rng.getrandbits(64), round_only=True)
            values = _values(world.winners, world.scores, config.target)
        else:
            steps, values = self._rollout(world, round_start, rng, steps)
        for edge, mover in path:
            edge.visits += 1
            edge.total += values[mover]
        return steps

    def _rollout(self, world: Game, round_start: int, rng: random.Random, steps: int) -> tuple[int, list[float]]:
        """The rest of a Python world's round: random players, or a solved leaf."""
        values: list[float] | None = None
        while not world.is_over and world.round == round_start:
            if self._solved_leaves and world.step == Step.START and sum(world.observe(None).hand_sizes) <= self.solve:
                winner = world.current_player if position_won(world) else _other_remaining(world)
                values = [float(s == winner) for s in range(world.players)]
                break
            world.apply_id(random_decision(world, rng))
            steps += 1
        return steps, values if values is not None else rollout_values(world)

"""Does modelling the other player as a *searching* player tell its hand?

An experiment, not part of the product. `hard`'s opponent model (`red7.bots.inference`)
judges a world by whether `greedy` would have made the other player's decisions in it;
against `hard` that bought nothing (docs/results/strength.md's A/B tables), while a player who sees
the other hand wins 92 % of 2-player advanced matches against `hard`
(`experiments/seer_ceiling.py --hands-only`). Here the model of play is a cheap version
of the other player's own search: each deal of the round (`inference.deal`) is replayed,
and at each decision of the other player the compiled ISMCTS is run *from that player's
observation in the world* (``--model-steps`` steps); the decision it made has the
likelihood ``(visits + 1) / (iterations + candidates)``, and a world's weight is the
product over the round, raised to ``--temper`` (below 1 keeps more worlds alive).

Two measures:

- ``diagnose``: in 2-player advanced matches of `hard` against `hard`, at each decision
  of seat 0 where cards are still drawn, the share of the other player's true hand that
  the worlds give it (weighted): plain worlds, `greedy`-weighted ones and search-weighted
  ones, on the same positions, with the effective number of worlds.
- ``play``: the *modelled* bot (`hard`'s search on the search-weighted worlds, `hard`
  itself where the solver answers) against `hard`, 2-player advanced matches, both
  seatings per deal; bootstrap interval over deals.

It found (docs/results/strength.md): the search model raises the share of the
other hand held in the worlds from 0.17 (plain) to 0.19, and the modelled bot wins 23 of
100 matches against `hard`.

    .venv/bin/python experiments/search_model.py diagnose --games 4 --model-steps 5000 --temper 3
    .venv/bin/python experiments/search_model.py play --model-steps 2000 --temper 3 --matches-deals 50 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from red7 import Game, Observation
from red7.analysis.measures import bootstrap_ratio
from red7.bots import inference, make_bot
from red7.bots.base import Bot, Option
from red7.bots.ismcts import ISMCTSBot
from red7.bots.pimc import PIMCBot
from red7.core import compiled
from red7.core.actions import Action
from red7.core.model import Config
from red7.core.worlds import WorldSampler
from red7.play import play_game
from red7.solver import solvable

HANDS = compiled.FIELDS.index("hands")


def hard_search() -> ISMCTSBot:
    """The ISMCTS inside the `hard` level (its budget and exploration constant)."""
    hard = make_bot("hard")
    assert isinstance(hard, PIMCBot), "hard is a pimc bot"
    return hard.search


def searched_worlds(
    observation: Observation, rng: random.Random, deals: int, model_steps: int, temper: float
) -> tuple[list[Any], list[float]]:
    """``deals`` deals of the round replayed to now (compiled engines) and their weights
    under the search model (module doc), normalised to sum 1."""
    past = inference.round_past(observation)
    me = observation.seat
    c = hard_search().c
    worlds, logs = [], []
    for _ in range(deals):
        engine = compiled.engine_of(inference.deal(past, rng))
        log = 0.0
        for seat, a in past.history:
            if seat != me and len(engine.legal()) > 1:
                _, stats = engine.ismcts(seat, rng.getrandbits(64), 0, model_steps, 0.0, c, (), False, None)
                visits = {x: v for x, v, _ in stats}
                candidates = len(visits) + (a not in visits)  # a decision outside them keeps a chance
                log += math.log((visits.get(a, 0) + 1) / (sum(visits.values()) + candidates))
            engine.apply(a)
        worlds.append(engine)
        logs.append(temper * log)
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    return worlds, [w / total for w in weights]


class Modelled(Bot):
    """`hard`, its ISMCTS playing search-weighted worlds where cards are still drawn."""

    name = "modelled"

    def __init__(self, deals: int, model_steps: int, temper: float) -> None:
        self.deals, self.model_steps, self.temper = deals, model_steps, temper
        self.hard = make_bot("hard")
        self.search = hard_search()

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        if len(options) == 1 or solvable(observation, fast=True) or not inference.applies(observation):
            return self.hard.choose(observation, options, rng)
        me = observation.seat
        assert me is not None
        worlds, weights = searched_worlds(observation, rng, self.deals, self.model_steps, self.temper)
        pool = inference.resampled(worlds, weights, self.deals, rng)
        steps, c = self.search.steps or 0, self.search.c
        _, stats = pool[0].ismcts(me, rng.getrandbits(64), 0, steps, 0.0, c, (), False, pool)
        best, _, _ = max(stats, key=lambda child: (child[1], -child[0]))  # most visited, as ISMCTSBot
        assert best in {o.action.id for o in options}, "every world holds this seat's true hand"
        return Action.from_id(best)


def _hand_share(world: Any, seat: int, truth: int) -> float:
    hand: int = (world if not isinstance(world, Game) else compiled.engine_of(world)).fields()[HANDS][seat]
    return (hand & truth).bit_count() / max(1, truth.bit_count())


class Diagnosis:
    """The before-decision hook of ``diagnose``: measures the worlds at seat 0's decisions."""

    def __init__(self, deals: int, model_steps: int, temper: float, seed: int) -> None:
        self.deals, self.model_steps, self.temper = deals, model_steps, temper
        self.rng = random.Random(seed)
        self.rows: list[tuple[float, float, float, float]] = []

    def __call__(self, game: Game) -> None:
        if game.current_player != 0:
            return
        obs = game.observe(0)
        if len(game.options()) == 1 or solvable(obs, fast=True) or not inference.applies(obs):
            return
        truth = compiled.engine_of(game).fields()[HANDS][1]
        if not truth:
            return
        sampler = WorldSampler(obs)
        plain = statistics.fmean(_hand_share(sampler.sample(self.rng), 1, truth) for _ in range(self.deals))
        greedy = statistics.fmean(
            _hand_share(w, 1, truth) for w in inference.weighted_worlds(obs, self.rng, self.deals)
        )
        worlds, weights = searched_worlds(obs, self.rng, self.deals, self.model_steps, self.temper)
        searched = sum(w * _hand_share(x, 1, truth) for x, w in zip(worlds, weights, strict=True))
        self.rows.append((plain, greedy, searched, 1 / sum(w * w for w in weights)))


def diagnose(args: argparse.Namespace) -> None:
    config = Config(2, advanced=True)
    hook = Diagnosis(args.deals, args.model_steps, args.temper, args.seed)
    for game in range(args.games):
        play_game([make_bot("hard"), make_bot("hard")], args.seed + game, config, before_decision=hook)
    rows = hook.rows
    columns = zip(*rows, strict=True)
    plain, greedy, searched, ess = (statistics.fmean(c) for c in columns)
    gain = [s - p for p, _, s, _ in rows]
    print(f"{len(rows)} decisions of seat 0 in {args.games} matches of hard against hard")
    print(
        f"share of the other hand held in the worlds: plain {plain:.3f}, greedy model {greedy:.3f}, "
        f"search model {searched:.3f} (minus plain: {statistics.fmean(gain):+.3f}, sd {statistics.stdev(gain):.3f})"
    )
    print(f"effective worlds of the search model: {ess:.1f} of {args.deals}")


def play_deal(task: tuple[int, int, float, int, int]) -> tuple[float, int]:
    """(matches the modelled bot won, matches played) on one deal, in both seats."""
    deals, model_steps, temper, deal, seed = task
    config = Config(2, advanced=True)
    won = 0.0
    for seat in range(2):
        bots: list[Bot] = [make_bot("hard"), make_bot("hard")]
        bots[seat] = Modelled(deals, model_steps, temper)
        played = play_game(bots, seed + deal, config)
        if seat in played.winners:
            won += 1 / len(played.winners)
    return won, 2


def play(args: argparse.Namespace) -> None:
    tasks = [(args.deals, args.model_steps, args.temper, deal, args.seed) for deal in range(args.matches_deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_deal, tasks))
    wins, games = sum(w for w, _ in results), sum(g for _, g in results)
    lo, hi = bootstrap_ratio([w for w, _ in results], [g for _, g in results])
    print(
        f"modelled (deals={args.deals}, model-steps={args.model_steps}, temper={args.temper:g}) vs hard, "
        f"2-player advanced: {wins:g}/{games} = {wins / games:.1%} (95 % CI over deals {lo:.1%}-{hi:.1%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("diagnose", "play"))
    parser.add_argument("--deals", type=int, default=64, help="deals of the round weighed per decision")
    parser.add_argument("--model-steps", type=int, default=2000, help="steps of the modelled player's search")
    parser.add_argument("--temper", type=float, default=1.0, help="the power of the likelihoods")
    parser.add_argument("--games", type=int, default=4, help="diagnose: matches watched")
    parser.add_argument("--matches-deals", type=int, default=50, help="play: deals, each played in both seats")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if not compiled.available():
        parser.error("the experiment runs the compiled search: build red7.native first")
    (diagnose if args.what == "diagnose" else play)(args)


if __name__ == "__main__":
    main()

"""OpenSpiel's Python ISMCTS (seat 0) against the project's ``hard`` bot, on ``python_red7``.

    python examples/openspiel_ismcts_vs_hard.py [--games 2] [--seed 0] [--players 2] [--advanced] [--actions]
        [--simulations 100] [--rollouts random|safe] [--uct-c 2.0] [--opponent hard]

Seat 0 is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` searching the OpenSpiel game
(worlds from ``Red7State.resample_from_infostate``); every other seat is a bot of the
project (:func:`red7.bots.make_bot`), which sees only its seat's observation and options,
exactly as at a :class:`red7.play.table.Table`. Chance (the deals, the draws) is sampled
from the OpenSpiel chance outcomes. Everything follows ``--seed``.

``--rollouts random`` evaluates leaves with OpenSpiel's ``RandomRolloutEvaluator`` (uniform
among legal decisions, conceding included); ``safe`` plays the rollouts like the project's
random player (uniform among the safe decisions, R4.7), which the ``hard`` bot's own
search uses too.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import red7.envs.openspiel as red7_openspiel
from red7.bots import make_bot
from red7.core.seeds import derive_seed
from red7.play.match import bot_rng


class SafeRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Rollouts like red7's random player: uniform among the safe decisions (R4.7), or
    concede when none is safe; chance from the state's chance outcomes."""

    def __init__(self, random_state: np.random.RandomState) -> None:
        self._rng = random_state

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone()
        while not working.is_terminal():
            if working.is_chance_node():
                outcomes, probs = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self._rng.choice(outcomes, p=probs)))
            else:
                safe = working.engine.safe_or_concede_ids()
                working.apply_action(safe[self._rng.randint(len(safe))])
        return np.array(working.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play_one(game: Any, bot: Any, opponents: dict[int, Any], seed: int) -> tuple[int, ...]:
    """One game: ``bot`` (OpenSpiel) in seat 0, ``opponents[seat]`` (red7 bots) elsewhere;
    chance and the bots' RNGs follow ``seed`` (red7.core.seeds)."""
    chance = random.Random(derive_seed(seed, "chance"))
    rngs = {seat: bot_rng(seed, seat) for seat in opponents}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, weights=probs)[0])
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
        else:
            seat = state.current_player()
            engine = state.engine  # the red7 game inside the state: the bot gets only its seat's observation
            action = opponents[seat].choose(engine.observe(seat), engine.options(), rngs[seat])
            state.apply_action(action.id)
    winners: tuple[int, ...] = state.winners()
    return winners


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--advanced", action="store_true")
    p.add_argument("--actions", action="store_true")
    p.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    p.add_argument("--rollouts", choices=("random", "safe"), default="random", help="leaf evaluator (see above)")
    p.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant")
    p.add_argument("--opponent", default="hard", help="red7 bot spec for the other seats (default: hard)")
    args = p.parse_args(argv)

    game = pyspiel.load_game(
        red7_openspiel.SHORT_NAME, {"players": args.players, "advanced": args.advanced, "actions": args.actions}
    )
    evaluator_rng = np.random.RandomState(args.seed + 1)
    evaluator = (
        mcts.RandomRolloutEvaluator(1, evaluator_rng)
        if args.rollouts == "random"
        else SafeRolloutEvaluator(evaluator_rng)
    )
    bot = ismcts.ISMCTSBot(
        game, evaluator, args.uct_c, args.simulations, random_state=np.random.RandomState(args.seed + 2)
    )
    bot.set_resampler(red7_openspiel.seeded_resampler(args.seed + 3))  # reproducible worlds
    opponents = {seat: make_bot(args.opponent) for seat in range(1, args.players)}

    wins = {"ismcts": 0, args.opponent: 0}
    started = time.perf_counter()
    for i in range(args.games):
        winners = play_one(game, bot, opponents, derive_seed(args.seed, "game", i))
        wins["ismcts"] += 0 in winners
        wins[args.opponent] += any(w != 0 for w in winners)  # a shared victory counts for both sides
    seconds = time.perf_counter() - started
    print(
        f"{args.games} games of python_red7 ({args.players} players{', advanced' if args.advanced else ''}"
        f"{', actions' if args.actions else ''}), {seconds:.1f}s"
    )
    print(
        f"  OpenSpiel ISMCTS, seat 0 ({args.simulations} simulations, {args.rollouts} rollouts): {wins['ismcts']} wins"
    )
    seats = "seat 1" if args.players == 2 else f"seats 1-{args.players - 1}"
    print(f"  red7 {args.opponent}, {seats}: {wins[args.opponent]} wins")
    return {"games": args.games, "wins": wins, "seconds": seconds}


if __name__ == "__main__":
    main()

"""What a game designer asks of Red7, measured over games between bots (``red7 stats``).

:func:`analyse` replays one finished game decision by decision and notes, at every
*turn start* (a decision at the ``start`` step, R4.2; the automatic elimination of an
empty hand, R4.1, asks for none), the number of legal and of safe decisions (the
branching factor; ``concede`` is always legal) and the rule in force; for every round
its first player, winner and final rule; and the action cards (1, 3, 5, 7) played to a
palette while the action rules are on (R7). :func:`summarize` adds the games up.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..core.actions import CANVAS
from ..core.cards import COLOURS, VALUE_OF
from ..core.game import START, Game
from .tournament import Entrant, GameTask, Schedule, TournamentError, deal_seed, schedule, win_rate

ACTION_VALUES = (1, 3, 5, 7)


def analyse(game: Game) -> dict[str, Any]:
    """The designer's figures of one finished game (JSON-ready; see the module doc)."""
    if game.result is None:
        raise ValueError("the game is not over")
    g = Game(game.n, game.advanced, game.actions_on, seed=game.seed)
    legal: dict[int, int] = {}
    safe: dict[int, int] = {}
    rules = [0] * len(COLOURS)
    first_movers: list[int] = []
    plays = dict.fromkeys(ACTION_VALUES, 0)
    for seat, action_id in game.history:
        if g.round > len(first_movers):
            first_movers.append(seat)
        if g.step == START:
            options = g.options()
            n_safe = sum(s for _, s in options)
            legal[len(options)] = legal.get(len(options), 0) + 1
            safe[n_safe] = safe.get(n_safe, 0) + 1
            rules[g.rule] += 1
        if action_id < CANVAS and game.actions_on and VALUE_OF[action_id] in plays:
            plays[VALUE_OF[action_id]] += 1
        g.apply_id(action_id)
    if g.result != game.result:
        raise RuntimeError(f"replaying game seed={game.seed} did not reproduce its result")
    return {
        "turn_starts": sum(legal.values()),
        "legal": legal,
        "safe": safe,
        "rules_in_force": rules,
        "round_first_players": first_movers,
        "round_winners": [r.winner for r in game.round_results],
        "round_rules": [r.rule for r in game.round_results],
        "action_plays": plays,
    }


def plan(
    entrants: Sequence[Entrant], players: int, games: int, seed: int, advanced: bool = False, actions: bool = False
) -> Schedule:
    """The games to analyse: with one bot, it takes every seat and each game is a new
    deal; with one bot per seat, each deal is played once per seat rotation as in a
    tournament (``games`` rounded down to whole deals)."""
    if len(entrants) == players:
        sched = schedule(entrants, players, games, seed, advanced, actions)
        sched.tasks = [replace(t, analyse=True) for t in sched.tasks]
        return sched
    if len(entrants) != 1:
        raise TournamentError(
            f"--bots: give one bot (it takes every seat) or {players} bots (one per seat, rotated), not {len(entrants)}"
        )
    e = entrants[0]
    sched = Schedule([e], players, [(e,) * players], 1, games, games, seed, advanced, actions)
    sched.tasks = [
        GameTask(i, 0, i, 0, (e.label,) * players, (e.spec,) * players, deal_seed(seed, i), advanced, actions, True)
        for i in range(games)
    ]
    return sched


def _spread(values: Sequence[int]) -> dict[str, Any]:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return {
        "mean": statistics.fmean(values) if values else None,
        "min": min(values, default=None),
        "median": statistics.median(values) if values else None,
        "max": max(values, default=None),
        "counts": {str(k): counts[k] for k in sorted(counts)},
    }


def _histogram(counts: dict[int, int]) -> dict[str, Any]:
    total = sum(counts.values())
    return {
        "counts": {str(k): counts[k] for k in sorted(counts)},
        "mean": sum(k * c for k, c in counts.items()) / total if total else None,
        "max": max(counts, default=None),
    }


def summarize(
    results: Sequence[dict[str, Any]], players: int, advanced: bool = False, actions: bool = False
) -> dict[str, Any]:
    """Add up the games of :func:`red7.analysis.tournament.run` played with ``analyse`` on.

    Seat win rates count a victory shared by ``k`` winners as ``1/k`` to each, so they
    sum to 1. The first player of a round is the one R2.4 names (it makes the round's
    first decision); a game's first player is round 1's.
    """
    games = len(results)
    seat_wins = [0.0] * players
    first_game_wins = 0.0
    rounds_total = first_round_wins = 0
    legal: dict[int, int] = {}
    safe: dict[int, int] = {}
    in_force = [0] * len(COLOURS)
    final = [0] * len(COLOURS)
    plays = dict.fromkeys(ACTION_VALUES, 0)
    rounds, turns, decisions = [], [], []
    for r in results:
        a = r["analysis"]
        share = 1 / len(r["winners"])
        for w in r["winners"]:
            seat_wins[w] += share
        if a["round_first_players"][0] in r["winners"]:
            first_game_wins += share
        for first, winner, rule in zip(a["round_first_players"], a["round_winners"], a["round_rules"], strict=True):
            rounds_total += 1
            first_round_wins += first == winner
            final[rule] += 1
        for k, c in a["legal"].items():
            legal[int(k)] = legal.get(int(k), 0) + c
        for k, c in a["safe"].items():
            safe[int(k)] = safe.get(int(k), 0) + c
        for i, c in enumerate(a["rules_in_force"]):
            in_force[i] += c
        for v in ACTION_VALUES:
            plays[v] += a["action_plays"][v]
        rounds.append(r["rounds"])
        turns.append(r["turns"])
        decisions.append(sum(r["decisions"]))
    turn_starts = sum(legal.values())
    return {
        "games": games,
        "players": players,
        "advanced": advanced,
        "actions": actions,
        "seats": [win_rate(seat_wins[s], games) for s in range(players)],
        "first_player": {
            "game": win_rate(first_game_wins, games),
            "round": win_rate(first_round_wins, rounds_total),
        },
        "rounds_per_game": _spread(rounds),
        "turns_per_game": _spread(turns),
        "decisions_per_game": _spread(decisions),
        "turn_starts": turn_starts,
        "branching": {"legal": _histogram(legal), "safe": _histogram(safe)},
        "rules": {
            colour: {
                "in_force": in_force[i],
                "in_force_share": in_force[i] / turn_starts if turn_starts else None,
                "won_rounds": final[i],
                "won_rounds_share": final[i] / rounds_total if rounds_total else None,
            }
            for i, colour in enumerate(COLOURS)
        },
        "rounds": rounds_total,
        "action_cards": {
            str(v): {"played": plays[v], "per_game": plays[v] / games if games else None} for v in ACTION_VALUES
        },
    }

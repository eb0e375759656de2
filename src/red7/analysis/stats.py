"""What a game designer asks of Red7, measured over games between bots (``red7 stats``).

Every game is measured while it is played, by :class:`DesignFigures` (a measure of
:mod:`red7.analysis.runner`), with nothing replayed:

* at every *turn start* (a decision at the ``start`` step, R4.2; the automatic
  elimination of an empty hand, R4.1, asks for none), the number of legal and of safe
  decisions (the branching factor; ``concede`` is always legal) and the rule in force,
  seen by the ``before_decision`` hook of :func:`red7.play.match.play_game`;
* each round's first player (R2.4) from its ``RoundDealt`` event, its winner and final
  rule from its ``RoundOver`` event;
* the action cards (1, 3, 5, 7) played to a palette while the action rules are on
  (R7), from the ``CardPlayed`` events (a 5's extra card included).

:func:`plan` chooses the games (:mod:`red7.analysis.schedule`: the statistics of a seed
are reproducible like a tournament's) and :func:`summarize_design` adds them up.

**Compiled.** When every seat is the random player (``easy``, the default) and the
compiled engine is built, :func:`play_compiled` plays the same games there (the same
deals, each seat drawing its choices from the same stream) and takes the same figures,
some 30 times faster; a test compares the summaries in all 12 configurations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

from .. import native
from ..bots import make_bot
from ..bots.random_bot import RandomBot
from ..core.cards import COLOURS, VALUE_OF
from ..core.events import CardPlayed, RoundDealt, RoundOver
from ..core.game import Game
from ..core.model import N_, Config, Step
from ..core.seeds import deal_key
from ..play.match import bot_seed
from .measures import histogram_summary, spread, win_rate
from .runner import GameRecord
from .schedule import Entrant, Schedule, ScheduleError, one_bot_schedule, schedule

ACTION_VALUES = (1, 3, 5, 7)


class DesignFigures:
    """The designer's figures of one game (a :class:`~red7.analysis.runner.Measure`)."""

    def __init__(self) -> None:
        self.decisions = 0
        self.legal: Counter[int] = Counter()
        self.safe: Counter[int] = Counter()
        self.rules = [0] * len(COLOURS)

    def before_decision(self, game: Game) -> None:
        """Count every decision; at a turn start, its legal and safe decisions and rule."""
        self.decisions += 1
        if game.step == Step.START:
            options = game.options()
            self.legal[len(options)] += 1
            self.safe[sum(o.safe for o in options)] += 1
            self.rules[game.rule] += 1

    def result(self, game: Game) -> dict[str, Any]:
        """The figures, JSON-ready apart from the int keys of ``legal`` and ``safe``.

        Raises ValueError for an unfinished game, RuntimeError if this measure did not
        see every decision of ``game``."""
        if game.result is None:
            raise ValueError("the game is not over")
        if self.decisions != game.decisions:
            raise RuntimeError(f"measured {self.decisions} decisions of a game that had {game.decisions}")
        events = game.events
        rounds = [e for e in events if isinstance(e, RoundOver)]
        # Without the action rules (R7) a 1, 3, 5 or 7 is a plain card: no action played.
        played = [VALUE_OF[e.card] for e in events if isinstance(e, CardPlayed)] if game.config.actions else []
        plays = Counter(played)
        return {
            "turn_starts": self.legal.total(),
            "legal": dict(sorted(self.legal.items())),
            "safe": dict(sorted(self.safe.items())),
            "rules_in_force": list(self.rules),
            "round_first_players": [e.first_player for e in events if isinstance(e, RoundDealt)],
            "round_winners": [e.winner for e in rounds],
            "round_rules": [e.rule for e in rounds],
            "action_plays": {v: plays[v] for v in ACTION_VALUES},
        }


def plan(entrants: Sequence[Entrant], *, config: Config, games: int, seed: int) -> Schedule:
    """The games to measure with :class:`DesignFigures`: with one bot, it takes every
    seat and each game is a new deal; with one bot per seat, each deal is played once
    per seat rotation as in a tournament (``games`` rounded down to whole deals).
    Raises ScheduleError for any other number of bots."""
    if len(entrants) == config.players:
        return schedule(entrants, config=config, games=games, seed=seed, measure=DesignFigures)
    if len(entrants) != 1:
        raise ScheduleError(
            N_("--bots: give one bot (it takes every seat) or {players} bots (one per seat, rotated), not {bots}"),
            players=config.players,
            bots=len(entrants),
        )
    return one_bot_schedule(entrants[0], config=config, games=games, seed=seed, measure=DesignFigures)


def play_compiled(plan: Schedule, config: Config) -> list[GameRecord] | None:
    """The records of ``plan``'s games played on the compiled engine, with the figures of
    :class:`DesignFigures`, when every seat is the random player and the compiled engine
    is built; else None (play them with :mod:`red7.analysis.runner`)."""
    core = native.core
    if core is None or any(not isinstance(make_bot(spec), RandomBot) for t in plan.tasks for spec in set(t.specs)):
        return None
    records = []
    for task in plan.tasks:
        seat_seeds = [bot_seed(task.seed, seat) for seat in range(config.players)]
        figures = core.design_game(
            config.players, config.advanced, config.actions, partial(deal_key, task.seed), seat_seeds
        )
        winners, rounds, turns, decisions, legal, safe, in_force, firsts, round_winners, round_rules, plays = figures
        records.append(
            {
                **task.identity(),
                "winners": winners,
                "rounds": rounds,
                "turns": turns,
                "decisions": decisions,
                "analysis": {
                    "turn_starts": sum(legal.values()),
                    "legal": legal,
                    "safe": safe,
                    "rules_in_force": in_force,
                    "round_first_players": firsts,
                    "round_winners": round_winners,
                    "round_rules": round_rules,
                    "action_plays": plays if config.actions else dict.fromkeys(ACTION_VALUES, 0),
                },
            }  # fmt: skip
        )
    return records


def summarize_design(results: Sequence[GameRecord], config: Config) -> dict[str, Any]:
    """Add up the games of :func:`plan` played by :func:`red7.analysis.runner.run`.

    Seat win rates count a victory shared by ``k`` winners as ``1/k`` to each, so they
    sum to 1. The first player of a round is the one R2.4 names (it makes the round's
    first decision); a game's first player is round 1's.
    """
    games = len(results)
    seat_wins = [0.0] * config.players
    first_game_wins = 0.0
    first_round_wins = 0
    legal: Counter[int] = Counter()
    safe: Counter[int] = Counter()
    in_force = [0] * len(COLOURS)
    final: Counter[int] = Counter()
    plays: Counter[int] = Counter()
    for r in results:
        a = r["analysis"]
        share = 1 / len(r["winners"])
        for w in r["winners"]:
            seat_wins[w] += share
        if a["round_first_players"][0] in r["winners"]:
            first_game_wins += share
        for first, winner in zip(a["round_first_players"], a["round_winners"], strict=True):
            first_round_wins += first == winner
        final.update(a["round_rules"])
        legal.update(a["legal"])
        safe.update(a["safe"])
        for colour, count in enumerate(a["rules_in_force"]):
            in_force[colour] += count
        plays.update(a["action_plays"])
    turn_starts = legal.total()
    rounds = final.total()
    return {
        "games": games,
        **config.as_dict(),
        "seats": [win_rate(w, games) for w in seat_wins],
        "first_player": {"game": win_rate(first_game_wins, games), "round": win_rate(first_round_wins, rounds)},
        "rounds_per_game": spread([r["rounds"] for r in results]),
        "turns_per_game": spread([r["turns"] for r in results]),
        "decisions_per_game": spread([sum(r["decisions"]) for r in results]),
        "turn_starts": turn_starts,
        "branching": {"legal": histogram_summary(legal), "safe": histogram_summary(safe)},
        "rules": {
            colour: {
                "in_force": in_force[i],
                "in_force_share": in_force[i] / turn_starts if turn_starts else None,
                "won_rounds": final[i],
                "won_rounds_share": final[i] / rounds if rounds else None,
            }
            for i, colour in enumerate(COLOURS)
        },
        "rounds": rounds,
        "action_cards": {
            str(v): {"played": plays[v], "per_game": plays[v] / games if games else None} for v in ACTION_VALUES
        },
    }

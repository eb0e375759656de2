"""Recorded games for the tests that walk through many decision points (``tests.support.corpora``).

Tests of the opponent model need the positions of whole matches between ``greedy``
players (its Python reference, which the model explains decisions with), some of them
mixed with random decisions. Playing those matches costs minutes of CPU; their decisions
are the same every time. So they are recorded once, as decision ids per (configuration,
seed, mixed), in ``tests/data/greedy_games.json``, and the tests replay them
(:func:`played`). The full tier plays them again and checks the file is current; after a
change to the rules or to ``greedy``, write it again::

    .venv/bin/python -m tests.support.corpora

(from the project's folder).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Final

from red7 import Game
from red7.bots.greedy import GreedyBot
from red7.bots.random_bot import random_decision
from red7.core.model import Config
from tests.support.configs import CONFIGS

GREEDY_GAMES: Final = Path(__file__).resolve().parents[1] / "data" / "greedy_games.json"
RECORDED: Final = (
    *((config, range(20 if not config.advanced else 6), True) for config in CONFIGS),
    *((Config(players), range(10), False) for players in (2, 3, 4)),
    (Config(3, True, True), range(2), False),
)
"""What is recorded: (configuration, seeds, mixed) — every configuration with random
decisions mixed in; greedy alone in the basic game and one advanced configuration."""
_MIXED: Final = 0.3
"""The share of random decisions in a mixed game."""

Key = tuple[Config, int, bool]


def play(config: Config, seed: int, mixed: bool) -> list[int]:
    """The decision ids of a game of ``config`` dealt by ``seed``, played by the Python
    reference of ``greedy`` (and, if ``mixed``, a random player for about a third of the
    decisions), all choosing from one stream seeded with ``seed``."""
    game = Game(config=config, seed=seed)
    rng = random.Random(seed)
    greedy = GreedyBot(reference=1)
    decisions: list[int] = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if mixed and rng.random() < _MIXED:
            decision = random_decision(game, rng)
        else:
            decision = greedy.choose(game.observe(seat), game.options(), rng).id
        game.apply_id(decision)
        decisions.append(decision)
    return decisions


def every_game() -> dict[Key, list[int]]:
    """Every game of :data:`RECORDED`, played now (minutes)."""
    return {(config, seed, mixed): play(config, seed, mixed) for config, seeds, mixed in RECORDED for seed in seeds}


@cache
def recorded() -> dict[Key, tuple[int, ...]]:
    """The games as recorded in :data:`GREEDY_GAMES`."""
    games = json.loads(GREEDY_GAMES.read_text())["games"]
    return {(Config(*g["config"]), g["seed"], g["mixed"]): tuple(g["decisions"]) for g in games}


def played(config: Config, seeds: range, mixed: bool = True) -> Iterator[tuple[Game, Game]]:
    """Every decision point of the recorded games of ``config`` and ``seeds`` (greedy
    players, mixed with random ones if ``mixed``), with the game as its round was dealt.
    The game is the one being replayed: look, do not change it."""
    games = recorded()
    for seed in seeds:
        decisions = games.get((config, seed, mixed))
        assert decisions is not None, (
            f"{config} seed {seed} (mixed={mixed}) is not recorded: see tests/support/corpora.py"
        )
        game = Game(config=config, seed=seed)
        dealt = game.clone()
        for decision in decisions:
            if game.round_log.start == len(game.history) and game.round_log.dealt:
                dealt = game.clone()
            yield game, dealt
            game.apply_id(decision)
        assert game.is_over, f"{config} seed {seed}: its recorded decisions do not finish it: see tests/corpora.py"


def write() -> None:
    """Play every game of :data:`RECORDED` and write :data:`GREEDY_GAMES`, a game a line."""
    lines = [
        json.dumps({"config": [c.players, c.advanced, c.actions], "seed": seed, "mixed": mixed, "decisions": ids})
        for (c, seed, mixed), ids in every_game().items()
    ]
    about = json.dumps(
        "Decision ids of games between greedy players (python -m tests.support.corpora writes this file)."
    )
    GREEDY_GAMES.parent.mkdir(exist_ok=True)
    GREEDY_GAMES.write_text('{"about": ' + about + ',\n"games": [\n' + ",\n".join(lines) + "\n]}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """The command: play every recorded game again and write the file (``--help`` only
    says so)."""
    about = f"Play the games the tests replay again (minutes) and write {GREEDY_GAMES.name}."
    argparse.ArgumentParser(prog="tests/corpora.py", description=about).parse_args(argv)
    write()
    print(f"wrote {sum(len(s) for _, s, _ in RECORDED)} games to {GREEDY_GAMES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

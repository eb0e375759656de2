"""Who plays which games: entrants (bot specs) and the schedule of their games.

Entrants are bot specs (``make_bot``'s, such as ``hard`` or ``ismcts:iters=400``);
the same spec may enter twice and is then labelled ``easy``, ``easy#2``...

* **Tables** (:func:`schedule`, a tournament). With more entrants than seats, every
  combination of ``players`` entrants forms a table (2 players with hard, medium, easy:
  hard-medium, hard-easy, medium-easy); otherwise all the entrants sit at one table.
* **Duplicate deals.** A table plays deals, each replayed once per seat rotation, so
  every entrant plays every seat of every deal; ``games`` per table is rounded down to
  a whole number of deals.
* **One bot everywhere** (:func:`one_bot_schedule`): one entrant takes every seat and
  each game is a new deal.

**Seeds.** A schedule's ``seed`` decides everything but the timings: deal ``d`` is
played with the game seed :func:`deal_seed` ``(seed, d)`` (the same deals at every
table), which shuffles the deal and seeds each seat's bot. The same entrants,
configuration, number of games and seed give the same games, whatever the number of
processes or the backend they are played on (:mod:`red7.analysis.runner`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots import BotSpecError, make_bot
from ..core.model import N_, Config, Explained
from ..core.seeds import derive_seed
from .runner import GameTask, MeasureFactory


class ScheduleError(Explained, ValueError):
    """Games that cannot be scheduled (too few entrants, too few games...); its sentence
    a template the interfaces translate (:class:`~red7.core.model.Explained`)."""


@dataclass(frozen=True)
class Entrant:
    label: str
    """Unique name among the entrants: the spec, then ``#2``, ``#3`` for repeats."""
    spec: str
    """What :func:`red7.bots.make_bot` is given (normalized: the bot's own name)."""


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping each spec's own options.

    Options are separated by commas too, so a piece with ``=`` but no ``:`` belongs
    to the spec before it:

    >>> split_specs("hard, ismcts:iters=20,c=1.5,easy")
    ['hard', 'ismcts:iters=20,c=1.5', 'easy']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def make_entrants(specs: Sequence[str]) -> list[Entrant]:
    """Check every spec (by building its bot) and label repeats; raises BotSpecError."""
    if not specs:
        raise BotSpecError(N_("no bots given"))
    entrants: list[Entrant] = []
    seen: Counter[str] = Counter()
    for spec in specs:
        if not spec.strip():
            raise BotSpecError(N_("an empty bot spec (two commas in a row?)"))
        name = make_bot(spec).name
        seen[name] += 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        entrants.append(Entrant(label, name))
    return entrants


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` of a schedule seeded ``seed``: the stream
    ``"deal", deal`` of :func:`red7.core.seeds.derive_seed`."""
    return derive_seed(seed, "deal", deal)


@dataclass(kw_only=True)
class Schedule:
    """The tables and every game to play (see the module docstring)."""

    entrants: list[Entrant]
    config: Config
    tables: list[tuple[Entrant, ...]]
    rotations: int
    """Seat rotations each deal is played in (1 when one bot takes every seat)."""
    deals: int
    """Deals per table; each is played once per seat rotation."""
    games_requested: int
    seed: int
    tasks: list[GameTask] = field(default_factory=list)
    """Every game, in game-index order: table by table, deal by deal, rotation by rotation."""

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def games_per_table(self) -> int:
        return self.deals * self.rotations

    @property
    def rounded(self) -> bool:
        """Was the number of games per table rounded down to whole deals?"""
        return self.games_per_table != self.games_requested


def rotations_of(table: Sequence[Entrant]) -> list[tuple[Entrant, ...]]:
    """Every cyclic seat rotation: in rotation ``r`` seat ``s`` holds ``table[(s + r) % n]``."""
    n = len(table)
    return [tuple(table[(s + r) % n] for s in range(n)) for r in range(n)]


def schedule(
    entrants: Sequence[Entrant], *, config: Config, games: int, seed: int, measure: MeasureFactory | None = None
) -> Schedule:
    """The tables and every game of a tournament (see the module docstring), each game
    measuring ``measure`` too if given.

    ``games`` is per table: at least one game per seat rotation, rounded down to a
    whole number of deals.
    """
    players = config.players
    if len(entrants) < players:
        raise ScheduleError(
            N_(
                "{bots} bot(s) cannot fill a table of {players} players: give at least {players} bots "
                "(the same bot may be given more than once)"
            ),
            bots=len(entrants),
            players=players,
        )
    tables = [tuple(entrants)] if len(entrants) == players else list(itertools.combinations(entrants, players))
    rotations = players
    if games < rotations:
        raise ScheduleError(
            N_(
                "--games {games} is fewer than the {rotations} seat rotations of a {players}-player table: "
                "every deal is played once per rotation, so give --games {rotations} or more"
            ),
            games=games,
            rotations=rotations,
            players=players,
        )
    plan = Schedule(
        entrants=list(entrants),
        config=config,
        tables=tables,
        rotations=rotations,
        deals=games // rotations,
        games_requested=games,
        seed=seed,
    )
    seeds = [deal_seed(seed, d) for d in range(plan.deals)]
    index = itertools.count()
    plan.tasks = [
        GameTask(
            index=next(index),
            table=t,
            deal=d,
            rotation=r,
            seating=tuple(e.label for e in seating),
            specs=tuple(e.spec for e in seating),
            seed=seeds[d],
            config=config,
            measure=measure,
        )
        for t, table in enumerate(tables)
        for d in range(plan.deals)
        for r, seating in enumerate(rotations_of(table))
    ]
    return plan


def one_bot_schedule(
    entrant: Entrant, *, config: Config, games: int, seed: int, measure: MeasureFactory | None = None
) -> Schedule:
    """``games`` games of ``entrant`` in every seat, each a new deal (deal ``i`` is game ``i``)."""
    seating = (entrant,) * config.players
    return Schedule(
        entrants=[entrant],
        config=config,
        tables=[seating],
        rotations=1,
        deals=games,
        games_requested=games,
        seed=seed,
        tasks=[
            GameTask(
                index=i,
                table=0,
                deal=i,
                rotation=0,
                seating=tuple(e.label for e in seating),
                specs=tuple(e.spec for e in seating),
                seed=deal_seed(seed, i),
                config=config,
                measure=measure,
            )
            for i in range(games)
        ],
    )

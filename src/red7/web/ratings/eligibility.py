"""Who a finished game at a rated table rates (its :class:`Placing` s), and the two rules
that keep the ratings for games that were played (issue 46: two accounts of one person,
one conceding at its first decision, 20 rematches, took the other to first place).

**A game decided before it was played rates nobody who did not play it.** A player who
did not finish :data:`MIN_TURNS` turn of their own in the game (a turn ended winning,
R4.3; in the advanced game, in any round of the match) is left out of its rating: they
conceded at their first decision, or were out before they could move. The others are
rated by their places among themselves, if two or more are left; otherwise the game
rates nobody (:attr:`Verdict.UNPLAYED`). The farm above is such a game every time: the
account that concedes at once has finished no turn, so neither it nor its partner moves.

Why one turn: in bot games (two samples of 1,000 2-player basic games of ``medium``; 400
of each of the 12 configurations between ``easy`` and ``medium``; 100 2- and 3-player
basic games between ``hard`` and ``medium``) a player finished no turn in 0.0 to 0.9 % of
the seats of basic games (4-player, no action cards, the most) and in none of the
advanced game; that left 0.2 and 0.5 % of the two samples' games without two players to
rate. Two turns would
leave out up to 6.4 % of the seats (4-player basic) and 3 % of the 2-player basic games
between ``hard`` and ``medium``, and cost a farm one more card a game: the second rule is
what stops a farm that plays a little. No minimum length besides: a game in which two
players each finished a turn has lasted three turns at least, and a longer minimum would
cut real games: of such 2-player basic games of ``medium`` (995 of 1,000) 0.2 % lasted 3
turns, 2.4 % fewer than 6 and 9.5 % fewer than 8 (``easy`` against ``medium``: 0.3, 3.0
and 21.3 %). In the advanced game conceding a round early is a
tactic (R4.2: it limits what the winner scores), so only the turns of the whole match
count.

**The same people are rated together at most** :data:`REPEATS` **times in**
:data:`WINDOW`. A game in which two of its people (registered accounts; bots are not
counted) have already been rated together :data:`REPEATS` times in the
:data:`WINDOW` before it rates nobody (:attr:`Verdict.REPEATED`). One farming pair
gains at most three wins a day: a fresh account's rating after three straight wins
against another fresh account is 8.39, after the farm's twenty 21.14 (openskill's
Plackett-Luce, ``mu - 3 sigma``). Bots are left out of the count: a bot plays every
game to win at the same strength, so it cannot be a second account of anybody, and a
person winning again and again against ``hard`` has earned it; the bots' lines are the
club's yardstick, which many games make sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from itertools import combinations
from typing import Any, Final, Protocol

from ...core.events import TurnEnded
from ...core.game import Game

MIN_TURNS: Final = 1
"""Turns a player must have finished in a game to be rated by it (the leaderboard's words,
``counting_played`` in :data:`red7.web.table.words.UI_WORDS`, say "no turn": change them
with it)."""
REPEATS: Final = 3
"""Rated games two people may play together in :data:`WINDOW`."""
WINDOW: Final = timedelta(hours=24)
"""The time over which :data:`REPEATS` counts (the games rated in it before this one)."""

PERSON_PREFIX: Final = "account:"


class Verdict(StrEnum):
    """What became of a finished game of a rated table (kept with its claim)."""

    RATED = "rated"
    """It moved the skills of its players (those who played it)."""
    UNPLAYED = "unplayed"
    """Fewer than two of its players finished a turn: it moved nothing."""
    REPEATED = "repeated"
    """Two of its people had been rated together :data:`REPEATS` times in :data:`WINDOW`: it moved nothing."""


def identity(account: int | None, bot: str | None) -> str | None:
    """Who a seat's player is to the ratings: its account, or its bot's level; None for
    a guest (or an empty seat), who is never rated."""
    if bot is not None:
        return f"bot:{bot}"
    if account is not None:
        return f"{PERSON_PREFIX}{account}"
    return None


@dataclass(frozen=True)
class Placing:
    """One player of a finished game: who (:func:`identity`), the name to show, their
    place (1 the best; equal places share a rank) and the turns they finished."""

    identity: str
    name: str
    rank: int
    turns: int


class SeatHolder(Protocol):
    """Who sits in a seat, as far as the ratings ask (a live table's seat)."""

    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def account(self) -> int | None: ...


def finished_turns(game: Game) -> list[int]:
    """Per seat, the turns it finished in ``game`` (ended winning, R4.3), in every round."""
    turns = [0] * game.players
    for event in game.events:
        if type(event) is TurnEnded:
            turns[event.seat] += 1
    return turns


def placings(seats: Sequence[SeatHolder], ranks: Sequence[int], turns: Sequence[int]) -> list[Placing] | None:
    """The placings of a finished game whose seat ``i`` (held by ``seats[i]``) finished
    in place ``ranks[i]`` (:func:`red7.play.match.ranks_of`) having finished ``turns[i]``
    turns (:func:`finished_turns`); None if a guest played (a game with a guest moves no
    rating)."""
    found = []
    for seat, rank, finished in zip(seats, ranks, turns, strict=True):
        who = identity(seat.account, seat.bot)
        if who is None:
            return None
        found.append(Placing(who, seat.bot or seat.name, rank, finished))
    return found


def played(placings: Sequence[Placing]) -> list[Placing]:
    """The players a game rates by the first rule (the module's docstring): those who
    finished :data:`MIN_TURNS` turns, placed among themselves (equal places share a rank)."""
    kept = [p for p in placings if p.turns >= MIN_TURNS]
    return [Placing(p.identity, p.name, 1 + sum(other.rank < p.rank for other in kept), p.turns) for p in kept]


def pairs(placings: Sequence[Placing]) -> list[tuple[str, str]]:
    """The pairs of people (not bots) among ``placings``, each in sorted order: what the
    second rule counts."""
    people = sorted(p.identity for p in placings if p.identity.startswith(PERSON_PREFIX))
    return list(combinations(people, 2))


def rules() -> dict[str, Any]:
    """The rules' figures, for the leaderboard's page to state them."""
    return {"min_turns": MIN_TURNS, "repeats": REPEATS, "window_hours": int(WINDOW.total_seconds() // 3600)}

"""Skill ratings from the ranks of games: openskill's Plackett-Luce model, one player
per team, ``ordinal = mu - 3 sigma`` as the number shown. Tournaments
(:mod:`red7.analysis.tournament`) and the web's rated tables (:mod:`red7.web.ratings`)
rate with it, so a club's ratings and a tournament's are the same measure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

RATING_MODEL = "openskill PlackettLuce (ranks of each game, in game-index order); ordinal = mu - 3 sigma"


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce  # imported once, when a rating is first needed

    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A player's estimated skill: ``mu`` its mean, ``sigma`` its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown and ranked by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def first_skill() -> Skill:
    """The skill of a player never rated (the model's default: 25 ± 25/3)."""
    rating = _model().rating()
    return Skill(rating.mu, rating.sigma)


def rated(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The players' skills after one game in which player ``i`` (skill ``skills[i]``)
    finished in place ``ranks[i]`` (1 the best; equal places share a rank)."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game needs a rank for each of its two or more players")
    model = _model()
    teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    after = model.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in after]

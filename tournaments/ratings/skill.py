"""The rating arithmetic alone: openskill's Plackett-Luce model, with no Django in it.

Every player starts at mu 25, sigma 25/3; a table is one match of single-player teams ranked by their places
(equal places are ties). The ordinal shown (mu - 3 sigma) starts at 0 and rises as results accumulate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The cautious estimate people see: mu less three sigma."""
        return self.mu - 3 * self.sigma


def initial() -> Skill:
    """The skill of someone never rated: openskill's defaults."""
    return Skill(model().mu, model().sigma)


def rate_table(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """The skills after one table, seat by seat: ``ranks`` are the places (1 is first; equal places tie)."""
    if len(skills) != len(ranks):
        raise ValueError("one rank per seat")
    if len(skills) < 2:
        return list(skills)
    plackett_luce = model()
    teams = [[plackett_luce.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = plackett_luce.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]

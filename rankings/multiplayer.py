"""The multiplayer rating: OpenSkill's Plackett-Luce model (the `openskill` package, pinned
in requirements.in) over a game's finishing places, for 2-4 seats with shared places.

A member's rating is two numbers, `mu` (the skill estimate) and `sigma` (its uncertainty),
starting at the model's 25 and 25/3. The number shown is `mu` on an Elo-like scale
(`displayed`): 1200 at the start, and a difference of `SCALE` points per unit of `mu`, which
gives two established players about the win chances Elo gives the same difference. It is not
OpenSkill's ordinal (mu - 3 sigma): that one rises with every game played, even a lost one,
so a shown change would not say whether the game went well. `sigma` says how sure the rating
is instead: `provisional` while it is above `PROVISIONAL_SIGMA` (docs/ratings.md has the
figures and the command that measured them).

Pure functions; no Django.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from openskill.models import PlackettLuce

from .elo import START_RATING

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
# Elo's 400 points are a factor of 10 in the odds; Plackett-Luce's odds between two players
# of sigma ~0 are exp(d / c) with c = beta * sqrt(2), so d Elo = d mu * 400 / (ln 10 * c).
SCALE = 400 / (math.log(10) * MODEL.beta * math.sqrt(2))
PROVISIONAL_SIGMA = START_SIGMA * 2 / 3


class Skill(NamedTuple):
    mu: float
    sigma: float


START = Skill(START_MU, START_SIGMA)


def displayed(mu: float) -> int:
    """The rating shown for `mu`: 1200 + SCALE * (mu - 25), rounded half up."""
    return START_RATING + math.floor((mu - START_MU) * SCALE + 0.5)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """Each player's skill after one game, in the order given. `places` are the finishing
    places (1 = first; equal places are a tie), one per player; each player is a team of
    one. Raises ValueError for fewer than two players or mismatched lists."""
    if len(skills) < 2 or len(skills) != len(places):
        raise ValueError(f"need two or more players, one place each: {skills!r} {places!r}")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]

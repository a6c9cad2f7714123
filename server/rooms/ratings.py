"""Ratings: Glicko-2 for two-seat games, OpenSkill (Plackett-Luce) for many-player games.

Pure functions, no I/O. A rating is kept per game and speed category (``"chess:blitz"``);
the speed follows lichess: estimated duration = base + 40 x increment (seconds):
< 30 ultrabullet, < 180 bullet, < 480 blitz, < 1500 rapid, else classical; untimed games
are correspondence.

Glicko-2 is Glickman's "Example of the Glicko-2 system" (2013), step by step; the test
checks his worked example (1500/200 after three games -> 1464.06 / 151.52).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Glicko-2's system constant (constrains volatility changes); lichess uses 0.75, Glickman's
#: example 0.5
TAU = 0.5
#: the Glicko scale factor between the public scale and Glicko-2's internal one
SCALE = 173.7178
#: a new player's rating, deviation and volatility
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
#: a rating is provisional while its deviation exceeds this
PROVISIONAL_RD = 110.0
#: the volatility iteration's convergence tolerance
EPSILON = 1e-6
#: an OpenSkill rating is provisional while its sigma exceeds this (a new one: 8.33)
PROVISIONAL_SIGMA = 5.0

SPEEDS = ("ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def speed(clock: Mapping[str, Any] | None) -> str:
    """The speed category of a clock setting (``None``: untimed, correspondence).

    >>> speed({"type": "fischer", "base": 180, "increment": 2})
    'blitz'
    """
    if not clock:
        return "correspondence"
    if clock.get("type") == "per_move":
        seconds = float(clock.get("seconds", 0))
        estimate = 40 * seconds  # a move's time, forty moves
    else:
        estimate = float(clock.get("base", 0)) + 40 * float(clock.get("increment", 0))
    if estimate < 30:
        return "ultrabullet"
    if estimate < 180:
        return "bullet"
    if estimate < 480:
        return "blitz"
    if estimate < 1500:
        return "rapid"
    return "classical"


def category(game: str, clock: Mapping[str, Any] | None) -> str:
    """The rating key of a game at a clock: ``"chess:blitz"``."""
    return f"{game}:{speed(clock)}"


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating on the public scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": round(self.rating, 2),
            "rd": round(self.rd, 2),
            "volatility": round(self.volatility, 6),
            "games": self.games,
            "provisional": self.provisional,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Glicko:
        return cls(
            float(raw["rating"]), float(raw["rd"]), float(raw["volatility"]), int(raw["games"])
        )


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2(player: Glicko, results: Sequence[tuple[Glicko, float]], *, tau: float = TAU) -> Glicko:
    """``player`` after one rating period with ``results`` (opponent, score 1/0.5/0).

    No games: only the deviation grows (step 6 of the paper).
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, min(phi_star * SCALE, START_RD), sigma, player.games)
    inv_v = 0.0
    delta_sum = 0.0
    for opp, score in results:
        mu_j = (opp.rating - START_RATING) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    # step 5: the new volatility (Illinois algorithm)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # steps 6-8
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(
        START_RATING + SCALE * mu_new,
        min(SCALE * phi_new, START_RD),
        sigma_new,
        player.games + len(results),
    )


def rate_pair(a: Glicko, b: Glicko, score_a: float) -> tuple[Glicko, Glicko]:
    """Both players after one game (each rated against the other's rating before it)."""
    return glicko2(a, [(b, score_a)]), glicko2(b, [(a, 1.0 - score_a)])


# -- many players: OpenSkill's Plackett-Luce ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Skill:
    """An OpenSkill rating (mu, sigma); shown as ``ordinal`` = mu - 3 sigma on a 1500 scale."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def display(self) -> float:
        """A Glicko-like number: 1500 at the start's mu, 60 points a mu."""
        return START_RATING + (self.mu - 25.0) * 60.0

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": round(self.display, 2),
            "rd": round(self.sigma * 60.0, 2),
            "mu": round(self.mu, 6),
            "sigma": round(self.sigma, 6),
            "games": self.games,
            "provisional": self.provisional,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Skill:
        return cls(float(raw["mu"]), float(raw["sigma"]), int(raw["games"]))


def rate_many(players: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Every player after one game of many (``ranks``: 1 = best, ties share a rank)."""
    from openskill.models import PlackettLuce  # imported lazily: only many-player games

    model = PlackettLuce()
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Skill(team[0].mu, team[0].sigma, p.games + 1)
        for team, p in zip(rated, players, strict=True)
    ]


def rating_from_json(raw: Mapping[str, Any]) -> Glicko | Skill:
    return Skill.from_json(raw) if "mu" in raw else Glicko.from_json(raw)

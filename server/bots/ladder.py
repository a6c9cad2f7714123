"""The difficulty ladder: every game's named strengths as numbered levels, with the ratings
``kibitz ladder`` measured for them.

Level 1 is a game's weakest strength, level 2 the next, and so on (``STRENGTHS`` lists them
weakest first: ``random``, ``easy``, ``normal``, ``hard``). A level's rating is an Elo
difference from level 1 of the same game (level 1 is 0), chained from matches of each
level against the one below it; ratings of different games do not compare. For chess,
``kibitz ladder chess --anchor SPEC`` also plays the top level against an outside engine
(Stockfish at a skill level), which ties the chain to a known strength.

The ratings live in ``ladder.json`` next to this module, written by ``kibitz ladder --write``
(never by hand); a level that was never measured has no rating (``None``), and the lobby
says so rather than guessing. Nothing here plays a game: this module reads a file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import STRENGTHS

#: where ``kibitz ladder --write`` keeps the measured ratings
RATINGS_FILE = Path(__file__).with_name("ladder.json")

#: a level should beat the one below it at least this often (the ladder's promise)
MONOTONE_SCORE = 0.6

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Level:
    """One rung: level ``number`` of ``game`` is the strength ``strength``."""

    game: str
    number: int
    strength: str
    algorithm: str
    think_time: float


def levels(game: str) -> list[Level]:
    """The levels of ``game``, weakest first (``KeyError`` for an unknown game)."""
    return [
        Level(game, i, name, algorithm, think_time)
        for i, (name, (algorithm, think_time)) in enumerate(STRENGTHS[game].items(), 1)
    ]


def elo(score: float) -> float:
    """The Elo difference that makes ``score`` the expected score (clamped to +-1200)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return max(-1200.0, min(1200.0, -400.0 * math.log10(1.0 / score - 1.0)))


def step_rating(points: float, games: int, lo: float, hi: float) -> tuple[float, float]:
    """One match's Elo difference and its standard error, from ``points`` of ``games`` and
    the score's 95 % interval ``[lo, hi]``. The point estimate counts one extra drawn game
    (``(points + 0.5) / (games + 1)``), so a clean sweep gives a finite difference."""
    estimate = elo((points + 0.5) / (games + 1))
    se = (elo(hi) - elo(lo)) / (2 * Z95)
    return estimate, se


def chain(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Ratings of levels 1..k+1 from the k matches "level i+1 vs level i" (each a mapping
    with ``points``, ``games``, ``score_95``): level 1 is 0; every level adds its match's
    difference, and the standard errors add in quadrature (the matches are independent)."""
    out: list[dict[str, Any]] = [{"elo": 0.0, "elo_95": [0.0, 0.0], "score_vs_below": None}]
    total, var = 0.0, 0.0
    for s in steps:
        d, se = step_rating(float(s["points"]), int(s["games"]), *s["score_95"])
        total += d
        var += se * se
        half = Z95 * math.sqrt(var)
        out.append(
            {
                "elo": round(total),
                "elo_95": [round(total - half), round(total + half)],
                "score_vs_below": round(float(s["points"]) / int(s["games"]), 3),
            }
        )
    return out


def not_monotone(ratings: Sequence[Mapping[str, Any]]) -> list[int]:
    """The level numbers that do not beat the level below at :data:`MONOTONE_SCORE`."""
    return [
        i
        for i, r in enumerate(ratings, 1)
        if r.get("score_vs_below") is not None and r["score_vs_below"] < MONOTONE_SCORE
    ]


def load(path: Path = RATINGS_FILE) -> dict[str, Any]:
    """The measured ladder (``{}`` when nothing was measured yet)."""
    try:
        return dict(json.loads(path.read_text()))
    except FileNotFoundError:
        return {}


def rated_levels(game: str, measured: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The levels of ``game`` as the lobby shows them: number, strength, algorithm, think
    time, and the measured rating with its 95 % interval and how it was measured (``elo``
    is ``None`` for a level never measured with the algorithm and think time it has now)."""
    data = (load() if measured is None else measured).get(game, {})
    rated = {int(r["level"]): r for r in data.get("levels", [])}
    out = []
    for lv in levels(game):
        r = rated.get(lv.number)
        same = (
            r is not None
            and r.get("algorithm") == lv.algorithm
            and r.get("think_time") == lv.think_time
        )
        out.append(
            {
                "level": lv.number,
                "strength": lv.strength,
                "algorithm": lv.algorithm,
                "think_time": lv.think_time,
                "elo": r["elo"] if same and r is not None else None,
                "elo_95": r["elo_95"] if same and r is not None else None,
                "games": data.get("games_per_match") if same else None,
            }
        )
    return out


__all__ = [
    "MONOTONE_SCORE",
    "RATINGS_FILE",
    "Level",
    "chain",
    "elo",
    "levels",
    "load",
    "not_monotone",
    "rated_levels",
    "step_rating",
]

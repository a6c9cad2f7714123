"""Tie-breaks of a Swiss or a round robin, as the view states them.

* **Buchholz**: the sum of the final scores of the opponents a player met (games played
  only: a bye, a rest or a game forfeited adds nothing — the plain form, without FIDE's
  virtual opponent).
* **Sonneborn-Berger**: the sum, over the games played, of the opponent's final score times
  what the player scored against them (1, ½ or 0): beating strong players counts most.

``table`` maps each player to their games played, as (opponent, score); ``points`` each
player's final score (byes included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Crosstable = Mapping[str, Sequence[tuple[str, float]]]


def buchholz(key: str, table: Crosstable, points: Mapping[str, float]) -> float:
    return sum(points[opponent] for opponent, _ in table.get(key, ()))


def sonneborn_berger(key: str, table: Crosstable, points: Mapping[str, float]) -> float:
    return sum(points[opponent] * score for opponent, score in table.get(key, ()))

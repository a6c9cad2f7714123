"""Scores into values: the logistic curve the evaluators share (below all of them)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def logistic(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def squash(scores: Sequence[float], scale: float) -> list[float]:
    """Per seat: the mean over the other seats of logistic((mine - theirs) / scale)."""
    n = len(scores)
    if n == 1:
        return [0.5]
    return [
        sum(logistic((scores[s] - scores[o]) / scale) for o in range(n) if o != s) / (n - 1)
        for s in range(n)
    ]


__all__ = ["logistic", "squash"]

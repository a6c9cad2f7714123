"""The scale moves are judged on, as lichess judges them (its ``WinPercent``, ``Advice`` and
``AccuracyPercent``; docs/ANALYSIS.md).

An evaluation in centipawns becomes *winning chances* between -1 (lost) and +1 (won) for the
side it is given for: ``2 / (1 + exp(-0.00368208 * cp)) - 1``, centipawns clamped to +-1000
and a forced mate counted as the clamp. A move is judged by how much of the mover's winning
chances it gave away against the position before it (the best move keeps them): 0.3 or
more is a blunder (``??``), 0.2 a mistake (``?``), 0.1 an inaccuracy (``?!``). A move's
accuracy is ``103.1668 * exp(-0.04354 * loss) - 3.1669`` with the loss in win percentage
points, clamped to 0..100; a player's accuracy is the mean over their moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CEILING = 1000  # centipawns: larger evaluations (and mates) count as this
MULTIPLIER = -0.00368208
#: the least loss of winning chances for each judgement, worst first
JUDGEMENTS = (("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1))
#: PGN's annotation of each judgement (numeric annotation glyphs 4, 2, 6)
MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}


@dataclass(frozen=True, slots=True)
class Score:
    """An evaluation for one side: centipawns, a forced mate in ``mate`` moves (> 0: the
    side mates; < 0: it is mated), or a game ``over`` by mate (1: the side has mated; -1:
    it is mated)."""

    cp: int | None = None
    mate: int | None = None
    over: int | None = None

    def centipawns(self) -> int:
        if self.over is not None:
            return CEILING * self.over
        if self.mate is not None:
            return CEILING if self.mate > 0 else -CEILING
        assert self.cp is not None
        return max(-CEILING, min(CEILING, self.cp))

    def flipped(self) -> Score:
        """The same evaluation for the other side."""
        if self.over is not None:
            return Score(over=-self.over)
        if self.mate is not None:
            return Score(mate=-self.mate)
        assert self.cp is not None
        return Score(cp=-self.cp)


def winning_chances(score: Score) -> float:
    """-1 (lost) .. +1 (won) for the side ``score`` is given for."""
    return 2 / (1 + math.exp(MULTIPLIER * score.centipawns())) - 1


def win_percent(score: Score) -> float:
    return 50 + 50 * winning_chances(score)


def judge(before: Score, after: Score) -> str | None:
    """The judgement of a move from the mover's ``before`` (the best play's value) to its
    ``after`` (both for the mover), or None for a good one."""
    loss = winning_chances(before) - winning_chances(after)
    for name, least in JUDGEMENTS:
        if loss >= least:
            return name
    return None


def move_accuracy(before: Score, after: Score) -> float:
    loss = max(0.0, win_percent(before) - win_percent(after))
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def accuracy(values: Sequence[float]) -> float | None:
    """A player's accuracy: the mean of their moves' (None: no move)."""
    return sum(values) / len(values) if values else None


def chance_score(p: float) -> Score:
    """A win chance (0..1: a search's mean result for a side) as the centipawns this scale
    maps to it (``2p - 1`` winning chances), clamped to the ceiling."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    cp = math.log(1 / p - 1) / MULTIPLIER
    return Score(cp=int(max(-CEILING, min(CEILING, round(cp)))))

"""Quick pairing: who plays whom in a pool, by rating, the window widening with waiting.

Pure: the caller passes the pool (entries with rating and time joined) and the time now;
:func:`choose_pairs` returns pairs. The store applies them atomically (a Lua script removes
both entries or neither), so two nodes that choose overlapping pairs never pair a player twice.

Names and conventions as lichess's pool: a player's window is ``BASE_WINDOW`` rating points at
first and grows by ``WIDEN_PER_SECOND`` a second up to ``MAX_WINDOW``; two entries may meet
when each lies in the other's window (and each lies in the other's own ``rating_range``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BASE_WINDOW = 100.0
WIDEN_PER_SECOND = 50.0
MAX_WINDOW = 1000.0


@dataclass(frozen=True, slots=True)
class Entry:
    """One waiting player: ``key`` identifies them (user or guest id)."""

    key: str
    rating: float
    since: float
    #: the poster's own limits (absolute ratings), if any
    low: float | None = None
    high: float | None = None


def window(entry: Entry, now: float) -> float:
    waited = max(0.0, now - entry.since)
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_SECOND * waited)


def compatible(a: Entry, b: Entry, now: float) -> bool:
    if a.key == b.key:
        return False
    gap = abs(a.rating - b.rating)
    if gap > window(a, now) or gap > window(b, now):
        return False
    for me, other in ((a, b), (b, a)):
        if me.low is not None and other.rating < me.low:
            return False
        if me.high is not None and other.rating > me.high:
            return False
    return True


def choose_pairs(pool: Sequence[Entry], now: float) -> list[tuple[Entry, Entry]]:
    """Greedy: the longest-waiting first, each with the closest compatible rating."""
    waiting = sorted(pool, key=lambda e: (e.since, e.key))
    taken: set[str] = set()
    pairs: list[tuple[Entry, Entry]] = []
    for a in waiting:
        if a.key in taken:
            continue
        best: Entry | None = None
        for b in waiting:
            if b.key in taken or not compatible(a, b, now):
                continue
            if best is None or abs(b.rating - a.rating) < abs(best.rating - a.rating):
                best = b
        if best is not None:
            taken.update((a.key, best.key))
            pairs.append((a, best))
    return pairs

"""Quick pairing: who plays whom in a pool, by rating, the window widening with waiting.

Pure: the caller passes the pool (entries with rating and time joined), the time now and the
seats a table has; :func:`choose_tables` returns tables (:func:`choose_pairs`: tables of two).
The store applies each atomically (a Lua script removes every entry of the table or none), so
two nodes that choose overlapping tables never seat a player twice, and a player who left the
pool meanwhile sinks the whole table (nobody is seated at a half table).

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


def choose_tables(pool: Sequence[Entry], now: float, seats: int) -> list[tuple[Entry, ...]]:
    """Greedy: the longest-waiting first; to their table the closest ratings (the longer
    waiting first among equals) that are compatible with everyone at the table so far. A table
    that cannot fill is not made (its first player waits for the next round)."""
    if seats < 2:
        raise ValueError(f"a table has at least two seats, not {seats}")
    waiting = sorted(pool, key=lambda e: (e.since, e.key))
    taken: set[str] = set()
    tables: list[tuple[Entry, ...]] = []
    for a in waiting:
        if a.key in taken:
            continue
        table = [a]
        for b in sorted(waiting, key=lambda e: abs(e.rating - a.rating)):  # stable: by since
            if b.key not in taken and all(compatible(b, t, now) for t in table):
                table.append(b)
                if len(table) == seats:
                    break
        if len(table) == seats:
            taken.update(t.key for t in table)
            tables.append(tuple(table))
    return tables


def choose_pairs(pool: Sequence[Entry], now: float) -> list[tuple[Entry, Entry]]:
    """Tables of two: the longest-waiting first, each with the closest compatible rating."""
    return [(a, b) for a, b in choose_tables(pool, now, 2)]

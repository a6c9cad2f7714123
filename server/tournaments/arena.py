"""Arena pairing: who sits at a table with whom, among the players waiting now.

lichess's arena pairs a player again as soon as their game ends, with players of close
score, and not with the same opponent twice in a row when another can be had. Here
(:func:`arena_pairs`), the waiting players are ranked by points, then rating; each table
takes the best-ranked player still free and the nearest-ranked free players after them
(within :data:`WINDOW` places) with whom nobody at the table sat at their last table. A
small bounded search (:data:`BUDGET` steps) undoes a choice that would leave someone only
their last opponent; when the field leaves no other way, two players may meet again once
both have waited :data:`REPEAT_WAIT` seconds (someone else may finish meanwhile). When the
waiting players do not fill whole tables, the lowest-ranked wait for the next games to end.

Pure: the caller passes the waiting players and the time; seats (colours) are the
tournament's (:mod:`server.tournaments.tournament`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

#: seconds two players who just met wait for somebody else before they meet again
REPEAT_WAIT = 5.0
#: how far down the ranking a table may reach for its players
WINDOW = 8
#: steps of the search before it falls back to the greedy choice
BUDGET = 5000


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player waiting for a game: ``since`` when they became free, ``last`` the other
    players at their last table."""

    key: str
    points: float
    rating: float
    since: float = 0.0
    last: frozenset[str] = frozenset()


class _Exhausted(Exception):
    pass


Ok = Callable[[Waiting, Waiting], bool]


def _fresh(a: Waiting, b: Waiting) -> bool:
    return a.key not in b.last and b.key not in a.last


def _search(order: Sequence[Waiting], size: int, ok: Ok, skips: int) -> list[tuple[int, ...]]:
    """Whole tables of ``ok`` players, leaving at most ``skips`` out; best-ranked first."""
    n = len(order)
    used = [False] * n
    tables: list[tuple[int, ...]] = []
    steps = 0

    def rec(i: int, skips: int) -> bool:
        nonlocal steps
        while i < n and used[i]:
            i += 1
        if i == n:
            return True
        steps += 1
        if steps > BUDGET:
            raise _Exhausted
        used[i] = True
        free = [j for j in range(i + 1, n) if not used[j]][:WINDOW]
        for rest in combinations(free, size - 1):  # the nearest-ranked first
            members = (i, *rest)
            if all(ok(order[a], order[b]) for a, b in combinations(members, 2)):
                for j in rest:
                    used[j] = True
                tables.append(members)
                if rec(i + 1, skips):
                    return True
                tables.pop()
                for j in rest:
                    used[j] = False
        if skips > 0 and rec(i + 1, skips - 1):  # this player waits
            return True
        used[i] = False
        return False

    return tables if rec(0, skips) else []


def _greedy(order: Sequence[Waiting], size: int, ok: Ok) -> list[tuple[int, ...]]:
    used: set[int] = set()
    tables = []
    for i in range(len(order)):
        if i in used:
            continue
        table = [i]
        for j in range(i + 1, len(order)):
            if j not in used and all(ok(order[j], order[t]) for t in table):
                table.append(j)
                if len(table) == size:
                    break
        if len(table) == size:
            used.update(table)
            tables.append(tuple(table))
    return tables


def arena_pairs(
    waiting: Sequence[Waiting],
    table_size: int,
    rng: random.Random,
    *,
    now: float | None = None,
    wait: float = REPEAT_WAIT,
) -> list[tuple[str, ...]]:
    """Tables of ``table_size`` keys (best-ranked first) among ``waiting``. ``rng`` orders
    players of equal points and rating; ``now`` ``None``: players may meet again at once
    when nothing else is possible."""
    if table_size < 2:
        raise ValueError(f"a table has at least two seats, not {table_size}")
    shuffled = list(waiting)
    rng.shuffle(shuffled)
    order = sorted(shuffled, key=lambda w: (-w.points, -w.rating))
    skips = len(order) % table_size

    def patient(w: Waiting) -> bool:
        return now is None or now - w.since >= wait

    def again(a: Waiting, b: Waiting) -> bool:
        return _fresh(a, b) or (patient(a) and patient(b))

    tables: list[tuple[int, ...]] = []
    for ok in (_fresh, again):
        try:
            tables = _search(order, table_size, ok, skips)
        except _Exhausted:
            continue
        if tables:
            break
    else:
        tables = _greedy(order, table_size, again)
    return [tuple(order[i].key for i in t) for t in tables]

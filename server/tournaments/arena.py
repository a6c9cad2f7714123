"""Arena pairing: who sits at a table with whom, among the players waiting now.

lichess's arena pairs a player again as soon as their game ends, with players of close
score, and not with the same opponent twice in a row when another can be had. Here
(:func:`arena_pairs`), every table the waiting players fill is seated at once:

* **who sits** — when the waiting players do not fill whole tables, those who became free
  last wait for the next games to end (:func:`_may_wait`): whoever has waited longest is
  seated first, whatever their score;
* **with whom** — the waiting players are ranked by points, then rating; each table takes
  the best-ranked player still free and the nearest-ranked free players after them (within
  :data:`WINDOW` places), under the strictest rule of :func:`_levels` that seats them all:
  nobody beside a player of their last table, else (tables of more than two) as few players
  of one last table together as can be (:func:`_together`). A small bounded search
  (:data:`BUDGET` tables weighed) undoes a choice that would force a worse table later;
* **the same table again** — two players who just met meet again only once both have
  waited :data:`REPEAT_WAIT` seconds (somebody else may finish meanwhile), as on lichess.
  A table of more than two seats waits for nobody: a table's worth of free players is
  seated at once, even at the same table again, so the tables run side by side and no
  player waits while the others play.

Pure: the caller passes the waiting players and the time; seats (colours) are the
tournament's (:mod:`server.tournaments.tournament`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

#: seconds two players who just met wait for somebody else before they meet again
REPEAT_WAIT = 5.0
#: how far down the ranking a table may reach for its players
WINDOW = 8
#: tables the search may weigh (over all its rules) before it falls back to the greedy choice
BUDGET = 20_000


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


class _Budget:
    """What is left of :data:`BUDGET` for one pairing."""

    def __init__(self, tables: int) -> None:
        self.left = tables

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _Exhausted


#: whether a table (its players' places in the ranking, best-ranked first) may be seated
Fits = Callable[[Sequence[int]], bool]
#: whether a player has waited long enough to meet their last opponent again
Patient = Callable[[Waiting], bool]


def _fresh(a: Waiting, b: Waiting) -> bool:
    return a.key not in b.last and b.key not in a.last


def _together(table: Sequence[int], mates: Sequence[int], most: int) -> bool:
    """No more than ``most`` players of ``table`` sat at one player's last table (1: no
    two met); ``mates``: each player's last table as a bit mask of places."""
    seated = 0
    for i in table:
        seated |= 1 << i
    return all((mates[i] & seated).bit_count() < most for i in table)


def _levels(order: Sequence[Waiting], size: int, patient: Patient) -> list[Fits]:
    """The rules a table must meet, strictest first; the first under which every table the
    waiting players fill can be seated is used. Two seats: nobody meets their last opponent,
    else only two who both waited :data:`REPEAT_WAIT`. More seats: at most one, two, ... up
    to all players of one last table together (the same table again, at once)."""
    if size == 2:

        def fresh(t: Sequence[int]) -> bool:
            return _fresh(order[t[0]], order[t[1]])

        def again(t: Sequence[int]) -> bool:
            a, b = order[t[0]], order[t[1]]
            return _fresh(a, b) or (patient(a) and patient(b))

        return [fresh, again]

    place = {w.key: i for i, w in enumerate(order)}
    mates = [sum(1 << place[k] for k in w.last if k in place) for w in order]

    def at_most(most: int) -> Fits:
        return lambda t: _together(t, mates, most)

    return [at_most(most) for most in range(1, size + 1)]


def _may_wait(order: Sequence[Waiting], skips: int) -> list[bool]:
    """Who may be left waiting when ``skips`` players must be: those who became free last
    (at a tie, any of the tied)."""
    if not skips:
        return [False] * len(order)
    cut = sorted(w.since for w in order)[len(order) - skips]
    return [w.since >= cut for w in order]


def _search(
    order: Sequence[Waiting],
    size: int,
    fits: Fits,
    skips: int,
    may_wait: Sequence[bool],
    budget: _Budget,
) -> list[tuple[int, ...]]:
    """Whole tables that ``fit``, leaving out ``skips`` players who ``may_wait``;
    best-ranked first ([]: none)."""
    n = len(order)
    used = [False] * n
    tables: list[tuple[int, ...]] = []
    waiters = sum(may_wait)  # of the players not yet seated or left out

    def take(seats: Sequence[int], taken: bool) -> None:
        nonlocal waiters
        for j in seats:
            used[j] = taken
            if may_wait[j]:
                waiters += -1 if taken else 1

    def rec(i: int, skips: int) -> bool:
        while i < n and used[i]:
            i += 1
        if i == n:
            return True
        if waiters < skips:  # too few left who may wait: this branch cannot end well
            return False
        take((i,), True)
        free = [j for j in range(i + 1, n) if not used[j]][:WINDOW]
        for rest in combinations(free, size - 1):  # the nearest-ranked first
            members = (i, *rest)
            budget.spend()
            if fits(members):
                take(rest, True)
                tables.append(members)
                if rec(i + 1, skips):
                    return True
                tables.pop()
                take(rest, False)
        if skips > 0 and may_wait[i] and rec(i + 1, skips - 1):  # this player waits
            return True
        take((i,), False)
        return False

    return tables if rec(0, skips) else []


def _outward(i: int, n: int) -> Iterator[int]:
    """The places nearest to ``i`` first (``i`` excluded)."""
    for d in range(1, n):
        for j in (i - d, i + d):
            if 0 <= j < n:
                yield j


def _greedy(order: Sequence[Waiting], size: int, fits: Fits, skips: int) -> list[tuple[int, ...]]:
    """Tables one by one among all but the ``skips`` players who became free last, the
    longest-waiting player first, each with the nearest-ranked free players who fit."""
    n = len(order)
    first = sorted(range(n), key=lambda i: (order[i].since, i))
    used = set(first[n - skips :])
    tables = []
    for i in first:
        if i in used:
            continue
        table = [i]
        for j in _outward(i, n):
            if j not in used and fits(sorted((*table, j))):
                table.append(j)
                if len(table) == size:
                    break
        if len(table) == size:
            used.update(table)
            tables.append(tuple(sorted(table)))
    return sorted(tables)


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
    may_wait = _may_wait(order, skips)

    def patient(w: Waiting) -> bool:
        return now is None or now - w.since >= wait

    levels = _levels(order, table_size, patient)
    budget = _Budget(BUDGET)
    tables: list[tuple[int, ...]] = []
    try:
        for fits in levels:
            tables = _search(order, table_size, fits, skips, may_wait, budget)
            if tables:
                break
    except _Exhausted:
        tables = []
    if not tables:
        tables = _greedy(order, table_size, levels[-1], skips)
    return [tuple(order[i].key for i in t) for t in tables]

"""Arena pairing: whole tables of waiting players, each once, close in score, and never the
same opponent twice in a row when somebody else is waiting — unless both waited the moment
out. The guard's broken twin (every pair counted as fresh) is caught by the same checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.tournaments import REPEAT_WAIT, Waiting, arena, arena_pairs

NOW = 1000.0


def waiting(n: int, points: list[int], last: dict[int, int], since: float) -> list[Waiting]:
    """``n`` players ``p0``.. with points; ``last[i] = j``: i and j met in their last game."""
    mates: dict[int, set[str]] = {i: set() for i in range(n)}
    for i, j in last.items():
        mates[i].add(f"p{j}")
        mates[j].add(f"p{i}")
    return [Waiting(f"p{i}", points[i], 1500 + i, since, frozenset(mates[i])) for i in range(n)]


@st.composite
def fields(draw: st.DrawFn) -> list[Waiting]:
    n = draw(st.integers(3, 14))
    points = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    order = draw(st.permutations(range(n)))
    # last games: disjoint pairs (each player had one last opponent at most)
    pairs = draw(st.integers(0, n // 2))
    last = {order[2 * k]: order[2 * k + 1] for k in range(pairs)}
    return waiting(n, points, last, NOW)  # all just became free: no repeat is allowed


def check(field: list[Waiting], tables: list[tuple[str, ...]], size: int) -> None:
    seated = [k for t in tables for k in t]
    assert len(seated) == len(set(seated)), "nobody sits at two tables"
    assert all(len(t) == size for t in tables)
    by_key = {w.key: w for w in field}
    for a, b in tables:
        assert b not in by_key[a].last and a not in by_key[b].last, f"{a} and {b} met last"


@settings(max_examples=300, deadline=None)
@given(fields(), st.integers(0, 2**32))
def test_no_same_opponent_twice_in_a_row_when_another_is_waiting(
    field: list[Waiting], seed: int
) -> None:
    tables = arena_pairs(field, 2, random.Random(seed), now=NOW)
    check(field, tables, 2)
    # with three or more waiting and each having met one other at most, everyone who can
    # be seated without a repeat is: whole tables, the odd one out waits
    assert len(tables) == len(field) // 2


def test_three_waiting_the_two_who_just_met_are_split() -> None:
    field = waiting(3, [4, 4, 0], {0: 1}, NOW)  # p0 and p1 nearest in score, met last
    for seed in range(20):
        ((a, b),) = arena_pairs(field, 2, random.Random(seed), now=NOW)
        assert {a, b} != {"p0", "p1"}


def test_two_who_just_met_wait_a_moment_then_meet_again() -> None:
    field = waiting(2, [2, 0], {0: 1}, NOW)
    assert arena_pairs(field, 2, random.Random(1), now=NOW) == []
    assert arena_pairs(field, 2, random.Random(1), now=NOW + REPEAT_WAIT - 0.1) == []
    assert len(arena_pairs(field, 2, random.Random(1), now=NOW + REPEAT_WAIT)) == 1


def test_close_scores_meet() -> None:
    field = waiting(6, [10, 0, 9, 1, 5, 4], {}, NOW)
    tables = {frozenset(t) for t in arena_pairs(field, 2, random.Random(3), now=NOW)}
    assert tables == {frozenset(p) for p in (("p0", "p2"), ("p4", "p5"), ("p1", "p3"))}


def test_the_search_undoes_a_choice_that_would_force_a_repeat() -> None:
    # ranked p0 p1 p2 p3; p2 met p3 last. The nearest first choice p0-p1 would leave p2-p3,
    # a repeat: the search takes p0-p2 and p1-p3 instead
    field = waiting(4, [9, 8, 7, 6], {2: 3}, NOW)
    tables = {frozenset(t) for t in arena_pairs(field, 2, random.Random(0), now=NOW)}
    assert tables == {frozenset({"p0", "p2"}), frozenset({"p1", "p3"})}


def test_many_seat_tables_avoid_the_last_table() -> None:
    last = frozenset({"p0", "p1", "p2"})
    field = [Waiting(f"p{i}", 0, 1500, NOW, last - {f"p{i}"}) for i in range(3)]
    field += [Waiting(f"p{i}", 0, 1500, NOW) for i in range(3, 9)]
    tables = arena_pairs(field, 3, random.Random(5), now=NOW)
    assert len(tables) == 3
    for t in tables:
        assert len(set(t) & last) <= 1


def test_the_repeat_guard_broken_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pair counted as fresh: the property check finds the repeat."""
    field = waiting(3, [4, 4, 0], {0: 1}, NOW)
    monkeypatch.setattr(arena, "_fresh", lambda a, b: True)
    found = False
    for seed in range(20):
        tables = arena_pairs(field, 2, random.Random(seed), now=NOW)
        try:
            check(field, tables, 2)
        except AssertionError:
            found = True
    assert found

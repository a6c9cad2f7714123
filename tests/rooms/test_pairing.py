"""Quick-pairing choice: by rating, the window widening with time, nobody twice."""

from __future__ import annotations

import pytest

from server.rooms.pairing import (
    BASE_WINDOW,
    MAX_WINDOW,
    Entry,
    choose_pairs,
    choose_tables,
    compatible,
    window,
)


def test_window_widens_and_caps() -> None:
    e = Entry("a", 1500, since=100.0)
    assert window(e, 100.0) == BASE_WINDOW
    assert window(e, 102.0) > BASE_WINDOW
    assert window(e, 10_000.0) == MAX_WINDOW


def test_far_ratings_wait_then_meet() -> None:
    a, b = Entry("a", 1500, 0.0), Entry("b", 1800, 0.0)
    assert choose_pairs([a, b], 0.0) == []
    assert choose_pairs([a, b], 10.0) == [(a, b)]


def test_closest_rating_is_chosen() -> None:
    a, b, c = Entry("a", 1500, 0.0), Entry("b", 1580, 1.0), Entry("c", 1510, 2.0)
    assert choose_pairs([a, b, c], 2.0) == [(a, c)]


def test_nobody_is_paired_twice_nor_with_themselves() -> None:
    pool = [Entry(f"p{i}", 1500 + (i % 3) * 10, float(i)) for i in range(21)]
    pairs = choose_pairs(pool, 30.0)
    keys = [e.key for pair in pairs for e in pair]
    assert len(keys) == len(set(keys)) == 20
    assert not compatible(pool[0], pool[0], 30.0)


def test_own_range_is_respected() -> None:
    a = Entry("a", 1500, 0.0, low=1450, high=1550)
    b = Entry("b", 1600, 0.0)
    assert choose_pairs([a, b], 100.0) == []
    assert choose_pairs([a, Entry("c", 1540, 0.0)], 0.0)


def test_tables_of_four_fill_by_rating_and_nobody_sits_twice() -> None:
    pool = [Entry(f"p{i}", 1500 + i, float(i)) for i in range(9)]
    tables = choose_tables(pool, 0.0, 4)
    assert [[e.key for e in t] for t in tables] == [
        ["p0", "p1", "p2", "p3"],
        ["p4", "p5", "p6", "p7"],
    ]
    # the closest ratings to the longest-waiting, not the next in line
    near = [
        Entry("a", 1500, 0.0),
        Entry("b", 1590, 1.0),
        *(Entry(f"c{i}", 1510, 2.0) for i in range(3)),
    ]
    assert [e.key for e in choose_tables(near, 2.0, 4)[0]] == ["a", "c0", "c1", "c2"]


def test_everyone_at_a_table_is_in_everyone_elses_window() -> None:
    a, hi, lo, d = (
        Entry("a", 1500, 0.0),
        Entry("hi", 1590, 0.0),
        Entry("lo", 1410, 0.0),
        Entry("d", 1500, 0.0),
    )
    assert choose_tables([a, hi, lo, d], 0.0, 4) == []  # hi and lo are 180 apart
    assert choose_tables([a, hi, lo, d], 0.0, 3) == [(a, d, hi)]
    assert choose_tables([a, hi, lo, d], 2.0, 4) == [(a, d, hi, lo)]  # ±200 by now
    with pytest.raises(ValueError):
        choose_tables([a, d], 0.0, 1)


def test_a_pair_is_a_table_of_two() -> None:
    pool = [Entry(f"p{i}", 1500 + (i * 37) % 200, float(i % 5)) for i in range(15)]
    for now in (0.0, 1.0, 5.0):
        assert choose_pairs(pool, now) == choose_tables(pool, now, 2)

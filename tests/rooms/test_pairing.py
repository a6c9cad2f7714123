"""Quick-pairing choice: by rating, the window widening with time, nobody twice."""

from __future__ import annotations

from server.rooms.pairing import BASE_WINDOW, MAX_WINDOW, Entry, choose_pairs, compatible, window


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

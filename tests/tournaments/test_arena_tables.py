"""Arenas at tables of more than two (docs/TOURNAMENTS.md, *Arena*): every table the free
players fill is seated at once, so the tables run side by side, and whoever has waited
longest is seated first, so nobody is left out while the others play. Whole arenas are
simulated on the pure tournament (games of 1 to 4 s); the old rules, patched back in, are
caught by the same checks (the guards' broken twins)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

import pytest

from server.tournaments import Waiting, arena, arena_pairs

from .helpers import T0, Driver, old_levels, person, spec

SECONDS = 120
STEP = 0.1


def play(players: int, seats: int, seed: int) -> tuple[list[int], float]:
    """An arena of ``players`` at tables of ``seats``, ticked every :data:`STEP` seconds as
    the director does; each game lasts 1 to 4 s and ends in random places. Returns each
    player's games played and the mean number of tables playing from the start to the end."""
    raw = spec("arena", game="hase_und_igel", seats=seats, minutes=None, seconds=SECONDS)
    d = Driver(raw, seed)
    d.join(*(person(f"P{i}") for i in range(players)))
    lengths = random.Random(seed)
    ends: dict[str, float] = {}
    area = 0.0
    d.now = T0 + 60
    while d.t.status != "finished":
        for room, at in sorted(ends.items(), key=lambda e: e[1]):
            if at <= d.now:
                del ends[room]
                places = list(range(seats))
                lengths.shuffle(places)
                d.apply(d.t.result(room, places, "goal", d.now))
        due = d.t.due()
        if due is not None and due <= d.now:
            for e in d.tick():
                if e.kind == "paired":
                    ends[e.data["room"]] = d.now + lengths.uniform(1.0, 4.0)
        if d.t.status == "running":
            area += len(ends) * STEP
        d.now += STEP
        assert d.now < T0 + 60 + SECONDS + 10, "the arena did not end"
    games = sorted(p.games for p in d.t.players.values())
    return games, area / SECONDS


def side_by_side(players: int, seats: int, tables_running: float) -> bool:
    """As many tables play as the players fill, all along (a tick's delay aside)."""
    return tables_running >= players // seats - 0.1


def nobody_left_out(games: Sequence[int]) -> bool:
    return min(games) >= statistics.median(games) / 2


def lowest_ranked_wait(order: Sequence[Waiting], skips: int) -> list[bool]:
    """The rule before: anybody may be left waiting (the search leaves the lowest-ranked)."""
    return [True] * len(order)


@pytest.mark.parametrize("players", [8, 9])
@pytest.mark.parametrize("twin", [False, True])
def test_tables_of_four_run_side_by_side_and_nobody_is_left_out(
    monkeypatch: pytest.MonkeyPatch, twin: bool, players: int
) -> None:
    if twin:  # the rule before, patched back in: a table's worth waited for a fresh table
        monkeypatch.setattr(arena, "_levels", old_levels)
    for seed in range(3):
        games, running = play(players, 4, seed)
        if twin:
            assert not side_by_side(players, 4, running), (games, running)
            return
        assert side_by_side(players, 4, running), (games, running)
        assert nobody_left_out(games), games


@pytest.mark.parametrize("twin", [False, True])
def test_whoever_waited_longest_is_seated_first(
    monkeypatch: pytest.MonkeyPatch, twin: bool
) -> None:
    """Five free at tables of four: the one who has waited since the last games began (and
    scored nothing meanwhile) sits; of the four just free (two from each of two tables),
    one waits."""
    if twin:  # the rule before: the lowest-ranked waits, however long they have waited
        monkeypatch.setattr(arena, "_may_wait", lowest_ranked_wait)
    met = {"p0": "p1", "p1": "p0", "p2": "p3", "p3": "p2"}
    field = [Waiting("long", 0, 1500, 100.0)]
    field += [Waiting(k, 10 - i, 1500, 130.0, frozenset({met[k]})) for i, k in enumerate(met)]
    for seed in range(10):
        (seated,) = arena_pairs(field, 4, random.Random(seed), now=130.0)
        assert ("long" in seated) is not twin, seated


def test_the_same_table_again_at_once_when_nobody_else_is_free() -> None:
    table = frozenset(f"p{i}" for i in range(4))
    field = [Waiting(k, 0, 1500, 100.0, table - {k}) for k in sorted(table)]
    assert [set(t) for t in arena_pairs(field, 4, random.Random(1), now=100.0)] == [table]


def test_two_tables_just_over_are_mixed() -> None:
    """Eight free from two tables of four: two from each at either table (as few players
    of one last table together as can be)."""
    a, b = frozenset(f"a{i}" for i in range(4)), frozenset(f"b{i}" for i in range(4))
    field = [Waiting(k, 0, 1500, 100.0, group - {k}) for group in (a, b) for k in group]
    for seed in range(10):
        tables = arena_pairs(field, 4, random.Random(seed), now=100.0)
        assert len(tables) == 2
        assert all(len(set(t) & a) == 2 for t in tables)

"""Round robin: FIDE's Berger tables as published (Handbook C.05, Annex 1, 4 and 6
players), every field up to 16 meeting once each, and whole round robins: everyone plays
everyone once, an odd field rests in turn, a player who withdraws forfeits the rest."""

from __future__ import annotations

from itertools import combinations

import pytest

from server.tournaments import berger_rounds

from .helpers import Driver, person, spec

#: FIDE Handbook C.05 Annex 1, the Berger tables: rounds of "white-black"
PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_the_published_tables(n: int) -> None:
    keys = [str(i) for i in range(1, n + 1)]
    got = [{f"{w}-{b}" for w, b in r} for r in berger_rounds(keys)]
    assert got == [set(r.split()) for r in PUBLISHED[n]]


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_once(n: int) -> None:
    keys = [f"p{i}" for i in range(n)]
    rounds = berger_rounds(keys)
    assert len(rounds) == n - 1 + n % 2
    games = [(w, b) for r in rounds for w, b in r if b is not None]
    assert len(games) == n * (n - 1) // 2
    assert {frozenset(g) for g in games} == {frozenset(p) for p in combinations(keys, 2)}
    for r in rounds:
        seated = [k for g in r for k in g if k is not None]
        assert sorted(seated) == sorted(keys)  # everyone once a round (resting included)
    rests = [w for r in rounds for w, b in r if b is None]
    assert sorted(rests) == (sorted(keys) if n % 2 else [])
    for k in keys:
        whites = sum(1 for w, b in games if w == k)
        blacks = sum(1 for w, b in games if b == k)
        assert abs(whites - blacks) <= 1


def play(n: int) -> Driver:
    d = Driver(spec("round_robin", max_players=8))
    d.join(*(person(f"P{i}", 2000 - 10 * i) for i in range(n)))
    return d


def test_a_round_robin_of_four() -> None:
    d = play(4)
    first = d.start()
    assert [e.kind for e in first] == ["started", "round", "paired", "paired"]
    assert d.t.rounds == 3
    # the pairing numbers follow the rating: P0 is 1, P3 is 4; round 1 is 1-4, 2-3
    assert [tuple(e.data["players"]) for e in first[2:]] == [("u:P0", "u:P3"), ("u:P1", "u:P2")]
    while d.t.status == "running":
        assert d.tick() == []  # no round before the last game of this one ends
        for room, _ in d.ongoing():
            d.finish(room, [0, 1])
        d.tick()
    assert d.t.end_reason == "rounds" and len(d.t.games) == 6
    met = {frozenset(g.players) for g in d.t.games.values()}
    assert len(met) == 6
    assert d.replayed().view() == d.t.view()


def test_an_odd_field_rests_in_turn_for_nothing() -> None:
    d = play(5)
    d.start()
    while d.t.status == "running":
        for room, _ in d.ongoing():
            d.finish(room, [0, 0])
        d.tick()
    assert d.t.round == 5 and len(d.t.games) == 10
    for p in d.t.players.values():
        assert [m.outcome for m in p.sheet].count("R") == 1
        assert p.points == 2.0  # four draws; the rest is worth nothing


def test_a_player_who_withdraws_forfeits_the_later_games() -> None:
    d = play(4)
    d.start()
    d.apply(d.t.withdraw("u:P3", d.now))
    for room, _ in d.ongoing():
        d.finish(room, [0, 1])
    events = d.tick()
    forfeits = events[0].data["forfeits"]
    assert len(forfeits) == 1 and forfeits[0][1] == "u:P3"
    assert len([e for e in events if e.kind == "paired"]) == 1
    winner = d.t.players[forfeits[0][0]]
    assert winner.sheet[-1].outcome == "+" and winner.sheet[-1].points == 1.0
    assert winner.games == 1  # a forfeit is not a game played
    with pytest.raises(Exception, match="takes nobody back"):
        d.t.join(person("P3", 1970), d.now)

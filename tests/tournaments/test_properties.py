"""Random runs of every system (hypothesis): whatever players do — join, withdraw, come
back, berserk, finish or abort games, let time pass — a refused request changes nothing,
nobody is paired while in a game or paused, a game counts once, the points are the sum of
the sheet, the log replays to the very same view, and a guest's key never shows in it."""

from __future__ import annotations

import json

from hypothesis import event, given, settings
from hypothesis import strategies as st

from server.tournaments import Entrant, Tournament, TournamentError, TournamentEvent

from .helpers import Driver, person, spec

NAMES = [f"P{i}" for i in range(7)]
GUEST = "guest-5e1f0a"  # player 5 is a guest: their key must never show


def entrant(i: int) -> Entrant:
    if i == 5:
        return Entrant(GUEST, "Visitor", 1450.0)
    return person(NAMES[i], 1500 + 10 * i)


def key(i: int) -> str:
    return entrant(i).key


action = st.one_of(
    st.tuples(st.just("join"), st.integers(0, 6)),
    st.tuples(st.just("withdraw"), st.integers(0, 6)),
    st.tuples(
        st.just("result"), st.integers(0, 5), st.sampled_from(["win", "loss", "draw", "abort"])
    ),
    st.tuples(st.just("berserk"), st.integers(0, 5), st.integers(0, 1)),
    st.tuples(st.just("tick"), st.sampled_from([0.0, 1.0, 6.0, 120.0, 2000.0])),
    st.tuples(st.just("cancel"), st.sampled_from(["u:Creator", "u:P0"])),
    st.tuples(st.just("repeat")),  # the net delivering the last result again
)


def snapshot(t: Tournament) -> tuple[str, int]:
    return json.dumps(t.view(), sort_keys=True), t.version


def check(d: Driver, events: list[TournamentEvent]) -> None:
    for e in events:
        if e.kind == "paired":
            for key in e.data["players"]:
                p = d.t.players[key]
                assert not p.paused and key not in d.t.current, f"{key} paired while busy"
        d.apply([e])


def run(system: str, actions: list[tuple], seed: int) -> Driver:
    over = {"rounds": 3} if system == "swiss" else {}
    d = Driver(spec(system, max_players=6, **over), seed)
    last_result: tuple | None = None
    for a in actions:
        before = snapshot(d.t)
        ongoing = d.ongoing()
        try:
            if a[0] == "join":
                events = d.t.join(entrant(a[1]), d.now)
            elif a[0] == "withdraw":
                events = d.t.withdraw(key(a[1]), d.now)
            elif a[0] == "result":
                if not ongoing:
                    continue
                room, players = ongoing[a[1] % len(ongoing)]
                ranks = {"win": [0, 1], "loss": [1, 0], "draw": [0, 0], "abort": None}[a[2]]
                last_result = (room, ranks)
                d.now += 1
                events = d.t.result(room, ranks, "over", d.now)
            elif a[0] == "repeat":
                if last_result is None:
                    continue
                events = d.t.result(*last_result, "over", d.now)
                assert events == []
            elif a[0] == "berserk":
                if not ongoing:
                    continue
                room, players = ongoing[a[1] % len(ongoing)]
                events = d.t.berserk(players[a[2] % len(players)], room, d.now)
            elif a[0] == "tick":
                d.now += a[1]
                events = d.t.tick(d.now, set(), d.rng)
            else:
                events = d.t.cancel(a[1], d.now)
        except TournamentError:
            assert snapshot(d.t) == before, f"{a} was refused but changed the tournament"
            continue
        check(d, events)
    for p in d.t.players.values():
        rooms = [m.room for m in p.sheet if m.room is not None]
        assert len(rooms) == len(set(rooms))
        assert p.points == sum(m.points for m in p.sheet)
    in_games = [k for g in d.t.games.values() if not g.over for k in g.players]
    assert len(in_games) == len(set(in_games)) == len(d.t.current)
    assert d.replayed().view() == d.t.view()
    assert d.replayed().version == d.t.version
    assert GUEST not in json.dumps(d.t.view())
    return d


@settings(max_examples=90, deadline=None)
@given(
    st.sampled_from(["arena", "swiss", "round_robin"]),
    st.integers(2, 6),
    st.lists(action, max_size=60),
    st.integers(0, 99),
)
def test_random_runs(system: str, players: int, actions: list[tuple], seed: int) -> None:
    """``players`` join, the start comes, then anything."""
    start: list[tuple] = [("join", i) for i in range(players)] + [("tick", 120.0)]
    d = run(system, start + actions, seed)
    event(f"{system} {d.t.status}, games: {min(len(d.t.games), 3)}")  # statistics only


def test_a_long_arena_run() -> None:
    acts: list[tuple] = [("join", i) for i in range(6)] + [("tick", 120.0)]
    for i in range(200):
        acts += [("result", i % 3, ["win", "draw", "loss"][i % 3]), ("tick", 6.0)]
        if i % 17 == 0:
            acts.append(("withdraw", i % 6))
        if i % 23 == 0:
            acts.append(("join", (i + 1) % 6))
    d = run("arena", acts, 7)
    assert d.t.status == "running" and len(d.t.games) > 150

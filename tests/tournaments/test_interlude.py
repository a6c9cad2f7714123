"""The interlude between rounds (issue 48, round 3): a Swiss or round-robin round is
announced when the last one ends — its pairs and when they are seated, stored in its
``round`` event — and seated ``interlude`` seconds later, so that the players see their
result and their next opponent first. The pause is data in the log: a tournament rebuilt
from it (a director taking over after kill -9) seats the round at the same time. A player
who withdraws during the interlude forfeits the game (their opponent wins it unplayed)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from server.tournaments import Spec, TournamentError
from server.tournaments.records import FORFEIT_LOSS, FORFEIT_WIN

from .helpers import T0, Driver, person, spec


def four(system: str = "swiss", interlude: float = 5, **over: Any) -> Driver:
    rounds = {"rounds": 3} if system == "swiss" else {}
    d = Driver(spec(system, interlude=interlude, **(rounds | over)))
    d.join(*(person(n, 2000 - 50 * i) for i, n in enumerate(("Ada", "Bob", "Cy", "Dee"))))
    d.start()
    return d


def end_round(d: Driver) -> float:
    """Seat 0 wins every game of the round; the time the last one ended."""
    for room, players in d.ongoing():
        d.finish(room, [0, 1] + [1] * (len(players) - 2))
    return d.now


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def test_the_first_round_is_seated_at_once() -> None:
    d = Driver(spec("swiss", interlude=5, rounds=3))
    d.join(*(person(n) for n in ("Ada", "Bob", "Cy", "Dee")))
    events = d.start()
    assert kinds(events) == ["started", "round", "paired", "paired"]
    assert events[1].data["starts_at"] == T0 + 60  # no pause before the first round
    assert d.t.pending == [] and d.t.next_round_at is None


def test_the_next_round_is_announced_then_seated_when_the_interlude_ends() -> None:
    d = four()
    t1 = end_round(d)
    announced = d.tick(t1)
    assert kinds(announced) == ["round"]  # no game yet: the pairs and their time only
    data = announced[0].data
    assert data["round"] == 2 and data["starts_at"] == t1 + 5
    assert len(data["pairs"]) == 2 and d.t.due() == t1 + 5
    # each player is told their result, the round, and whom they play next
    mine = d.t.me("u:Ada")
    assert mine["game"] is None
    ada = d.t.players["u:Ada"]
    won = ada.sheet[-1].outcome == "W"
    pair = next(p for p in data["pairs"] if "u:Ada" in p)
    other = next(k for k in pair if k != "u:Ada")[2:]
    assert mine["next"] == {
        "round": 2,
        "rounds": 3,
        "starts_at": t1 + 5,
        "seat": pair.index("u:Ada"),
        "opponents": [other],
        "last": {"round": 1, "outcome": "W" if won else "L", "points": 1.0 if won else 0.0},
        "points": ada.points,
    }
    view = d.t.view()
    assert view["next_round"]["round"] == 2 and view["times"]["next_round_at"] == t1 + 5
    assert sorted(map(sorted, view["next_round"]["pairs"])) == sorted(
        sorted(k[2:] for k in p) for p in data["pairs"]
    )
    # the guard: not a moment before its time...
    assert d.tick(t1 + 4.99) == [] and d.t.pending
    # ...and at its time, one game a pair, as announced (colours too)
    seated = d.tick(t1 + 5)
    assert kinds(seated) == ["paired", "paired"]
    assert [e.data["players"] for e in seated] == data["pairs"]
    assert all(e.data["round"] == 2 for e in seated)
    assert d.t.pending == [] and d.t.next_round_at is None
    assert "next" not in d.t.me("u:Ada") and d.t.me("u:Ada")["game"] is not None


def test_no_interlude_seats_the_next_round_in_the_same_tick() -> None:
    d = four(interlude=0)
    t1 = end_round(d)
    assert kinds(d.tick(t1)) == ["round", "paired", "paired"]


def test_a_tournament_rebuilt_in_the_interlude_seats_the_round_at_the_same_time() -> None:
    """A director killed in the interlude: the next one replays the log and finds the same
    pairs due at the same time (the pause is stored, not a sleep)."""
    d = four()
    t1 = end_round(d)
    data = d.tick(t1)[0].data
    again = d.replayed()
    assert again.pending == d.t.pending and again.due() == t1 + 5
    assert again.tick(t1 + 1, set(), d.rng) == []
    seated = again.tick(t1 + 5, set(), d.rng)
    assert [e.data["players"] for e in seated] == data["pairs"]


def test_a_player_who_withdraws_in_the_interlude_forfeits_the_game() -> None:
    d = four()
    t1 = end_round(d)
    pairs = d.tick(t1)[0].data["pairs"]
    leaver, stayer = pairs[0]
    before = {k: d.t.players[k].points for k in (leaver, stayer)}
    d.apply(d.t.withdraw(leaver, t1 + 1))
    assert "next" not in d.t.me(leaver) and d.t.me(stayer)["next"]["opponents"]
    seated = d.tick(t1 + 5)
    assert kinds(seated) == ["forfeit", "paired"]  # the twin: the other pair plays
    assert seated[1].data["players"] == pairs[1]
    assert d.t.players[stayer].sheet[-1].outcome == FORFEIT_WIN
    assert d.t.players[leaver].sheet[-1].outcome == FORFEIT_LOSS
    assert d.t.players[stayer].points == before[stayer] + 1
    assert d.t.players[leaver].points == before[leaver]
    assert stayer not in d.t.current and d.t.pending == []
    assert d.replayed().players[stayer].points == d.t.players[stayer].points


def test_a_round_robin_pauses_between_rounds_too() -> None:
    d = four("round_robin")
    t1 = end_round(d)
    assert kinds(d.tick(t1)) == ["round"]
    assert kinds(d.tick(t1 + 5)) == ["paired", "paired"]


def test_the_last_round_ends_the_tournament_without_a_pause() -> None:
    d = four(rounds=1)
    assert kinds(d.tick(end_round(d))) == ["finished"]


def test_a_log_written_before_the_interlude_replays_as_before() -> None:
    """A ``created`` event without ``interlude`` and ``round`` events without ``pairs``."""
    raw = spec("swiss", rounds=3, interlude=5).to_json()
    del raw["interlude"]
    assert Spec.from_json(raw).interlude == 0.0


def parse(**over: Any) -> Spec:
    raw: dict[str, Any] = {
        "name": "Saturday",
        "game": "chess",
        "system": "swiss",
        "clock": {"base": 60},
        "rounds": 3,
    }
    raw.update(over)
    raw = {k: v for k, v in raw.items() if v is not None or k == "interlude"}
    return Spec.parse(raw, id="s1", creator="u:Ada", now=T0)


def test_the_interlude_is_a_setting_with_a_default() -> None:
    assert parse().interlude == 5.0
    assert parse(interlude=0).interlude == 0.0
    assert parse(interlude=60).interlude == 60.0
    assert parse(interlude=2.5, system="round_robin", rounds=None).interlude == 2.5
    assert Spec.from_json(parse(interlude=7).to_json()).interlude == 7.0


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (61, "interlude must be 0 to 60"),
        (-1, "interlude must be 0 to 60"),
        (math.nan, "interlude must be 0 to 60"),
        (math.inf, "interlude must be 0 to 60"),
        ("5", "interlude must be a number"),
        (True, "interlude must be a number"),
        (None, "interlude must be a number"),
    ],
)
def test_a_bad_interlude_is_refused(value: Any, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as e:
        parse(interlude=value)
    assert e.value.code == "bad_request"


def test_an_arena_has_no_interlude() -> None:
    with pytest.raises(TournamentError, match="an arena has no rounds") as e:
        parse(system="arena", rounds=None, minutes=10, interlude=5)
    assert e.value.code == "bad_request"
    assert spec("arena").interlude == 0.0

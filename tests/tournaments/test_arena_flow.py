"""An arena from creation to its end: start, pairings as games end, berserk, pause and
return, the end with games still running, replay."""

from __future__ import annotations

import pytest

from server.tournaments import REPEAT_WAIT, TournamentError

from .helpers import T0, Driver, person, spec


def four() -> Driver:
    d = Driver(spec())
    d.join(person("Ada", 1800), person("Bob", 1700), person("Cy", 1600), person("Di", 1500))
    return d


def test_it_starts_at_its_time_and_pairs_everyone() -> None:
    d = four()
    assert d.t.due() == T0 + 60
    assert d.tick(T0 + 59) == []
    events = d.start()
    assert [e.kind for e in events] == ["started", "paired", "paired"]
    assert d.t.status == "running"
    assert d.t.ends_at == T0 + 60 + 30 * 60
    seated = sorted(k for e in events[1:] for k in e.data["players"])
    assert seated == ["u:Ada", "u:Bob", "u:Cy", "u:Di"]
    for e in events[1:]:
        assert e.data["round"] is None and e.data["room"].startswith("t")


def test_a_player_is_paired_again_as_soon_as_a_game_ends_not_with_the_last_opponent() -> None:
    d = four()
    d.start()
    (_r1, p1), (_r2, p2) = d.ongoing()
    d.win(p1[0])
    assert d.tick() == []  # two free players who just met: they wait a moment
    d.win(p2[0])
    paired = d.tick()
    assert len(paired) == 2
    for e in paired:
        assert set(e.data["players"]) not in ({*p1}, {*p2})


def test_two_players_alone_meet_again_after_waiting_a_moment() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    d.start()
    ((_room, players),) = d.ongoing()
    d.win(players[0])
    assert d.tick() == []
    assert d.t.due() == pytest.approx(d.now + REPEAT_WAIT)
    again = d.tick(d.now + REPEAT_WAIT)
    assert len(again) == 1 and set(again[0].data["players"]) == set(players)


def test_busy_players_are_not_paired() -> None:
    d = four()
    busy = {"u:Ada"}
    events = d.tick(T0 + 60, busy=busy)
    seated = {k for e in events if e.kind == "paired" for k in e.data["players"]}
    assert "u:Ada" not in seated and len(seated) == 2


def test_pause_and_return() -> None:
    d = four()
    d.start()
    d.apply(d.t.withdraw("u:Ada", d.now))
    assert d.t.current_game("u:Ada") is not None  # the game being played goes on
    d.win("u:Ada")
    for key in ("u:Bob", "u:Cy", "u:Di"):
        if key in d.t.current:
            d.win(key)
    paired = d.tick(d.now + 10)
    assert all("u:Ada" not in e.data["players"] for e in paired)
    with pytest.raises(TournamentError) as e:
        d.t.withdraw("u:Ada", d.now)
    assert e.value.code == "not_joined"
    assert [e.kind for e in d.t.join(person("Ada", 1800), d.now)] == ["returned"]


def test_the_end_comes_at_its_time_and_games_still_running_count() -> None:
    d = four()
    d.start()
    (_room, players), _ = d.ongoing()
    end = d.tick(d.t.ends_at)
    assert [e.kind for e in end] == ["finished"] and d.t.status == "finished"
    d.win(players[0])
    assert d.t.players[players[0]].points == 2
    assert d.tick(d.now + 100) == []  # no pairings after the end
    assert d.t.due() is None


def test_replay_equals_the_live_tournament() -> None:
    d = four()
    d.start()
    for _ in range(6):
        _room, players = d.ongoing()[0]
        d.win(players[0])
        d.tick(d.now + REPEAT_WAIT)
    d.apply(d.t.berserk(d.ongoing()[0][1][0], d.ongoing()[0][0], d.now))
    assert d.replayed().view() == d.t.view()
    assert d.replayed().version == d.t.version == len(d.records)


def test_berserk() -> None:
    d = four()
    d.start()
    room, (a, b) = d.ongoing()[0]
    d.apply(d.t.berserk(a, room, d.now))
    assert d.t.berserk(a, room, d.now) == []  # once is enough
    with pytest.raises(TournamentError) as e:
        d.t.berserk("u:Nobody", room, d.now)
    assert e.value.code == "not_joined"
    with pytest.raises(TournamentError) as e:
        d.t.berserk(a, "t-none", d.now)
    assert e.value.code == "not_found"
    d.win(a)
    assert d.t.players[a].points == 3
    with pytest.raises(TournamentError) as e:
        d.t.berserk(b, room, d.now)
    assert e.value.code == "game_over"


def test_too_few_players_at_the_start_time_cancel_it() -> None:
    d = Driver(spec())
    d.join(person("Ada"))
    assert [e.kind for e in d.start()] == ["cancelled"]
    assert d.t.status == "cancelled" and d.t.end_reason == "too_few_players"


def test_without_a_start_time_it_starts_when_full() -> None:
    d = Driver(spec(starts_at=None, max_players=3))
    d.join(person("Ada"), person("Bob"))
    assert d.t.due() is None and d.tick(T0 + 5) == []
    d.join(person("Cy"))
    assert [e.kind for e in d.tick()] == ["started", "paired"]

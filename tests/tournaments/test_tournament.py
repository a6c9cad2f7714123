"""The tournament as a state machine: every refused request changes nothing (the view and
the version before and after), a result counts once (and without that guard a game would
count twice: caught), the log replays to the same view, guests' keys never show, and
``due`` says when a tick has something to do."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from server.tournaments import Entrant, Tournament, TournamentError, tournament

from .helpers import T0, Driver, person, spec


def unchanged(t: Tournament, code: str, request: Callable[[], Any]) -> None:
    before = (json.dumps(t.view(), sort_keys=True), t.version)
    with pytest.raises(TournamentError) as e:
        request()
    assert e.value.code == code, e.value
    assert (json.dumps(t.view(), sort_keys=True), t.version) == before


def test_refusals_before_the_start_change_nothing() -> None:
    d = Driver(spec(max_players=2))
    d.join(person("Ada"), person("Bob"))
    t = d.t
    unchanged(t, "full", lambda: t.join(person("Cy"), d.now))
    unchanged(t, "already_joined", lambda: t.join(person("Ada"), d.now))
    unchanged(t, "not_joined", lambda: t.withdraw("u:Cy", d.now))
    unchanged(t, "forbidden", lambda: t.cancel("u:Ada", d.now))
    unchanged(t, "not_found", lambda: t.result("t0", [0, 1], "checkmate", d.now))
    unchanged(t, "not_found", lambda: t.berserk("u:Ada", "t0", d.now))


def test_refusals_while_running_change_nothing() -> None:
    d = Driver(spec("swiss", rounds=3))
    d.join(person("Ada", 1900), person("Bob", 1800), person("Cy", 1700))
    d.start()
    t = d.t
    ((room, players),) = d.ongoing()
    unchanged(t, "not_open", lambda: t.join(person("Di"), d.now))
    unchanged(t, "not_open", lambda: t.cancel("u:Creator", d.now))
    unchanged(t, "bad_request", lambda: t.berserk(players[0], room, d.now))
    for ranks in ([0], [0, 1, 2], [True, False], ["0", "1"], "01"):
        unchanged(t, "bad_request", lambda r=ranks: t.result(room, r, "checkmate", d.now))
    for reason in ("Checkmate", "mate!", "", "x" * 41, "mate\n", 7):
        unchanged(t, "bad_request", lambda r=reason: t.result(room, [0, 1], r, d.now))


def test_refusals_after_the_end_change_nothing() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    d.apply(d.t.cancel("u:Creator", d.now))
    assert d.t.status == "cancelled" and d.t.end_reason == "creator"
    t = d.t
    unchanged(t, "not_open", lambda: t.join(person("Cy"), d.now))
    unchanged(t, "not_open", lambda: t.withdraw("u:Ada", d.now))
    unchanged(t, "not_open", lambda: t.cancel("u:Creator", d.now))
    assert d.tick(T0 + 100) == [] and t.due() is None


def test_leaving_before_the_start_and_coming_back() -> None:
    d = Driver(spec())
    d.join(person("Ada"))
    d.apply(d.t.withdraw("u:Ada", d.now))
    assert d.t.players == {}
    d.join(person("Ada"))
    assert list(d.t.players) == ["u:Ada"]


def counted_once(t: Tournament) -> None:
    for p in t.players.values():
        rooms = [m.room for m in p.sheet if m.room is not None]
        assert len(rooms) == len(set(rooms)), f"a game of {p.key} counted twice"


def test_a_result_counts_once() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    d.start()
    ((room, _players),) = d.ongoing()
    d.finish(room, [0, 1])
    view, version = d.t.view(), d.t.version
    assert d.t.result(room, [1, 0], "timeout", d.now) == []
    assert d.t.result(room, None, "aborted", d.now) == []
    assert (d.t.view(), d.t.version) == (view, version)
    counted_once(d.t)


def test_without_the_guard_a_second_result_counts_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament, "counted", lambda game: False)
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    d.start()
    ((room, _),) = d.ongoing()
    d.finish(room, [0, 1])
    d.finish(room, [0, 1])  # the net delivering the same result again
    with pytest.raises(AssertionError, match="counted twice"):
        counted_once(d.t)


def test_an_aborted_game_scores_nothing_and_frees_its_players() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    d.start()
    ((room, players),) = d.ongoing()
    d.finish(room, None)
    for k in players:
        p = d.t.players[k]
        assert p.points == 0 and p.games == 0 and d.t.current_game(k) is None
    assert d.t.view()["games"][0]["result"] is None


def test_guests_keys_never_show_only_names() -> None:
    d = Driver(spec())
    guest = Entrant("guest-7f3a9c21", "Visitor", 1500.0)
    bot = Entrant("bot:easy:1", "Easy bot 1", 1200.0, "easy")
    d.join(guest, bot, person("Ada"))
    d.start()
    d.win(d.ongoing()[0][1][0])
    text = json.dumps(d.t.view())
    assert "guest-7f3a9c21" not in text and "Visitor" in text
    rows = {r["name"]: r for r in d.t.view()["standings"]}
    assert "key" not in rows["Visitor"]
    assert rows["Easy bot 1"]["key"] == "bot:easy:1" and rows["Easy bot 1"]["bot"] == "easy"
    assert rows["Ada"]["key"] == "u:Ada"
    guest_spec = Driver(spec()).t.view()
    assert guest_spec["creator"] == "Creator" and "creator" not in guest_spec["spec"]


def test_me_and_current_game() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"))
    assert d.t.me("u:Ada") == {"joined": True, "paused": False, "game": None}
    assert d.t.me("u:Cy") == {"joined": False, "paused": False, "game": None}
    d.start()
    ((room, players),) = d.ongoing()
    assert d.t.me(players[1])["game"] == {"room": room, "seat": 1}


def test_due() -> None:
    d = Driver(spec(starts_at=None, max_players=3))
    d.join(person("Ada"), person("Bob"))
    assert d.t.due() is None
    d.join(person("Cy"))
    assert d.t.due() == d.now  # full: at once
    d.tick()
    assert d.t.ends_at is not None and d.t.due() == d.t.ends_at  # Cy waits for a game to end


def test_due_for_a_late_joiner() -> None:
    d = Driver(spec())
    d.join(person("Ada"), person("Bob"), person("Cy"))
    assert d.t.due() == T0 + 60
    d.start()
    assert d.t.due() == d.t.ends_at
    d.now += 3
    d.join(person("Di"))  # a late joiner with a free player: pair at once
    assert d.t.due() == d.now
    assert [e.kind for e in d.tick()] == ["paired"]
    assert d.t.due() == d.t.ends_at


def test_the_view_lists_running_games_and_the_last_finished() -> None:
    d = Driver(spec())
    d.join(*(person(f"P{i}") for i in range(4)))
    d.start()
    for _ in range(60):
        _room, players = d.ongoing()[0]
        d.win(players[0])
        d.tick(d.now + 10)
    v = d.t.view()
    assert v["games_total"] == len(d.t.games) > 52
    assert len(v["games"]) == 52 and sum(g["ongoing"] for g in v["games"]) == 2
    assert d.replayed().view() == v


def test_without_the_guard_a_guests_key_would_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """The view's guard (keys of accounts and bots only) broken: the guest's key shows."""
    from server.tournaments import view

    monkeypatch.setattr(view, "public_key", lambda key: True)
    d = Driver(spec())
    d.join(Entrant("guest-7f3a9c21", "Visitor", 1500.0))
    assert "guest-7f3a9c21" in json.dumps(d.t.view())

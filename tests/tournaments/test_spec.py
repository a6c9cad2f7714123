"""The creator's request, checked whole: each bad field refused with a clear message, the
good ones stored and read back the same; entrants and events round-trip."""

from __future__ import annotations

from typing import Any

import pytest

from server.tournaments import Entrant, Spec, TournamentError, TournamentEvent

from .helpers import T0, spec


def parse(**over: Any) -> Spec:
    raw: dict[str, Any] = {
        "name": "Evening arena",
        "game": "chess",
        "system": "arena",
        "clock": {"base": 60, "increment": 1},
        "minutes": 20,
    }
    raw.update(over)
    return Spec.parse(
        {k: v for k, v in raw.items() if v is not None}, id="a1", creator="u:Ada", now=T0
    )


def refused(match: str, **over: Any) -> None:
    with pytest.raises(TournamentError, match=match) as e:
        parse(**over)
    assert e.value.code == "bad_request"


def test_an_arena_with_defaults() -> None:
    s = parse()
    assert (s.system, s.base, s.increment, s.seats, s.minutes, s.duration_s) == (
        "arena",
        60,
        1,
        2,
        20,
        1200.0,
    )
    assert s.berserk and not s.rated and s.starts_at is None and s.max_players == 100
    assert s.clock == {"type": "fischer", "base": 60, "increment": 1}
    assert Spec.from_json(s.to_json()) == s


def test_the_seconds_form_for_short_events() -> None:
    s = parse(minutes=None, seconds=45.5)
    assert s.duration_s == 45.5 and s.minutes == 1
    refused("one of them", seconds=30)
    refused("seconds must be", minutes=None, seconds=5)


@pytest.mark.parametrize(
    ("over", "match"),
    [
        ({"name": "x" * 41}, "1 to 40"),
        ({"name": ""}, "1 to 40"),
        ({"name": "Blitz\n"}, "printable"),
        ({"name": " Blitz"}, "spaces"),
        ({"name": 5}, "1 to 40"),
        ({"game": "chess2"}, "game must be"),
        ({"game": "chess\n"}, "game must be"),
        ({"system": "knockout"}, "system must be"),
        ({"clock": {"base": 10}}, "base must be a whole number from 15"),
        ({"clock": {"base": 60, "increment": -1}}, "increment"),
        ({"clock": {"base": 60.5}}, "base"),
        ({"clock": {"base": True}}, "base"),
        ({"clock": {"base": 60, "delay": 2}}, "clock must be"),
        ({"clock": 60}, "clock must be"),
        ({"minutes": 0}, "minutes"),
        ({"minutes": 721}, "minutes"),
        ({"minutes": None}, "minutes"),
        ({"rounds": 5}, "not rounds"),
        ({"seats": 3}, "chess is played by 2"),
        ({"max_players": 1}, "max_players"),
        ({"max_players": 501}, "max_players"),
        ({"starts_at": T0 - 1}, "starts_at"),
        ({"starts_at": T0 + 8 * 24 * 3600}, "starts_at"),
        ({"starts_at": "soon"}, "starts_at"),
        ({"rated": "yes"}, "rated"),
        ({"colour": "white"}, "unknown tournament field"),
    ],
)
def test_each_bad_field_is_refused(over: dict[str, Any], match: str) -> None:
    refused(match, **over)


def test_swiss_and_round_robin_are_for_two_seats() -> None:
    s = parse(system="swiss", minutes=None, rounds=7)
    assert s.rounds == 7 and not s.berserk and s.max_players == 32
    with pytest.raises(TournamentError, match="max_players must be a whole number from 2 to 32"):
        parse(system="swiss", minutes=None, rounds=7, max_players=33)
    with pytest.raises(TournamentError, match="rounds"):
        parse(system="swiss", minutes=None)
    with pytest.raises(TournamentError, match="not a duration"):
        parse(system="swiss", rounds=3)
    with pytest.raises(TournamentError, match="follow from its players"):
        parse(system="round_robin", minutes=None, rounds=3)
    with pytest.raises(TournamentError, match="max_players"):
        parse(system="round_robin", minutes=None, max_players=17)
    with pytest.raises(TournamentError, match="berserk is for arenas"):
        parse(system="swiss", minutes=None, rounds=3, berserk=True)
    with pytest.raises(TournamentError, match="two-seat games"):
        parse(game="hase_und_igel", seats=4, system="swiss", minutes=None, rounds=3)


def test_many_seat_arenas() -> None:
    s = parse(game="hase_und_igel", seats=4)
    assert s.seats == 4 and not s.berserk
    assert parse(game="yonin_shogi").seats == 4
    with pytest.raises(TournamentError, match="berserk is for arenas of two-seat"):
        parse(game="hase_und_igel", seats=3, berserk=True)
    with pytest.raises(TournamentError):
        parse(game="hase_und_igel", seats=7)
    with pytest.raises(TournamentError):
        parse(game="yonin_shogi", seats=2)


def test_ids_and_creators_are_checked() -> None:
    raw = {"name": "x", "game": "chess", "system": "arena", "clock": {"base": 60}, "minutes": 5}
    for bad_id in ("", "a b", "a\n", "x" * 65):
        with pytest.raises(TournamentError):
            Spec.parse(raw, id=bad_id, creator="u:Ada", now=T0)
    with pytest.raises(TournamentError):
        Spec.parse(raw, id="ok", creator="u:Ada\n", now=T0)
    with pytest.raises(TournamentError):
        Spec.parse([raw], id="ok", creator="u:Ada", now=T0)


def test_entrants_are_checked() -> None:
    assert Entrant("bot:hard:3", "Hard bot 3", 1800, "hard").bot == "hard"
    for args in (
        ("bot:hard:3", "Hard bot", 1800, None),  # a bot's key without its level
        ("u:Ada", "Ada", 1500, "hard"),  # a person with a level
        ("bot:hard:3", "Hard bot", 1800, "easy"),  # the wrong level
        ("u:Ada\n", "Ada", 1500, None),
        ("u:Ada", "Ada\n", 1500, None),
        ("u:Ada", "", 1500, None),
        ("u:Ada", "Ada", "1500", None),
    ):
        with pytest.raises(TournamentError) as e:
            Entrant(*args)  # type: ignore[arg-type]
        assert e.value.code == "bad_request"
    ada = Entrant("u:Ada", "Ada", 1500.0)
    assert Entrant.from_json(ada.to_json()) == ada


def test_events_round_trip_as_plain_json() -> None:
    import json

    e = TournamentEvent("paired", {"room": "t1", "players": ["u:A", "u:B"], "round": None}, T0)
    assert TournamentEvent.from_record(json.loads(json.dumps(e.to_record()))) == e


def test_error_codes_are_the_known_ones() -> None:
    with pytest.raises(ValueError):
        TournamentError("oops", "no such code")
    assert spec().id == "t1"

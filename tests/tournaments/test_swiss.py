"""Swiss: the Dutch pairings the library makes, held to FIDE's rules worked by hand (round
1: the top half against the bottom half, colours alternating; round 2: score groups, the
higher-ranked player's colour preference), and whole Swisses of 7 over 5 rounds: a bye each
round, one bye per player at most, no pairing twice, colours balanced. The guards (no
repeat, one bye each) each catch a deliberately broken pairing engine."""

from __future__ import annotations

import random

import pytest

from server.tournaments import SwissPlayer, Tournament, swiss, swiss_round

from .helpers import Driver, person, spec


def seeds(n: int) -> list[SwissPlayer]:
    return [SwissPlayer(f"p{i}", i, 2400 - 10 * i, 0.0) for i in range(1, n + 1)]


def test_round_one_is_the_top_half_against_the_bottom_half() -> None:
    # C.04.3: 1-5, 6-2, 3-7, 8-4 (the first player's colour white, alternating down)
    r = swiss_round(seeds(8), [], 1, 5)
    assert r.pairs == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))
    assert r.bye is None
    # an odd field: the lowest-ranked player gets the bye, the rest as above
    r = swiss_round(seeds(7), [], 1, 5)
    assert r.bye == "p7"
    assert r.pairs == (("p1", "p4"), ("p5", "p2"), ("p3", "p6"))


def test_round_two_worked_by_hand() -> None:
    """After round 1 (1-5, 6-2, 3-7, 8-4) won by every white player: score group 1 is
    {1, 3, 6, 8}, S1 {1, 3} against S2 {6, 8}; 1 and 6 both had white, so the higher-ranked
    1 gets its preference (black): 6-1, and likewise 8-3. Score group 0, {2, 4, 5, 7}: 2 and
    5 both had black, 2 ranks higher: 2-5; 4-7."""
    whites = {"p1", "p6", "p3", "p8"}
    players = [
        SwissPlayer(
            p.key,
            p.rank,
            p.rating,
            1.0 if p.key in whites else 0.0,
            ("w",) if p.key in whites else ("b",),
            ("none",),
        )
        for p in seeds(8)
    ]
    history = [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]
    r = swiss_round(players, history, 2, 5)
    assert set(r.pairs) == {("p6", "p1"), ("p8", "p3"), ("p2", "p5"), ("p4", "p7")}


def play_swiss(n: int, rounds: int, seed: int) -> Driver:
    d = Driver(spec("swiss", rounds=rounds), seed)
    d.join(*(person(f"P{i}", 2000 - 37 * i) for i in range(n)))
    d.start()
    rng = random.Random(seed)
    while d.t.status == "running":
        for room, _ in d.ongoing():
            d.finish(room, rng.choice([[0, 1], [1, 0], [0, 0]]))
        d.tick()
    return d


def check_swiss(t: Tournament, rounds: int) -> None:
    """The Swiss properties: no pair twice, a bye only for an odd field and once per
    player, colours within two of even and never three alike in a row."""
    met: set[frozenset[str]] = set()
    for g in t.games.values():
        pair = frozenset(g.players)
        assert pair not in met, f"{sorted(pair)} met twice"
        met.add(pair)
    for p in t.players.values():
        byes = [m for m in p.sheet if m.outcome == "B"]
        assert len(byes) <= 1, f"{p.key} had {len(byes)} byes"
    for p in t.players.values():
        assert len(p.sheet) == rounds
        played = [c for c in p.colours if c != "-"]
        assert abs(played.count("w") - played.count("b")) <= 2
        assert "www" not in "".join(played) and "bbb" not in "".join(played)
    for r in range(1, rounds + 1):
        byes = [
            p for p in t.players.values() if any(m.round == r and m.outcome == "B" for m in p.sheet)
        ]
        assert len(byes) == len(t.players) % 2


@pytest.mark.parametrize("seed", range(8))
def test_a_swiss_of_seven_over_five_rounds(seed: int) -> None:
    d = play_swiss(7, 5, seed)
    assert d.t.status == "finished" and d.t.end_reason == "rounds"
    assert d.t.round == 5 and len(d.t.games) == 15
    check_swiss(d.t, 5)
    assert sum(p.points for p in d.t.players.values()) == 15 + 5  # games + byes
    assert d.replayed().view() == d.t.view()


def test_an_even_swiss_has_no_bye_and_withdrawn_players_are_not_paired() -> None:
    d = Driver(spec("swiss", rounds=3))
    d.join(*(person(f"P{i}", 2000 - i) for i in range(6)))
    d.start()
    d.apply(d.t.withdraw("u:P0", d.now))
    for room, _ in d.ongoing():
        d.finish(room, [0, 1])
    events = d.tick()
    assert events[0].kind == "round" and events[0].data["byes"] != []  # 5 left: a bye
    assert all("u:P0" not in e.data["players"] for e in events[1:])
    assert [e.kind for e in d.t.join(person("P0", 2000), d.now)] == ["returned"]


def test_a_swiss_ends_early_when_no_round_can_be_paired() -> None:
    d = play_swiss(2, 3, 1)
    assert d.t.status == "finished" and d.t.end_reason == "no_pairing"
    assert len(d.t.games) == 1


def test_a_swiss_view_states_its_tiebreaks() -> None:
    v = play_swiss(7, 5, 3).t.view()
    assert v["tiebreaks"] == ["buchholz", "sonneborn_berger"]
    assert v["rounds"] == {"current": 5, "total": 5}
    rows = v["standings"]
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    keys = [
        (-r["points"], -r["tiebreaks"]["buchholz"], -r["tiebreaks"]["sonneborn_berger"])
        for r in rows
    ]
    assert keys == sorted(keys)


# -- the guards, broken ------------------------------------------------------------------------


def repeating_engine(**kw: object) -> list[dict[str, object]]:
    """A broken engine: always 1-2, 3-4, ... and the last player a bye, whatever was played."""
    ids = [p["id"] for p in kw["players"]]  # type: ignore[attr-defined]
    rows: list[dict[str, object]] = [
        {"white_id": a, "black_id": b} for a, b in zip(ids[::2], ids[1::2], strict=False)
    ]
    if len(ids) % 2:
        rows.append({"white_id": ids[-1], "black_id": None})
    return rows


def no_relaxed_round(players: object, history: object) -> swiss.SwissRound:
    """The relaxed round switched off: the guards on the Dutch engine's rounds alone."""
    raise swiss.NoPairing("no relaxed round in this test")


def test_the_guards_stop_a_broken_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(swiss, "generate_pairings", repeating_engine)
    monkeypatch.setattr(swiss, "relaxed_round", no_relaxed_round)
    d = play_swiss(7, 5, 2)
    assert d.t.end_reason == "no_pairing" and d.t.round == 1  # round 2 would repeat
    check_swiss(d.t, 1)


def same_bye_engine(**kw: object) -> list[dict[str, object]]:
    """A broken engine: new pairs each round, but the last player always has the bye."""
    ids = [p["id"] for p in kw["players"]]  # type: ignore[attr-defined]
    r = int(kw["round_number"])  # type: ignore[call-overload]
    last, rest = ids[-1], ids[:-1]
    boards = {1: [(0, 3), (1, 4), (2, 5)], 2: [(0, 1), (2, 3), (4, 5)], 3: [(0, 2), (1, 5), (3, 4)]}
    rows: list[dict[str, object]] = [
        {"white_id": rest[a], "black_id": rest[b]} for a, b in boards[r]
    ]
    return [*rows, {"white_id": last, "black_id": None}]


@pytest.mark.parametrize(
    ("engine", "players", "guard_off", "match"),
    [
        (repeating_engine, 6, "repeat", "met twice"),
        (same_bye_engine, 7, "bye", "byes"),
    ],
)
def test_without_the_guards_the_properties_fail(
    monkeypatch: pytest.MonkeyPatch, engine: object, players: int, guard_off: str, match: str
) -> None:
    """A broken engine with one guard off: the property check catches what it lets by."""
    monkeypatch.setattr(swiss, "generate_pairings", engine)
    monkeypatch.setattr(swiss, "relaxed_round", no_relaxed_round)
    real = swiss.check_round

    def half_guard(players, played, pairs, byes):  # type: ignore[no-untyped-def]
        if guard_off == "repeat":
            played = set()
        else:  # nobody counted as having had a bye
            players = [swiss.SwissPlayer(p.key, p.rank, p.rating, p.points) for p in players]
        real(players, played, pairs, byes)

    monkeypatch.setattr(swiss, "check_round", half_guard)
    d = play_swiss(players, 3, 2)
    assert d.t.end_reason == "rounds"
    with pytest.raises(AssertionError, match=match):
        check_swiss(d.t, 3)
    monkeypatch.setattr(swiss, "check_round", real)  # with the guard: stopped at round 2
    d = play_swiss(players, 3, 2)
    assert (d.t.end_reason, d.t.round) == ("no_pairing", 1)


# -- rounds the Dutch rules cannot pair ---------------------------------------------------------


def legal_round_exists(keys: list[str], met: set[frozenset[str]], bye_ok: set[str]) -> bool:
    """Brute force: can ``keys`` be seated with nobody meeting again (and, for an odd
    field, one bye to a player in ``bye_ok``)?"""
    if not keys:
        return True
    if len(keys) % 2:
        return any(
            legal_round_exists([k for k in keys if k != b], met, set()) for b in keys if b in bye_ok
        )
    first, rest = keys[0], keys[1:]
    for other in rest:
        if frozenset((first, other)) not in met and legal_round_exists(
            [k for k in rest if k != other], met, bye_ok
        ):
            return True
    return False


@pytest.mark.parametrize("seed", range(30))
def test_six_players_four_rounds_end_early_only_when_no_round_exists(seed: int) -> None:
    """Six players can play four rounds; the Dutch rules' colour criteria often find no
    fourth round (the library gives two byes): the relaxed round is played instead, and the
    Swiss ends early only when brute force finds no round either."""
    d = play_swiss(6, 4, seed)
    met = {frozenset(g.players) for g in d.t.games.values()}
    assert len(met) == len(d.t.games)  # nobody met twice
    if d.t.end_reason == "no_pairing":
        assert not legal_round_exists(sorted(d.t.players), met, set())
    else:
        assert d.t.end_reason == "rounds" and len(d.t.games) == 12
    for p in d.t.players.values():
        assert not [m for m in p.sheet if m.outcome == "B"]  # an even field: no bye


def test_a_broken_dutch_engine_is_replaced_by_the_relaxed_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The repeating engine's rounds are refused by the guards; the relaxed rounds that
    replace them keep every hard rule (checked whole, colours aside)."""
    monkeypatch.setattr(swiss, "generate_pairings", repeating_engine)
    d = play_swiss(7, 5, 2)
    assert d.t.end_reason == "rounds" and len(d.t.games) == 15
    met = {frozenset(g.players) for g in d.t.games.values()}
    assert len(met) == 15
    for p in d.t.players.values():
        assert len([m for m in p.sheet if m.outcome == "B"]) <= 1


def test_the_relaxed_round_keeps_the_hard_rules_by_hand() -> None:
    six = seeds(6)
    # two triangles that have met within: every pair left would repeat
    triangles = [("p1", "p2"), ("p2", "p3"), ("p1", "p3"), ("p4", "p5"), ("p5", "p6"), ("p4", "p6")]
    everyone_else = [(a, b) for a in "123" for b in "456"]
    history = [(f"p{a}", f"p{b}") for a, b in everyone_else]  # all of K3,3 met
    with pytest.raises(swiss.NoPairing):
        swiss.relaxed_round(six, history)
    r = swiss.relaxed_round(six, triangles)  # only across: three pairs, one per p1..p3
    assert sorted(frozenset(p) for p in r.pairs) and all(
        (a in {"p1", "p2", "p3"}) != (b in {"p1", "p2", "p3"}) for a, b in r.pairs
    )
    # an odd field: the bye to the lowest score among those who had none
    five = [
        SwissPlayer(f"q{i}", i, 2000, float(5 - i), byes=1 if i == 5 else 0) for i in range(1, 6)
    ]
    r = swiss.relaxed_round(five, [])
    assert r.bye == "q4" and len(r.pairs) == 2
    # colours: the one owed white (more blacks so far) gets it
    a = SwissPlayer("a", 1, 2000, 1.0, ("w", "w"))
    b = SwissPlayer("b", 2, 2000, 1.0, ("b", "b"))
    assert swiss.relaxed_round([a, b], []).pairs == (("b", "a"),)

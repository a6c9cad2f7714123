"""Buchholz and Sonneborn-Berger on a crosstable worked by hand, alone and as a round
robin's view states them."""

from __future__ import annotations

from server.tournaments import buchholz, sonneborn_berger

from .helpers import Driver, person, spec

# A beat B, A drew C, D beat A; B beat C, B beat D; C drew D.
#        A    B    C    D   points
# A      -    1    ½    0   1.5
# B      0    -    1    1   2
# C      ½    0    -    ½   1
# D      1    0    ½    -   1.5
TABLE = {
    "A": [("B", 1.0), ("C", 0.5), ("D", 0.0)],
    "B": [("A", 0.0), ("C", 1.0), ("D", 1.0)],
    "C": [("A", 0.5), ("B", 0.0), ("D", 0.5)],
    "D": [("A", 1.0), ("B", 0.0), ("C", 0.5)],
}
POINTS = {"A": 1.5, "B": 2.0, "C": 1.0, "D": 1.5}
# Buchholz: A = 2 + 1 + 1.5 = 4.5; B = 1.5 + 1 + 1.5 = 4; C = 1.5 + 2 + 1.5 = 5; D = 4.5
# SB: A = 2x1 + 1x½ = 2.5; B = 1 + 1.5 = 2.5; C = 1.5x½ + 1.5x½ = 1.5; D = 1.5 + 1x½ = 2
BUCHHOLZ = {"A": 4.5, "B": 4.0, "C": 5.0, "D": 4.5}
SB = {"A": 2.5, "B": 2.5, "C": 1.5, "D": 2.0}


def test_by_hand() -> None:
    assert {k: buchholz(k, TABLE, POINTS) for k in TABLE} == BUCHHOLZ
    assert {k: sonneborn_berger(k, TABLE, POINTS) for k in TABLE} == SB


def test_a_round_robin_states_them_and_ranks_by_them() -> None:
    d = Driver(spec("round_robin", max_players=4))
    names = ["A", "B", "C", "D"]
    d.join(*(person(n, 2000 - i) for i, n in enumerate(names)))  # pairing numbers 1..4
    d.start()
    score = {(a, o): s for a, games in TABLE.items() for o, s in games}
    while d.t.status == "running":
        for room, (w, b) in d.ongoing():
            s = score[(w[2:], b[2:])]
            d.finish(room, [0, 1] if s == 1 else [1, 0] if s == 0 else [0, 0])
        d.tick()
    rows = d.t.view()["standings"]
    assert [(r["rank"], r["name"], r["points"]) for r in rows] == [
        (1, "B", 2.0),
        (2, "A", 1.5),  # A and D: equal points and Buchholz, A's SB is higher
        (3, "D", 1.5),
        (4, "C", 1.0),
    ]
    for r in rows:
        assert r["tiebreaks"] == {
            "buchholz": BUCHHOLZ[r["name"]],
            "sonneborn_berger": SB[r["name"]],
        }


def test_a_bye_adds_nothing_to_buchholz() -> None:
    table = {"A": [("B", 1.0)], "B": [("A", 0.0)], "C": []}
    points = {"A": 1.0, "B": 1.0, "C": 1.0}  # B and C had a bye each
    assert buchholz("C", table, points) == 0
    assert buchholz("A", table, points) == 1.0


def test_equal_points_buchholz_and_sb_are_ranked_by_starting_rank() -> None:
    """A one-round Swiss of four where the higher-rated win: Ada and Bob have 1 point,
    Buchholz 0 and SB 0 each, Cy and Di nothing at all. The starting rank breaks both ties
    (docs/TOURNAMENTS.md): nobody shares a rank."""
    ratings = {"u:Ada": 1900, "u:Bob": 1800, "u:Cy": 1700, "u:Di": 1600}
    d = Driver(spec("swiss", rounds=1, max_players=4))
    d.join(*(person(k[2:], r) for k, r in ratings.items()))
    d.start()
    for room, (white, black) in d.ongoing():
        d.finish(room, [0, 1] if ratings[white] > ratings[black] else [1, 0])
    d.tick()
    assert d.t.status == "finished"
    rows = d.t.view()["standings"]
    assert [(r["name"], r["points"]) for r in rows] == [
        ("Ada", 1.0),
        ("Bob", 1.0),
        ("Cy", 0.0),
        ("Di", 0.0),
    ]
    assert rows[0]["tiebreaks"] == rows[1]["tiebreaks"] == {"buchholz": 0, "sonneborn_berger": 0}
    assert rows[2]["tiebreaks"] == rows[3]["tiebreaks"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]

"""Arena points worked by hand (lichess's rules: 2/1/0, fire after two wins in a row,
berserk +1 for a berserked win) and the many-seat rule (2 per player finished ahead of, 1
per player tied with), in the pure function and through a whole tournament."""

from __future__ import annotations

from server.tournaments import arena_points
from server.tournaments.scoring import game_score

from .helpers import Driver, person, spec

WIN, DRAW, LOSS = [0, 1], [0, 0], [1, 0]  # seat 0's view


def run(results: list[tuple[list[int], bool]]) -> list[tuple[int, str, bool]]:
    """Seat 0's points game by game, carrying the streak as the tournament does."""
    streak = 0
    out = []
    for ranks, berserked in results:
        s = arena_points(ranks, 0, streak=streak, berserked=berserked)
        out.append((s.points, s.outcome, s.fire))
        streak = streak + 1 if s.outcome == "W" else 0
    return out


def test_a_streak_doubles_wins_and_draws_until_a_game_is_not_won() -> None:
    # W W W D W L W W W: 2 2 (then on fire) 4 2 (fire out) 2 0 2 2 (on fire) 4
    games = [WIN, WIN, WIN, DRAW, WIN, LOSS, WIN, WIN, WIN]
    got = run([(g, False) for g in games])
    assert [p for p, _, _ in got] == [2, 2, 4, 2, 2, 0, 2, 2, 4]
    assert [f for _, _, f in got] == [False, False, True, True, False, False, False, False, True]
    assert sum(p for p, _, _ in got) == 20


def test_lichess_example_two_wins_then_a_draw_is_six() -> None:
    assert sum(p for p, _, _ in run([(WIN, False), (WIN, False), (DRAW, False)])) == 6


def test_berserk_adds_a_point_to_a_win_only() -> None:
    assert run([(WIN, True)]) == [(3, "W", False)]
    assert run([(DRAW, True)]) == [(1, "D", False)]
    assert run([(LOSS, True)]) == [(0, "L", False)]
    # on fire: 4 + 1
    assert run([(WIN, False), (WIN, False), (WIN, True)])[-1] == (5, "W", True)


def test_draws_and_losses_are_one_and_none() -> None:
    assert run([(DRAW, False), (LOSS, False), (DRAW, False)]) == [
        (1, "D", False),
        (0, "L", False),
        (1, "D", False),
    ]


def test_many_seat_tables_by_rank() -> None:
    ranks = [2, 1, 4, 3]  # seat 1 first, seat 0 second, seat 3 third, seat 2 last
    pts = [arena_points(ranks, s, streak=0, berserked=False).points for s in range(4)]
    assert pts == [4, 6, 0, 2]
    tied = [1, 1, 3, 3]  # two share first, two share third
    got = [arena_points(tied, s, streak=0, berserked=False) for s in range(4)]
    assert [g.points for g in got] == [5, 5, 1, 1]
    assert [g.outcome for g in got] == ["D", "D", "L", "L"]
    # no berserk point at a many-seat table; fire doubles
    assert arena_points(ranks, 1, streak=2, berserked=True).points == 12


def test_swiss_scores() -> None:
    assert [game_score(WIN, 0), game_score(DRAW, 0), game_score(LOSS, 0)] == [1.0, 0.5, 0.0]
    assert game_score([1, 2], 1) == 0.0  # 1-based ranks read the same


def test_a_tournament_scores_the_same_as_the_hand() -> None:
    d = Driver(spec())
    d.join(person("Ada", 2000), person("Bob", 1000))
    d.start()
    # Ada: W W W(berserk, on fire) D, Bob loses three then draws
    for i, result in enumerate(("win", "win", "win", "draw")):
        room = d.t.current["u:Ada"]
        if i == 2:
            d.apply(d.t.berserk("u:Ada", room, d.now))
        d.win("u:Ada") if result == "win" else d.draw("u:Ada")
        d.tick(d.now + 10)  # only each other to meet: after the wait
    ada, bob = d.t.players["u:Ada"], d.t.players["u:Bob"]
    assert [m.points for m in ada.sheet] == [2, 2, 5, 2]
    assert ada.points == 11 and ada.streak == 0
    assert bob.points == 1
    row = next(r for r in d.t.view()["standings"] if r["name"] == "Ada")
    assert (row["rank"], row["wins"], row["draws"], row["losses"]) == (1, 3, 1, 0)
    assert row["sheet"][2] == {
        "outcome": "W",
        "points": 5,
        "room": ada.sheet[2].room,
        "opponents": ["Bob"],
        "fire": True,
        "berserk": True,
    }


def test_a_many_seat_arena_table() -> None:
    d = Driver(spec(game="hase_und_igel", seats=4))
    names = ["Ada", "Bob", "Cy", "Di", "Ed"]
    d.join(*(person(n, 1500 + i) for i, n in enumerate(names)))
    started = d.start()
    paired = [e for e in started if e.kind == "paired"]
    assert len(paired) == 1 and len(paired[0].data["players"]) == 4  # one waits
    room, seats = d.ongoing()[0]
    d.finish(room, [3, 1, 2, 2])
    pts = {k: d.t.players[k].points for k in seats}
    assert sorted(pts.values()) == [0, 3, 3, 6]
    assert pts[seats[1]] == 6 and pts[seats[0]] == 0

"""Glicko-2 against Glickman's worked example; speeds as lichess; OpenSkill against the package."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from server.rooms.ratings import Glicko, Skill, category, glicko2, rate_many, rate_pair, speed


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system", Glickman 2013: 1500/200 plays 1400/30 (win),
    # 1550/100 (loss), 1700/300 (loss) -> 1464.06 / 151.52 / 0.05999
    after = glicko2(
        Glicko(1500, 200, 0.06),
        [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.games == 3


def test_one_win_from_the_start() -> None:
    winner, loser = rate_pair(Glicko(), Glicko(), 1.0)
    assert winner.rating == pytest.approx(1662.3, abs=0.05)
    assert winner.rd == pytest.approx(290.3, abs=0.05)
    assert loser.rating == pytest.approx(1337.7, abs=0.05)
    assert winner.provisional and loser.provisional
    assert winner.to_json()["games"] == 1


def test_a_draw_between_equals_moves_nobody_and_shrinks_rd() -> None:
    a, b = rate_pair(Glicko(), Glicko(), 0.5)
    assert a.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)
    assert a.rd < 350


def test_no_games_only_widens_rd_up_to_the_start() -> None:
    assert glicko2(Glicko(1600, 100), []).rd > 100
    assert glicko2(Glicko(), []).rd == 350


def test_provisional_threshold() -> None:
    assert Glicko(1500, 110.01).provisional
    assert not Glicko(1500, 110).provisional


def test_round_trip_json() -> None:
    g = Glicko(1612.5, 80.25, 0.059, 12)
    assert Glicko.from_json(g.to_json()) == Glicko(1612.5, 80.25, 0.059, 12)


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        (None, "correspondence"),
        ({"type": "fischer", "base": 15, "increment": 0}, "ultrabullet"),
        ({"type": "fischer", "base": 29, "increment": 0}, "ultrabullet"),
        ({"type": "fischer", "base": 30, "increment": 0}, "bullet"),
        ({"type": "fischer", "base": 60, "increment": 1}, "bullet"),
        ({"type": "fischer", "base": 180, "increment": 0}, "blitz"),
        ({"type": "fischer", "base": 180, "increment": 2}, "blitz"),
        ({"type": "fischer", "base": 300, "increment": 4}, "blitz"),  # 300 + 160 = 460
        ({"type": "fischer", "base": 600, "increment": 0}, "rapid"),
        ({"type": "fischer", "base": 1500, "increment": 0}, "classical"),
        ({"type": "per_move", "seconds": 30}, "rapid"),
    ],
)
def test_speed(clock: dict[str, float] | None, expected: str) -> None:
    assert speed(clock) == expected


def test_category() -> None:
    assert category("chess", {"type": "fischer", "base": 180, "increment": 2}) == "chess:blitz"


def test_many_players_match_openskill() -> None:
    players = [Skill(), Skill(27.0, 6.0, 3), Skill(22.0, 7.5, 1), Skill()]
    ranks = [2, 1, 4, 3]
    ours = rate_many(players, ranks)
    model = PlackettLuce()
    theirs = model.rate(
        [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players], ranks=[float(r) for r in ranks]
    )
    for mine, team, before in zip(ours, theirs, players, strict=True):
        assert mine.mu == pytest.approx(team[0].mu)
        assert mine.sigma == pytest.approx(team[0].sigma)
        assert mine.games == before.games + 1
    assert ours[1].mu > players[1].mu and ours[2].mu < players[2].mu


def test_many_players_ties_share() -> None:
    a, b, c = rate_many([Skill(), Skill(), Skill()], [1, 1, 3])
    assert a.mu == pytest.approx(b.mu) and c.mu < a.mu

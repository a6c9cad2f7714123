"""The ladder: levels are the strengths in order, ratings chain the matches' Elo differences
with intervals that add in quadrature, a non-monotone level is reported, and ``kibitz ladder``
really plays its matches and writes what the lobby shows (a short run at a tiny time scale)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from server.bots import STRENGTHS, ladder
from server.tools import ladder as ladder_tool
from server.tools.arena import interval


def test_levels_are_the_strengths_weakest_first() -> None:
    for game, named in STRENGTHS.items():
        levels = ladder.levels(game)
        assert [lv.number for lv in levels] == list(range(1, len(named) + 1))
        assert [lv.strength for lv in levels] == list(named)
        assert [(lv.algorithm, lv.think_time) for lv in levels] == list(named.values())


def test_the_chain_adds_differences_and_variances() -> None:
    scores_a = [1.0] * 15 + [0.0] * 5  # 15 of 20
    scores_b = [1.0] * 10 + [0.5] * 4 + [0.0] * 6  # 12 of 20
    steps = [
        {"points": 15, "games": 20, "score_95": list(interval(scores_a))},
        {"points": 12, "games": 20, "score_95": list(interval(scores_b))},
    ]
    ratings = ladder.chain(steps)
    d1, se1 = ladder.step_rating(15, 20, *steps[0]["score_95"])
    d2, se2 = ladder.step_rating(12, 20, *steps[1]["score_95"])
    assert math.isclose(d1, -400 * math.log10(21 / 15.5 - 1))  # one extra draw: 15.5 / 21
    assert ratings[0] == {"elo": 0.0, "elo_95": [0.0, 0.0], "score_vs_below": None}
    assert ratings[1]["elo"] == round(d1) and ratings[2]["elo"] == round(d1 + d2)
    half = 1.96 * math.sqrt(se1**2 + se2**2)
    assert ratings[2]["elo_95"] == [round(d1 + d2 - half), round(d1 + d2 + half)]
    assert [r["score_vs_below"] for r in ratings[1:]] == [0.75, 0.6]
    assert ladder.not_monotone(ratings) == []


def test_a_level_that_does_not_beat_the_one_below_is_reported() -> None:
    """The monotone check can fail: a level scoring 0.55 against the one below is named."""
    steps = [
        {"points": 18, "games": 20, "score_95": [0.7, 0.97]},
        {"points": 11, "games": 20, "score_95": [0.34, 0.74]},
    ]
    assert ladder.not_monotone(ladder.chain(steps)) == [3]


def test_a_clean_sweep_has_a_finite_rating() -> None:
    d, se = ladder.step_rating(10, 10, *interval([1.0] * 10))
    assert 0 < d < 1200 and se > 0


def test_rated_levels_show_only_what_was_measured_at_the_levels_own_think_time() -> None:
    levels = ladder.levels("banqi")
    measured = {
        "banqi": {
            "games_per_match": 20,
            "levels": [
                {"level": 1, "algorithm": "random", "think_time": 0.0, "elo": 0, "elo_95": [0, 0]},
                {
                    "level": 2,
                    "algorithm": levels[1].algorithm,
                    "think_time": levels[1].think_time,
                    "elo": 300,
                    "elo_95": [200, 400],
                },
                {
                    "level": 3,
                    "algorithm": levels[2].algorithm,
                    "think_time": levels[2].think_time / 10,
                    "elo": 500,
                    "elo_95": [350, 650],
                },
            ],
        }
    }
    shown = ladder.rated_levels("banqi", measured)
    assert [r["elo"] for r in shown] == [0, 300, None, None]  # level 3: measured at 1/10
    assert shown[1]["games"] == 20 and shown[3]["games"] is None
    assert [r["elo"] for r in ladder.rated_levels("banqi", {})] == [None] * len(levels)


def test_the_stored_ladder_rates_the_levels_as_they_are() -> None:
    """``ladder.json`` (what the lobby shows) rates every level of every game it lists at
    the level's current algorithm and think time, and names the levels that break the
    promise: changing a strength means measuring its game again (``kibitz ladder GAME
    --write``)."""
    measured = ladder.load()
    assert measured, "nothing measured"
    for game, data in measured.items():
        shown = ladder.rated_levels(game, measured)
        assert all(r["elo"] is not None for r in shown), f"{game}: stale ratings"
        assert data["time_scale"] == 1
        assert data["not_monotone"] == ladder.not_monotone(data["levels"]), game


def test_the_ladder_command_plays_and_writes(tmp_path: Path) -> None:
    ratings, docs = tmp_path / "ladder.json", tmp_path / "BOTS.md"
    docs.write_text(f"before\n{ladder_tool.MARK_START}\nold\n{ladder_tool.MARK_END}\nafter\n")
    argv = ["banqi", "-n", "2", "--time-scale", "0.02", "--seed", "t", "--write"]
    assert ladder_tool.main([*argv, "--ratings", str(ratings), "--docs", str(docs)]) == 0
    data = json.loads(ratings.read_text())["banqi"]
    assert [m["games"] for m in data["matches"]] == [2] * (len(ladder.levels("banqi")) - 1)
    assert all(0 <= m["points"] <= 2 for m in data["matches"])
    assert data["time_scale"] == 0.02 and data["levels"][0]["elo"] == 0
    text = docs.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "| `banqi` | 4 | `hard` |" in text and "0.02 times the think times" in text
    # scaled runs never label the real levels (level 1 is 0 by definition)
    assert [r["elo"] for r in ladder.rated_levels("banqi", json.loads(ratings.read_text()))][
        1:
    ] == [None] * 3


def test_the_ladder_command_refuses_an_unknown_game() -> None:
    assert ladder_tool.main(["go"]) == 2


def stockfish_processes() -> int:
    """Live Stockfish processes started by this one."""
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
                ours = f"\nPPid:\t{os.getpid()}\n" in status and "\nState:\tZ" not in status
                count += ours and b"stockfish" in (entry / "cmdline").read_bytes()
            except OSError:
                pass
    return count


def test_the_anchor_match_plays_the_top_level_and_leaves_no_engine_behind(
    tmp_path: Path,
) -> None:
    before = stockfish_processes()
    anchor = "uci:/usr/games/stockfish?Skill Level=0&time=0.01"
    argv = ["chess", "-n", "1", "--time-scale", "0.01", "--anchor", anchor, "--json"]
    assert ladder_tool.main(argv) == 0
    assert stockfish_processes() == before

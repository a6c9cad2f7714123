"""``kibitz arena``: seating, statistics, specs, and a few real (short) runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.bots import make_bot
from server.engine import Outcome, get_game
from server.tools.arena import elo, interval, main, parse_spec, play_game, seating, summary


def test_seats_rotate() -> None:
    assert [seating(i, 2, 2) for i in range(3)] == [[0, 1], [1, 0], [0, 1]]
    assert [seating(i, 3, 2) for i in range(3)] == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


def test_specs() -> None:
    assert parse_spec("alphabeta?time=1") == ("alphabeta", {"time": "1"})
    name, options = parse_spec("uci:/usr/games/stockfish?Skill%20Level=0&time=0.05")
    assert name == "uci:/usr/games/stockfish"
    assert options == {"Skill Level": "0", "time": "0.05"}


def test_elo_and_interval() -> None:
    assert elo(0.5) == 0
    assert 190 < elo(0.76) < 202
    lo, hi = interval([1.0] * 10)
    assert hi == 1.0 and 0.6 < lo < 0.8  # a clean sweep still has an honest lower bound
    lo, hi = interval([1.0, 0.0] * 50)
    assert lo < 0.5 < hi and hi - lo < 0.25


def test_summary_counts_two_seats() -> None:
    from server.tools.arena import GameRecord

    records = [
        GameRecord([0, 1], Outcome.win(0, 2, "checkmate"), 40),
        GameRecord([1, 0], Outcome.win(0, 2, "checkmate"), 40),
        GameRecord([0, 1], Outcome.draw(2, "stalemate"), 40),
    ]
    s = summary(records, ["a", "b"])
    assert (s["wins"], s["draws"], s["losses"]) == (1, 1, 1)
    assert s["score"] == 0.5


def test_a_run_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["banqi", "greedy", "random", "-n", "2", "--time", "0.02", "--json", "--seed", "t"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["wins"] + out["draws"] + out["losses"] == 2
    assert out["bots"] == ["greedy?time=0.02", "random?time=0.02"]


def test_three_seats_report_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "hase_und_igel",
            "greedy",
            "random",
            "--seats",
            "3",
            "-n",
            "1",
            "--time",
            "0.02",
            "--max-plies",
            "30",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "mean rank" in text


def test_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chess", "grandmaster", "random", "-n", "1"]) == 2


class Cheater:
    """A labelled cheating bot (tests and bench only): it is shown the true state."""

    name = "cheater"
    think_time = 0.0
    reads_true_state = True

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def observe_true_state(self, state: Any) -> None:
        self.seen.append(state)

    def choose(self, game: Any, seat: int, views: Any, legal: Any, budget: float, rng: Any) -> str:
        assert self.seen, "the arena must show the labelled cheater the state first"
        return legal[0]


def test_only_labelled_cheaters_see_the_state() -> None:
    game = get_game("banqi")
    cheater = Cheater()
    play_game(game, [cheater, make_bot("banqi", "random")], [0.0, 0.0], [0, 1], "c", max_plies=6)
    assert cheater.seen


def test_a_uci_engine_plays_chess(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "chess",
            "random",
            "uci:/usr/games/stockfish?Skill Level=0&depth=1",
            "-n",
            "1",
            "--max-plies",
            "20",
            "--json",
        ]
    )
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1

"""The other games' analyses (server/analysis): XiangQi by the real Fairy-Stockfish, the
perfect-information games by their own alpha-beta, Dark Chess twice — the true position
and the mover's view — each with an evaluation for every position."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.analysis import (
    banqi_analysis,
    dark_analysis,
    many_seats,
    search_analysis,
    simultaneous,
    xiangqi_analysis,
)
from server.analysis.judgement import MARKS
from server.analysis.records import GAMES, NotAnalysable, Tools, analyse_record
from server.engine import get_game, turn_rng

FAIRY = "/usr/games/fairy-stockfish"
VERDICTS = {None, *MARKS}


def random_record(name: str, seed: int, plies: int, n_seats: int = 2) -> dict[str, Any]:
    """A record of ``plies`` random legal moves of ``name`` (fewer if it ends first)."""
    game, rng = get_game(name), random.Random(seed)
    state = game.new({}, n_seats, turn_rng(str(seed), 0))
    moves = []
    for i in range(1, plies + 1):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        move = rng.choice(game.legal_moves(state, seat))
        moves.append({"turn": i, "moves": {str(seat): str(move)}})
        state = game.play(state, {seat: move}, turn_rng(str(seed), i), check=False)
    return {
        "game": name,
        "room": f"r{seed}",
        "seed": str(seed),
        "n_seats": n_seats,
        "options": {},
        "moves": moves,
        "outcome": {"reason": "resignation"},
    }


def check_shape(analysis: dict[str, Any], record: dict[str, Any]) -> None:
    n = len(record["moves"])
    assert len(analysis["evals"]) == n + 1 and len(analysis["plies"]) == n
    assert all(len(e) == 1 and set(e) <= {"cp", "mate", "over"} for e in analysis["evals"])
    assert [p["move"] for p in analysis["plies"]] == [
        next(iter(t["moves"].values())) for t in record["moves"]
    ]
    assert all(p["judgement"] in VERDICTS for p in analysis["plies"])
    assert len(analysis["players"]) == 2


def test_xiangqi_gets_an_evaluation_for_every_ply() -> None:
    record = random_record("xiangqi", 7, 14)
    analysis = xiangqi_analysis.analyse(record, FAIRY, nodes=20_000)
    check_shape(analysis, record)
    assert analysis["engine"].startswith("Fairy-Stockfish")
    game = get_game("xiangqi")
    state = game.new({}, 2, turn_rng("7", 0))
    for ply, turn in zip(analysis["plies"], record["moves"], strict=True):
        seat = min(game.to_act(state))
        legal = {str(m) for m in game.legal_moves(state, seat)}
        assert ply["best"] is None or ply["best"] in legal  # in the game's own notation
        (text,) = turn["moves"].values()
        state = game.play(state, {seat: game.parse_move(state, seat, text)}, None, check=False)
    # random moves against Fairy-Stockfish: something is judged
    assert any(p["judgement"] for p in analysis["plies"])


@pytest.mark.parametrize("name", search_analysis.GAMES)
def test_the_perfect_information_games_get_their_own_search(name: str) -> None:
    record = random_record(name, 5, 6)
    analysis = search_analysis.analyse(record, seconds=0.02)
    check_shape(analysis, record)
    assert analysis["game"] == name and analysis["engine"] == "kibitz alphabeta"


def test_dark_chess_shows_what_was_there_and_what_the_mover_saw() -> None:
    record = random_record("dark_chess", 3, 8)
    analysis = dark_analysis.analyse(record, seconds=0.05, max_depth=3)
    check_shape(analysis, record)
    sights = [p["seen"] for p in analysis["plies"]]
    assert all(s is None or (0 <= s["played"] <= s["value"] <= 1) for s in sights)
    assert all(s is None or s["judgement"] in VERDICTS for s in sights)
    assert any(s is not None for s in sights)
    assert all(set(p["seen"]) == set(MARKS) for p in analysis["players"])


def test_banqi_shows_what_was_there_and_what_the_mover_saw() -> None:
    record = random_record("banqi", 4, 12)
    analysis = banqi_analysis.analyse(record, seconds=0.1)
    check_shape(analysis, record)
    sights = [p["seen"] for p in analysis["plies"]]
    assert all(s is None or (0 <= s["played"] <= s["value"] <= 1) for s in sights)
    assert any(s is not None for s in sights)
    assert all(set(p["seen"]) == set(MARKS) for p in analysis["players"])


def test_yonin_shogi_gets_each_seat_s_value() -> None:
    record = random_record("yonin_shogi", 2, 8, n_seats=4)
    analysis = many_seats.analyse(record, seconds=0.05)
    n = len(record["moves"])
    assert len(analysis["values"]) == n + 1 and len(analysis["plies"]) == n
    assert all(v is not None and len(v) == 4 for v in analysis["values"])
    assert all(0 <= x <= 1 for v in analysis["values"] for x in v)  # utilities (yonin_eval)
    assert [p["seat"] for p in analysis["plies"]] == [i % 4 for i in range(n)]
    assert all(p["judgement"] in VERDICTS for p in analysis["plies"])
    assert len(analysis["players"]) == 4


def test_apocalypse_gets_each_seat_s_value_and_both_moves_judged() -> None:
    game, rng = get_game("apocalypse"), random.Random(1)
    state = game.new({}, 2, turn_rng("1", 0))
    moves = []
    for i in range(1, 6):
        if game.outcome(state) is not None:
            break
        joint = {s: rng.choice(game.legal_moves(state, s)) for s in sorted(game.to_act(state))}
        moves.append({"turn": i, "moves": {str(s): str(m) for s, m in joint.items()}})
        state = game.play(state, joint, turn_rng("1", i), check=False)
    record = {"game": "apocalypse", "seed": "1", "n_seats": 2, "options": {}, "moves": moves}
    analysis = simultaneous.analyse(record | {"outcome": {}}, seconds=0.05)
    assert len(analysis["values"]) == len(moves) + 1
    assert all(len(v) == 2 for v in analysis["values"])
    both = [(p["ply"], p["seat"]) for p in analysis["plies"]]
    assert both == [(t["turn"], int(s)) for t in moves for s in sorted(t["moves"])]
    assert all(p["judgement"] in VERDICTS for p in analysis["plies"])


def test_what_is_not_analysed_is_refused() -> None:
    assert "hase_und_igel" not in GAMES
    with pytest.raises(NotAnalysable, match="'rps' games are not analysed"):
        analyse_record(random_record("chess", 1, 2) | {"game": "rps"}, Tools())
    unfinished = random_record("chess", 1, 2) | {"outcome": None}
    with pytest.raises(NotAnalysable, match="only a finished game"):
        analyse_record(unfinished, Tools())

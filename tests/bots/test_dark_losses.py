"""``server/tools/dark_losses.py``: the honest Dark Chess bot's worlds held against the true
state after each of its moves, and each lost game put in a class."""

from __future__ import annotations

import json
from pathlib import Path

import chess

from server.bots.ismcts import ISMCTSBot
from server.engine import get_game
from server.tools.arena import play_game
from server.tools.cheating import CheatingISMCTS
from server.tools.dark_losses import (
    Observer,
    classify,
    en_prise_after,
    hung_after,
    material,
    material_faults,
)

#: Black to move, its king on e8 struck by the queen on b5 through d7
HANGING = "r2qk2r/ppp2ppp/4p3/1Q6/8/5N2/PP2KPPP/RNB2B1R b kq - 0 11"


def _turn(lost: bool, safe: int, share: float, safest: float) -> dict[str, object]:
    return {
        "lost_in_truth": lost,
        "safe_in_truth": safe,
        "lost_in_worlds": share,
        "safest": safest,
    }


def test_en_prise_after() -> None:
    board = chess.Board(HANGING)
    assert en_prise_after(board, chess.Move.from_uci("a7a6"))
    assert not en_prise_after(board, chess.Move.from_uci("c7c6"))  # blocks the diagonal
    assert not en_prise_after(board, chess.Move.from_uci("e8f8"))


def test_each_lost_game_gets_its_class() -> None:
    assert classify([_turn(True, 0, 1.0, 1.0)], 0.0, "king_captured") == "no safe move"
    assert classify([_turn(True, 3, 0.9, 0.0)], 0.0, "king_captured") == "knew"
    assert classify([_turn(True, 3, 0.1, 0.0)], 0.0, "king_captured") == "unseen"
    assert classify([_turn(True, 3, 0.4, 0.0)], 0.0, "king_captured") == "unseen"
    assert classify([_turn(False, 3, 0.0, 0.0)], 0.0, "king_captured") == "other"
    assert classify([_turn(True, 3, 0.9, 0.0)], 0.5, "repetition") == "other"
    assert classify([_turn(True, 3, 0.9, 0.0)], 1.0, "king_captured") == "won"


def test_the_observer_records_each_move_and_the_bot_plays_as_alone() -> None:
    """The observer reads the true state, the bot inside it does not: it moves as the same
    bot does alone on the same views (deterministic budgets)."""
    game = get_game("dark_chess")
    watched = Observer(ISMCTSBot(max_iterations=30, pool=4, rollout_depth=2))
    twin = CheatingISMCTS(max_iterations=30)
    record = play_game(game, [watched, twin], [5.0, 5.0], [0, 1], "observe", max_plies=6)
    assert [t["ply"] for t in watched.turns] == [0, 2, 4]
    for turn in watched.turns:
        assert 1 <= turn["worlds"] <= 4
        assert 0.0 <= turn["safest"] <= turn["lost_in_worlds"] <= 1.0
        assert turn["safe_in_truth"] > 0 and not turn["lost_in_truth"]  # the opening
    alone = ISMCTSBot(max_iterations=30, pool=4, rollout_depth=2)
    again = play_game(
        game, [alone, CheatingISMCTS(max_iterations=30)], [5.0, 5.0], [0, 1], "observe", max_plies=6
    )
    assert again.moves == record.moves


def test_material_every_ten_plies_from_the_honest_side(tmp_path: Path) -> None:
    # White takes a knight for a pawn: +2 for White from ply 5 on
    moves = ["e2e4", "g8f6", "b1c3", "f6e4", "c3e4", "d7d5", "e4c5", "e7e6", "d1g4", "e6e5"]
    games = tmp_path / "games.jsonl"
    with games.open("w") as out:
        for seats in (["ismcts?time=1.0", "twin"], ["twin", "ismcts?time=1.0"]):
            plies = [{str(i % 2): m} for i, m in enumerate(moves)]
            out.write(json.dumps({"seats": seats, "moves": plies}) + "\n")
    assert material([str(games)]) == [{"ply": 10, "games": 2, "mean": 0.0, "piece_down": 0.0}]
    assert material([str(games)], every=5) == [
        {"ply": 5, "games": 2, "mean": 0.0, "piece_down": 0.0},  # +2 for one, -2 the other
        {"ply": 10, "games": 2, "mean": 0.0, "piece_down": 0.0},
    ]
    with games.open("w") as out:
        out.write(
            json.dumps(
                {
                    "seats": ["twin", "ismcts"],
                    "moves": [{str(i % 2): m} for i, m in enumerate(moves)],
                }
            )
            + "\n"
        )
    assert material([str(games)]) == [{"ply": 10, "games": 1, "mean": -2.0, "piece_down": 0.0}]


def test_pieces_hung_after_a_move_and_whether_the_worlds_knew() -> None:
    # White's knight on f3 steps to e5, where the d6 pawn takes it; the queen on d1 hangs
    # nothing there. A king en prise counts 100 in the truth.
    board = chess.Board("4k3/8/3p4/8/8/5N2/8/3QK3 w - - 0 1")
    assert hung_after(board, chess.Move.from_uci("f3e5")) == 3.2
    assert hung_after(board, chess.Move.from_uci("f3h4")) == 0.0
    # a trade hangs nothing: the rook takes a rook its king guards, and the king retakes
    trade = chess.Board("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1")
    assert hung_after(trade, chess.Move.from_uci("d1d8")) == 0.0
    assert hung_after(chess.Board(HANGING), chess.Move.from_uci("a7a6")) == 100.0
    turns = [
        {"hung_in_truth": 3.2, "hung_in_worlds": 3.0, "least_hung": 0.0},  # knew
        {"hung_in_truth": 9.0, "hung_in_worlds": 0.5, "least_hung": 0.0},  # unseen
        {"hung_in_truth": 1.0, "hung_in_worlds": 1.0, "least_hung": 0.0},  # a pawn: not counted
        {"hung_in_truth": 100.0, "hung_in_worlds": 9.0, "least_hung": 0.0},  # the king: not
    ]
    assert material_faults(turns) == {"piece hung, knew": 1, "piece hung, unseen": 1}

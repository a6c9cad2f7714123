"""Chess analysed by Stockfish (server/analysis): the blunder of the issue's game is found,
the better move named, and the PGN carries lichess's eval comments and marks; the scale
(server/analysis/judgement.py) is lichess's."""

from __future__ import annotations

import io
import math

import chess
import chess.pgn
import pytest

from server.analysis.chess_analysis import analyse, annotated_pgn, final_score, pgn_text
from server.analysis.judgement import Score, judge, move_accuracy, winning_chances

STOCKFISH = "/usr/games/stockfish"
START = chess.STARTING_FEN
#: 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]


def test_the_scale_is_lichess_s() -> None:
    assert winning_chances(Score(cp=0)) == 0
    assert winning_chances(Score(cp=300)) == pytest.approx(2 / (1 + math.exp(-1.104624)) - 1)
    assert winning_chances(Score(cp=5000)) == winning_chances(Score(mate=3))  # the ceiling
    assert winning_chances(Score(mate=-2)) == pytest.approx(-winning_chances(Score(mate=2)))
    assert Score(over=1).flipped() == Score(over=-1)
    # 0.1, 0.2, 0.3 of winning chances lost: inaccuracy, mistake, blunder
    assert judge(Score(cp=0), Score(cp=-50)) is None
    loss = {cp: winning_chances(Score(cp=0)) - winning_chances(Score(cp=-cp)) for cp in range(1000)}
    first = {
        name: min(cp for cp, lost in loss.items() if judge(Score(cp=0), Score(cp=-cp)) == name)
        for name in ("inaccuracy", "mistake", "blunder")
    }
    assert loss[first["inaccuracy"]] >= 0.1 > loss[first["inaccuracy"] - 1]
    assert loss[first["mistake"]] >= 0.2 > loss[first["mistake"] - 1]
    assert loss[first["blunder"]] >= 0.3 > loss[first["blunder"] - 1]
    assert move_accuracy(Score(cp=40), Score(cp=40)) == pytest.approx(100, abs=0.01)
    assert move_accuracy(Score(cp=0), Score(over=-1)) < 10


def test_a_finished_position_needs_no_search() -> None:
    mated = chess.Board()
    for m in SCHOLAR:
        mated.push_uci(m)
    assert final_score(mated) == Score(over=1)  # White has mated
    assert final_score(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == Score(cp=0)  # stalemate
    assert final_score(chess.Board()) is None


def test_the_scholar_s_mate_blunder_is_found_and_written_as_lichess_writes_it() -> None:
    analysis = analyse(START, SCHOLAR, STOCKFISH, nodes=50_000)
    assert len(analysis.evals) == len(SCHOLAR) + 1 and len(analysis.plies) == len(SCHOLAR)
    nf6 = analysis.plies[5]
    assert (nf6.san, nf6.mover, nf6.judgement) == ("Nf6", 1, "blunder")
    assert nf6.best is not None and nf6.best_san not in (None, "Nf6")
    assert nf6.after == Score(mate=-1)  # Black is mated next move
    assert analysis.plies[6].judgement is None and analysis.evals[-1] == Score(over=1)
    assert analysis.players[1]["blunder"] == 1 and analysis.players[0]["blunder"] == 0
    black, white = analysis.players[1]["accuracy"], analysis.players[0]["accuracy"]
    assert isinstance(black, float) and isinstance(white, float) and black < white
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for m in SCHOLAR:
        node = node.add_variation(chess.Move.from_uci(m))
    text = pgn_text(annotated_pgn(game, analysis))
    assert "3... Nf6?? { Blunder. " in text and " was best. [%eval #1] }" in text, text
    assert "[%eval" in text.split("2. Qh5")[0]
    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None
    moves = list(read.mainline())
    assert chess.pgn.NAG_BLUNDER in moves[5].nags
    assert moves[5].eval() is not None and moves[5].eval().white() == chess.engine.Mate(1)

"""The rooms' FEN (placement from bitboards, castling field memoised) is python-chess's."""

from __future__ import annotations

import random

import chess
import pytest

from server.engine import compiled
from server.engine.chess_fen import (
    compiled_fen,
    fen,
    fen_of_ranks,
    placement,
    rank_text,
    rank_texts,
)
from server.engine.chess_game import ChessState, advance
from server.engine.dark_chess.views import square_names

from .test_chess_moves import TRICKY


def reference_placement(board: chess.Board, seen: int) -> str:
    """Square by square: a piece letter, ``1`` for an empty seen square, ``?`` unseen."""
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            sq = chess.square(file, rank)
            piece = board.piece_at(sq) if seen >> sq & 1 else None
            if seen >> sq & 1 and piece is None:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            text += piece.symbol() if piece else "?"
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def test_fen_and_fogged_placement_over_random_games() -> None:
    rng = random.Random(11)
    odd_rights = ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1"]
    checked = 0
    for game in range(120):
        board = chess.Board([*TRICKY, *odd_rights][game % (len(TRICKY) + 2)])
        for _ in range(120):
            expected = board.fen(en_passant="legal")
            assert fen(board) == expected
            assert compiled_fen(board) == expected  # the compiled core
            assert fen_of_ranks(board, rank_texts(board)) == expected  # the Python code
            seen = rng.getrandbits(64)
            assert placement(board, seen) == reference_placement(board, seen)
            assert placement(board) == board.board_fen()
            checked += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    assert checked > 5000


def test_a_state_after_a_move_draws_its_two_ranks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled core, a state's FEN reuses the ranks of the position before its
    move (when that FEN was drawn) and draws the two ranks the move touched again: castling,
    en passant and promotions included, with and without the earlier FEN known."""
    monkeypatch.setattr(compiled, "fen", None)
    rng = random.Random(5)
    reused = 0
    for game in range(150):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        state = ChessState(board.copy(), board.fen())
        for _ in range(100):
            if rng.random() < 0.9:  # sometimes the FEN of a position is never asked for
                reused += state.prev_ranks is not None
                assert state.fen() == board.fen(en_passant="legal")
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            state = advance(state, move)
    assert reused > 5000


def test_every_rank_text_is_python_chess_s() -> None:
    rng = random.Random(9)
    for _ in range(3000):
        board = chess.Board(None)
        for sq in rng.sample(range(64), rng.randrange(1, 40)):
            board.set_piece_at(sq, chess.Piece(rng.randrange(1, 7), rng.random() < 0.5))
        assert "/".join(rank_text(board, r) for r in range(7, -1, -1)) == board.board_fen()


def test_the_compiled_fen_of_random_boards() -> None:
    """Pieces anywhere, either side to move, castling rights on any corners (python-chess
    writes only the ones its cleaning keeps), clocks: the compiled FEN is python-chess's."""
    rng = random.Random(21)
    corners = [chess.BB_A1, chess.BB_H1, chess.BB_A8, chess.BB_H8]
    for _ in range(3000):
        board = chess.Board(None)
        for sq in rng.sample(range(64), rng.randrange(1, 40)):
            board.set_piece_at(sq, chess.Piece(rng.randrange(1, 7), rng.random() < 0.5))
        if rng.random() < 0.5:
            board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
        board.turn = rng.random() < 0.5
        board.castling_rights = sum(c for c in corners if rng.random() < 0.6)
        board.halfmove_clock, board.fullmove_number = rng.randrange(200), rng.randrange(1, 999)
        assert compiled_fen(board) == board.fen()
    # and the comparison can fail: the same board with a castling right python-chess keeps
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1")
    other = board.copy()
    other.castling_rights |= chess.BB_A1
    assert compiled_fen(other) != board.fen()


def test_a_wrong_placement_is_caught() -> None:
    """The reference can tell: a board with a piece moved gives another text."""
    board = chess.Board()
    other = chess.Board()
    other.push_uci("e2e4")
    assert reference_placement(other, chess.BB_ALL) != placement(board)


def test_square_names_a_rank_at_a_time() -> None:
    rng = random.Random(3)
    for _ in range(5000):
        bb = rng.getrandbits(64) & rng.getrandbits(64)
        assert square_names(bb) == [chess.square_name(s) for s in chess.scan_forward(bb)]
    assert square_names(0) == [] and square_names(chess.BB_ALL)[-1] == "h8"

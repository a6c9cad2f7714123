"""The rooms' FEN (the compiled core's, else python-chess's) is python-chess's; Dark Chess's
fogged placement is drawn square by square here too."""

from __future__ import annotations

import random

import chess

from server.engine.chess_fen import compiled_fen, fen, placement
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
    """The FEN a room draws (the compiled core's when it is in use) and the fog's placement."""
    rng = random.Random(11)
    odd_rights = ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1"]
    checked = 0
    for game in range(60):
        board = chess.Board([*TRICKY, *odd_rights][game % (len(TRICKY) + 2)])
        for _ in range(120):
            expected = board.fen(en_passant="legal")
            assert fen(board) == expected
            seen = rng.getrandbits(64)
            assert placement(board, seen) == reference_placement(board, seen)
            assert placement(board) == board.board_fen()
            checked += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    assert checked > 2500


def test_a_state_s_fen_along_random_games() -> None:
    """A state's FEN, asked for or not at each ply (castling, en passant, promotions)."""
    rng = random.Random(5)
    for game in range(60):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        state = ChessState(board.copy(), board.fen())
        for _ in range(100):
            if rng.random() < 0.9:  # sometimes the FEN of a position is never asked for
                assert state.fen() == board.fen(en_passant="legal")
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            state = advance(state, move)


def test_the_compiled_fen_of_random_boards() -> None:
    """The core's FEN along random games, and of random boards: pieces anywhere, either side
    to move, castling rights on any corners (python-chess writes only the ones its cleaning
    keeps), clocks."""
    rng = random.Random(21)
    for game in range(60):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        for _ in range(100):
            assert compiled_fen(board) == board.fen(en_passant="legal")
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
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

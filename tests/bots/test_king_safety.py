"""The chess king-safety term of the Python reference search (``tests/bots/chess_reference.py``:
``king_danger``, an option the served bot no longer has, kept with the reference that
docs/BOTS.md's ladder measured it on): attack units counted square by square from
python-chess's attackers, the same for both colours, and only with the ``safety`` option."""

from __future__ import annotations

import random

import chess

from server.bots.chess_eval import material_pst
from server.bots.pesto import FULL_PHASE

from .chess_reference import ChessPosition, king_danger, king_safety

UNITS = {chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 5}


def brute_danger(board: chess.Board, color: chess.Color) -> int:
    """The same danger from the other side: for every square of the king's zone, every enemy
    piece python-chess says attacks it."""
    king = board.king(color)
    if king is None:
        return 0
    zone = [king, *chess.SquareSet(chess.BB_KING_ATTACKS[king])]
    units, pieces = 0, set()
    for square in zone:
        for attacker in board.attackers(not color, square):
            piece = board.piece_type_at(attacker)
            if piece in UNITS:
                units += UNITS[piece]
                pieces.add(attacker)
    return min(500, 2 * units * units) if len(pieces) >= 2 else 0


def positions(n: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    out, board = [], chess.Board()
    while len(out) < n:
        moves = list(board.legal_moves)
        if not moves:
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        out.append(board.copy(stack=False))
    return out


def test_danger_agrees_with_the_attackers_square_by_square() -> None:
    dangerous = 0
    for board in positions(1500, 11):
        for color in (chess.WHITE, chess.BLACK):
            danger = king_danger(board, color)
            assert danger == brute_danger(board, color)
            dangerous += danger > 0
    assert dangerous > 30  # the positions do put kings in danger


def test_the_term_is_the_same_for_both_colours() -> None:
    for board in positions(300, 12):
        _, phase = material_pst(board)
        assert king_safety(board.mirror(), phase) == -king_safety(board, phase)


def test_a_lone_attacker_is_no_danger_and_the_term_fades_with_the_material() -> None:
    one = chess.Board("6k1/8/8/8/8/8/5q2/6K1 w - - 0 1")  # a queen alone next to the king
    assert king_danger(one, chess.WHITE) == 0
    two = chess.Board("6k1/8/8/8/8/5n2/5q2/6K1 w - - 0 1")  # and a knight
    assert king_danger(two, chess.WHITE) > 0
    assert king_safety(two, FULL_PHASE) == -king_danger(two, chess.WHITE)
    assert king_safety(two, 0) == 0


def test_only_the_safety_option_adds_the_term() -> None:
    board = chess.Board("6k1/8/8/8/8/5n2/5q2/6K1 w - - 0 1")
    plain = ChessPosition(board.copy()).evaluate()
    safe = ChessPosition(board.copy(), safety=True).evaluate()
    _, phase = material_pst(board)
    assert safe - plain == king_safety(board, phase) < 0

"""SAN of a move already played, from what the rooms computed anyway.

python-chess's ``Board.san`` generates legal moves twice: the moves of the position before
(to disambiguate ``Nbd7``) and, after pushing the move on a copy, those of the position
after (to tell ``+`` from ``#``). A room has both lists already — the position before was
rendered with its legal moves, and the position after needs them for its outcome — so a
move's :func:`rivals` are noted when it is played (a bitboard, not the list) and
:func:`san_of` spells the move from them with python-chess's own rules (the same text:
``tests/engine/test_chess_san.py`` compares the two over thousands of positions).
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

_LETTER = {t: chess.piece_symbol(t).upper() for t in chess.PIECE_TYPES}


def rivals(before: chess.Board, move: chess.Move, legal_before: Sequence[int]) -> int:
    """The squares of the other pieces of the mover's kind that could go where ``move``
    goes (a bitboard; what SAN disambiguates against), from the legal moves of ``before``
    (as :func:`server.engine.chess_moves.legal_codes` gives them)."""
    piece_type = before.piece_type_at(move.from_square)
    if piece_type == chess.PAWN or piece_type is None:
        return 0
    frm, to = move.from_square, move.to_square
    same = before.pieces_mask(piece_type, before.turn) & ~(1 << frm)
    others = 0
    for code in legal_before:
        o = code >> 6 & 63
        if code & 63 == to and same >> o & 1:
            others |= 1 << o
    return others


def san_of(
    before: chess.Board,
    move: chess.Move,
    others: int,
    check_after: bool,
    any_legal_after: bool,
) -> str:
    """``before.san(move)`` for a legal, non-null ``move`` of standard chess, given its
    :func:`rivals` and whether the position after is check and has a legal move."""
    if before.is_castling(move):
        san = "O-O-O" if move.to_square & 7 < move.from_square & 7 else "O-O"
    else:
        frm, to = move.from_square, move.to_square
        piece_type = before.piece_type_at(frm)
        capture = before.is_capture(move)
        if piece_type == chess.PAWN:
            san = chess.FILE_NAMES[frm & 7] if capture else ""
        else:
            assert piece_type is not None, f"{move} is not legal in {before.fen()}"
            san = _LETTER[piece_type]
            if others:
                column = bool(others & chess.BB_RANKS[frm >> 3])
                row = bool(others & chess.BB_FILES[frm & 7])
                if not row:
                    column = True
                if column:
                    san += chess.FILE_NAMES[frm & 7]
                if row:
                    san += chess.RANK_NAMES[frm >> 3]
        if capture:
            san += "x"
        san += chess.SQUARE_NAMES[to]
        if move.promotion:
            san += "=" + _LETTER[move.promotion]
    if check_after:
        return san + ("+" if any_legal_after else "#")
    return san

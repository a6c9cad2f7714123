"""FEN texts for the rooms' views: the compiled core's, python-chess's, and Dark Chess's fog.

A room renders a FEN for every position. The compiled core (``_chess_moves.c``) draws it
from the bitboards in one call; without it python-chess's ``board.fen()`` does (the same
text: ``tests/engine/test_chess_fen.py``). :func:`placement` draws Dark Chess's fogged
placement (``?`` on the squares a seat does not see), which python-chess has no text for.
"""

from __future__ import annotations

import chess

from . import compiled
from .chess_moves import Fields, standard_fields

_PIECES = [
    (color, piece_type, chess.Piece(piece_type, color).symbol())
    for color in (chess.WHITE, chess.BLACK)
    for piece_type in chess.PIECE_TYPES
]
_RUNS = [("1" * n, str(n)) for n in range(8, 1, -1)]
#: the eight cells of a rank by its seen squares (a byte): "1" seen, "?" not
_FOG = ["".join("1" if byte >> f & 1 else "?" for f in range(8)) for byte in range(256)]
#: a rank of eight cells ("1" empty, "?" unseen, else a piece letter) -> its FEN text
_RANKS: dict[str, str] = {}


def _rank_text(cells: str) -> str:
    text = _RANKS.get(cells)
    if text is None:
        text = cells
        for run, count in _RUNS:
            text = text.replace(run, count)
        if len(_RANKS) < 1 << 16:  # ranks recur across positions and games
            _RANKS[cells] = text
    return text


def placement(board: chess.BaseBoard, seen: int = chess.BB_ALL) -> str:
    """The placement field of a FEN, with ``?`` on the squares outside ``seen`` (Dark
    Chess's fog); with every square seen, ``board.board_fen()``."""
    if seen == chess.BB_ALL:
        cells = ["1"] * 64
    else:  # a rank at a time: "1" on the seen squares, "?" on the others
        cells = list("".join([_FOG[seen >> shift & 255] for shift in range(0, 64, 8)]))
    for color, piece_type, symbol in _PIECES:
        bb = board.pieces_mask(piece_type, color) & seen
        while bb:
            low = bb & -bb
            cells[low.bit_length() - 1] = symbol
            bb ^= low
    flat = "".join(cells)
    return "/".join(_rank_text(flat[start : start + 8]) for start in range(56, -8, -8))


def fen(board: chess.Board, fields: Fields | None = None) -> str:
    """``board.fen()`` (the en passant square only when a legal capture there exists), from
    the compiled core when it can answer. ``fields``: ``chess_moves.standard_fields(board)``,
    when the caller has them."""
    return compiled_fen(board, fields) or board.fen()


def compiled_fen(board: chess.Board, fields: Fields | None = None) -> str | None:
    """``board.fen()`` from the compiled core, or None when it cannot answer (not built, a
    board of another class, Chess960)."""
    draw, fields = compiled.fen, fields or standard_fields(board)
    if draw is None or fields is None:
        return None
    return draw(*fields, board.halfmove_clock, board.fullmove_number)


__all__ = ["compiled_fen", "fen", "placement"]

"""FEN texts from a python-chess board's bitboards, for the rooms' views.

python-chess builds ``board_fen()`` by asking every square for its piece (about 5x slower)
and its ``castling_xfen()`` costs as much again; a room renders a FEN for every position,
so here the placement is drawn from the bitboards a rank at a time, each rank's text
memoised, and the castling field memoised by what it depends on. The texts are
python-chess's own (``tests/engine/test_chess_fen.py``). :func:`placement` also draws
Dark Chess's fog (``?`` on the squares a seat does not see).
"""

from __future__ import annotations

from typing import Any

import chess

from . import compiled
from .chess_moves import standard_fields

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
    """The placement field of a FEN from the bitboards (python-chess asks every square: 5x
    slower), with ``?`` on the squares outside ``seen`` (dark chess's fog)."""
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
    rank = _rank_text
    return (
        f"{rank(flat[56:64])}/{rank(flat[48:56])}/{rank(flat[40:48])}/{rank(flat[32:40])}/"
        f"{rank(flat[24:32])}/{rank(flat[16:24])}/{rank(flat[8:16])}/{rank(flat[0:8])}"
    )


#: what ``castling_xfen`` gives, by what it depends on (standard chess)
_XFEN: dict[tuple[int, ...], str] = {}


def castling_xfen(board: chess.Board) -> str:
    """``board.castling_xfen()``: once per castling rights, kings and back-rank rooks."""
    rights = board.castling_rights
    if not rights:
        return "-"
    white, black = board.occupied_co
    back = chess.BB_RANK_1 | chess.BB_RANK_8
    key = (rights, board.kings & white, board.kings & black, board.rooks & back & white,
           board.rooks & back & black, board.chess960)  # fmt: skip
    text = _XFEN.get(key)
    if text is None:
        text = board.castling_xfen()
        if len(_XFEN) < 1 << 16:
            _XFEN[key] = text
    return text


def board_fen(board: chess.BaseBoard) -> str:
    """``board.board_fen()``, from the bitboards a rank at a time (:func:`rank_text`)."""
    return "/".join(reversed(rank_texts(board)))


def fen(board: chess.Board) -> str:
    """``board.fen()`` (the en passant square only when a legal capture there exists)."""
    return compiled_fen(board) or fen_of_ranks(board, rank_texts(board))


def compiled_fen(board: chess.Board, fields: tuple[Any, ...] | None = None) -> str | None:
    """``board.fen()`` from the compiled core, or None when it cannot answer (not built, a
    board of another class, Chess960). ``fields``: ``chess_moves.standard_fields(board)``,
    when the caller has them."""
    draw, fields = compiled.fen, fields or standard_fields(board)
    if draw is None or fields is None:
        return None
    return draw(*fields, board.halfmove_clock, board.fullmove_number)


def fen_of_ranks(board: chess.Board, ranks: list[str]) -> str:
    """:func:`fen` of ``board`` whose :func:`rank_texts` are ``ranks``: a position one move
    after another passes the other's, with the ranks its move touched drawn again (a
    standard chess move changes only the ranks of its from- and to-squares: castling's rook
    and an en passant capture's pawn stand on the from-square's rank)."""
    ep = board.ep_square
    ep_name = chess.SQUARE_NAMES[ep] if ep is not None and board.has_legal_en_passant() else "-"
    placed = "/".join(reversed(ranks))
    return (
        f"{placed} {'w' if board.turn else 'b'} {castling_xfen(board)} {ep_name} "
        f"{board.halfmove_clock} {board.fullmove_number}"
    )


#: a rank's FEN text by its pieces: the rank's byte of the occupied squares, of White's,
#: then of the pawns, knights, bishops, rooks and queens (the rest are kings), one int
_BY_BITS: dict[int, str] = {}


def rank_text(board: chess.BaseBoard, rank: int) -> str:
    """The FEN text of ``rank`` (0 is the first rank), from the bitboards."""
    s = rank << 3
    occ = board.occupied >> s & 255
    if not occ:
        return "8"
    key = (
        occ
        | (board.occupied_co[chess.WHITE] >> s & 255) << 8
        | (board.pawns >> s & 255) << 16
        | (board.knights >> s & 255) << 24
        | (board.bishops >> s & 255) << 32
        | (board.rooks >> s & 255) << 40
        | (board.queens >> s & 255) << 48
    )
    text = _BY_BITS.get(key)
    if text is None:
        text = _draw_rank(key)
        if len(_BY_BITS) < 1 << 16:  # ranks recur across positions and games
            _BY_BITS[key] = text
    return text


def _draw_rank(key: int) -> str:
    cells = []
    for f in range(8):
        if not key >> f & 1:
            cells.append("1")
            continue
        piece_type = chess.KING
        for i, kind in enumerate(_TYPES, 2):
            if key >> (8 * i + f) & 1:
                piece_type = kind
                break
        symbol = chess.piece_symbol(piece_type)
        cells.append(symbol.upper() if key >> (8 + f) & 1 else symbol)
    return _rank_text("".join(cells))


_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def rank_texts(board: chess.BaseBoard) -> list[str]:
    """The FEN texts of the eight ranks, the first rank first."""
    return [rank_text(board, r) for r in range(8)]


__all__ = [
    "board_fen", "castling_xfen", "compiled_fen", "fen", "fen_of_ranks", "placement",
    "rank_text", "rank_texts",
]  # fmt: skip

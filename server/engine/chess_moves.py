"""Legal chess moves as small integers, in python-chess's own order, without Move objects.

A room needs a position's legal moves as texts (the mover's ``legal`` list), a yes/no for
its outcome and, once the next move is played, the moves that SAN disambiguates against.
python-chess builds them as a generator of ``Move`` objects, each checked for safety one by
one; the compiled core (``_chess_moves.c``, see :mod:`.compiled`) gives the same moves, in
the same order, as ``code = promotion << 12 | from << 6 | to``, with whole bitboards checked
at once, and pushes a move, spells its SAN and tells check and insufficient material.

One implementation of each, and python-chess: every function here answers from the
compiled core when it can (a standard ``chess.Board``, not Chess960, the core built and not
switched off by ``KIBITZ_PURE_PYTHON=1``) and from python-chess otherwise — the same
answers, slower. ``tests/engine/test_chess_moves.py`` holds the core to python-chess list for
list over many thousands of positions; ``KIBITZ_PURE_PYTHON=1`` runs the fallback in CI.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import chess

from . import compiled
from .compiled import COMPILED

#: what the compiled core reads of a board (:func:`standard_fields`)
Fields = tuple[Any, ...]
#: a board of python-chess's class or of a subclass moving by its steps (Dark Chess's)
BoardT = TypeVar("BoardT", bound=chess.Board)


def standard_fields(board: chess.Board) -> Fields | None:
    """What the compiled core reads of ``board`` (:func:`board_fields`), or None when it
    cannot answer for it: not built, a board of another class (a variant, a test's
    deliberately broken board), Chess960."""
    if compiled.gen is None or type(board) is not chess.Board or board.chess960:
        return None
    return board_fields(board)


def board_fields(board: chess.Board) -> Fields:
    """What the compiled chess core (and Dark Chess's search on it) reads of a board: turn,
    the six piece sets, White's and Black's squares, promoted, the en passant square (-1:
    none), castling rights."""
    ep = board.ep_square
    black, white = board.occupied_co  # indexed by colour: chess.BLACK is 0
    return (
        board.turn,
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.promoted,
        -1 if ep is None else ep,
        board.castling_rights,
    )


def legal_codes(board: chess.Board, to_mask: int = -1, fields: Fields | None = None) -> list[int]:
    """``[code_of(m) for m in board.generate_legal_moves(to_mask=to_mask)]``, from the
    compiled core when it can answer. ``fields``: :func:`standard_fields` of ``board``, when
    the caller has them."""
    fields, gen = fields or standard_fields(board), compiled.gen
    if fields is not None and gen is not None:
        out = gen(0, *fields, to_mask & chess.BB_ALL)
        if out is not None:  # None: no king (python-chess answers for that board)
            return out
    return codes_of(board.generate_legal_moves(to_mask=to_mask & chess.BB_ALL))


def codes_of(moves: Iterable[chess.Move]) -> list[int]:
    """The codes of ``moves``, in their order."""
    return [(m.promotion or 0) << 12 | m.from_square << 6 | m.to_square for m in moves]


def board_status(board: chess.Board, fields: Fields | None = None) -> int:
    """``board.is_check() | board.is_insufficient_material() << 1``."""
    fields, compiled_status = fields or standard_fields(board), compiled.status
    if fields is not None and compiled_status is not None:
        return compiled_status(*fields)
    return board.is_check() | board.is_insufficient_material() << 1


def compiled_status(board: chess.Board, fields: Fields | None = None) -> int | None:
    """:func:`board_status` from the compiled core, or None when it cannot answer (the tests hold
    it to python-chess)."""
    fields, compiled_status = fields or standard_fields(board), compiled.status
    return None if fields is None or compiled_status is None else compiled_status(*fields)


def compiled_san(
    board: chess.Board,
    move: chess.Move,
    legal: list[int],
    check_after: bool,
    any_after: bool,
    fields: Fields | None = None,
) -> str | None:
    """``board.san(move)`` of a legal ``move`` from the compiled core, given ``board``'s
    legal moves as codes and whether the position after is check and has a legal move; None
    when it cannot answer (python-chess's ``board.san`` then does)."""
    fields, san = fields or standard_fields(board), compiled.san
    if fields is None or san is None:
        return None
    return san(*fields, code_of(move), legal, check_after, any_after)


def position_key(board: chess.Board) -> tuple[Any, ...]:
    """What makes two positions the same for the repetition rules: the pieces, the side to
    move, the castling rights that can still be used and the en passant square when a legal
    capture there exists — python-chess's own criterion (its ``is_repetition``), from its
    public API; :func:`compiled_play` gives the same tuple."""
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.turn,
        board.clean_castling_rights(),
        board.ep_square if board.has_legal_en_passant() else None,
    )


def compiled_play(
    board: BoardT, move: chess.Move, fields: Fields | None = None
) -> tuple[BoardT, bool, tuple[Any, ...], Fields] | None:
    """The compiled core's push of a legal ``move`` on a standard ``board``, or None when it
    cannot answer (the caller pushes with python-chess): ``(after, irreversible, key,
    fields)`` — the board after (of ``board``'s class, an empty move list: the caller sets
    it), ``board.is_irreversible(move)``, :func:`position_key` of ``after`` and its
    :func:`standard_fields`. Held to python-chess attribute by attribute in the tests.

    A Dark Chess board (a ``chess.Board`` subclass moving by the same steps) passes its
    :func:`board_fields`: its pseudo-legal moves are pushed as python-chess pushes them, and
    its own key is its own (``key`` judges en passant by the legal moves)."""
    fields, play = fields or standard_fields(board), compiled.play
    if fields is None or play is None or move.drop or board.chess960:
        return None
    out = play(*fields, board.halfmove_clock, board.fullmove_number, code_of(move))
    pawns, knights, bishops, rooks, queens, kings, white, black, promoted = out[:9]
    turn, castling, ep, half, full, irreversible, clean, key_ep = out[9:]
    # python-chess's public board attributes, set on an empty board (its public constructor)
    after = type(board).empty()
    after.pawns, after.knights, after.bishops = pawns, knights, bishops
    after.rooks, after.queens, after.kings = rooks, queens, kings
    after.occupied_co[chess.WHITE] = white
    after.occupied_co[chess.BLACK] = black
    after.occupied = white | black
    after.promoted = promoted
    after.turn = turn
    after.castling_rights = castling
    after.ep_square = ep
    after.halfmove_clock = half
    after.fullmove_number = full
    key = (pawns, knights, bishops, rooks, queens, kings, white, black, turn, clean, key_ep)
    after_fields = (
        turn,
        pawns,
        knights,
        bishops,
        rooks,
        queens,
        kings,
        white,
        black,
        promoted,
        -1 if ep is None else ep,
        castling,
    )
    return after, irreversible, key, after_fields


def dark_codes(board: chess.Board) -> list[int]:
    """Dark Chess's moves on ``board`` (a ``DarkBoard`` whose kings both stand) as codes, in
    python-chess's order: the compiled core's when it can answer, else :func:`pseudo_codes`.
    Held to python-chess list for list in the tests."""
    gen = compiled.gen
    if gen is not None and not board.chess960:
        out = gen(3, *board_fields(board), chess.BB_ALL)
        if out is not None:
            return out
    return pseudo_codes(board)


def pseudo_codes(board: chess.Board) -> list[int]:
    """``board.generate_pseudo_legal_moves()`` as codes, in its order (Dark Chess: the king
    may step onto an attacked square; castling as ``board`` has it — ``DarkBoard`` castles
    OpenSpiel's way)."""
    return codes_of(board.generate_pseudo_legal_moves())


#: the UCI text of every from-to pair (promotions aside), interned
_UCI = [sys.intern(chess.SQUARE_NAMES[i >> 6] + chess.SQUARE_NAMES[i & 63]) for i in range(4096)]


def uci_texts(codes: Sequence[int]) -> list[str]:
    """The UCI texts of :mod:`.chess_moves` codes, interned."""
    texts = compiled.texts
    if texts is not None and type(codes) is list:
        return texts(codes)
    return python_uci_texts(codes)


def python_uci_texts(codes: Sequence[int]) -> list[str]:
    """:func:`uci_texts` without the compiled core (the fallback, and the tests' reference:
    python-chess's ``Move.uci`` for promotions)."""
    return [_UCI[c] if c < 4096 else sys.intern(to_move(c).uci()) for c in codes]


#: every code's ``chess.Move``, made once (at most 6 times 4,096: a move is never changed)
_MOVES: dict[int, chess.Move] = {}


def to_move(code: int) -> chess.Move:
    """The ``chess.Move`` of a code."""
    move = _MOVES.get(code)
    if move is None:
        move = _MOVES[code] = chess.Move(code >> 6 & 63, code & 63, code >> 12 or None)
    return move


def to_moves(codes: Sequence[int]) -> list[chess.Move]:
    """``[to_move(c) for c in codes]``, faster."""
    made = _MOVES.get
    return [made(c) or to_move(c) for c in codes]


def code_of(move: chess.Move) -> int:
    """The code of ``move`` (:func:`to_move` the other way)."""
    return (move.promotion or 0) << 12 | move.from_square << 6 | move.to_square


__all__ = [
    "COMPILED",
    "Fields",
    "board_status",
    "code_of",
    "codes_of",
    "compiled_play",
    "compiled_san",
    "compiled_status",
    "dark_codes",
    "legal_codes",
    "position_key",
    "pseudo_codes",
    "python_uci_texts",
    "standard_fields",
    "to_move",
    "to_moves",
    "uci_texts",
]

"""Legal chess moves as small integers, in python-chess's own order, without Move objects.

A room needs a position's legal moves as texts (the mover's ``legal`` list), a yes/no for
its outcome and, once the next move is played, the rivals that SAN disambiguates against.
python-chess builds them as a generator of ``Move`` objects, each checked for safety one by
one; :func:`legal_codes` gives the same moves, in the same order, as ``code = promotion << 12
| from << 6 | to``, with whole bitboards checked at once (pins by a ray mask, the king's
squares one by one). ``tests/engine/test_chess_moves.py`` compares it with
``Board.generate_legal_moves`` list for list over many thousands of positions.

Standard chess only (no Chess960 castling, no variants): the game's boards.

The generator is compiled (``_chess_moves.c``, see :mod:`.compiled`) when a C compiler was
there at install time; otherwise, and for a board of another class, the pure-Python
generator below (``python_legal_codes`` and its kin) gives the very same lists, slower.
``COMPILED`` says which one runs. The tests hold both to python-chess.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import chess
from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_ATTACKS,
    BB_FILE_MASKS,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_RAYS,
    BB_SQUARES,
)

from . import compiled
from .compiled import COMPILED

_BETWEEN = chess.between
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_PROMOTIONS = (chess.QUEEN << 12, chess.ROOK << 12, chess.BISHOP << 12, chess.KNIGHT << 12)


def _squares(bb: int) -> list[int]:
    """The squares of ``bb``, highest first (python-chess's ``scan_reversed`` order)."""
    out = []
    while bb:
        sq = bb.bit_length() - 1
        out.append(sq)
        bb ^= 1 << sq
    return out


def _safe_squares(board: chess.Board, enemy: bool, targets: int) -> list[int]:
    """The squares of ``targets`` (highest first) that no piece of ``enemy`` attacks on the
    board as it stands: ``board.is_attacked_by`` with the piece sets read once, for the
    king's steps (the board's own occupancy is right for them: see :func:`legal_codes`)."""
    out: list[int] = []
    if not targets:
        return out
    occ = board.occupied
    them = board.occupied_co[enemy]
    knights = board.knights & them
    kings = board.kings & them
    pawns = board.pawns & them
    pawn_attacks = BB_PAWN_ATTACKS[not enemy]
    straight = (board.rooks | board.queens) & them
    diagonal = (board.bishops | board.queens) & them
    while targets:
        sq = targets.bit_length() - 1
        targets ^= 1 << sq
        if BB_KNIGHT_ATTACKS[sq] & knights or BB_KING_ATTACKS[sq] & kings:
            continue
        if pawn_attacks[sq] & pawns:
            continue
        if straight and straight & (
            BB_RANK_ATTACKS[sq][BB_RANK_MASKS[sq] & occ]
            | BB_FILE_ATTACKS[sq][BB_FILE_MASKS[sq] & occ]
        ):
            continue
        if diagonal and diagonal & BB_DIAG_ATTACKS[sq][BB_DIAG_MASKS[sq] & occ]:
            continue
        out.append(sq)
    return out


def python_legal_codes(board: chess.Board, to_mask: int = -1) -> list[int]:
    """``[m.promotion << 12 | m.from_square << 6 | m.to_square for m in
    board.generate_legal_moves(to_mask=to_mask)]`` (``promotion`` 0 for none), for a
    standard board."""
    turn = board.turn
    us = board.occupied_co[turn]
    them = board.occupied_co[not turn]
    occ = board.occupied
    kings = board.kings & us
    if not kings or board.chess960:
        return [
            code_of(m) for m in board.generate_legal_moves(to_mask=to_mask & chess.BB_ALL)
        ]
    king = kings.bit_length() - 1
    checkers = board.attackers_mask(not turn, king)
    pinned = board._slider_blockers(king)
    out: list[int] = []
    enemy = not turn
    if checkers:
        sliders = checkers & (board.bishops | board.rooks | board.queens)
        beyond = 0
        for checker in _squares(sliders):
            beyond |= BB_RAYS[king][checker] & ~BB_SQUARES[checker]
        # the king still stands on its square here: a slider's squares beyond it are in
        # ``beyond``; every other square sees the same attackers without it
        steps = BB_KING_ATTACKS[king] & ~us & ~beyond & to_mask
        for to in _safe_squares(board, enemy, steps):
            out.append(king << 6 | to)
        if checkers & (checkers - 1):
            return out  # double check: the king moves
        checker = checkers.bit_length() - 1
        target = _BETWEEN(king, checker) | checkers
        _pseudo(board, turn, us, them, occ, ~board.kings, target & to_mask, king, pinned, out)
        ep = board.ep_square
        if (
            ep is not None
            and not BB_SQUARES[ep] & target
            and BB_SQUARES[ep] & to_mask
            and ep + (-8 if turn else 8) == checker
        ):
            _en_passant(board, turn, us, occ, out)
        return out
    _pseudo(board, turn, us, them, occ, -1, to_mask, king, pinned, out)
    return out


def python_legal_capture_codes(board: chess.Board) -> list[int]:
    """``board.generate_legal_captures()`` as codes, in its order: the legal moves onto an
    enemy piece, then the legal en passant captures."""
    out = python_legal_codes(board, board.occupied_co[not board.turn])
    if board.ep_square is not None:
        _en_passant(board, board.turn, board.occupied_co[board.turn], board.occupied, out)
    return out


def python_pseudo_capture_codes(board: chess.Board) -> list[int]:
    """``board.generate_pseudo_legal_captures()`` as codes, in its order."""
    turn = board.turn
    us, them = board.occupied_co[turn], board.occupied_co[not turn]
    out: list[int] = []
    _pseudo(board, turn, us, them, board.occupied, -1, them, 0, 0, out, legal=False)
    if board.ep_square is not None:
        _en_passant(board, turn, us, board.occupied, out, legal=False)
    return out


def _pseudo(
    board: chess.Board,
    turn: bool,
    us: int,
    them: int,
    occ: int,
    from_mask: int,
    to_mask: int,
    king: int,
    pinned: int,
    out: list[int],
    legal: bool = True,
) -> None:
    """python-chess's ``generate_pseudo_legal_moves(from_mask, to_mask)``, legal ones only
    (``pinned``, the king's steps, en passant); with ``legal=False`` and no pins, all."""
    append = out.append
    knights, bishops, rooks, queens, kings = (
        board.knights, board.bishops, board.rooks, board.queens, board.kings,
    )  # fmt: skip
    free = ~us & to_mask
    pieces = us & ~board.pawns & from_mask
    while pieces:
        frm = pieces.bit_length() - 1
        bb = 1 << frm
        pieces ^= bb
        if bb & knights:
            targets = BB_KNIGHT_ATTACKS[frm] & free
        elif bb & kings:
            if not legal:
                targets = BB_KING_ATTACKS[frm] & free
            else:
                for to in _safe_squares(board, not turn, BB_KING_ATTACKS[frm] & free):
                    append(frm << 6 | to)
                continue
        else:
            targets = 0
            if bb & (rooks | queens):
                targets = (
                    BB_RANK_ATTACKS[frm][BB_RANK_MASKS[frm] & occ]
                    | BB_FILE_ATTACKS[frm][BB_FILE_MASKS[frm] & occ]
                )
            if bb & (bishops | queens):
                targets |= BB_DIAG_ATTACKS[frm][BB_DIAG_MASKS[frm] & occ]
            targets &= free
        if bb & pinned:
            targets &= BB_RAYS[king][frm]
        base = frm << 6
        while targets:
            to = targets.bit_length() - 1
            targets ^= 1 << to
            append(base | to)
    if from_mask & kings and board.castling_rights & us:
        for move in board.generate_castling_moves(from_mask, to_mask):
            append(move.from_square << 6 | move.to_square)
    pawns = board.pawns & us & from_mask
    if not pawns:
        return
    attacks = BB_PAWN_ATTACKS[turn]
    capturers = pawns
    while capturers:
        frm = capturers.bit_length() - 1
        capturers ^= 1 << frm
        targets = attacks[frm] & them & to_mask
        if not targets:
            continue
        if (1 << frm) & pinned:
            targets &= BB_RAYS[king][frm]
        _pawn_moves(frm, targets, append)
    if turn:
        single = pawns << 8 & ~occ
        double = single << 8 & ~occ & (chess.BB_RANK_3 | chess.BB_RANK_4)
        back = -8
    else:
        single = pawns >> 8 & ~occ
        double = single >> 8 & ~occ & (chess.BB_RANK_6 | chess.BB_RANK_5)
        back = 8
    single &= to_mask
    while single:
        to = single.bit_length() - 1
        single ^= 1 << to
        frm = to + back
        if (1 << frm) & pinned and not BB_RAYS[king][frm] & (1 << to):
            continue
        if (1 << to) & _BACK_RANKS:
            _pawn_moves(frm, 1 << to, append)
        else:
            append(frm << 6 | to)
    double &= to_mask
    while double:
        to = double.bit_length() - 1
        double ^= 1 << to
        frm = to + 2 * back
        if (1 << frm) & pinned and not BB_RAYS[king][frm] & (1 << to):
            continue
        append(frm << 6 | to)
    if board.ep_square is not None and to_mask & BB_SQUARES[board.ep_square]:
        _en_passant(board, turn, us, occ, out, legal)


def standard_fields(board: chess.Board) -> tuple[Any, ...] | None:
    """What the compiled core reads of ``board`` — turn, the six piece sets, White's and
    Black's squares, promoted, the en passant square (-1: none), castling rights — or None
    when it cannot answer for it: not built, a board of another class (a variant, a test's
    deliberately broken board), Chess960."""
    if compiled.gen is None or type(board) is not chess.Board or board.chess960:
        return None
    ep = board.ep_square
    black, white = board.occupied_co  # indexed by colour: chess.BLACK is 0
    return (
        board.turn, board.pawns, board.knights, board.bishops, board.rooks, board.queens,
        board.kings, white, black, board.promoted, -1 if ep is None else ep,
        board.castling_rights,
    )  # fmt: skip


Fields = tuple[Any, ...]


def _compiled_codes(
    board: chess.Board, mode: int, to_mask: int, fields: Fields | None = None
) -> list[int] | None:
    """The compiled generator's list (mode 0: legal moves onto ``to_mask``, 1: legal
    captures, 2: pseudo-legal captures), or None when it cannot answer (no king either).
    ``fields``: :func:`standard_fields` of ``board``, when the caller has them."""
    fields, gen = fields or standard_fields(board), compiled.gen
    if fields is None or gen is None:
        return None
    return gen(mode, *fields, to_mask & chess.BB_ALL)


def compiled_status(board: chess.Board, fields: Fields | None = None) -> int | None:
    """``board.is_check() | board.is_insufficient_material() << 1`` from the compiled core,
    or None when it cannot answer."""
    fields, status = fields or standard_fields(board), compiled.status
    return None if fields is None or status is None else status(*fields)


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
    when it cannot answer."""
    fields, san = fields or standard_fields(board), compiled.san
    if fields is None or san is None:
        return None
    return san(*fields, code_of(move), legal, check_after, any_after)


def compiled_play(
    board: chess.Board, move: chess.Move, fields: Fields | None = None
) -> tuple[chess.Board, bool, tuple[Any, ...], Fields] | None:
    """The compiled core's push of a legal ``move`` on a standard ``board``, or None when it
    cannot answer: ``(after, irreversible, key, fields)`` — the board after (no stack, an
    empty move list: the caller sets it), ``board.is_irreversible(move)``, ``after``'s
    ``_transposition_key()`` and its :func:`standard_fields`. Held to python-chess attribute
    by attribute in the tests."""
    fields, play = fields or standard_fields(board), compiled.play
    if fields is None or play is None or move.drop:
        return None
    (pawns, knights, bishops, rooks, queens, kings, white, black, promoted, turn, castling, ep,
     half, full, irreversible, clean, key_ep) = play(
        *fields, board.halfmove_clock, board.fullmove_number, code_of(move)
    )  # fmt: skip
    after = _NEW_BOARD(chess.Board)
    after.pawns, after.knights, after.bishops = pawns, knights, bishops
    after.rooks, after.queens, after.kings = rooks, queens, kings
    after.occupied_co = [black, white]
    after.occupied = white | black
    after.promoted = promoted
    after.chess960 = False
    after.turn = turn
    after.castling_rights = castling
    after.ep_square = ep
    after.halfmove_clock = half
    after.fullmove_number = full
    after.move_stack = []
    after._stack = []
    key = (pawns, knights, bishops, rooks, queens, kings, white, black, turn, clean, key_ep)
    fields = (turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted,
              -1 if ep is None else ep, castling)  # fmt: skip
    return after, irreversible, key, fields


#: a board without running ``Board.__init__`` (which parses a FEN): every attribute is set
_NEW_BOARD = object.__new__


def legal_codes(board: chess.Board, to_mask: int = -1, fields: Fields | None = None) -> list[int]:
    """``[m.promotion << 12 | m.from_square << 6 | m.to_square for m in
    board.generate_legal_moves(to_mask=to_mask)]`` (``promotion`` 0 for none)."""
    out = _compiled_codes(board, 0, to_mask, fields)
    return python_legal_codes(board, to_mask) if out is None else out


def legal_capture_codes(board: chess.Board) -> list[int]:
    """``board.generate_legal_captures()`` as codes, in its order."""
    out = _compiled_codes(board, 1, -1)
    return python_legal_capture_codes(board) if out is None else out


def pseudo_capture_codes(board: chess.Board) -> list[int]:
    """``board.generate_pseudo_legal_captures()`` as codes, in its order."""
    out = _compiled_codes(board, 2, -1)
    return python_pseudo_capture_codes(board) if out is None else out


def pseudo_codes(board: chess.Board) -> list[int]:
    """``board.generate_pseudo_legal_moves()`` as codes, in its order (the king may step
    onto an attacked square; castling and en passant as ``board`` has them: Dark Chess's
    ``DarkBoard`` castles OpenSpiel's way)."""
    turn = board.turn
    out: list[int] = []
    us = board.occupied_co[turn]
    _pseudo(board, turn, us, board.occupied_co[not turn], board.occupied, -1, -1, 0, 0, out,
            legal=False)  # fmt: skip
    return out


def _pawn_moves(frm: int, targets: int, append: Callable[[int], None]) -> None:
    base = frm << 6
    for to in _squares(targets):
        if (1 << to) & _BACK_RANKS:
            for promotion in _PROMOTIONS:
                append(promotion | base | to)
        else:
            append(base | to)


def _en_passant(
    board: chess.Board, turn: bool, us: int, occ: int, out: list[int], legal: bool = True
) -> None:
    """The legal en passant captures (rare: checked the slow, sure way); all of them
    (pseudo-legal) with ``legal=False``."""
    ep = board.ep_square
    assert ep is not None
    if BB_SQUARES[ep] & occ:
        return
    capturers = board.pawns & us & BB_PAWN_ATTACKS[not turn][ep] & chess.BB_RANKS[4 if turn else 3]
    for frm in _squares(capturers):
        if not legal or board.is_legal(chess.Move(frm, ep)):
            out.append(frm << 6 | ep)


#: the UCI text of every from-to pair (promotions aside), interned
_UCI = [sys.intern(chess.SQUARE_NAMES[i >> 6] + chess.SQUARE_NAMES[i & 63]) for i in range(4096)]


def uci_texts(codes: Sequence[int]) -> list[str]:
    """The UCI texts of :mod:`.chess_moves` codes, interned."""
    texts = compiled.texts
    if texts is not None and type(codes) is list:
        return texts(codes)
    return python_uci_texts(codes)


def python_uci_texts(codes: Sequence[int]) -> list[str]:
    """:func:`uci_texts` in Python (the fallback, and the tests' reference)."""
    return [_UCI[c] if c < 4096 else sys.intern(to_move(c).uci()) for c in codes]


def to_move(code: int) -> chess.Move:
    """The ``chess.Move`` of a code."""
    return chess.Move(code >> 6 & 63, code & 63, code >> 12 or None)


def code_of(move: chess.Move) -> int:
    """The code of ``move`` (:func:`to_move` the other way)."""
    return (move.promotion or 0) << 12 | move.from_square << 6 | move.to_square


__all__ = [
    "COMPILED",
    "code_of",
    "compiled_play",
    "compiled_san",
    "compiled_status",
    "legal_capture_codes",
    "legal_codes",
    "pseudo_capture_codes",
    "pseudo_codes",
    "python_legal_capture_codes",
    "python_legal_codes",
    "python_pseudo_capture_codes",
    "standard_fields",
    "to_move",
]  # fmt: skip

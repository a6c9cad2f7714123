"""The position the chess search plays on: one python-chess board, pushed and popped.

:class:`ChessPosition` hands :mod:`server.bots.alphabeta` its moves as
:mod:`server.engine.chess_moves` codes (ints, in python-chess's order: cheap to make, order,
compare and hash), makes and unmakes them on the board's bitboards itself (python-chess's
``push`` for standard chess, without its move stack) and keeps the evaluation
(:mod:`.chess_eval`) up to date on the way. :class:`PythonChessPosition` is the same position
on python-chess's own moves and push: the reference the tests check it against move for move
and field by field, and the anchor of ``kibitz bench --engine``'s search speed. It also
serves Dark Chess worlds (king capture instead of mate: ``king_capture=True``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import chess

from server.engine.chess_moves import (
    code_of,
    compiled_status,
    legal_capture_codes,
    legal_codes,
    pseudo_capture_codes,
    pseudo_codes,
    to_move,
)

from .chess_eval import (
    MATE,
    PHASE,
    PST,
    VALUE,
    king_safety,
    king_terms,
    material_pst,
    move_delta,
    position_key,
)
from .pesto import PESTO, pawn_structure, taper

#: the ``chess.Move`` of every code the search has pushed (one shared object a code)
_MOVES: list[chess.Move | None] = [None] * (chess.QUEEN + 1 << 12)


def move_of(code: int) -> chess.Move:
    """The ``chess.Move`` of a :mod:`server.engine.chess_moves` code (made once)."""
    move = _MOVES[code]
    if move is None:
        move = _MOVES[code] = to_move(code)
    return move


_KING_HOMES = (chess.E1, chess.E8)
#: the castling rights a side keeps when its king moves (the other side's back rank)
_KEEP_RIGHTS = {chess.WHITE: ~chess.BB_RANK_1, chess.BLACK: ~chess.BB_RANK_8}


def _piece_on(board: chess.Board, square: int) -> chess.PieceType:
    """The type of the piece on ``square`` (a bit; the square is occupied)."""
    if board.pawns & square:
        return chess.PAWN
    if board.knights & square:
        return chess.KNIGHT
    if board.bishops & square:
        return chess.BISHOP
    if board.rooks & square:
        return chess.ROOK
    if board.queens & square:
        return chess.QUEEN
    return chess.KING


def _move_piece(board: chess.Board, piece: chess.PieceType, squares: int) -> None:
    """Flip ``squares`` in the set of ``piece`` (from and to: a move; one square: a piece
    taken, or put on an empty square)."""
    if piece == chess.PAWN:
        board.pawns ^= squares
    elif piece == chess.KNIGHT:
        board.knights ^= squares
    elif piece == chess.BISHOP:
        board.bishops ^= squares
    elif piece == chess.ROOK:
        board.rooks ^= squares
    elif piece == chess.QUEEN:
        board.queens ^= squares
    else:
        board.kings ^= squares


class ChessPosition:
    """A python-chess board searched by push/pop with an incremental evaluation.

    Its moves are :mod:`server.engine.chess_moves` codes (ints), generated from the
    bitboards in python-chess's own order: cheaper to make than ``chess.Move`` objects, and
    to order, compare and hash in the search (``tests/bots/test_alphabeta.py`` checks that
    the search is move for move the one on python-chess's moves).

    Args:
        board: the board to search (mutated during the search, restored afterwards).
        king_capture: Dark Chess rules: moves are pseudo-legal, taking the king wins.
        history: position keys before the current one (repetitions count as draws).
        safety: add :func:`king_safety` to the evaluation (pieces striking a king's zone).
        pesto: PeSTO's tapered tables (:mod:`.pesto`) instead of the simplified ones.
        pawns: with ``pesto``, add :func:`~server.bots.pesto.pawn_structure` (passed,
            isolated and doubled pawns).
    """

    def __init__(
        self,
        board: chess.Board,
        *,
        king_capture: bool = False,
        history: list[Hashable] | None = None,
        safety: bool = False,
        pesto: bool = False,
        pawns: bool = False,
    ) -> None:
        # python-chess cleans the castling rights at its first push (rooks and kings not
        # on their squares lose them); this board is pushed here, so clean them now, before
        # the first key
        board.castling_rights = board.clean_castling_rights()
        self.board = board
        self.king_capture = king_capture
        self.safety = safety
        self.pesto = pesto
        self.pawns = pawns and pesto  # packed like PeSTO's tables
        self.pst = PESTO if pesto else PST
        score, phase = material_pst(board, self.pst)
        self.scores = [score]
        self.phases = [phase]
        self.keys: list[Hashable] = [*(history or []), position_key(board)]
        #: what :meth:`push` changed, to :meth:`pop` it back
        self.undo: list[tuple[Any, ...]] = []
        #: :meth:`status` of the position whose key (the very object) is ``_status_of``
        self._status = 0
        self._status_of: Hashable | None = None

    # -- the protocol of alphabeta.Position ----------------------------------------------

    def key(self) -> Hashable:
        return self.keys[-1]

    def moves(self) -> list[int]:
        """The moves as :mod:`server.engine.chess_moves` codes (ints: cheap to order, compare
        and hash), in python-chess's order; :meth:`push` takes a code or a ``chess.Move``."""
        if self.king_capture:
            return pseudo_codes(self.board)
        return legal_codes(self.board)

    def captures(self) -> list[int]:
        board = self.board
        if self.king_capture:
            return pseudo_capture_codes(board)
        return legal_capture_codes(board)

    def push(self, move: int | chess.Move | None) -> None:
        """Play ``move`` (a code, or a ``chess.Move``: the root's moves come as the game's);
        ``None`` passes (a null move, for null-move pruning).

        The board's bitboards and counters change as python-chess's ``Board.push`` changes
        them (standard chess), without its move stack: :meth:`pop` restores them from a
        tuple (``tests/bots/test_alphabeta.py`` compares every field with python-chess's)."""
        b = self.board
        co = b.occupied_co
        turn = b.turn
        self.undo.append((
            b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings, co[0], co[1], b.occupied,
            b.promoted, turn, b.castling_rights, b.ep_square, b.halfmove_clock,
            b.fullmove_number,
        ))  # fmt: skip
        ep = b.ep_square
        b.ep_square = None
        b.halfmove_clock += 1
        if not turn:
            b.fullmove_number += 1
        b.turn = not turn
        if move is None:
            self.scores.append(self.scores[-1])
            self.phases.append(self.phases[-1])
            self.keys.append(position_key(b))
            return
        if not isinstance(move, int):
            move = code_of(move)
        frm, to, promotion = move >> 6 & 63, move & 63, move >> 12
        fb, tb = 1 << frm, 1 << to
        us, them = co[turn], co[not turn]
        pst = self.pst
        own, theirs = pst[turn], pst[not turn]
        piece = _piece_on(b, fb)
        delta = own[piece][to] - own[piece][frm]
        phase = 0
        rights = b.castling_rights & ~tb & ~fb
        promoted = b.promoted
        was_promoted = promoted & fb
        promoted &= ~fb & ~tb
        if piece == chess.KING and (to - frm == 2 or frm - to == 2) and frm in _KING_HOMES:
            # castling (the rook's squares by the side it goes to)
            rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
            rb = 1 << rook_from | 1 << rook_to
            b.kings ^= fb | tb
            b.rooks ^= rb
            co[turn] = us ^ fb ^ tb ^ rb
            promoted &= ~rb
            rights &= ~(1 << rook_from)
            rights &= _KEEP_RIGHTS[turn]
            delta += own[chess.ROOK][rook_to] - own[chess.ROOK][rook_from]
        else:
            if them & tb:  # a capture: the victim leaves its set
                b.halfmove_clock = 0
                them ^= tb
                victim = _piece_on(b, tb)
                _move_piece(b, victim, tb)
                # a king taken (Dark Chess) on its back rank takes its side's rights
                # (python-chess: unless the taker is an unpromoted king)
                if (
                    victim == chess.KING
                    and not b.promoted & tb
                    and (piece != chess.KING or was_promoted)
                    and to >> 3 == (7 if turn else 0)
                ):
                    rights &= _KEEP_RIGHTS[not turn]
                delta += theirs[victim][to]
                phase -= PHASE[victim]
            if piece == chess.PAWN:
                b.halfmove_clock = 0
                diff = to - frm
                if diff == 16 and frm >> 3 == 1:
                    b.ep_square = frm + 8
                elif diff == -16 and frm >> 3 == 6:
                    b.ep_square = frm - 8
                elif to == ep and (diff in (7, 9, -7, -9)) and not b.occupied & tb:
                    victim_sq = ep - 8 if turn else ep + 8
                    vb = 1 << victim_sq
                    b.pawns ^= vb
                    them ^= vb
                    promoted &= ~vb
                    delta += theirs[chess.PAWN][victim_sq]
            elif piece == chess.KING and not was_promoted:
                rights &= _KEEP_RIGHTS[turn]
            co[not turn] = them
            co[turn] = us ^ fb ^ tb
            if promotion:
                b.pawns ^= fb
                _move_piece(b, promotion, tb)  # onto a square now empty in every set
                promoted |= tb
                delta += own[promotion][to] - own[piece][to]
                phase += PHASE[promotion]
            else:
                _move_piece(b, piece, fb | tb)
                if was_promoted:
                    promoted |= tb
        b.promoted = promoted
        b.castling_rights = rights
        b.occupied = co[0] | co[1]
        self.scores.append(self.scores[-1] + (delta if turn else -delta))
        self.phases.append(self.phases[-1] + phase)
        self.keys.append(position_key(b))

    def pop(self) -> None:
        b = self.board
        co = b.occupied_co
        (
            b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings, co[0], co[1], b.occupied,
            b.promoted, b.turn, b.castling_rights, b.ep_square, b.halfmove_clock,
            b.fullmove_number,
        ) = self.undo.pop()  # fmt: skip
        self.scores.pop()
        self.phases.pop()
        self.keys.pop()

    def evaluate(self) -> int:
        """Centipawns for the side to move."""
        phase = self.phases[-1]
        if self.pesto:
            packed = self.scores[-1]
            if self.pawns:
                board = self.board
                white = board.pawns & board.occupied_co[chess.WHITE]
                packed += pawn_structure(white, board.pawns ^ white)
            score = taper(packed, phase)
        else:
            score = self.scores[-1] + king_terms(self.board, phase)
        if self.safety:
            score += king_safety(self.board, phase)
        return score if self.board.turn == chess.WHITE else -score

    def terminal(self, ply: int) -> int | None:
        """The score for the side to move if the game is decided here (before moves are
        generated), else ``None``: draws by repetition and the fifty-move rule; a missing
        king (Dark Chess)."""
        board = self.board
        if self.king_capture and not board.kings & board.occupied_co[board.turn]:
            return -MATE + ply
        if board.halfmove_clock >= 100:
            return 0
        key = self.keys[-1]
        if len(self.keys) > 4 and key in self.keys[-3::-2][:50]:
            return 0
        if not self.king_capture and self.status() & 2:
            return 0
        return None

    def status(self) -> int:
        """``board.is_check() | board.is_insufficient_material() << 1`` (standard chess),
        from the compiled core once per position on the stack (``terminal`` asks, then
        ``in_check``)."""
        key = self.keys[-1]
        if self._status_of is not key:
            status = compiled_status(self.board)
            self._status = self._python_status() if status is None else status
            self._status_of = key
        return self._status

    def _python_status(self) -> int:
        board = self.board
        return board.is_check() | board.is_insufficient_material() << 1

    def no_moves(self, ply: int) -> int:
        """The score for the side to move when it has no move: mated or stalemated."""
        if not self.king_capture and self.status() & 1:
            return -MATE + ply
        return 0

    def is_capture(self, move: int | chess.Move) -> bool:
        """``board.is_capture``: onto an enemy piece, or en passant."""
        if not isinstance(move, int):
            move = code_of(move)
        board = self.board
        to = move & 63
        if board.occupied_co[not board.turn] >> to & 1:
            return True
        return bool(
            to == board.ep_square
            and board.pawns >> (move >> 6 & 63) & 1
            and abs(to - (move >> 6 & 63)) in (7, 9)
            and not board.occupied >> to & 1
        )

    def capture_order(self, move: int | chess.Move) -> int:
        """MVV-LVA: most valuable victim first, then least valuable attacker."""
        if not isinstance(move, int):
            move = code_of(move)
        board = self.board
        victim = board.piece_type_at(move & 63) or chess.PAWN
        attacker = board.piece_type_at(move >> 6 & 63) or chess.PAWN
        return 10 * VALUE[victim] - attacker + (8000 if move >> 12 else 0)

    def gain(self, move: int | chess.Move) -> int:
        """The material a capture wins at best (for delta pruning)."""
        if not isinstance(move, int):
            move = code_of(move)
        victim = self.board.piece_type_at(move & 63)
        value = VALUE[victim] if victim else VALUE[chess.PAWN]
        if move >> 12:
            value += VALUE[move >> 12] - VALUE[chess.PAWN]
        return value

    def losing(self, move: int | chess.Move) -> bool:
        """A capture by a dearer piece of a cheaper one (a bishop and a knight are worth the
        same here) on a square the opponent can take back on (it likely loses material;
        promotions never count)."""
        if not isinstance(move, int):
            move = code_of(move)
        if move >> 12:
            return False
        board = self.board
        frm, to = move >> 6 & 63, move & 63
        attacker = board.piece_type_at(frm)
        victim = board.piece_type_at(to) or chess.PAWN
        if attacker is None or VALUE[attacker] <= VALUE[victim] + 50:
            return False
        occupied = board.occupied & ~chess.BB_SQUARES[frm]  # as after the move
        return bool(board.attackers_mask(not board.turn, to, occupied))

    def in_check(self) -> bool:
        return not self.king_capture and bool(self.status() & 1)


class PythonChessPosition(ChessPosition):
    """The same search position on python-chess's own moves: its generators, capture test
    and push/pop, ``chess.Move`` objects throughout. The reference the codes and the
    bitboard push are checked against (``tests/bots/test_alphabeta.py``), and the anchor
    of ``kibitz bench --engine``'s search speed."""

    def moves(self) -> list[chess.Move]:  # type: ignore[override]
        if self.king_capture:
            return list(self.board.generate_pseudo_legal_moves())
        return list(self.board.generate_legal_moves())

    def captures(self) -> list[chess.Move]:  # type: ignore[override]
        if self.king_capture:
            return list(self.board.generate_pseudo_legal_captures())
        return list(self.board.generate_legal_captures())

    def is_capture(self, move: int | chess.Move) -> bool:
        return self.board.is_capture(move_of(move) if isinstance(move, int) else move)

    def status(self) -> int:  # python-chess's own, every time
        return self._python_status()

    def push(self, move: int | chess.Move | None) -> None:
        """python-chess's own push, and the evaluation's change by :func:`move_delta`."""
        board = self.board
        if move is None:
            move, d, p = chess.Move.null(), 0, 0
        else:
            if isinstance(move, int):
                move = move_of(move)
            d, p = move_delta(board, move, self.pst)
        self.scores.append(self.scores[-1] + d)
        self.phases.append(self.phases[-1] + p)
        board.push(move)
        self.keys.append(position_key(board))

    def pop(self) -> None:
        self.board.pop()
        self.scores.pop()
        self.phases.pop()
        self.keys.pop()

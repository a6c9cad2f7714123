"""The position the Python chess search plays on: one python-chess board, pushed and popped.

The chess bot searches in C (:mod:`.compiled`, ``_chess_search.c``) whenever it can. This
position is the search's fallback — no C compiler, ``KIBITZ_PURE_PYTHON=1``, or options the C
search does not have (``safety``, ``pawns``, the simplified tables) — and the reference the
tests hold the compiled search to (the same scores, moves and node counts): the generic
:class:`~server.bots.alphabeta.AlphaBeta` (every grid game's search too) on python-chess's
own moves, push and pop, with the evaluation (:mod:`.chess_eval`, PeSTO's tables from
:mod:`.pesto`, the very tables the C search is handed at setup) kept up to date move by move.
"""

from __future__ import annotations

from collections.abc import Hashable

import chess

from server.engine.chess_moves import board_status

from .chess_eval import (
    MATE,
    PST,
    VALUE,
    king_safety,
    king_terms,
    material_pst,
    move_delta,
    position_key,
)
from .pesto import PESTO, pawn_structure, taper


class ChessPosition:
    """A python-chess board searched by push/pop with an incremental evaluation.

    Args:
        board: the board to search (mutated during the search, restored afterwards).
        history: position keys before the current one (repetitions count as draws).
        safety: add :func:`~.chess_eval.king_safety` to the evaluation.
        pesto: PeSTO's tapered tables (:mod:`.pesto`) instead of the simplified ones.
        pawns: with ``pesto``, add :func:`~server.bots.pesto.pawn_structure` (passed,
            isolated and doubled pawns).
    """

    def __init__(
        self,
        board: chess.Board,
        *,
        history: list[Hashable] | None = None,
        safety: bool = False,
        pesto: bool = False,
        pawns: bool = False,
    ) -> None:
        # python-chess cleans the castling rights at its first push (rooks and kings not on
        # their squares lose them): clean them now, so that the first key is like the others
        board.castling_rights = board.clean_castling_rights()
        self.board = board
        self.safety = safety
        self.pesto = pesto
        self.pawns = pawns and pesto  # packed like PeSTO's tables
        self.pst = PESTO if pesto else PST
        score, phase = material_pst(board, self.pst)
        self.scores = [score]
        self.phases = [phase]
        self.keys: list[Hashable] = [*(history or []), position_key(board)]
        #: :meth:`status` of the position whose key (the very object) is ``_status_of``
        self._status = 0
        self._status_of: Hashable | None = None

    # -- the protocol of alphabeta.Position ----------------------------------------------

    def key(self) -> Hashable:
        return self.keys[-1]

    def moves(self) -> list[chess.Move]:
        return list(self.board.generate_legal_moves())

    def captures(self) -> list[chess.Move]:
        return list(self.board.generate_legal_captures())

    def push(self, move: chess.Move | None) -> None:
        """python-chess's push of ``move`` (``None``: a null move, for null-move pruning),
        and the evaluation's change by :func:`~.chess_eval.move_delta`."""
        board = self.board
        if move is None:
            move, delta, phase = chess.Move.null(), 0, 0
        else:
            delta, phase = move_delta(board, move, self.pst)
        self.scores.append(self.scores[-1] + delta)
        self.phases.append(self.phases[-1] + phase)
        board.push(move)
        self.keys.append(position_key(board))

    def pop(self) -> None:
        self.board.pop()
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
        generated), else ``None``: draws by repetition, the fifty-move rule and
        insufficient material."""
        if self.board.halfmove_clock >= 100:
            return 0
        key = self.keys[-1]
        if len(self.keys) > 4 and key in self.keys[-3::-2][:50]:
            return 0
        if self.status() & 2:
            return 0
        return None

    def status(self) -> int:
        """``board.is_check() | board.is_insufficient_material() << 1``, once per position
        on the stack (``terminal`` asks, then ``in_check``)."""
        key = self.keys[-1]
        if self._status_of is not key:
            self._status = board_status(self.board)
            self._status_of = key
        return self._status

    def no_moves(self, ply: int) -> int:
        """The score for the side to move when it has no move: mated or stalemated."""
        return -MATE + ply if self.status() & 1 else 0

    def is_capture(self, move: chess.Move) -> bool:
        return self.board.is_capture(move)

    def capture_order(self, move: chess.Move) -> int:
        """MVV-LVA: most valuable victim first, then least valuable attacker."""
        board = self.board
        victim = board.piece_type_at(move.to_square) or chess.PAWN
        attacker = board.piece_type_at(move.from_square) or chess.PAWN
        return 10 * VALUE[victim] - attacker + (8000 if move.promotion else 0)

    def gain(self, move: chess.Move) -> int:
        """The material a capture wins at best (for delta pruning)."""
        victim = self.board.piece_type_at(move.to_square)
        value = VALUE[victim] if victim else VALUE[chess.PAWN]
        if move.promotion:
            value += VALUE[move.promotion] - VALUE[chess.PAWN]
        return value

    def losing(self, move: chess.Move) -> bool:
        """A capture by a dearer piece of a cheaper one (a bishop and a knight are worth the
        same here) on a square the opponent can take back on (it likely loses material;
        promotions never count)."""
        if move.promotion:
            return False
        board = self.board
        attacker = board.piece_type_at(move.from_square)
        victim = board.piece_type_at(move.to_square) or chess.PAWN
        if attacker is None or VALUE[attacker] <= VALUE[victim] + 50:
            return False
        occupied = board.occupied & ~chess.BB_SQUARES[move.from_square]  # as after the move
        return bool(board.attackers_mask(not board.turn, move.to_square, occupied))

    def in_check(self) -> bool:
        return bool(self.status() & 1)

"""Chess evaluation: material + piece-square tables.

The tables are Tomasz Michniewski's "simplified evaluation function" (chessprogramming wiki)
with a middle-game and an end-game king table blended by the material left (or PeSTO's,
:mod:`.pesto`). Scores are in centipawns. The chess bot's compiled search evaluates in C
from the same data, :data:`PHASE`, :data:`VALUE` and PeSTO's tables, handed to it once at
import (:mod:`.compiled`); the Monte Carlo searches' :class:`ChessEvaluator` (chess and Dark
Chess) is here, and Dark Chess's Python search reads :func:`material_pst`. (The Python chess
search and its incremental evaluation are a test reference: ``tests/bots/chess_reference.py``.)
"""

from __future__ import annotations

from typing import Any

import chess

from server.engine import Game
from server.engine.dark_chess.rules import king_capture

from .pesto import FULL_PHASE
from .scoring import logistic

VALUE = {
    chess.PAWN: 100,
    chess.KNIGHT: 320,
    chess.BISHOP: 330,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 20000,
}

# rows from rank 8 down to rank 1, as White sees the board
_PAWN = (
    0, 0, 0, 0, 0, 0, 0, 0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
    5, 5, 10, 25, 25, 10, 5, 5,
    0, 0, 0, 20, 20, 0, 0, 0,
    5, -5, -10, 0, 0, -10, -5, 5,
    5, 10, 10, -20, -20, 10, 10, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
)  # fmt: skip
_KNIGHT = (
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20, 0, 0, 0, 0, -20, -40,
    -30, 0, 10, 15, 15, 10, 0, -30,
    -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30,
    -30, 5, 10, 15, 15, 10, 5, -30,
    -40, -20, 0, 5, 5, 0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
)  # fmt: skip
_BISHOP = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 10, 10, 10, 10, 0, -10,
    -10, 10, 10, 10, 10, 10, 10, -10,
    -10, 5, 0, 0, 0, 0, 5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
)  # fmt: skip
_ROOK = (
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 10, 10, 10, 10, 10, 10, 5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    0, 0, 0, 5, 5, 0, 0, 0,
)  # fmt: skip
_QUEEN = (
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -5, 0, 5, 5, 5, 5, 0, -5,
    0, 0, 5, 5, 5, 5, 0, -5,
    -10, 5, 5, 5, 5, 5, 0, -10,
    -10, 0, 5, 0, 0, 0, 0, -10,
    -20, -10, -10, -5, -5, -10, -10, -20,
)  # fmt: skip
_KING_MG = (
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    20, 20, 0, 0, 0, 0, 20, 20,
    20, 30, 10, 0, 0, 10, 30, 20,
)  # fmt: skip
_KING_EG = (
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
)  # fmt: skip


def _by_square(table: tuple[int, ...], color: chess.Color) -> tuple[int, ...]:
    """The table indexed by square (a1 = 0) for ``color``."""
    if color == chess.WHITE:
        return tuple(table[sq ^ 56] for sq in chess.SQUARES)
    return tuple(table[sq] for sq in chess.SQUARES)


_TABLES = {
    chess.PAWN: _PAWN,
    chess.KNIGHT: _KNIGHT,
    chess.BISHOP: _BISHOP,
    chess.ROOK: _ROOK,
    chess.QUEEN: _QUEEN,
    chess.KING: tuple(0 for _ in range(64)),
}
#: PST[color][piece_type][square]: material + table, kings' table apart (phase-blended)
PST = {
    color: {t: tuple(VALUE[t] + v for v in _by_square(_TABLES[t], color)) for t in _TABLES}
    for color in (chess.WHITE, chess.BLACK)
}
KING_MG = {c: _by_square(_KING_MG, c) for c in (chess.WHITE, chess.BLACK)}
KING_EG = {c: _by_square(_KING_EG, c) for c in (chess.WHITE, chess.BLACK)}
PHASE = {
    chess.PAWN: 0,
    chess.KNIGHT: 1,
    chess.BISHOP: 1,
    chess.ROOK: 2,
    chess.QUEEN: 4,
    chess.KING: 0,
}

MATE = 1_000_000
_PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


Tables = dict[chess.Color, dict[int, tuple[int, ...]]]


def material_pst(board: chess.Board, pst: Tables = PST) -> tuple[int, int]:
    """(White-minus-Black material + tables without kings' tables, phase units left); with
    ``pst=PESTO`` the score is PeSTO's packed pair, kings included."""
    score = phase = 0
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        own = board.occupied_co[color]
        for t in _PIECE_TYPES:
            table = pst[color][t]
            mask = board.pieces_mask(t, color) & own
            for sq in chess.scan_forward(mask):
                score += sign * table[sq]
                phase += PHASE[t]
    return score, phase


def king_terms(board: chess.Board, phase: int) -> int:
    """The kings' table terms (White minus Black), blended by ``phase``."""
    p = min(phase, FULL_PHASE)
    out = 0
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        if king is not None:
            out += (
                sign
                * (KING_MG[color][king] * p + KING_EG[color][king] * (FULL_PHASE - p))
                // FULL_PHASE
            )
    return out


def evaluate_board(board: chess.Board) -> int:
    """Centipawns from White's side."""
    score, phase = material_pst(board)
    return score + king_terms(board, phase)


def best_capture(board: chess.Board) -> int | None:
    """What the side to move wins by its best capture, in centipawns, counting one
    recapture (the victim's value, less the least taker's if the victim is guarded); None
    when it can take the king (a Dark Chess king may be left en prise)."""
    us, them = board.turn, not board.turn
    best = 0
    for square in chess.scan_reversed(board.occupied_co[them]):
        takers = board.attackers_mask(us, square)
        if not takers:
            continue
        victim = board.piece_type_at(square)
        if victim == chess.KING:
            return None
        value = VALUE[victim]  # type: ignore[index]
        if value <= best:
            continue
        if board.is_attacked_by(them, square):
            least = min(VALUE[board.piece_type_at(t)] for t in chess.scan_forward(takers))  # type: ignore[index]
            value -= least
        best = max(best, value)
    return best


def loose_pieces(board: chess.Board, color: chess.Color) -> int:
    """The worth in centipawns of ``color``'s knights, bishops, rooks and queens that no
    piece of ``color`` guards ("loose pieces drop off": in the fog, one an unseen piece
    strikes is lost)."""
    total = 0
    pieces = board.occupied_co[color] & ~board.pawns & ~board.kings
    for square in chess.scan_forward(pieces):
        if not board.is_attacked_by(color, square):
            total += VALUE[board.piece_type_at(square)]  # type: ignore[index]
    return total


class ChessEvaluator:
    """Values and priors for chess-like states (``state.board``), for MCTS-style searches."""

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        scale: float = 300.0,
        captures: float = 0.0,
        loose: float = 0.0,
    ) -> None:
        self.game = game
        self.scale = scale
        self.captures = captures
        self.loose = loose
        # a chess king is never en prise on its side's turn; a Dark Chess king can be
        self.kings_en_prise = game.name == "dark_chess"

    def decisive(self, state: Any, seat: int) -> chess.Move | None:
        """A move that wins on the spot (Dark Chess: a capture of the enemy king), or None.
        The tree searches play it whenever the world allows it ("decisive moves")."""
        return king_capture(state.board) if self.kings_en_prise else None

    def values(self, state: Any) -> list[float]:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return list(outcome.scores)
        board = state.board
        score = evaluate_board(board)
        if self.captures:
            gain = best_capture(board)
            if gain is None:  # the side to move takes the king
                return [1.0, 0.0] if board.turn == chess.WHITE else [0.0, 1.0]
            score += int(self.captures * gain) * (1 if board.turn == chess.WHITE else -1)
        if self.loose:
            score -= int(
                self.loose * (loose_pieces(board, chess.WHITE) - loose_pieces(board, chess.BLACK))
            )
        white = logistic(score / self.scale)
        return [white, 1.0 - white]

    def prior(self, state: Any, seat: int, move: chess.Move) -> float:
        board = state.board
        victim = board.piece_type_at(move.to_square)
        weight = 1.0
        if victim is not None and board.color_at(move.to_square) != board.turn:
            weight += VALUE[victim] / 50.0
        if move.promotion:
            weight += 8.0
        return weight

"""Dark Chess leaf values: the chess evaluation, and a price on a king its own side cannot see
around (issue: "caution about unseen attackers of the king").

A world sampled from a seat's views places the hidden pieces somewhere; the attacker that will
take the king is often not where the worlds put it. What every world does show is where the
seat is blind: the squares from which a piece could reach the king — the lines a queen would
have from the king's square up to the first piece, and the knight's and king's steps — that
none of the seat's pieces sees. Each such square costs ``fog`` centipawns, for both sides
alike, so the search prefers to keep its king's approaches in sight (or blocked). This reads
the sampled world's board only, as every leaf value does: nothing the seat may not know.
"""

from __future__ import annotations

from typing import Any

import chess

from server.engine import Game
from server.engine.dark_chess.views import visible_squares

from .chess_eval import ChessEvaluator, evaluate_board
from .scoring import logistic


def approaches(board: chess.Board, square: chess.Square) -> int:
    """The squares from which a piece could strike ``square`` now: its queen lines up to and
    including the first piece on each, and its knight and king steps (a bitboard)."""
    occupied = board.occupied
    return (
        chess.BB_KNIGHT_ATTACKS[square]
        | chess.BB_KING_ATTACKS[square]
        | chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        | chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    )


def blind_approaches(board: chess.Board, color: chess.Color, visibility: str) -> int:
    """How many approaches to ``color``'s king ``color`` does not see (0 with no king)."""
    king = board.king(color)
    if king is None:
        return 0
    blind = approaches(board, king) & ~visible_squares(board, color, visibility)
    return chess.popcount(blind)


class DarkChessEvaluator(ChessEvaluator):
    """:class:`ChessEvaluator` with ``fog`` centipawns off for every blind approach to a
    side's king (``fog=0``: the chess evaluation alone)."""

    def __init__(self, game: Game[Any, Any], *, fog: float = 0.0, scale: float = 300.0) -> None:
        super().__init__(game, scale=scale)
        self.fog = fog

    def values(self, state: Any) -> list[float]:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return list(outcome.scores)
        board = state.board
        score = float(evaluate_board(board))
        if self.fog:
            visibility = state.visibility
            score -= self.fog * (
                blind_approaches(board, chess.WHITE, visibility)
                - blind_approaches(board, chess.BLACK, visibility)
            )
        white = logistic(score / self.scale)
        return [white, 1.0 - white]

"""Dark Chess's search over sampled worlds: every root move's score in every world.

:func:`search` runs the compiled search (``_dark_search.c``, on the chess core's
pseudo-legal moves: a million and more nodes a second) when it was built and is not switched
off (``KIBITZ_PURE_PYTHON=1``), else the same algorithm in Python on python-chess's moves
(:func:`python_search`: the same rules and evaluation, far fewer nodes, so shallower).

Both search each world by Dark Chess's rules — pseudo-legal moves, no check, a king that can
be taken is taken and ends the game — with PeSTO's evaluation, deepening over all the worlds
together (depth 1 in each, then depth 2, ...) until the time is up. A root move's score in a
world is exact when it is within ``margin`` centipawns of the best move found before it
there, else the bound it failed under (no better than that): the bot weighs the moves by
win chances, where what lies that far below the best hardly counts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType

import chess

from server.engine import compiled as engine_compiled
from server.engine.chess_moves import board_fields, code_of
from server.engine.dark_chess.rules import DarkBoard

from .chess_eval import VALUE, material_pst
from .compiled import setup_tables
from .pesto import PESTO, taper

#: the compiled search, or None (not built, or switched off)
SEARCH: ModuleType | None
try:
    import server.bots._dark_search as SEARCH
except ImportError:  # built without a C compiler
    SEARCH = None
if engine_compiled.gen is None:  # KIBITZ_PURE_PYTHON, or no compiled move generator
    SEARCH = None
if SEARCH is not None:
    setup_tables(SEARCH)

#: a king taken at the root's child (less a ply per ply deeper), as the C search scores it
WIN = 100_000
#: a table's size: 2**18 entries of 16 bytes (4 MB)
TABLE_BYTES = 16 << 18


def search(
    boards: Sequence[chess.Board],
    root: Sequence[chess.Move],
    budget: float,
    *,
    margin: int = 300,
    max_depth: int = 32,
    table: bytearray | None = None,
    compiled: bool = True,
) -> tuple[list[list[int]], list[int], int]:
    """(scores, depths, nodes): ``scores[w][i]`` is ``root[i]``'s score in world ``w`` (for
    the side to move) at the deepest depth finished there, ``depths[w]`` that depth (0: none;
    -1: a root move is no move in that world, which is then not searched)."""
    if compiled and SEARCH is not None:
        return SEARCH.search(
            [board_fields(b) for b in boards],
            [code_of(m) for m in root],
            max(0.0, budget),
            margin,
            max(1, min(32, max_depth)),
            bytearray(TABLE_BYTES) if table is None else table,
        )
    return python_search(boards, root, budget, margin=margin, max_depth=max_depth)


# -- the same search in Python ------------------------------------------------------------


class _Stop(Exception):
    pass


class _PythonSearch:
    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0 and time.perf_counter() >= self.deadline:
            raise _Stop

    @staticmethod
    def evaluate(board: chess.Board) -> int:
        packed, phase = material_pst(board, PESTO)
        score = taper(packed, phase)
        return score if board.turn == chess.WHITE else -score

    @staticmethod
    def king_taken(board: chess.Board) -> int | None:
        """±WIN at ``ply`` 0 if a king is gone or can be taken by the side to move."""
        if not board.kings & board.occupied_co[board.turn]:
            return -WIN
        king = board.king(not board.turn)
        if king is not None and board.is_attacked_by(board.turn, king):
            return WIN
        return None

    @staticmethod
    def order(board: chess.Board, moves: list[chess.Move]) -> list[chess.Move]:
        def key(m: chess.Move) -> int:
            victim = board.piece_type_at(m.to_square)
            if victim is None or board.color_at(m.to_square) == board.turn:
                return 0
            return 10 * VALUE[victim] - (board.piece_type_at(m.from_square) or 0) + 1

        return sorted(moves, key=key, reverse=True)

    @staticmethod
    def losing(board: chess.Board, move: chess.Move) -> bool:
        """A dearer piece taking a cheaper one that the other side can take back (the C
        search's ``losing``)."""
        if move.promotion:
            return False
        taker = board.piece_type_at(move.from_square) or chess.PAWN
        victim = board.piece_type_at(move.to_square) or chess.PAWN
        if VALUE[taker] <= VALUE[victim] + 50:
            return False
        return board.is_attacked_by(not board.turn, move.to_square)

    def quiesce(self, board: chess.Board, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        taken = self.king_taken(board)
        if taken is not None:
            return taken - ply if taken > 0 else taken + ply
        attacked = board.is_check()
        if attacked:
            best = -WIN + ply + 1
            moves = list(board.generate_pseudo_legal_moves())
        else:
            best = self.evaluate(board)
            if best >= beta or ply > 24:
                return best
            alpha = max(alpha, best)
            moves = list(board.generate_pseudo_legal_captures())
        for move in self.order(board, moves):
            if not attacked and self.losing(board, move):
                continue
            board.push(move)
            score = -self.quiesce(board, -beta, -alpha, ply + 1)
            board.pop()
            best = max(best, score)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return best

    def negamax(self, board: chess.Board, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        taken = self.king_taken(board)
        if taken is not None:
            return taken - ply if taken > 0 else taken + ply
        if depth <= 0:
            return self.quiesce(board, alpha, beta, ply)
        moves = list(board.generate_legal_moves())
        if not moves:
            return 0
        best = -10 * WIN
        for move in self.order(board, moves):
            board.push(move)
            score = -self.negamax(board, depth - 1, -beta, -alpha, ply + 1)
            board.pop()
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def root(
        self,
        board: chess.Board,
        root: Sequence[chess.Move],
        order: list[int],
        depth: int,
        margin: int,
    ) -> list[int]:
        scores = [0] * len(root)
        best = -10 * WIN
        for i in order:
            board.push(root[i])
            alpha = -10 * WIN if best == -10 * WIN else best - margin
            scores[i] = -self.negamax(board, depth - 1, -10 * WIN, -alpha, 1)
            board.pop()
            best = max(best, scores[i])
        return scores


def python_search(
    boards: Sequence[chess.Board],
    root: Sequence[chess.Move],
    budget: float,
    *,
    margin: int = 300,
    max_depth: int = 32,
) -> tuple[list[list[int]], list[int], int]:
    """:func:`search` in Python (no compiled core)."""
    s = _PythonSearch(time.perf_counter() + max(0.0, budget))
    worlds = [DarkBoard(b.fen()) for b in boards]
    ok = [set(root) <= set(w.generate_legal_moves()) for w in worlds]
    scores: list[list[int]] = [[0] * len(root) for _ in worlds]
    depths = [0 if fits else -1 for fits in ok]
    orders = [list(range(len(root))) for _ in worlds]
    try:
        for depth in range(1, max_depth + 1):
            for w, board in enumerate(worlds):
                if depths[w] < 0:
                    continue
                found = s.root(board, root, orders[w], depth, margin)
                scores[w], depths[w] = found, depth
                orders[w].sort(key=lambda i, f=found: -f[i])  # type: ignore[misc]
    except _Stop:
        pass
    return scores, depths, s.nodes

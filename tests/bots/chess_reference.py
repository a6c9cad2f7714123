"""The Python chess search, a test reference only: nothing the server serves uses it.

The chess bot searches in C (``server/bots/_chess_search.c``, :mod:`server.bots.compiled`);
without the compiled parts (no C compiler, ``KIBITZ_PURE_PYTHON=1``) chess's ``alphabeta``
plays MCTS (docs/BOTS.md). This module is what the tests hold the C search to (the same
scores, moves and node counts: ``tests/bots/test_compiled_search.py``): the generic
:class:`~server.bots.alphabeta.AlphaBeta` (every grid game's search, served) on
:class:`ChessPosition`, python-chess's own moves, push and pop, with the evaluation
(PeSTO's tables from :mod:`server.bots.pesto`, the very tables the C search is handed at
setup) kept up to date move by move. It keeps the evaluation options the C search never had
and docs/BOTS.md's ladder measured (``safety``, ``pawns``, the simplified tables), so that
those measurements can be run again here, and :func:`python_search_round`, the Python
search's speed that ``scripts/search_speed.py`` compares the C search with.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

import chess

from server.bots.alphabeta import AlphaBeta, AlphaBetaBot, Pruning
from server.bots.bot import Deadline
from server.bots.chess_eval import MATE, PHASE, PST, VALUE, Tables, king_terms, material_pst
from server.bots.pesto import FULL_PHASE, PESTO, pack, taper
from server.engine.chess_moves import board_status

# -- the search's own evaluation terms -------------------------------------------------


def move_delta(board: chess.Board, move: chess.Move, pst: Tables = PST) -> tuple[int, int]:
    """(change of :func:`material_pst`'s score, change of phase) made by ``move`` (White's
    side), computed before the move is pushed."""
    color = board.turn
    sign = 1 if color == chess.WHITE else -1
    piece = board.piece_type_at(move.from_square)
    if piece is None:  # a null move
        return 0, 0
    own = pst[color]
    delta = own[piece][move.to_square] - own[piece][move.from_square]
    phase = 0
    if move.promotion:
        delta += own[move.promotion][move.to_square] - own[piece][move.to_square]
        phase += PHASE[move.promotion]
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rook_from = move.to_square if board.chess960 else chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        delta += own[chess.ROOK][rook_to] - own[chess.ROOK][rook_from]
        return sign * delta, 0
    theirs = pst[not color]
    if board.is_en_passant(move):
        victim_sq = move.to_square + (-8 if color == chess.WHITE else 8)
        delta += theirs[chess.PAWN][victim_sq]
    else:
        victim = board.piece_type_at(move.to_square)
        if victim is not None:
            delta += theirs[victim][move.to_square]
            phase -= PHASE[victim]
    return sign * delta, phase


def position_key(board: chess.Board) -> Hashable:
    """An exact transposition key (placement, turn, castling, e.p. square) from public
    bitboards: as good as a Zobrist hash without its cost (~12 us each in python-chess)."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
        board.castling_rights,
        board.ep_square,
    )


#: attack units a piece brings when it strikes a square of the enemy king's zone
_ATTACK_UNITS = {chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 5}


def king_danger(board: chess.Board, color: chess.Color) -> int:
    """Centipawns of danger to ``color``'s king from the enemy pieces striking its zone (the
    king's square and its neighbours): every attacking piece brings units per square it
    strikes (knight and bishop 2, rook 3, queen 5); with at least two attackers the danger
    grows with the square of the units (one lone piece rarely mates), capped at 500."""
    king = board.king(color)
    if king is None:
        return 0
    zone = chess.BB_KING_ATTACKS[king] | chess.BB_SQUARES[king]
    enemy = board.occupied_co[not color]
    units = attackers = 0
    for piece_type, weight in _ATTACK_UNITS.items():
        for sq in chess.scan_forward(board.pieces_mask(piece_type, not color) & enemy):
            hits = board.attacks_mask(sq) & zone
            if hits:
                attackers += 1
                units += weight * chess.popcount(hits)
    if attackers < 2:
        return 0
    return min(500, 2 * units * units)


def king_safety(board: chess.Board, phase: int) -> int:
    """White's king danger minus Black's, negated (White's side), weighted by the material
    left (``phase``): a middle-game term that fades as pieces come off."""
    p = min(phase, FULL_PHASE)
    return (
        king_danger(board, chess.BLACK) * p // FULL_PHASE
        - king_danger(board, chess.WHITE) * p // FULL_PHASE
    )


# -- pawn structure (on top of the tables, which only know where each pawn stands) ----------

#: a passed pawn's bonus by its rank as its owner counts (0 = its first rank), (mg, eg):
#: small in the middle game, growing fast in the end game as it nears promotion
PASSED = tuple(
    pack(mg, eg)
    for mg, eg in ((0, 0), (0, 10), (0, 15), (5, 25), (15, 45), (30, 75), (50, 110), (0, 0))
)
ISOLATED = pack(-8, -12)  # a pawn with no pawn of its colour on a file beside it
DOUBLED = pack(-10, -25)  # each pawn of a colour on a file beyond the first

_FILES = chess.BB_FILES
_BESIDE = [(_FILES[f - 1] if f else 0) | (_FILES[f + 1] if f < 7 else 0) for f in range(8)]


def _ahead(square: int, color: chess.Color) -> int:
    """The squares a pawn of ``color`` on ``square`` must pass or be stopped from: its file
    and the two beside it, on the ranks ahead of it."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    ranks = range(rank + 1, 8) if color == chess.WHITE else range(rank)
    return (_FILES[file] | _BESIDE[file]) & sum(chess.BB_RANKS[r] for r in ranks)


_AHEAD = {color: [_ahead(sq, color) for sq in chess.SQUARES] for color in chess.COLORS}

_STRUCTURES: dict[tuple[int, int], int] = {}
_STRUCTURES_KEPT = 1 << 16


def pawn_structure(white: int, black: int) -> int:
    """Passed, isolated and doubled pawns, packed like the tables, from White's side, for
    the pawn bitboards ``white`` and ``black`` (memoised: a search meets few structures)."""
    key = (white, black)
    found = _STRUCTURES.get(key)
    if found is not None:
        return found
    score = _side(white, black, chess.WHITE) - _side(black, white, chess.BLACK)
    if len(_STRUCTURES) >= _STRUCTURES_KEPT:
        _STRUCTURES.clear()
    _STRUCTURES[key] = score
    return score


def _side(own: int, other: int, color: chess.Color) -> int:
    score = 0
    ahead = _AHEAD[color]
    for f in range(8):
        on_file = own & _FILES[f]
        if not on_file:
            continue
        count = on_file.bit_count()
        score += (count - 1) * DOUBLED
        if not own & _BESIDE[f]:
            score += count * ISOLATED
    for sq in chess.scan_forward(own):
        if not other & ahead[sq]:
            rank = chess.square_rank(sq)
            score += PASSED[rank if color == chess.WHITE else 7 - rank]
    return score


class ChessPosition:
    """A python-chess board searched by push/pop with an incremental evaluation.

    Args:
        board: the board to search (mutated during the search, restored afterwards).
        history: position keys before the current one (repetitions count as draws).
        safety: add :func:`king_safety` to the evaluation.
        pesto: PeSTO's tapered tables (:mod:`.pesto`) instead of the simplified ones.
        pawns: with ``pesto``, add :func:`pawn_structure` (passed,
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

    # -- the protocol of alphabeta.Position ---------------------------------------------

    def key(self) -> Hashable:
        return self.keys[-1]

    def moves(self) -> list[chess.Move]:
        return list(self.board.generate_legal_moves())

    def captures(self) -> list[chess.Move]:
        return list(self.board.generate_legal_captures())

    def push(self, move: chess.Move | None) -> None:
        """python-chess's push of ``move`` (``None``: a null move, for null-move pruning),
        and the evaluation's change by :func:`move_delta`."""
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


def reference_position(
    board: chess.Board,
    start_fen: str,
    *,
    safety: bool = False,
    pesto: bool = True,
    pawns: bool = False,
) -> ChessPosition:
    """The Python search's position for a game (``board`` with its move stack from
    ``start_fen``): a copy of the board, and every earlier position's key for draws by
    repetition, as the bot once built it."""
    history = []  # every earlier position, replayed from the start
    replay = chess.Board(start_fen)
    for move in board.move_stack:
        history.append(position_key(replay))
        replay.push(move)
    return ChessPosition(
        board.copy(stack=False), history=history, safety=safety, pesto=pesto, pawns=pawns
    )


#: the pruning the C search plays with (the bot's defaults)
PRUNING = AlphaBetaBot().pruning


def reference_search(
    position: ChessPosition, pruning: Pruning = PRUNING, tt: Any = None
) -> AlphaBeta:
    """The Python search on ``position``, as the C search searches (null moves on)."""
    return AlphaBeta(position, null_move=True, pruning=pruning, tt=tt)


def python_search_round(depth: int) -> tuple[int, float]:
    """The Python search with the bot's pruning to ``depth`` on ``kibitz bench --engine``'s
    positions: nodes, and CPU seconds (``time.process_time``)."""
    from server.tools.bench_modes import SEARCH_FENS

    nodes, seconds = 0, 0.0
    for fen in SEARCH_FENS:
        board = chess.Board(fen)
        search = reference_search(ChessPosition(board, pesto=True))
        t0 = time.process_time()
        nodes += search.search(list(board.legal_moves), Deadline(600), max_depth=depth).nodes
        seconds += time.process_time() - t0
    return nodes, seconds

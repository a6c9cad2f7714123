"""Chess evaluation: material + piece-square tables, and a search position over one board.

The tables are Tomasz Michniewski's "simplified evaluation function" (chessprogramming wiki)
with a middle-game and an end-game king table blended by the material left. Scores are in
centipawns. :class:`ChessPosition` keeps the evaluation up to date move by move (push/pop on
one python-chess board) and is what :mod:`server.bots.alphabeta` searches; it also serves
Dark Chess worlds (king capture instead of mate: ``king_capture=True``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import chess

from server.engine import Game
from server.engine.chess_moves import (
    legal_capture_codes,
    legal_codes,
    pseudo_capture_codes,
    pseudo_codes,
    to_move,
)

from .pesto import FULL_PHASE, PESTO, taper
from .scoring import logistic

VALUE = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500,
         chess.QUEEN: 900, chess.KING: 20000}  # fmt: skip

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


_TABLES = {chess.PAWN: _PAWN, chess.KNIGHT: _KNIGHT, chess.BISHOP: _BISHOP, chess.ROOK: _ROOK,
           chess.QUEEN: _QUEEN, chess.KING: tuple(0 for _ in range(64))}  # fmt: skip
#: PST[color][piece_type][square]: material + table, kings' table apart (phase-blended)
PST = {
    color: {t: tuple(VALUE[t] + v for v in _by_square(_TABLES[t], color)) for t in _TABLES}
    for color in (chess.WHITE, chess.BLACK)
}
KING_MG = {c: _by_square(_KING_MG, c) for c in (chess.WHITE, chess.BLACK)}
KING_EG = {c: _by_square(_KING_EG, c) for c in (chess.WHITE, chess.BLACK)}
PHASE = {chess.PAWN: 0, chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4,
         chess.KING: 0}  # fmt: skip

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


def evaluate_board(board: chess.Board) -> int:
    """Centipawns from White's side."""
    score, phase = material_pst(board)
    return score + king_terms(board, phase)


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
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.turn, board.castling_rights, board.ep_square,
    )  # fmt: skip


#: the ``chess.Move`` of every code the search has pushed (one shared object a code)
_MOVES: list[chess.Move | None] = [None] * (chess.QUEEN + 1 << 12)


def move_of(code: int) -> chess.Move:
    """The ``chess.Move`` of a :mod:`server.engine.chess_moves` code (made once)."""
    move = _MOVES[code]
    if move is None:
        move = _MOVES[code] = to_move(code)
    return move


def code_of(move: chess.Move) -> int:
    """The :mod:`server.engine.chess_moves` code of ``move``."""
    return (move.promotion or 0) << 12 | move.from_square << 6 | move.to_square


_KING_HOMES = (chess.E1, chess.E8)
#: the castling rights a side keeps when its king moves (the other side's back rank)
_KEEP_RIGHTS = {chess.WHITE: ~chess.BB_RANK_1, chess.BLACK: ~chess.BB_RANK_8}


def _move_piece(board: chess.Board, piece: chess.PieceType, squares: int) -> None:
    """Flip ``squares`` (from and to) in the set of ``piece``."""
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


def _add(board: chess.Board, piece: chess.PieceType, square: int) -> None:
    """Put ``piece`` on ``square`` (a bit) in its set."""
    if piece == chess.QUEEN:
        board.queens |= square
    elif piece == chess.KNIGHT:
        board.knights |= square
    elif piece == chess.ROOK:
        board.rooks |= square
    else:
        board.bishops |= square


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
    """

    def __init__(
        self,
        board: chess.Board,
        *,
        king_capture: bool = False,
        history: list[Hashable] | None = None,
        safety: bool = False,
        pesto: bool = False,
    ) -> None:
        # python-chess cleans the castling rights at its first push (rooks and kings not
        # on their squares lose them); this board is pushed here, so clean them now, before
        # the first key
        board.castling_rights = board.clean_castling_rights()
        self.board = board
        self.king_capture = king_capture
        self.safety = safety
        self.pesto = pesto
        self.pst = PESTO if pesto else PST
        score, phase = material_pst(board, self.pst)
        self.scores = [score]
        self.phases = [phase]
        self.keys: list[Hashable] = [*(history or []), position_key(board)]
        #: what :meth:`push` changed, to :meth:`pop` it back
        self.undo: list[tuple[Any, ...]] = []

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
        if b.pawns & fb:
            piece = chess.PAWN
        elif b.knights & fb:
            piece = chess.KNIGHT
        elif b.bishops & fb:
            piece = chess.BISHOP
        elif b.rooks & fb:
            piece = chess.ROOK
        elif b.queens & fb:
            piece = chess.QUEEN
        else:
            piece = chess.KING
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
                if b.pawns & tb:
                    b.pawns ^= tb
                    victim = chess.PAWN
                elif b.knights & tb:
                    b.knights ^= tb
                    victim = chess.KNIGHT
                elif b.bishops & tb:
                    b.bishops ^= tb
                    victim = chess.BISHOP
                elif b.rooks & tb:
                    b.rooks ^= tb
                    victim = chess.ROOK
                elif b.queens & tb:
                    b.queens ^= tb
                    victim = chess.QUEEN
                else:
                    b.kings ^= tb
                    victim = chess.KING
                    # a king taken (Dark Chess) on its back rank takes its side's rights
                    # (python-chess: unless the taker is an unpromoted king)
                    if (
                        not b.promoted & tb
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
                _add(b, promotion, tb)
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
            score = taper(self.scores[-1], phase)
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
        if not self.king_capture and board.is_insufficient_material():
            return 0
        return None

    def no_moves(self, ply: int) -> int:
        """The score for the side to move when it has no move: mated or stalemated."""
        if not self.king_capture and self.board.is_check():
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
        return not self.king_capture and self.board.is_check()


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


class ChessEvaluator:
    """Values and priors for chess-like states (``state.board``), for MCTS-style searches."""

    def __init__(self, game: Game[Any, Any], *, scale: float = 300.0) -> None:
        self.game = game
        self.scale = scale

    def values(self, state: Any) -> list[float]:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return list(outcome.scores)
        white = logistic(evaluate_board(state.board) / self.scale)
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

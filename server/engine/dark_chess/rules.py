"""Dark Chess rules: the board (pseudo-legal moves, king capture), the state with its
history, the end of the game and perft. See the package docstring for the rules."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import ClassVar

import chess
from chess import BB_ALL, Bitboard

from ..base import InvalidOptions, Outcome
from ..chess_game import seat_of
from ..chess_moves import board_fields, compiled_play, dark_codes, uci_texts

WHITE, BLACK = 0, 1

VISIBILITIES = ("openspiel", "dagaz")

#: the statuses python-chess reports that are fine in dark chess (a king may stand in check)
_CHECK_STATUSES = (
    chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK
)

_PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
PIECE_LETTERS = [chess.piece_symbol(t) for t in _PIECE_TYPES]


# -- the board --------------------------------------------------------------------------------


class DarkBoard(chess.Board):
    """A python-chess board playing by dark-chess rules (docs/GAMES.md 2.2).

    ``legal_moves`` are the pseudo-legal moves with OpenSpiel's castling (no attack tests),
    the game ends when a king is gone, and check statuses are no error. SAN read and written
    on this board is disambiguated against these moves, so PGN round-trips.
    """

    aliases: ClassVar[list[str]] = ["Dark Chess", "Dark", "Fog of War"]
    uci_variant: ClassVar[str | None] = "darkchess"
    xboard_variant: ClassVar[str | None] = "darkchess"

    def generate_castling_moves(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from castling_moves(self, self.turn, from_mask, to_mask)

    def generate_legal_moves(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from self.generate_pseudo_legal_moves(from_mask, to_mask)

    def generate_legal_ep(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    def is_legal(self, move: chess.Move) -> bool:
        return not self.is_variant_end() and self.is_pseudo_legal(move)

    def is_variant_end(self) -> bool:
        return not (self.kings & self.occupied_co[chess.WHITE]) or not (
            self.kings & self.occupied_co[chess.BLACK]
        )

    def is_variant_loss(self) -> bool:
        return not self.kings & self.occupied_co[self.turn]

    def is_variant_win(self) -> bool:
        return bool(self.kings & self.occupied_co[self.turn]) and not (
            self.kings & self.occupied_co[not self.turn]
        )

    def is_insufficient_material(self) -> bool:
        return False

    def is_checkmate(self) -> bool:
        return False  # no checkmate: the king has to be taken

    def status(self) -> chess.Status:
        return chess.Status(super().status() & ~_CHECK_STATUSES)


def castling_moves(
    board: chess.Board, color: chess.Color, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
) -> Iterator[chess.Move]:
    """``color``'s castling moves, OpenSpiel style: rights intact and the squares between
    king and rook empty; attacked squares do not matter (docs/GAMES.md 2.2). ``to_mask`` filters by
    the rook's square, as python-chess does."""
    backrank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    king = board.occupied_co[color] & board.kings & ~board.promoted & backrank & from_mask
    king &= -king
    if not king:
        return
    king_sq = chess.msb(king)
    for rook_sq in chess.scan_reversed(board.clean_castling_rights() & backrank & to_mask):
        rook = chess.BB_SQUARES[rook_sq]
        a_side = rook < king
        king_to = (chess.BB_FILE_C if a_side else chess.BB_FILE_G) & backrank
        rook_to = (chess.BB_FILE_D if a_side else chess.BB_FILE_F) & backrank
        path = (
            chess.between(king_sq, chess.msb(king_to))
            | chess.between(rook_sq, chess.msb(rook_to))
            | king_to
            | rook_to
        )
        if not (board.occupied ^ king ^ rook) & path:
            to = rook_sq if board.chess960 else chess.msb(king_to)
            yield chess.Move(king_sq, to)


def castling_rights(board: chess.Board, before: chess.Board | None = None) -> Bitboard:
    """The castling rights as OpenSpiel keeps them: taking a king leaves its side's rights
    alone (python-chess clears them), which shows in the last observation of a game.

    ``before``: the position before the last move (a state's ``prev``); without it, the one
    python-chess's stack of ``board`` keeps, if ``board`` was played with ``push`` (a state's
    board carries no stack). With neither, the rights are the board's."""
    rights = board.clean_castling_rights()
    if not board.kings & board.occupied_co[board.turn]:
        if before is None and board.move_stack:
            before = board.copy(stack=1)
            before.pop()
        if before is None:
            return rights
        backrank = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
        rights = (rights & ~backrank) | (before.clean_castling_rights() & backrank)
    return rights


#: material of a piece type in pawns, indexed by python-chess's piece type (the king 0)
WORTH = (0, 1, 3, 3, 5, 9, 0)


def king_capture(board: chess.Board) -> chess.Move | None:
    """A move of the side to move that takes the other king (a pawn promotes as it takes
    on the last rank), or None: in dark chess a king may be left en prise."""
    king = board.king(not board.turn)
    if king is None:
        return None
    attackers = board.attackers_mask(board.turn, king)
    if not attackers:
        return None
    origin = chess.lsb(attackers)
    promote = bool(board.pawns & chess.BB_SQUARES[origin]) and chess.square_rank(king) in (0, 7)
    return chess.Move(origin, king, chess.QUEEN if promote else None)


def ep_square(board: chess.Board) -> chess.Square | None:
    """The en-passant square as OpenSpiel keeps it: only if a pawn can take there now."""
    if board.ep_square is None or not any(board.generate_pseudo_legal_ep()):
        return None
    return board.ep_square


def position_key(board: chess.Board) -> Hashable:
    """What a repetition compares: placement, side to move, castling rights, e.p. square."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        ep_square(board),
    )


# -- the game ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DarkChessState:
    """A position with its history. ``board`` is never mutated once the state exists.

    As for chess (:class:`~server.engine.chess_game.ChessState`), the board is built through
    python-chess's public API (a copy without the stack, and ``push``, then ``clear_stack``)
    and carries no stack of earlier positions: the history is the state's, ``moves`` (a
    tuple, copied at each move: pointers only), with ``prev``, the board before the last
    move (for what the last move's mover was shown: its notation, and the castling rights
    after a king was taken).

    Attributes:
        board: the true position (no move stack).
        start_fen: the starting position.
        visibility: ``"openspiel"`` or ``"dagaz"`` (the fog rule, docs/GAMES.md 2.1/2.2).
        keys: the position keys since the last capture or pawn move, the current one last.
        captured: ``(color, piece_type)`` of every piece taken so far, in order.
        result: the outcome, once the game is over.
        texts: the legal moves' UCI texts, once a view asked for them (a cache).
        last_san: the last move in its mover's notation, where the board cannot tell it (a
            world placed from a view has no earlier position to write it from).
        moves: the moves from ``start_fen`` to ``board``; a placed world's are synthetic
            (null moves, then the seat's own last move when its view shows it): only their
            number, the ply, means anything there (:mod:`.placement`).
        prev: the board before the last move (``None`` at the start and in a placed world).
        legal: the legal moves' codes (:mod:`..chess_moves`), once computed (a cache).
    """

    board: DarkBoard
    start_fen: str
    visibility: str
    keys: tuple[Hashable, ...]
    captured: tuple[tuple[bool, int], ...]
    result: Outcome | None
    texts: list[str] | None = field(default=None, compare=False, repr=False)
    last_san: str | None = field(default=None, compare=False, repr=False)
    moves: tuple[chess.Move, ...] = field(default=(), compare=False, repr=False)
    prev: DarkBoard | None = field(default=None, compare=False, repr=False)
    legal: list[int] | None = field(default=None, compare=False, repr=False)

    def codes(self) -> list[int]:
        """The legal moves as codes, in python-chess's order (computed once)."""
        if self.legal is None:
            object.__setattr__(self, "legal", _codes(self.board))  # a cache on a frozen state
            assert self.legal is not None
        return self.legal

    def legal_texts(self) -> list[str]:
        """The legal moves as interned UCI texts, in python-chess's order (computed once)."""
        if self.texts is None:
            object.__setattr__(self, "texts", uci_texts(self.codes()))
            assert self.texts is not None
        return self.texts

    def __repr__(self) -> str:
        return f"DarkChessState({self.board.fen()!r}, ply={len(self.moves)})"


def _codes(board: DarkBoard) -> list[int]:
    return [] if board.is_variant_end() else dark_codes(board)


def _outcome(board: DarkBoard, keys: tuple[Hashable, ...], codes: list[int]) -> Outcome | None:
    """The end of the game in OpenSpiel's order of tests (MaybeFinalReturns); ``codes``:
    the legal moves of ``board``."""
    for color in (board.turn, not board.turn):
        if not board.kings & board.occupied_co[color]:
            return Outcome.win(seat_of(not color), 2, "king_captured")
    if keys.count(keys[-1]) >= 3:
        return Outcome.draw(2, "repetition")
    if not codes:
        return Outcome.draw(2, "stalemate")
    if board.halfmove_clock >= 100:
        return Outcome.draw(2, "fifty_moves")
    return None


def start(
    board: DarkBoard, start_fen: str, visibility: str, moves: tuple[chess.Move, ...] = ()
) -> DarkChessState:
    """The state of ``board`` (a board with no move stack); ``moves``, the moves that led
    there from ``start_fen`` (a placed world's synthetic ones; repetitions are counted from
    ``board`` on)."""
    keys = (position_key(board),)
    codes = _codes(board)
    return DarkChessState(
        board,
        start_fen,
        visibility,
        keys,
        (),
        _outcome(board, keys, codes),
        moves=moves,
        legal=codes,
    )


def advance(state: DarkChessState, move: chess.Move) -> DarkChessState:
    """``state`` after ``move`` (pseudo-legal, unchecked)."""
    before = state.board
    captured = state.captured
    if before.is_en_passant(move):
        captured += ((not before.turn, chess.PAWN),)
    elif not before.is_castling(move):
        victim = before.piece_type_at(move.to_square)
        if victim is not None:
            captured += ((not before.turn, victim),)
    zeroing = before.is_zeroing(move)
    played = compiled_play(before, move, board_fields(before))
    if played is not None:  # the same push, in one call, when compiled
        board = played[0]
    else:
        board = before.copy(stack=False)  # no stack of earlier positions: flat cost per move
        board.push(move)
        board.clear_stack()  # no history on the board: it is the state's
    key = position_key(board)
    keys = (key,) if zeroing else (*state.keys, key)
    codes = _codes(board)
    return DarkChessState(
        board,
        state.start_fen,
        state.visibility,
        keys,
        captured,
        _outcome(board, keys, codes),
        moves=(*state.moves, move),
        prev=before,
        legal=codes,
    )


def board_from_fen(fen: str) -> DarkBoard:
    try:
        board = DarkBoard(fen)
    except ValueError as exc:
        raise InvalidOptions(f"option 'fen' is not a valid FEN: {exc}") from None
    if not board.is_valid():
        raise InvalidOptions(f"option 'fen' is not a legal dark chess position: {fen}")
    return board


# -- perft ------------------------------------------------------------------------------------


def perft_board(board: DarkBoard, depth: int, keys: list[Hashable]) -> int:
    if depth == 0:
        return 1
    if board.is_variant_end() or keys.count(keys[-1]) >= 3:
        return 0
    moves = list(board.generate_legal_moves())
    if moves and board.halfmove_clock >= 100:
        return 0
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        zeroing = board.is_zeroing(move)
        board.push(move)
        key = position_key(board)
        total += perft_board(board, depth - 1, [key] if zeroing else [*keys, key])
        board.pop()
    return total

"""Chess: FIDE rules by adapting python-chess (docs/GAMES.md "Decisions").

Seat 0 is White, seat 1 is Black. Moves travel as UCI (``e2e4``, ``e7e8q``); SAN
(``Nf3``) is accepted on input too. The game ends by checkmate, stalemate, insufficient
material, threefold repetition or the fifty-move rule, all applied automatically (a server
has nobody to claim a draw for).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess
import chess.pgn

from . import chess_board
from .base import Game, IllegalMove, InvalidMove, InvalidOptions, Json, Option, Outcome, Seat
from .chess_fen import fen as fen_of
from .chess_moves import (
    board_status,
    code_of,
    compiled_play,
    compiled_san,
    legal_codes,
    position_key,
    to_moves,
    uci_texts,
)
from .chess_pgn import to_pgn

WHITE, BLACK = 0, 1

_TERMINATION_REASON = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
    chess.Termination.SEVENTYFIVE_MOVES: "fifty_moves",
    chess.Termination.FIVEFOLD_REPETITION: "repetition",
    chess.Termination.FIFTY_MOVES: "fifty_moves",
    chess.Termination.THREEFOLD_REPETITION: "repetition",
}


def seat_of(color: chess.Color) -> Seat:
    return WHITE if color == chess.WHITE else BLACK


def parse_fen_option(fen: str) -> chess.Board:
    """A board from the ``fen`` option; :class:`InvalidOptions` if it is not a valid position."""
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise InvalidOptions(f"option 'fen' is not a valid FEN: {exc}") from None
    return board


_UNSET: Any = object()


class ChessState:
    """A position with what its rules need of the past, and per-position caches.

    The ``board`` is never mutated once the state exists. It is built through python-chess's
    public API (a copy without the stack, and ``push``; or the compiled core's board) and
    carries no stack of earlier positions: its ``move_stack`` is empty. The game's history
    is kept beside it: ``moves``, the moves from ``start_fen`` (a tuple, copied at each
    move: pointers only), and repetitions are counted on ``keys`` (the positions since the
    last irreversible move, ending with this one), so a move costs the same at ply 150 as at
    ply 10. Legal moves, outcome, FEN and the SAN of the last move are computed at most once
    per state, on first use: by the compiled core (:mod:`.chess_moves`) when it was built,
    else by python-chess.
    """

    __slots__ = (
        "_codes",
        "_fen",
        "_fields",
        "_legal",
        "_outcome",
        "_parsed",
        "_san",
        "_status",
        "_texts",
        "board",
        "hashes",
        "keys",
        "moves",
        "prev",
        "prev_codes",
        "prev_fields",
        "start_fen",
    )

    def __init__(
        self,
        board: chess.Board,
        start_fen: str,
        keys: tuple[Any, ...] | None = None,
        prev: chess.Board | None = None,
        hashes: tuple[int, ...] | None = None,
        moves: tuple[chess.Move, ...] = (),
    ) -> None:
        self.board = board
        self.start_fen = start_fen
        #: the moves from ``start_fen`` to ``board``
        self.moves = moves
        #: the repetition keys (:func:`.chess_moves.position_key`)
        self.keys = keys if keys is not None else (position_key(board),)
        #: the keys' hashes: a repetition is counted on ints, and confirmed on the keys
        self.hashes = tuple(map(hash, self.keys)) if hashes is None else hashes
        #: the board before the last move (for its SAN); dropped once the SAN is known
        self.prev = prev
        #: the legal moves of the position before (codes), for the compiled SAN
        self.prev_codes: list[int] | None = None
        #: the compiled core's reading of the board (chess_moves.standard_fields), when
        #: the move that made it was played there; and the board's before it
        self._fields: tuple[Any, ...] | None = None
        self.prev_fields: tuple[Any, ...] | None = None
        self._status = -1
        self._codes: list[int] | None = None
        self._legal: list[chess.Move] | None = None
        self._texts: list[str] | None = None
        self._outcome: Any = _UNSET
        self._fen: str | None = None
        self._san: Any = _UNSET
        #: the last move text parsed here and its move (a room parses a move to check it,
        #: then again to fold its event in)
        self._parsed: tuple[str, chess.Move] | None = None

    @classmethod
    def at(cls, board: chess.Board, start_fen: str) -> ChessState:
        """A state for ``board``, a python-chess board whose move stack leads from
        ``start_fen`` to it (history rebuilt from it)."""
        keys: list[Any] = []
        replay = chess.Board(start_fen)
        keys.append(position_key(replay))
        for move in board.move_stack:
            if replay.is_irreversible(move):
                keys.clear()
            replay.push(move)
            keys.append(position_key(replay))
        prev = None
        if board.move_stack:
            prev = board.copy(stack=1)
            prev.pop()  # the position before the last move, with no stack left
        moves = tuple(board.move_stack)
        return cls(board.copy(stack=False), start_fen, tuple(keys), prev, moves=moves)

    def codes(self) -> list[int]:
        """The legal moves as :mod:`.chess_moves` codes (python-chess's order)."""
        if self._codes is None:
            self._codes = legal_codes(self.board, -1, self._fields)
        return self._codes

    def legal(self) -> list[chess.Move]:
        if self._legal is None:
            self._legal = to_moves(self.codes())
        return self._legal

    def legal_texts(self) -> list[str]:
        """The legal moves' UCI texts, interned (each computed once per position)."""
        if self._texts is None:
            self._texts = uci_texts(self.codes())
        return self._texts

    def fen(self) -> str:
        if self._fen is None:
            self._fen = fen_of(self.board, self._fields)
        return self._fen

    def status(self) -> int:
        """``board.is_check() | board.is_insufficient_material() << 1``, once per state."""
        if self._status < 0:
            self._status = board_status(self.board, self._fields)
        return self._status

    def is_check(self) -> bool:
        return bool(self.status() & 1)

    def san(self) -> str | None:
        if self._san is _UNSET:
            stack, prev, san = self.moves, self.prev, None
            if stack and prev is not None:
                move = stack[-1]
                if self.prev_codes is not None:  # compiled, from the legal moves before
                    check, legal = self.is_check(), bool(self.codes())
                    codes = self.prev_codes
                    san = compiled_san(prev, move, codes, check, legal, self.prev_fields)
                if san is None:
                    san = prev.san(move)
            self._san = san
            self.prev = self.prev_codes = self.prev_fields = None
        return self._san

    def __repr__(self) -> str:
        return f"ChessState({self.fen()!r}, ply={len(self.moves)})"


@functools.lru_cache(maxsize=1 << 16)
def uci_move(text: str) -> chess.Move:
    """The move of a UCI text, one shared object per text (moves are values: every room's
    move list points to the same few thousand objects instead of holding its own)."""
    return chess.Move.from_uci(text)


def parse_uci_or_san(board: chess.Board, text: str) -> chess.Move:
    """Parse UCI (``e2e4``), else SAN (``e4``, ``Nf3``) in ``board``'s position."""
    if not isinstance(text, str) or not 2 <= len(text) <= 10:
        raise InvalidMove(f"{text!r} is not a chess move")
    try:
        return uci_move(text)
    except ValueError:
        pass
    try:
        return board.parse_san(text)
    except chess.IllegalMoveError:
        raise IllegalMove(f"{text} is not legal in {board.fen()}") from None
    except ValueError:
        raise InvalidMove(f"{text!r} is neither UCI (e2e4) nor SAN (Nf3)") from None


class Chess(Game[ChessState, chess.Move]):
    name = "chess"
    title = "Chess"
    board = "chess"
    description = "Standard chess under FIDE rules."
    how_to_play = (
        "White moves first; the sides take turns, one move each.",
        "The king steps one square any way; the queen slides any distance straight or diagonally, "
        "the rook straight, the bishop diagonally; the knight jumps in an L (two squares one way, "
        "one square to the side) over anything in between.",
        "A pawn moves one square forward (two from its first square) and takes one square "
        "diagonally forward; reaching the last rank it becomes a queen, rook, bishop or knight. "
        "It may take a pawn that has just passed it with a double step as if that pawn had moved "
        "one square (en passant).",
        "Castling: once per game, if neither the king nor that rook has moved, nothing stands "
        "between them and the king is not in check and does not cross an attacked square, the "
        "king moves two squares towards the rook and the rook jumps over it.",
        "You may not leave your king in check. Checkmate (in check with no legal move) wins; "
        "stalemate (no legal move, not in check), threefold repetition, fifty moves without a "
        "capture or pawn move, and too little material to mate are draws.",
    )
    min_seats = max_seats = 2
    play_draws = False
    seat_names = ("White", "Black")
    options = {
        "fen": Option("str", chess.STARTING_FEN, "Starting position (FEN)", max_length=100),
    }

    # -- setup ---------------------------------------------------------------------------

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().check_options(raw)
        board = parse_fen_option(opts["fen"])
        if not board.is_valid():
            raise InvalidOptions(f"option 'fen' is not a legal chess position: {opts['fen']}")
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> ChessState:
        board = chess.Board(options.get("fen", chess.STARTING_FEN))
        return ChessState(board, board.fen())

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: ChessState) -> frozenset[Seat]:
        if self.outcome(state) is not None:
            return frozenset()
        return _SEATS[state.board.turn]

    def legal_moves(self, state: ChessState, seat: Seat) -> list[chess.Move]:
        """The legal moves (a list cached with the state: callers must not change it)."""
        if seat not in self.to_act(state):
            return []
        return state.legal()

    def legal_texts(self, state: ChessState, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return state.legal_texts()

    def is_legal(self, state: ChessState, seat: Seat, move: chess.Move) -> bool:
        if seat not in self.to_act(state):
            return False
        codes = state._codes  # the position's legal moves, when a view has asked already
        if codes is not None and not move.drop and code_of(move) in codes:
            return True
        return state.board.is_legal(move)

    def parse_move(self, state: ChessState, seat: Seat, text: str) -> chess.Move:
        parsed = state._parsed
        if parsed is not None and parsed[0] == text:
            return parsed[1]
        move = parse_uci_or_san(state.board, text)
        state._parsed = (text, move)
        return move

    def play(
        self,
        state: ChessState,
        moves: Mapping[Seat, chess.Move],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> ChessState:
        seat = seat_of(state.board.turn)
        if check:
            if self.outcome(state) is not None:
                raise IllegalMove("the game is over")
            if set(moves) != {seat}:
                raise IllegalMove(f"it is {self.seat_names[seat]}'s turn")
            if not state.board.is_legal(moves[seat]):
                raise IllegalMove(f"{moves[seat]} is not legal in {state.board.fen()}")
        return advance(state, moves[seat])

    def outcome(self, state: ChessState) -> Outcome | None:
        """Once per state: checkmate, insufficient material, stalemate, seventy-five moves
        and fivefold repetition (python-chess's order), then the draws a player could
        claim — threefold repetition, fifty moves — applied once they have happened (not
        when the side to move could bring them about, as python-chess's claim_draw counts)."""
        if state._outcome is _UNSET:
            state._outcome = _outcome(state)
        return state._outcome

    def perft(self, state: ChessState, depth: int) -> int:
        """Fast perft straight on python-chess (bulk-counts the last ply)."""
        return _perft(state.board.copy(), depth)

    def ply(self, state: ChessState) -> int:
        return len(state.moves)

    def view(self, state: ChessState, seat: Seat | None) -> Json:
        board = state.board
        last = state.moves[-1] if state.moves else None
        return {
            "fen": state.fen(),
            "turn": "white" if board.turn == chess.WHITE else "black",
            "ply": len(state.moves),
            "check": state.is_check(),
            "last_move": last.uci() if last else None,
            "last_san": state.san(),
            "grid": _grid(state, self.outcome(state)),
        }

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: ChessState) -> Json:
        return {"start": state.start_fen, "moves": [m.uci() for m in state.moves]}

    def decode_state(self, data: Mapping[str, Any]) -> ChessState:
        board = chess.Board(data["start"])
        for uci in data["moves"]:
            board.push(chess.Move.from_uci(uci))
        return ChessState.at(board, data["start"])

    # -- bot hooks -----------------------------------------------------------------------

    def determinize(
        self, views: Sequence[Mapping[str, Any]], seat: Seat, rng: random.Random
    ) -> ChessState:
        """The true state, rebuilt from a seat's views (chess hides nothing): the position of
        the last view, with the moves that led to it replayed from the views' ``last_move``
        as far back as the views form an unbroken chain (repetitions need that history)."""
        board: chess.Board | None = None
        start, base = "", 0
        for view in views:
            fen, last, ply = str(view["fen"]), view.get("last_move"), int(view["ply"])
            if board is not None and last and ply == base + len(board.move_stack) + 1:
                board.push(chess.Move.from_uci(str(last)))
                if board.fen() == fen:
                    continue
            if board is None or board.fen() != fen or ply != base + len(board.move_stack):
                board, start, base = chess.Board(fen), fen, ply
        if board is None:
            raise ValueError("no view to rebuild a chess position from")
        return ChessState.at(board, start)

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        return {"pgn": to_pgn(record)}


_SEATS = {chess.WHITE: frozenset({WHITE}), chess.BLACK: frozenset({BLACK})}


def advance(state: ChessState, move: chess.Move) -> ChessState:
    """The state after ``move`` (legal): a board copy without the stack and python-chess's
    push (or the compiled core's board), the move list extended, the repetition keys
    extended (or restarted after an irreversible move)."""
    before = state.board
    played = compiled_play(before, move, state._fields)  # the same, in one call, when compiled
    key: Any
    fields = None
    if played is not None:
        board, irreversible, key, fields = played
    else:
        board = before.copy(stack=False)
        irreversible = before.is_irreversible(move)
        board.push(move)
        board.clear_stack()  # no history on the board: it is the state's
        key = position_key(board)
    moves = (*state.moves, move)
    if irreversible:
        after = ChessState(board, state.start_fen, (key,), before, (hash(key),), moves)
    else:
        keys, hashes = (*state.keys, key), (*state.hashes, hash(key))
        after = ChessState(board, state.start_fen, keys, before, hashes, moves)
    if played is not None:  # the compiled SAN spells the move from the codes before it
        after.prev_codes, after.prev_fields, after._fields = state._codes, state._fields, fields
    return after


def _outcome(state: ChessState) -> Outcome | None:
    board = state.board
    legal = state.codes()
    status = state.status()
    if not legal and status & 1:
        return Outcome.win(seat_of(not board.turn), 2, "checkmate")
    if status & 2:
        return Outcome.draw(2, "insufficient_material")
    if not legal:
        return Outcome.draw(2, "stalemate")
    repeats = state.hashes.count(state.hashes[-1])
    if repeats >= 3:  # a repetition by the hashes: count it on the keys themselves
        repeats = state.keys.count(state.keys[-1])
    if board.halfmove_clock >= 150:
        return Outcome.draw(2, "fifty_moves")  # seventy-five moves
    if repeats >= 5:
        return Outcome.draw(2, "repetition")  # fivefold
    if repeats >= 3:
        return Outcome.draw(2, "repetition")
    if board.halfmove_clock >= 100:
        return Outcome.draw(2, "fifty_moves")
    return None


def _perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total


GAMES = (Chess(),)


def _grid(state: ChessState, end: Outcome | None) -> Json:
    """The board described (:mod:`.chess_board`): the same for every seat, the premoves of
    both sides' figures (each seat's client takes its own while it waits): from move to move
    only the moved figures' change, and an update carries only those."""
    board = state.board
    squares = chess_board.placement(state.fen())
    to_move = seat_of(board.turn)
    check = state.is_check()
    king = board.king(board.turn)
    marks = {chess.square_name(king): "check"} if check and king is not None else {}
    san = state.san()
    facts = [{"label": "Move", "text": str(len(state.moves) // 2 + 1), "name": "move"}]
    if san:
        facts.append({"label": "Last move", "text": san, "name": "last-san"})
    if check and end is None:
        side = "White" if board.turn == chess.WHITE else "Black"
        facts.append({"label": "Check", "text": f"{side} is in check", "name": "check"})
    last = state.moves[-1].uci() if state.moves else None
    return chess_board.describe(
        squares,
        last=chess_board.move_squares(last),
        marks=marks,
        status=chess_board.status(to_move, end, check=check),
        premoves=chess_board.premoves(squares) if end is None else {},
        facts=facts,
        said=san or last or "",
    )

"""Chess: FIDE rules by adapting python-chess (GAMES.md "Decisions").

Seat 0 is White, seat 1 is Black. Moves travel as UCI (``e2e4``, ``e7e8q``); SAN
(``Nf3``) is accepted on input too. The game ends by checkmate, stalemate, insufficient
material, threefold repetition or the fifty-move rule, all applied automatically (a server
has nobody to claim a draw for).
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import chess
import chess.pgn

from .base import Game, IllegalMove, InvalidMove, InvalidOptions, Json, Option, Outcome, Seat

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


@dataclass(frozen=True, slots=True)
class ChessState:
    """A position with its history. ``board`` is never mutated once the state exists."""

    board: chess.Board
    start_fen: str

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r}, ply={len(self.board.move_stack)})"


def parse_uci_or_san(board: chess.Board, text: str) -> chess.Move:
    """Parse UCI (``e2e4``), else SAN (``e4``, ``Nf3``) in ``board``'s position."""
    if not isinstance(text, str) or not 2 <= len(text) <= 10:
        raise InvalidMove(f"{text!r} is not a chess move")
    try:
        return chess.Move.from_uci(text)
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
    description = "Standard chess under FIDE rules."
    min_seats = max_seats = 2
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
        return frozenset({seat_of(state.board.turn)})

    def legal_moves(self, state: ChessState, seat: Seat) -> list[chess.Move]:
        if seat not in self.to_act(state):
            return []
        return list(state.board.legal_moves)

    def parse_move(self, state: ChessState, seat: Seat, text: str) -> chess.Move:
        return parse_uci_or_san(state.board, text)

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
        board = state.board.copy()
        board.push(moves[seat])
        return ChessState(board, state.start_fen)

    def outcome(self, state: ChessState) -> Outcome | None:
        board = state.board
        result = board.outcome(claim_draw=False)  # mate, stalemate, material, 75 moves, 5-fold
        if result is None:
            # The draws a player could claim, applied once they have happened (not when the
            # side to move could bring them about, as python-chess's claim_draw counts).
            if board.is_repetition(3):
                return Outcome.draw(2, "repetition")
            if board.halfmove_clock >= 100:
                return Outcome.draw(2, "fifty_moves")
            return None
        reason = _TERMINATION_REASON.get(result.termination, result.termination.name.lower())
        if result.winner is None:
            return Outcome.draw(2, reason)
        return Outcome.win(seat_of(result.winner), 2, reason)

    def perft(self, state: ChessState, depth: int) -> int:
        """Fast perft straight on python-chess (bulk-counts the last ply)."""
        return _perft(state.board.copy(), depth)

    def ply(self, state: ChessState) -> int:
        return len(state.board.move_stack)

    def view(self, state: ChessState, seat: Seat | None) -> Json:
        board = state.board
        last = board.move_stack[-1] if board.move_stack else None
        san = None
        if last is not None:
            before = board.copy(stack=1)
            before.pop()
            san = before.san(last)
        return {
            "fen": board.fen(),
            "turn": "white" if board.turn == chess.WHITE else "black",
            "ply": len(board.move_stack),
            "check": board.is_check(),
            "last_move": last.uci() if last else None,
            "last_san": san,
        }

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: ChessState) -> Json:
        return {"start": state.start_fen, "moves": [m.uci() for m in state.board.move_stack]}

    def decode_state(self, data: Mapping[str, Any]) -> ChessState:
        board = chess.Board(data["start"])
        for uci in data["moves"]:
            board.push(chess.Move.from_uci(uci))
        return ChessState(board, data["start"])

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
        return ChessState(board, start)

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        return {"pgn": to_pgn(record)}


def to_pgn(record: Mapping[str, Any]) -> str:
    """PGN of a room record (see ``Room.record``): headers, moves and result."""
    out = io.StringIO()
    print(pgn_game(record), file=out, end="\n")
    return out.getvalue()


def pgn_game(
    record: Mapping[str, Any],
    *,
    board_cls: type[chess.Board] = chess.Board,
    game_cls: type[chess.pgn.Game] = chess.pgn.Game,
) -> chess.pgn.Game:
    """The PGN game of a room record; a variant board (``board_cls``) sets the ``Variant``
    and ``FEN`` headers."""
    options = record.get("options", {})
    start = options.get("fen", chess.STARTING_FEN)
    board = board_cls(start)
    game = game_cls()
    if start != chess.STARTING_FEN or board_cls.aliases[0] != "Standard":
        game.setup(board)
    game.headers["Event"] = f"Kibitz {record.get('game', 'chess')} room {record.get('room', '?')}"
    game.headers["Site"] = "Kibitz"
    players = record.get("players", [])
    game.headers["White"] = players[0] if len(players) > 0 and players[0] else "?"
    game.headers["Black"] = players[1] if len(players) > 1 and players[1] else "?"
    node: chess.pgn.GameNode = game
    for turn in record.get("moves", []):
        for text in turn["moves"].values():
            move = chess.Move.from_uci(text)
            node = node.add_variation(move)
            board.push(move)
    outcome = record.get("outcome")
    if outcome:
        winner = outcome.get("winner")
        game.headers["Result"] = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]
        game.headers["Termination"] = outcome.get("reason", "")
    else:
        game.headers["Result"] = "*"
    return game


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

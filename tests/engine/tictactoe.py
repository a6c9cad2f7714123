"""Tic-tac-toe on the engine's base layer: what a new small grid game costs (a test-only game,
never registered in the server; ``test_tictactoe.py`` runs it through the contract checks).

Two seats, X (moves first) and O, put a mark on an empty square of a 3x3 board in turn; three
marks of one seat in a row, a column or a diagonal win; a full board without one draws. A move
is the square (``b2``: the gesture notation's one-square act).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine import grid, grid_views, turns
from server.engine.base import Json, Outcome, Seat
from server.engine.grid import EMPTY

SQUARES = grid.Squares(3, 3)
MARKS = "XO"
SEAT_NAMES = ("X", "O")
#: the eight lines of three squares: ranks, files, the two diagonals
LINES = (
    *((r * 3, r * 3 + 1, r * 3 + 2) for r in range(3)),
    *((f, f + 3, f + 6) for f in range(3)),
    (0, 4, 8),
    (2, 4, 6),
)
SEATS = grid_views.seats(("X", "#c0392b", "south"), ("O", "#2c6fbb", "north"))
REASONS = {"three_in_a_row": "three in a row", "board_full": "the board is full"}


class Mark(grid.Place):
    """A mark on an empty square."""

    __slots__ = ()
    squares, game, forms = SQUARES, "Tic-tac-toe", "a square, as b2"


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    """The position: a mark (``X``, ``O``) or ``.`` a square, ``a1`` first; the seat to
    move, the plies played and the last move."""

    board: str = EMPTY * 9
    to_move: Seat = 0
    ply: int = 0
    last_move: Mark | None = None


def generate(state: TicTacToeState) -> list[Mark]:
    return [Mark(sq) for sq, ch in enumerate(state.board) if ch == EMPTY]


def apply(state: TicTacToeState, move: Mark) -> TicTacToeState:
    board = state.board
    board = board[: move.dst] + MARKS[state.to_move] + board[move.dst + 1 :]
    return turns.after(state, move, board=board)


def outcome(state: TicTacToeState) -> Outcome | None:
    for a, b, c in LINES:
        mark = state.board[a]
        if mark != EMPTY and mark == state.board[b] == state.board[c]:
            return Outcome.win(MARKS.index(mark), 2, "three_in_a_row")
    if EMPTY not in state.board:
        return Outcome.draw(2, "board_full")
    return None


class TicTacToe(turns.TurnGame[TicTacToeState, Mark]):
    name = "tictactoe"
    title = "Tic-tac-toe"
    description = "Three marks in a row on a 3x3 board."
    how_to_play = ("Put a mark on an empty square; three in a row, column or diagonal win.",)
    seat_names = SEAT_NAMES
    play_draws = False
    public_moves = True
    state_type, move_type = TicTacToeState, Mark
    codecs = {"board": (SQUARES.rows, SQUARES.board)}
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(outcome)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> TicTacToeState:
        self.check_options(options)
        return TicTacToeState()

    def view(self, state: TicTacToeState, seat: Seat | None) -> Json:
        """The whole position, the same for every seat and spectators."""
        pieces = {
            SQUARES.name(sq): grid.piece(MARKS.index(ch), "mark", f"{ch} mark", ch)
            for sq, ch in enumerate(state.board)
            if ch != EMPTY
        }
        status = grid_views.status(SEAT_NAMES, state.to_move, outcome(state), REASONS)
        return {
            "board": SQUARES.rows(state.board),
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "grid": grid_views.describe_board(
                SQUARES, SEATS, pieces, move=state.last_move, status=status
            ),
        }

    def evaluate(self, state: TicTacToeState, seat: Seat) -> list[float]:
        """Per seat: the lines still open to it (none of the other's marks on them)."""
        return [
            float(sum(MARKS[1 - s] not in {state.board[q] for q in line} for line in LINES))
            for s in (0, 1)
        ]

"""Kamisado rules: the legal moves, their effect, blocked towers and the end of a round
(docs/GAMES.md 5.3)."""

from __future__ import annotations

from ..base import Seat
from ..grid import EMPTY
from .board import (
    N_FILES,
    RAYS,
    SQUARE_COLOUR,
    goal_rank,
    owner,
    tower,
)
from .values import PASS, KamisadoMove, KamisadoState


def tower_square(board: str, seat: Seat, colour: int) -> int:
    """Where ``seat``'s tower of ``colour`` stands (every tower is always on the board)."""
    return board.index(tower(seat, colour))


def destinations(board: str, seat: Seat, sq: int) -> list[int]:
    """The squares the tower on ``sq`` may move to: any distance forward, straight or
    diagonally, over empty squares only (no jumping, no capture)."""
    out = []
    for ray in RAYS[seat][sq]:
        for dst in ray:
            if board[dst] != EMPTY:
                break
            out.append(dst)
    return out


def can_move(board: str, seat: Seat, sq: int) -> bool:
    """Whether the tower on ``sq`` has a move (the next square of some line is empty)."""
    return any(board[ray[0]] == EMPTY for ray in RAYS[seat][sq])


def generate(state: KamisadoState) -> list[KamisadoMove]:
    """The moves of the seat to move: the tower of colour ``must`` (any tower on the first
    move), by square; ``[pass]`` when that tower is blocked."""
    board, seat = state.board, state.to_move
    if state.must is None:
        sources = [sq for sq, ch in enumerate(board) if ch != EMPTY and owner(ch) == seat]
    else:
        sources = [tower_square(board, seat, state.must)]
    moves = [KamisadoMove(src, dst) for src in sources for dst in destinations(board, seat, src)]
    return moves or [PASS]


def apply(state: KamisadoState, move: KamisadoMove) -> KamisadoState:
    """The state after ``move`` (assumed legal). A pass is a move of length zero: the
    opponent must then move its tower of the colour under the blocked tower."""
    board, seat = state.board, state.to_move
    if move.is_pass:
        assert state.must is not None, "nobody passes on the first move"
        end = tower_square(board, seat, state.must)
    else:
        end = move.dst
        cells = list(board)
        cells[end], cells[move.src] = cells[move.src], EMPTY
        board = "".join(cells)
    return KamisadoState(board, 1 - seat, SQUARE_COLOUR[end], state.ply + 1, move)


def home_row_winner(board: str) -> Seat | None:
    """The seat with a tower on the opponent's home row, if any."""
    for seat in (0, 1):
        row = goal_rank(seat) * N_FILES
        if any(ch != EMPTY and owner(ch) == seat for ch in board[row : row + N_FILES]):
            return seat
    return None


def deadlocked(state: KamisadoState) -> bool:
    """Whether the forced passes from here loop: the tower to move is blocked, so is the
    opponent's tower of the colour under it, and so on until a (seat, colour) recurs. Then
    nobody can ever move again: the seat that moved last caused the deadlock."""
    if state.must is None:
        return False
    seat, colour = state.to_move, state.must
    seen: set[tuple[Seat, int]] = set()
    while (seat, colour) not in seen:
        seen.add((seat, colour))
        sq = tower_square(state.board, seat, colour)
        if can_move(state.board, seat, sq):
            return False
        seat, colour = 1 - seat, SQUARE_COLOUR[sq]
    return True


def open_path(board: str, seat: Seat, sq: int) -> bool:
    """Whether the tower on ``sq`` can reach its goal row in one move."""
    goal = goal_rank(seat)
    for ray in RAYS[seat][sq]:
        last = ray[-1]
        if last // N_FILES == goal and all(board[s] == EMPTY for s in ray):
            return True
    return False

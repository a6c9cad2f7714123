"""Jungle rules: the legal moves, their effect and the end of the game (docs/GAMES.md 5.1)."""

from __future__ import annotations

from .. import draws, turns
from ..base import Outcome
from ..grid import EMPTY
from .board import (
    DENS,
    LEAPERS,
    LEAPS,
    NEIGHBOURS,
    WATER,
    can_capture,
    seat_of,
)
from .values import JungleMove, JungleState, position_key


def targets(board: str, src: int, variant: str) -> list[int]:
    """The squares the piece on ``src`` reaches by a step or a leap, before looking at what
    stands there: never its own den, never water unless it is the Rat, a leap only over
    empty water (5.1.3)."""
    piece = board[src]
    kind, seat = piece.lower(), seat_of(piece)
    leaps = LEAPERS[variant].get(kind, ())
    out = []
    for direction, nxt in enumerate(NEIGHBOURS[src]):
        if nxt is None or nxt == DENS[seat]:
            continue
        if nxt in WATER and kind != "r":
            leap = LEAPS[src][direction]
            if direction not in leaps or leap is None:
                continue
            nxt, crossed = leap
            if any(board[w] != EMPTY for w in crossed):
                continue  # a Rat in the river blocks the leap
        out.append(nxt)
    return out


def pseudo_moves(state: JungleState) -> list[JungleMove]:
    """The moves of the seat to move by the rules of movement and capture, by square."""
    board, variant, me = state.board, state.variant, state.to_move
    moves = []
    for src, piece in enumerate(board):
        if piece == EMPTY or seat_of(piece) != me:
            continue
        for dst in targets(board, src, variant):
            target = board[dst]
            if target == EMPTY:
                moves.append(JungleMove(src, dst))
            elif seat_of(target) != me and can_capture(piece, src, target, dst, variant):
                moves.append(JungleMove(src, dst, True))
    return moves


def generate(state: JungleState) -> list[JungleMove]:
    """The legal moves: in the ``dagaz`` variant, none may recreate a position (board and
    side to move) seen before (Dagaz's ko, 5.1.5); a capture always makes a new one."""
    moves = pseudo_moves(state)
    if state.variant != "dagaz":
        return moves
    seen = set(state.history)
    return [m for m in moves if m.capture or _after(state, m) not in seen]


def _after(state: JungleState, move: JungleMove) -> str:
    cells = list(state.board)
    cells[move.dst], cells[move.src] = cells[move.src], EMPTY
    return position_key("".join(cells), 1 - state.to_move)


def apply(state: JungleState, move: JungleMove) -> JungleState:
    """The state after ``move`` (assumed legal)."""
    cells = list(state.board)
    captured = state.captured
    if move.capture:
        captured += cells[move.dst]
    cells[move.dst], cells[move.src] = cells[move.src], EMPTY
    board = "".join(cells)
    key = position_key(board, 1 - state.to_move)
    return turns.after(
        state, move, board=board, captured=captured, **draws.after(state, key, move.capture)
    )


def outcome(state: JungleState) -> Outcome | None:
    """The end of the game (5.1.6), checked in this order: a piece in the enemy den, a side
    with no piece, the side to move with no legal move, threefold repetition, no progress."""
    board = state.board
    for seat in (0, 1):
        den = board[DENS[1 - seat]]
        if den != EMPTY and seat_of(den) == seat:
            return Outcome.win(seat, 2, "den")
    for seat in (0, 1):
        if not any(ch != EMPTY and seat_of(ch) == seat for ch in board):
            return Outcome.win(1 - seat, 2, "all_captured")
    if not generate(state):
        return Outcome.win(1 - state.to_move, 2, "no_moves")
    return draws.drawn(state)

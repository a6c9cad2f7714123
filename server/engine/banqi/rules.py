"""BanQi rules: the legal actions and their effect, with the end of the game (docs/GAMES.md 3)."""

from __future__ import annotations

from dataclasses import replace

from .. import draws, turns
from ..grid import EMPTY
from .board import (
    RAYS,
    can_capture,
    colour_of,
)
from .values import BanqiMove, BanqiState, position_key


def generate(state: BanqiState) -> list[BanqiMove]:
    """The actions of the seat to move: flips first, then moves by square."""
    moves = [BanqiMove(sq) for sq in sorted(state.hidden)]
    if state.colours is None:
        return moves
    board, hidden = state.board, state.hidden
    mine = state.colours[state.to_move]
    jumping = state.variant == "taiwanese"
    for src, piece in enumerate(board):
        if piece == EMPTY or src in hidden or colour_of(piece) != mine:
            continue
        for ray in RAYS[src]:
            if not ray:
                continue
            if jumping and piece in "Cc":
                i = 0
                while i < len(ray) and board[ray[i]] == EMPTY:
                    if i == 0 or state.cannon_quiet == "slide":
                        moves.append(BanqiMove(src, ray[i]))
                    i += 1
                i += 1  # over the screen
                while i < len(ray) and board[ray[i]] == EMPTY:
                    i += 1
                if i < len(ray):
                    dst = ray[i]
                    if dst not in hidden and colour_of(board[dst]) != mine:
                        moves.append(BanqiMove(src, dst, True))
                continue
            dst = ray[0]
            target = board[dst]
            if target == EMPTY:
                moves.append(BanqiMove(src, dst))
            elif (
                dst not in hidden
                and colour_of(target) != mine
                and can_capture(piece, target, state.variant)
            ):
                moves.append(BanqiMove(src, dst, True))
    return moves


def apply(state: BanqiState, move: BanqiMove) -> BanqiState:
    """The state after ``move`` (assumed legal)."""
    board, hidden = state.board, state.hidden
    colours, captured, progress = state.colours, state.captured, move.capture
    if move.dst is None:
        hidden = hidden - {move.src}
        if colours is None:
            c = colour_of(board[move.src])
            colours = (c, 1 - c) if state.to_move == 0 else (1 - c, c)
        progress = True  # a flip cannot be undone either
    else:
        cells = list(board)
        if move.capture:
            captured += cells[move.dst]
        cells[move.dst], cells[move.src] = cells[move.src], EMPTY
        board = "".join(cells)
    new = turns.after(state, move, board=board, hidden=hidden, colours=colours, captured=captured)
    return replace(new, **draws.after(state, position_key(new), progress))

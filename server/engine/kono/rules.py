"""Four-field Kono rules: the legal moves, their effect and the end of the game (GAMES.md 5.2)."""

from __future__ import annotations

from .. import draws, turns
from ..base import Outcome
from .board import EMPTY, LINES, STONES
from .values import KonoMove, KonoState, position_key

#: fewer stones than this and a side has lost (5.2)
MIN_STONES = 2


def moves_of(board: str, seat: int) -> list[KonoMove]:
    """The moves of ``seat`` on ``board``, by square: a step to an adjacent empty square, or a
    jump over an adjacent own stone onto the enemy stone right behind it, taking it."""
    mine, theirs = STONES[seat], STONES[1 - seat]
    out = []
    for src, stone in enumerate(board):
        if stone != mine:
            continue
        for near, far in LINES[src]:
            if board[near] == EMPTY:
                out.append(KonoMove(src, near))
            elif board[near] == mine and far is not None and board[far] == theirs:
                out.append(KonoMove(src, far, True))
    return out


def generate(state: KonoState) -> list[KonoMove]:
    """The moves of the seat to move (whether or not the game is already over)."""
    return moves_of(state.board, state.to_move)


def apply(state: KonoState, move: KonoMove) -> KonoState:
    """The state after ``move`` (assumed legal): the stone leaves ``src`` and lands on ``dst``
    (on a capture, in place of the enemy stone)."""
    cells = list(state.board)
    cells[move.dst], cells[move.src] = cells[move.src], EMPTY
    board = "".join(cells)
    key = position_key(board, 1 - state.to_move)
    return turns.after(state, move, board=board, **draws.after(state, key, move.capture))


def end(state: KonoState) -> Outcome | None:
    """The end of the game, checked in this order (5.2 and our draw rules):

    * a side with fewer than 2 stones has lost (``too_few_stones``); the side to move is
      looked at first, as Dagaz does (its goal test is the mover's: "enemies < 2");
    * the side to move with no legal move loses (``no_moves``);
    * the same board with the same side to move for the third time is a draw
      (``repetition``);
    * ``draw_plies`` plies in a row without a capture draw (``no_progress``).
    """
    seat = state.to_move
    for loser in (seat, 1 - seat):
        if state.board.count(STONES[loser]) < MIN_STONES:
            return Outcome.win(1 - loser, 2, "too_few_stones")
    if not generate(state):
        return Outcome.win(1 - seat, 2, "no_moves")
    return draws.drawn(state)

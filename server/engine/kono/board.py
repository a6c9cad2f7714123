"""Four-field Kono: the 4x4 board, its squares, lines and stones (docs/GAMES.md 5.2)."""

from __future__ import annotations

from .. import grid
from ..grid import EMPTY

N_FILES = N_RANKS = 4
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(N_FILES, N_RANKS)
#: the stone of seat 0 (Black, moves first, ranks 1-2) and of seat 1 (White, ranks 3-4)
STONES = ("b", "w")
SEAT_NAMES = ("Black", "White")
#: the start: rows rank 4 .. rank 1 (5.2: the board is full)
START = "wwww/wwww/bbbb/bbbb"
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (file, rank) steps: n, s, e, w


def _line(sq: int, step: tuple[int, int]) -> tuple[int, int | None] | None:
    """The neighbour of ``sq`` in direction ``step`` and the square beyond it (or ``None``)."""
    f, r = sq % N_FILES, sq // N_FILES
    out: list[int | None] = []
    for k in (1, 2):
        nf, nr = f + k * step[0], r + k * step[1]
        out.append(nr * N_FILES + nf if 0 <= nf < N_FILES and 0 <= nr < N_RANKS else None)
    near, far = out
    return None if near is None else (near, far)


#: for each square, its lines: (adjacent square, the square behind it or ``None``)
LINES: tuple[tuple[tuple[int, int | None], ...], ...] = tuple(
    tuple(line for d in DIRECTIONS if (line := _line(sq, d)) is not None)
    for sq in range(SQUARES.size)
)


def layout_board(layout: str) -> str:
    """``"wwww/wwww/bbbb/bbbb"`` (rows rank 4 .. rank 1) -> the 16-char board, a1 first."""
    board = SQUARES.board(layout)
    if set(board) - {EMPTY, *STONES}:
        raise ValueError(f"{layout!r}: squares are '.', 'b' or 'w'")
    return board

"""Apocalypse's board: squares, pieces, the board as text (docs/GAMES.md 1.1)."""

from __future__ import annotations

from .. import grid
from ..base import Seat

WHITE, BLACK = 0, 1
SIZE = 5
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(SIZE, SIZE)
square_name = SQUARES.name
parse_square = SQUARES.parse
FILES = "abcde"
EMPTY = "."
KNIGHT = ("N", "n")  # by seat
PAWN = ("P", "p")
LAST_RANK = (SIZE - 1, 0)  # the rank (0-based) where each seat's pawns promote
FORWARD = (1, -1)
START_BOARD = "npppn/p3p/5/P3P/NPPPN"
_VALUE = {"N": 3.0, "n": 3.0, "P": 1.0, "p": 1.0}
_RANK = {"P": 0, "p": 0, "N": 1, "n": 1}  # join type order: footman < horseman (1.3)


def owner(piece: str) -> Seat | None:
    """The seat owning ``piece`` (upper case White), ``None`` for an empty square."""
    if piece == EMPTY:
        return None
    return WHITE if piece.isupper() else BLACK


def _knight_targets(sq: int) -> tuple[int, ...]:
    r, f = divmod(sq, SIZE)
    out = []
    for dr, df in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= r + dr < SIZE and 0 <= f + df < SIZE:
            out.append((r + dr) * SIZE + f + df)
    return tuple(sorted(out))


_KNIGHT_TARGETS = tuple(_knight_targets(sq) for sq in range(SIZE * SIZE))


def board_from_text(text: str) -> str:
    """The 25-char board (index ``a1 = 0``) from FEN-like rows ``rank5/.../rank1``."""
    rows = text.split("/")
    if len(rows) != SIZE:
        raise ValueError(f"{text!r}: expected {SIZE} rows")
    cells: list[str] = []
    for row in reversed(rows):
        line = ""
        for ch in row:
            if ch.isdigit():
                line += EMPTY * int(ch)
            elif ch in "NPnp":
                line += ch
            else:
                raise ValueError(f"{text!r}: bad character {ch!r}")
        if len(line) != SIZE:
            raise ValueError(f"{text!r}: row {row!r} is not {SIZE} squares")
        cells.append(line)
    return "".join(cells)


def board_to_text(board: str) -> str:
    """Inverse of :func:`board_from_text`."""
    rows = []
    for r in reversed(range(SIZE)):
        row, run = "", 0
        for ch in board[r * SIZE : (r + 1) * SIZE]:
            if ch == EMPTY:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += ch
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)

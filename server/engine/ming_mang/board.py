"""Ming-Mang: the square boards (8, 9 or 17 lines), their points, rays and start (GAMES.md 5.4).

A board is a string of ``size * size`` chars, index ``rank * size + file`` (``a1 = 0``): ``b``
(Black), ``w`` (White) or ``.``. :func:`geometry` gives, per size, the rays from every point
(for the rook-like slides and the lines a move closes) and the Zobrist keys that the ko rule
compares.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from ..base import InvalidMove

FILES = "abcdefghijklmnopq"
SIZES = (8, 9, 17)
EMPTY = "."
#: the stone of seat 0 (Black, moves first) and of seat 1 (White)
STONES = ("b", "w")
SEAT_NAMES = ("Black", "White")


def square_name(sq: int, size: int) -> str:
    """``0 -> "a1"``; index ``rank * size + file``."""
    return FILES[sq % size] + str(sq // size + 1)


def parse_square(text: str, size: int) -> int:
    """``"a1" -> 0``; :class:`InvalidMove` unless ``text`` is a point of the board."""
    last = FILES[size - 1]
    if not (2 <= len(text) <= 3 and text[0] in FILES[:size] and text[1:].isdigit()):
        raise InvalidMove(f"{text!r} is not a point (a1..{last}{size})")
    rank = int(text[1:])
    if text[1] == "0" or not 1 <= rank <= size:
        raise InvalidMove(f"{text!r} is not a point (a1..{last}{size})")
    return FILES.index(text[0]) + size * (rank - 1)


@dataclass(frozen=True)
class Geometry:
    """One board size: its rays and Zobrist keys.

    Attributes:
        size: lines each way.
        rays: per point, four tuples of points going north, south, east and west from it
            (nearest first; empty at the edge).
        zobrist: per point, the key of a Black and of a White stone there.
        side: the key xor-ed in when White is to move.
        names: per point, its name (``"a1"``); ``index`` the other way round.
    """

    size: int
    names: tuple[str, ...]
    index: dict[str, int]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    zobrist: tuple[tuple[int, int], ...]
    side: int


@functools.cache
def geometry(size: int) -> Geometry:
    """The :class:`Geometry` of a ``size`` x ``size`` board (built once per size)."""
    rays = []
    for sq in range(size * size):
        f, r = sq % size, sq // size
        rays.append(
            (
                tuple(k * size + f for k in range(r + 1, size)),
                tuple(k * size + f for k in range(r - 1, -1, -1)),
                tuple(r * size + k for k in range(f + 1, size)),
                tuple(r * size + k for k in range(f - 1, -1, -1)),
            )
        )
    rng = random.Random(f"ming_mang/{size}")  # fixed: the keys are the same in every process
    zobrist = tuple((rng.getrandbits(64), rng.getrandbits(64)) for _ in range(size * size))
    names = tuple(square_name(sq, size) for sq in range(size * size))
    index = {name: sq for sq, name in enumerate(names)}
    return Geometry(size, names, index, tuple(rays), zobrist, rng.getrandbits(64))


def start_board(size: int) -> str:
    """The start (5.4.1, as Dagaz sets it up): Black on rank 1 and on the last file above it,
    White on file a above rank 1 and on the last rank; ``2 * size - 2`` stones each."""
    cells = [EMPTY] * (size * size)
    last = size - 1
    for k in range(size):
        cells[k] = "b"  # rank 1
        cells[last * size + k] = "w"  # the last rank
    for r in range(1, last):
        cells[r * size + last] = "b"  # the last file
        cells[r * size] = "w"  # file a
    return "".join(cells)


def board_key(board: str, to_move: int, geo: Geometry) -> int:
    """The Zobrist key of a board with a seat to move (what the ko rule compares)."""
    key = geo.side if to_move else 0
    for sq, ch in enumerate(board):
        if ch != EMPTY:
            key ^= geo.zobrist[sq][STONES.index(ch)]
    return key


def layout_board(layout: str) -> str:
    """Rows from the last rank down to rank 1, separated by ``/`` -> the board string."""
    rows = layout.split("/")
    size = len(rows)
    if size not in SIZES or any(len(row) != size for row in rows):
        raise ValueError(f"{layout!r}: expected {SIZES} rows of as many points")
    board = "".join(reversed(rows))
    if set(board) - {EMPTY, *STONES}:
        raise ValueError(f"{layout!r}: points are '.', 'b' or 'w'")
    return board


def board_layout(board: str, size: int) -> str:
    """The board as rows from the last rank down to rank 1 (inverse of :func:`layout_board`)."""
    return "/".join(board[r * size : (r + 1) * size] for r in reversed(range(size)))

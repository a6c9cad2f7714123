"""Kamisado: the coloured board, the towers and the lines they move along (docs/GAMES.md 5.3).

Squares are numbered ``rank * 8 + file`` (``a1 = 0``, ``h8 = 63``). Seat 0 (Black) has its
home row on rank 1 and moves up the board; seat 1 (Gold) has its home row on rank 8 and moves
down. A tower is one letter on the board string: its colour's letter (:data:`LETTERS`), upper
case for Black, lower case for Gold; ``.`` is an empty square.
"""

from __future__ import annotations

from .. import grid
from ..base import Seat
from ..grid import EMPTY

N_FILES = N_RANKS = 8
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(N_FILES, N_RANKS)
BLACK, GOLD = 0, 1
SEAT_NAMES = ("Black", "Gold")

#: the eight colours, in Dagaz's order (its piece types), and one letter for each
COLOURS = ("orange", "blue", "purple", "pink", "yellow", "red", "green", "brown")
LETTERS = "obpiyrgw"

#: the colour of every square (5.3): each colour once in every rank and every file
_LAYOUT = {
    "orange": "a8 b7 c6 d5 e4 f3 g2 h1",
    "blue": "a3 b8 c5 d2 e7 f4 g1 h6",
    "purple": "a2 b5 c8 d3 e6 f1 g4 h7",
    "pink": "a5 b6 c7 d8 e1 f2 g3 h4",
    "yellow": "a4 b3 c2 d1 e8 f7 g6 h5",
    "red": "a7 b4 c1 d6 e3 f8 g5 h2",
    "green": "a6 b1 c4 d7 e2 f5 g8 h3",
    "brown": "a1 b2 c3 d4 e5 f6 g7 h8",
}


def _square_colours() -> tuple[int, ...]:
    colours: dict[int, int] = {}
    for colour, squares in _LAYOUT.items():
        for name in squares.split():
            colours[SQUARES.parse(name)] = COLOURS.index(colour)
    assert sorted(colours) == list(range(SQUARES.size)), "every square has one colour"
    return tuple(colours[sq] for sq in range(SQUARES.size))


#: the colour (index into :data:`COLOURS`) of each square
SQUARE_COLOUR = _square_colours()


def tower(seat: Seat, colour: int) -> str:
    """The board letter of ``seat``'s tower of ``colour``."""
    letter = LETTERS[colour]
    return letter.upper() if seat == BLACK else letter


def owner(letter: str) -> Seat:
    return BLACK if letter.isupper() else GOLD


def colour_of(letter: str) -> int:
    return LETTERS.index(letter.lower())


def home_rank(seat: Seat) -> int:
    """The rank (0-based) of ``seat``'s home row; the other seat's goal."""
    return 0 if seat == BLACK else N_RANKS - 1


def goal_rank(seat: Seat) -> int:
    """The rank ``seat`` wins by reaching: the opponent's home row."""
    return home_rank(1 - seat)


def start_board() -> str:
    """Every tower on the home-row square of its own colour (5.3)."""
    cells = [EMPTY] * SQUARES.size
    for seat in (BLACK, GOLD):
        row = home_rank(seat) * N_FILES
        for sq in range(row, row + N_FILES):
            cells[sq] = tower(seat, SQUARE_COLOUR[sq])
    return "".join(cells)


def _ray(sq: int, step: tuple[int, int]) -> tuple[int, ...]:
    out = []
    f, r = sq % N_FILES + step[0], sq // N_FILES + step[1]
    while 0 <= f < N_FILES and 0 <= r < N_RANKS:
        out.append(r * N_FILES + f)
        f, r = f + step[0], r + step[1]
    return tuple(out)


def _forward(seat: Seat) -> tuple[tuple[int, int], ...]:
    up = 1 if seat == BLACK else -1
    return ((-1, up), (0, up), (1, up))  # diagonally left, straight, diagonally right


#: ``RAYS[seat][sq]``: the forward lines from ``sq`` (left diagonal, straight, right
#: diagonal), each the squares in order of distance; empty lines are left out
RAYS = tuple(
    tuple(tuple(ray for d in _forward(seat) if (ray := _ray(sq, d))) for sq in range(SQUARES.size))
    for seat in (BLACK, GOLD)
)

"""Yonin Shogi: the 9x9 board, the four seats' frames, the pieces and their steps
(docs/GAMES.md 5.5).

A square is an index ``rank * 9 + file`` (``a1 = 0``, ``i9 = 80``). Every seat sees the board
from its own edge: a piece's moves are written once, in the owner's frame (``forward`` = away
from its edge), and turned onto the board by the seat's frame. A cell of the board is ``""``
(empty) or ``"<seat><kind>"``, e.g. ``"0K"`` (South's King) or ``"2+R"`` (North's Dragon).
"""

from __future__ import annotations

from ..base import InvalidMove

FILES = "abcdefghi"
N = 9
N_SQUARES = N * N
SEAT_NAMES = ("South", "West", "North", "East")
#: the letter of each seat in layouts (``position``): S W N E
SEAT_LETTERS = "SWNE"
#: the unpromoted kinds, as hand letters (K never reaches a hand: taking it ends the game)
HAND_KINDS = ("P", "S", "G", "R")
KINDS = ("K", "G", "S", "R", "P", "+S", "+R", "+P")
PROMOTES = {"S": "+S", "R": "+R", "P": "+P"}
DEMOTES = {v: k for k, v in PROMOTES.items()}
NAMES = {
    "K": "King",
    "G": "Gold",
    "S": "Silver",
    "R": "Rook",
    "P": "Pawn",
    "+S": "Promoted Silver",
    "+R": "Dragon",
    "+P": "Tokin",
}
#: each seat's start, in South's frame turned by the seat's frame (5.5)
START_SOUTH = {"e1": "K", "d1": "G", "f1": "G", "c1": "S", "g1": "S", "e2": "R", "d2": "P"}
START_SOUTH |= {"e3": "P", "f2": "P"}

# moves in the owner's frame: (sideways, forward)
_GOLD = ((0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1))
_ALL8 = ((0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1), (-1, -1), (1, -1))
_ORTHO = ((0, 1), (1, 0), (-1, 0), (0, -1))
STEPS: dict[str, tuple[tuple[int, int], ...]] = {
    "K": _ALL8,
    "G": _GOLD,
    "S": ((0, 1), (-1, 1), (1, 1), (-1, -1), (1, -1)),
    "P": ((0, 1),),
    "R": (),
    "+S": _GOLD,
    "+P": _GOLD,
    "+R": ((-1, 1), (1, 1), (-1, -1), (1, -1)),
}
SLIDES: dict[str, tuple[tuple[int, int], ...]] = {k: () for k in KINDS} | {
    "R": _ORTHO,
    "+R": _ORTHO,
}


def turn(seat: int, d: tuple[int, int]) -> tuple[int, int]:
    """A (sideways, forward) step of ``seat``'s frame as a (file, rank) step on the board:
    South moves up the ranks, West along the files towards i, North down, East towards a."""
    x, y = d
    return ((x, y), (y, -x), (-x, -y), (-y, x))[seat]


def depth(seat: int, sq: int) -> int:
    """How far ``sq`` is from ``seat``'s own edge: 0 on its back line, 8 on its last line."""
    f, r = sq % N, sq // N
    return (r, f, N - 1 - r, N - 1 - f)[seat]


def line(seat: int, sq: int) -> int:
    """The forward line of ``sq`` for ``seat`` (its file for South/North, rank for West/East):
    two unpromoted Pawns of a seat may not share one."""
    return sq % N if seat % 2 == 0 else N + sq // N


def in_zone(seat: int, sq: int) -> bool:
    """The promotion zone: the three lines farthest from the seat's edge."""
    return depth(seat, sq) >= N - 3


SQUARE_NAMES = tuple(FILES[sq % N] + str(sq // N + 1) for sq in range(N_SQUARES))


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """``"a1" -> 0``; :class:`InvalidMove` if ``text`` is not a square a1..i9."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        raise InvalidMove(f"{text!r} is not a square (a1..i9)")
    return FILES.index(text[0]) + N * (int(text[1]) - 1)


def _walk(sq: int, step: tuple[int, int]) -> tuple[int, ...]:
    f, r = sq % N, sq // N
    out: list[int] = []
    while True:
        f, r = f + step[0], r + step[1]
        if not (0 <= f < N and 0 <= r < N):
            return tuple(out)
        out.append(r * N + f)


#: STEP_TO[seat][kind][sq]: the squares one step away; RAYS[seat][kind][sq]: the slides
STEP_TO = tuple(
    {
        k: tuple(
            tuple(w[0] for d in STEPS[k] if (w := _walk(sq, turn(seat, d)))) for sq in range(81)
        )
        for k in KINDS
    }
    for seat in range(4)
)
RAYS = tuple(
    {
        k: tuple(tuple(w for d in SLIDES[k] if (w := _walk(sq, turn(seat, d)))) for sq in range(81))
        for k in KINDS
    }
    for seat in range(4)
)


def rotate(sq: int, seat: int) -> int:
    """South's square ``sq`` turned to ``seat``'s side (the start positions, 5.5)."""
    f, r = sq % N - 4, sq // N - 4
    x, y = turn(seat, (f, r))
    return (y + 4) * N + x + 4


def start_board() -> tuple[str, ...]:
    cells = [""] * N_SQUARES
    for name, kind in START_SOUTH.items():
        for seat in range(4):
            cells[rotate(parse_square(name), seat)] = f"{seat}{kind}"
    return tuple(cells)


def parse_layout(text: str) -> tuple[str, ...]:
    """``"SK e1, W+R d5"`` (seat letter S W N E, kind, square; comma-separated) -> a board."""
    cells = [""] * N_SQUARES
    for item in filter(None, (x.strip() for x in text.split(","))):
        piece, _, name = item.partition(" ")
        seat, kind = SEAT_LETTERS.index(piece[0]), piece[1:]
        if kind not in KINDS:
            raise ValueError(f"{item!r}: unknown kind {kind!r}")
        cells[parse_square(name.strip())] = f"{seat}{kind}"
    return tuple(cells)


def layout(board: tuple[str, ...]) -> str:
    """The inverse of :func:`parse_layout`, by square (a1, b1, ... i9)."""
    return ", ".join(
        f"{SEAT_LETTERS[int(c[0])]}{c[1:]} {square_name(sq)}" for sq, c in enumerate(board) if c
    )

"""Jungle: the 7x9 board, its terrain, the animals and who may take whom (docs/GAMES.md 5.1).

A square is an int, ``rank * 7 + file`` (``a1 = 0``, ``g9 = 62``). A piece is one letter,
upper case for seat 0 (Red, south), lower case for seat 1 (Blue, north); ``.`` is empty.
"""

from __future__ import annotations

from .. import grid

N_FILES, N_RANKS = 7, 9
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(N_FILES, N_RANKS)
RED, BLUE = 0, 1
SEAT_NAMES = ("Red", "Blue")
VARIANTS = ("standard", "dagaz")

#: the animals by letter, strongest first
ANIMALS = {
    "e": "elephant",
    "l": "lion",
    "t": "tiger",
    "p": "leopard",
    "w": "wolf",
    "d": "dog",
    "c": "cat",
    "r": "rat",
}
#: ranks per variant (5.1.2): Dagaz makes the Tiger as strong as the Lion
RANKS: dict[str, dict[str, int]] = {
    "standard": {"e": 8, "l": 7, "t": 6, "p": 5, "w": 4, "d": 3, "c": 2, "r": 1},
    "dagaz": {"e": 8, "l": 7, "t": 7, "p": 5, "w": 4, "d": 3, "c": 2, "r": 1},
}

W, E, S, N = 0, 1, 2, 3  # directions, as (file, rank) steps below
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: which animals leap the river, and in which directions (5.1.3)
LEAPERS: dict[str, dict[str, tuple[int, ...]]] = {
    "standard": {"l": (W, E, S, N), "t": (W, E, S, N)},
    "dagaz": {"l": (W, E, S, N), "t": (W, E, S, N), "p": (W, E)},
}


def _squares(*names: str) -> frozenset[int]:
    return frozenset(SQUARES.parse(n) for n in names)


WATER = _squares("b4", "b5", "b6", "c4", "c5", "c6", "e4", "e5", "e6", "f4", "f5", "f6")
#: each seat's den, and the traps around it
DENS = (SQUARES.parse("d1"), SQUARES.parse("d9"))
TRAPS = (_squares("c1", "d2", "e1"), _squares("c9", "d8", "e9"))

#: the start array of both variants (5.1.1), rows rank 9 .. rank 1
START = "l.....t/.w...c./r.p.d.e/......./......./......./E.D.P.R/.C...W./T.....L"


def seat_of(piece: str) -> int:
    return RED if piece.isupper() else BLUE


def neighbour(sq: int, direction: int) -> int | None:
    df, dr = DIRECTIONS[direction]
    f, r = sq % N_FILES + df, sq // N_FILES + dr
    if 0 <= f < N_FILES and 0 <= r < N_RANKS:
        return r * N_FILES + f
    return None


def _leap(sq: int, direction: int) -> tuple[int, tuple[int, ...]] | None:
    """Where a leap from land square ``sq`` across the river lands, and the water it crosses."""
    if sq in WATER:
        return None
    crossed = []
    nxt = neighbour(sq, direction)
    while nxt is not None and nxt in WATER:
        crossed.append(nxt)
        nxt = neighbour(nxt, direction)
    if not crossed or nxt is None:
        return None
    return nxt, tuple(crossed)


NEIGHBOURS = tuple(tuple(neighbour(sq, d) for d in range(4)) for sq in range(SQUARES.size))
LEAPS = tuple(tuple(_leap(sq, d) for d in range(4)) for sq in range(SQUARES.size))


def can_capture(piece: str, src: int, target: str, dst: int, variant: str) -> bool:
    """Whether ``piece`` on ``src`` may take the enemy ``target`` on ``dst`` (5.1.4)."""
    if (src in WATER) != (dst in WATER):
        return False  # never between water and land, either way
    if dst in TRAPS[seat_of(piece)]:
        return True  # a piece in its opponent's trap is taken by anything
    ranks = RANKS[variant]
    a, b = ranks[piece.lower()], ranks[target.lower()]
    if a == 1 and b == 8:
        return True  # the Rat takes the Elephant
    if a == 8 and b == 1:
        return False  # the Elephant may not take the Rat
    return a >= b


#: the terrain of the board description: the river, the traps and the dens
TERRAIN = {
    "water": {"label": "River", "fill": "#8ecae6"},
    "trap": {"label": "Trap", "fill": "#e9c46a"},
    "den": {"label": "Den", "fill": "#8d6e63"},
}


def _cells() -> dict[str, list[str]]:
    cells = {SQUARES.name(sq): ["water"] for sq in sorted(WATER)}
    for seat in (0, 1):
        cells[SQUARES.name(DENS[seat])] = ["den", f"den-{seat}"]
        for sq in sorted(TRAPS[seat]):
            cells[SQUARES.name(sq)] = ["trap", f"trap-{seat}"]
    return cells


CELLS = _cells()

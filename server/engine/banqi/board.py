"""BanQi: the board of 32 squares, the pieces and who may capture whom (docs/GAMES.md 3.1)."""

from __future__ import annotations

from .. import grid

N_FILES, N_RANKS = 8, 4
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(N_FILES, N_RANKS)
HIDDEN = "?"
RED, BLACK = 0, 1
COLOUR_NAMES = ("red", "black")
TYPE_NAMES = {
    "g": "general",
    "a": "advisor",
    "e": "elephant",
    "r": "chariot",
    "h": "horse",
    "c": "cannon",
    "s": "soldier",
}
RANK = {"g": 7, "a": 6, "e": 5, "r": 4, "h": 3, "c": 2, "s": 1}  # 3.1.7
#: one colour's pieces (3.1.2), Red's set in upper case
COLOUR_SET = "gaaeerrhhccsssss"
FULL_SET = COLOUR_SET.upper() + COLOUR_SET
VALUE = {"g": 30.0, "a": 10.0, "e": 6.0, "r": 4.0, "h": 3.0, "c": 5.0, "s": 2.0}
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (file, rank) steps


def colour_of(piece: str) -> int:
    return RED if piece.isupper() else BLACK


def neighbour(sq: int, step: tuple[int, int]) -> int | None:
    f, r = sq % N_FILES + step[0], sq // N_FILES + step[1]
    if 0 <= f < N_FILES and 0 <= r < N_RANKS:
        return r * N_FILES + f
    return None


def _ray(sq: int, step: tuple[int, int]) -> tuple[int, ...]:
    out = []
    nxt = neighbour(sq, step)
    while nxt is not None:
        out.append(nxt)
        nxt = neighbour(nxt, step)
    return tuple(out)


RAYS = tuple(tuple(_ray(sq, d) for d in DIRECTIONS) for sq in range(SQUARES.size))


def can_capture(piece: str, target: str, variant: str) -> bool:
    """Whether ``piece`` may take the face-up enemy ``target`` by a step (3.2, 3.3)."""
    p, t = piece.lower(), target.lower()
    if p == "s" and t == "g":
        return True
    if variant == "taiwanese" and (p == "c" or (p == "g" and t == "s")):
        return False
    return RANK[p] >= RANK[t]

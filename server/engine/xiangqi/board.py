"""XiangQi: the 9x10 board, palaces and river, the pieces and their geometry (docs/GAMES.md
5.6).

A square is an int, ``rank * 9 + file`` (``a1 = 0``, ``i10 = 89``); Red (seat 0) sits at the
south edge (ranks 1-5 are its side of the river), Black (seat 1) at the north. A piece is one
letter (the common Western FEN letters, Fairy-Stockfish's too), upper case for Red, lower
case for Black; ``.`` is empty:

=====  ===========  ==========
``K``  General      帥 / 將
``A``  Advisor      仕 / 士
``B``  Elephant     相 / 象
``N``  Horse        傌 / 馬
``R``  Chariot      俥 / 車
``C``  Cannon       炮 / 砲
``P``  Soldier      兵 / 卒
=====  ===========  ==========

Every move table below is computed once, so move generation only looks things up.
"""

from __future__ import annotations

from .. import grid

N_FILES, N_RANKS = 9, 10
#: the squares: ``rank * files + file`` (``a1 = 0``), named and parsed as the board
#: description names them (:class:`InvalidMove` for a text that is not one)
SQUARES = grid.Squares(N_FILES, N_RANKS)
RED, BLACK = 0, 1
SEAT_NAMES = ("Red", "Black")
KINDS = {
    "k": "general",
    "a": "advisor",
    "b": "elephant",
    "n": "horse",
    "r": "chariot",
    "c": "cannon",
    "p": "soldier",
}
#: the start array (5.6.1), rows rank 10 .. rank 1
START = (
    "rnbakabnr/........./.c.....c./p.p.p.p.p/........./"
    "........./P.P.P.P.P/.C.....C./........./RNBAKABNR"
)


def seat_of(piece: str) -> int:
    return RED if piece.isupper() else BLACK


def _at(file: int, rank: int) -> int | None:
    if 0 <= file < N_FILES and 0 <= rank < N_RANKS:
        return rank * N_FILES + file
    return None


def _fr(sq: int) -> tuple[int, int]:
    return sq % N_FILES, sq // N_FILES


def on_own_side(sq: int, seat: int) -> bool:
    """Whether ``sq`` is on ``seat``'s side of the river (Red: ranks 1-5)."""
    return (sq // N_FILES < 5) == (seat == RED)


def _palace(seat: int) -> frozenset[int]:
    ranks = (0, 1, 2) if seat == RED else (7, 8, 9)
    return frozenset(r * N_FILES + f for r in ranks for f in (3, 4, 5))


PALACES = (_palace(RED), _palace(BLACK))
ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays(sq: int) -> tuple[tuple[int, ...], ...]:
    f, r = _fr(sq)
    out = []
    for df, dr in ORTHO:
        ray = []
        k = 1
        while (t := _at(f + df * k, r + dr * k)) is not None:
            ray.append(t)
            k += 1
        out.append(tuple(ray))
    return tuple(out)


def _horse(sq: int) -> tuple[tuple[int, int], ...]:
    """(leg, destination) pairs: one step orthogonally to the leg, then one diagonally out."""
    f, r = _fr(sq)
    out = []
    for df, dr in ORTHO:
        leg = _at(f + df, r + dr)
        if leg is None:
            continue
        for side in (-1, 1):
            t = _at(f + 2 * df + (side if df == 0 else 0), r + 2 * dr + (side if dr == 0 else 0))
            if t is not None:
                out.append((leg, t))
    return tuple(out)


def _elephant(sq: int, seat: int) -> tuple[tuple[int, int], ...]:
    """(eye, destination) pairs: two steps diagonally, never across the river."""
    f, r = _fr(sq)
    out = []
    for df, dr in DIAG:
        eye, t = _at(f + df, r + dr), _at(f + 2 * df, r + 2 * dr)
        if eye is not None and t is not None and on_own_side(t, seat):
            out.append((eye, t))
    return tuple(out)


def _steps(sq: int, deltas: tuple[tuple[int, int], ...], inside: frozenset[int]) -> tuple[int, ...]:
    f, r = _fr(sq)
    return tuple(t for df, dr in deltas if (t := _at(f + df, r + dr)) is not None and t in inside)


def _soldier(sq: int, seat: int) -> tuple[int, ...]:
    """Forward, and sideways once across the river."""
    f, r = _fr(sq)
    forward = 1 if seat == RED else -1
    deltas = [(0, forward)] + ([] if on_own_side(sq, seat) else [(-1, 0), (1, 0)])
    return tuple(t for df, dr in deltas if (t := _at(f + df, r + dr)) is not None)


RAYS = tuple(_rays(sq) for sq in range(SQUARES.size))
HORSE = tuple(_horse(sq) for sq in range(SQUARES.size))
#: (horse square, its leg) pairs from which a horse reaches each square
HORSE_ATTACKERS = tuple(
    tuple((src, leg) for src in range(SQUARES.size) for leg, t in HORSE[src] if t == sq)
    for sq in range(SQUARES.size)
)
ELEPHANT = tuple(tuple(_elephant(sq, s) for sq in range(SQUARES.size)) for s in (RED, BLACK))
ADVISOR = tuple(tuple(_steps(sq, DIAG, PALACES[s]) for sq in range(SQUARES.size)) for s in (0, 1))
GENERAL = tuple(tuple(_steps(sq, ORTHO, PALACES[s]) for sq in range(SQUARES.size)) for s in (0, 1))
SOLDIER = tuple(tuple(_soldier(sq, s) for sq in range(SQUARES.size)) for s in (RED, BLACK))
#: squares an enemy soldier attacks ``sq`` from, for the general of each seat on ``sq``
SOLDIER_ATTACKERS = tuple(
    tuple(
        tuple(src for src in range(SQUARES.size) if sq in SOLDIER[1 - s][src])
        for sq in range(SQUARES.size)
    )
    for s in (RED, BLACK)
)

"""Ming-Mang (docs/GAMES.md 5.4; Dagaz games/custodian/ming-mang*.zrf).

Two seats on the points of a square board of 8, 9 (the default) or 17 lines: seat 0 Black
(moves first) starts on rank 1 and up the last file, seat 1 White up file a and along the
last rank. A stone slides like a rook over empty points. A line of enemy stones on a file or
rank closed between the stone just moved and another stone of the mover turns to the mover's
colour (every such line from the moved stone at once; nothing else). A move may not recreate
a position (board and side to move) of the game so far (Dagaz's ko).

End, in this order: the side to move with no stone left, or no legal move, loses;
``draw_plies`` (option, default 100, 0 = off) plies in a row without a conversion draw;
``max_plies`` (option, default 400, 0 = off) plies in all draw.

Notation (the gesture notation of :mod:`server.engine.grid`): ``a1-a5``, a slide; the stones
it turns follow from the position.

The package, each module importing only those above it: :mod:`.board` (points, rays, the
start, Zobrist keys), :mod:`.values` (move, state), :mod:`.rules` (slides, conversions, ko,
the end) and :mod:`.game` (the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import EMPTY, SIZES, STONES, geometry, start_board
from .game import MingMang, position
from .rules import apply, converted_by, end, generate, is_legal, slides
from .values import MingMangMove, MingMangState

GAMES = (MingMang(),)

__all__ = [
    "EMPTY",
    "GAMES",
    "SIZES",
    "STONES",
    "MingMang",
    "MingMangMove",
    "MingMangState",
    "apply",
    "converted_by",
    "end",
    "generate",
    "geometry",
    "is_legal",
    "position",
    "slides",
    "start_board",
]

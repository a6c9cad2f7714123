"""XiangQi (Chinese chess): docs/GAMES.md 5.6.

Two seats on the points of a 9x10 board: Red (seat 0, south, moves first) and Black (seat 1,
north). The General and Advisors stay in their palace, the Elephants on their side of the
river; the Horse is blocked at its leg, the Elephant at its eye; the Cannon captures by
jumping exactly one screen; a Soldier steps forward, and sideways too once across the river.
The generals may never face each other on an open file.

Options: ``draw_plies`` (that many plies in a row without a capture draw) and ``fen`` (the
starting position, in Fairy-Stockfish's FEN: :mod:`.fen`).

Notation (the gesture notation of :mod:`server.engine.grid`): ``h3-e3`` a quiet move,
``h3xh10`` a capture; files a-i, ranks 1-10 from Red's side.

End of game, in this order: the side to move with no legal move loses (``checkmate`` or
``stalemate``); the same position with the same side to move for the third time since the
last capture loses for a side that gave check with every one of its moves since the first of
the three (``perpetual_check``), else draws (``repetition``); ``draw_plies`` plies without a
capture draw (``no_progress``).

The package, each module importing only those above it: :mod:`.board` (squares, palaces,
pieces, move tables), :mod:`.values` (move, state), :mod:`.rules` (moves, end of game),
:mod:`.fen` (positions as text: layouts and FEN) and :mod:`.game` (the
:class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import BLACK, RED, SQUARES, START
from .fen import START_FEN, from_fen, read_fen, write_fen
from .game import Xiangqi, position
from .rules import apply, generate, in_check, legal, outcome, pseudo_moves
from .values import XiangqiMove, XiangqiState, position_key, rows

GAMES = (Xiangqi(),)

__all__ = [
    "BLACK",
    "GAMES",
    "RED",
    "SQUARES",
    "START",
    "START_FEN",
    "Xiangqi",
    "XiangqiMove",
    "XiangqiState",
    "apply",
    "from_fen",
    "generate",
    "in_check",
    "legal",
    "outcome",
    "position",
    "position_key",
    "pseudo_moves",
    "read_fen",
    "rows",
    "write_fen",
]

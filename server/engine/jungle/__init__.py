"""Jungle (Dou Shou Qi): docs/GAMES.md 5.1.

Two seats on a 7x9 board: Red (seat 0, south, moves first) and Blue (seat 1, north). Each
has eight animals; an animal steps one square orthogonally and takes an enemy of equal or
lower rank; the Rat swims and takes the Elephant; Lion and Tiger leap the river; a piece in
the traps around the enemy den may be taken by anything; a piece entering the enemy den wins.

Options: ``variant`` ``"standard"`` (Elephant 8, Lion 7, Tiger 6, ...) | ``"dagaz"`` (Dagaz's
jungle.zrf with jungle-extension.js strict: Tiger 7 like the Lion, the Leopard leaps the river
sideways, and a move may not recreate a position seen before); ``draw_plies`` (that many plies
in a row without a capture draw; 0 turns it off).

Notation (the gesture notation of :mod:`server.engine.grid`): ``a1-a2`` a quiet step or leap,
``a1xa2`` a capture.

End of game, in this order: a piece in the enemy den wins (``den``); a side with no piece
left loses (``all_captured``); the side to move with no legal move loses (``no_moves``); the
same position with the same side to move for the third time since the last capture draws
(``repetition``); ``draw_plies`` plies without a capture draw (``no_progress``).

The package, each module importing only those above it: :mod:`.board` (squares, terrain,
animals, who takes whom), :mod:`.values` (move, state), :mod:`.rules` (moves, end of game)
and :mod:`.game` (the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import BLUE, RED, SQUARES, START, can_capture
from .game import Jungle, position
from .rules import apply, generate, outcome, pseudo_moves
from .values import JungleMove, JungleState, position_key, rows

GAMES = (Jungle(),)

__all__ = [
    "BLUE",
    "GAMES",
    "RED",
    "SQUARES",
    "START",
    "Jungle",
    "JungleMove",
    "JungleState",
    "apply",
    "can_capture",
    "generate",
    "outcome",
    "position",
    "position_key",
    "pseudo_moves",
    "rows",
]

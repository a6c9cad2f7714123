"""Kamisado (Peter Burley, 2008): docs/GAMES.md 5.3, one round.

Two seats on an 8x8 board of eight colours. Seat 0 (Black, the original's black dragons)
sits on rank 1 and moves first; seat 1 (Gold) sits on rank 8. Each has eight towers, one per
colour, starting on the home-row square of its own colour. A tower moves any distance
straight or diagonally forward over empty squares; nothing is ever captured.

The first move may use any tower; after it a seat must move its tower of the colour of the
square the opponent's last move ended on. A seat whose tower is blocked passes (``pass``, its
only legal move): a move of length zero ending under the blocked tower, so the opponent must
move its tower of that square's colour.

End of a round, checked after every turn:

* a tower on the opponent's home row wins for its owner (``home_row``);
* when the forced passes from here would loop (every tower called on is blocked), the seat
  that moved last caused the deadlock and loses (``deadlock``; Dagaz draws there, a bug).

Every move advances a tower and passes cannot repeat without a deadlock, so a round ends
within 112 tower moves: no draw rule is needed.

Notation: ``a1-a5`` (gesture notation), ``pass``.

The package, each module importing only those above it: :mod:`.board` (squares, colours,
lines), :mod:`.values` (move, state), :mod:`.rules` (moves, passes, end of a round) and
:mod:`.game` (the :class:`~server.engine.base.Game`, its view and bot hooks).
"""

from __future__ import annotations

from .board import BLACK, COLOURS, GOLD, SQUARE_COLOUR, SQUARES
from .game import Kamisado, position
from .rules import apply, deadlocked, generate, open_path
from .values import PASS, KamisadoMove, KamisadoState

GAMES = (Kamisado(),)

__all__ = [
    "BLACK",
    "COLOURS",
    "GAMES",
    "GOLD",
    "PASS",
    "SQUARES",
    "SQUARE_COLOUR",
    "Kamisado",
    "KamisadoMove",
    "KamisadoState",
    "apply",
    "deadlocked",
    "generate",
    "open_path",
    "position",
]

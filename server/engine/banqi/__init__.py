"""BanQi (half chess, "blind chess"): docs/GAMES.md 3, Taiwanese rules by default.

Two seats; seat 0 acts first. The 32 pieces start face-down on a random layout drawn from the
``rng`` of :meth:`Banqi.new`. A turn is one action: flip any face-down piece, or move/capture
with a face-up piece of one's own colour. Nobody owns a colour until the first flip, which gives
the flipper the colour of the piece it revealed (3.1.5).

Options: ``variant`` ``"taiwanese"`` (3.2) | ``"chinese"`` (3.3); ``cannon_quiet`` ``"slide"``
(a Taiwanese cannon's quiet move runs like a rook) | ``"step"`` (one square); ``draw_plies``
(that many consecutive actions with neither capture nor flip draw the game; 0 turns it off).

Notation: ``flip c3``; a quiet move ``b1-c1``; a capture ``a1xa4``. Squares are files a-h and
ranks 1-4 (32 squares, 3.1.1).

Piece letters: General ``G``, Advisor ``A``, Elephant ``E``, Chariot ``R``, Horse ``H``,
Cannon ``C``, Soldier ``S``; upper case Red, lower case Black. In views a face-down piece is
``?`` with no identity or colour; ``.`` is empty.

End of game (3.1.8, 3.4), checked in this order after every action:

* a colour with no piece left on the board (all 16 captured, which is public) loses for the
  seat that holds it (reason ``all_captured``); seats map to colours through the first flip,
  not by seat number (avoids the Dagaz bug). Dagaz only notices this once no face-down piece
  remains, but by then the result is forced (the other seat can always act), so we end at once;
* the seat to act with no legal action loses (``no_moves``);
* the same board with the same seat to act for the third time since the last flip or capture
  is a draw (``repetition``);
* ``draw_plies`` consecutive actions without a capture or a flip is a draw (``no_progress``).

All information is public (the identity of a face-down piece is known to nobody), so every
seat and spectators get the same view.

The package, each module importing only those above it: :mod:`.board` (squares, pieces,
captures), :mod:`.values` (moves, state), :mod:`.rules` (actions, end of game) and
:mod:`.game` (the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from ..grid import EMPTY
from .board import (
    BLACK,
    COLOUR_NAMES,
    FULL_SET,
    HIDDEN,
    RED,
    SQUARES,
    TYPE_NAMES,
    can_capture,
)
from .game import Banqi, position
from .rules import apply, generate
from .values import BanqiMove, BanqiState, position_key, public_board

GAMES = (Banqi(),)

__all__ = [
    "BLACK",
    "COLOUR_NAMES",
    "EMPTY",
    "FULL_SET",
    "GAMES",
    "HIDDEN",
    "RED",
    "SQUARES",
    "TYPE_NAMES",
    "Banqi",
    "BanqiMove",
    "BanqiState",
    "apply",
    "can_capture",
    "generate",
    "position",
    "position_key",
    "public_board",
]

"""Four-field Kono (docs/GAMES.md 5.2, Dagaz elimination/kono.zrf).

Two seats on a 4x4 board: seat 0 Black (moves first) fills ranks 1-2, seat 1 White ranks
3-4. A move is one orthogonal step to an empty square, or a capture: jump orthogonally over an
adjacent own stone onto the enemy stone right behind it, which is removed. Captures are not
compulsory.

End of game, in this order: a side with fewer than 2 stones loses; the side to move with no
legal move loses; the same board with the same side to move a third time draws; ``draw_plies``
(option, default 50, 0 = off) plies in a row without a capture draw. The two draw rules are
ours: Dagaz has none (its ZRF names a repetition loss it does not implement), and the game can
cycle.

Notation (the gesture notation of :mod:`server.engine.grid`): ``a1-a2`` a step, ``a1xa3`` a
capture (the square the capturing stone lands on, i.e. the taken stone's square).

The package, each module importing only those above it: :mod:`.board` (squares, lines),
:mod:`.values` (move, state), :mod:`.rules` (moves, their effect, the end) and :mod:`.game`
(the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import SQUARES, START, STONES
from .game import Kono, position
from .rules import apply, end, generate, moves_of
from .values import KonoMove, KonoState, position_key

GAMES = (Kono(),)

__all__ = [
    "GAMES",
    "SQUARES",
    "START",
    "STONES",
    "Kono",
    "KonoMove",
    "KonoState",
    "apply",
    "end",
    "generate",
    "moves_of",
    "position",
    "position_key",
]

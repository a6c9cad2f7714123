"""Yonin Shogi, four-player shogi (docs/GAMES.md 5.5, Dagaz shogi-family/yonin-shogi.zrf).

Four seats on a 9x9 board, in turn order South (rank 1, moving up), West (file a, moving
towards i), North (rank 9, moving down) and East (file i, moving towards a), each with a King,
two Golds, two Silvers, a Rook and three Pawns (South: K e1, G d1 f1, S c1 g1, R e2, P d2 e3
f2; the others its rotations about e5). Shogi moves, seen from the owner's side. A Silver,
Rook or Pawn whose move starts or ends in the three lines farthest from its owner may promote
(a Pawn reaching the last line must). Taken pieces go to the taker's hand, demoted, and may be
dropped on any empty square (no Pawn on the owner's last line, nor two unpromoted own Pawns on
one forward line). There is no check: a King is taken like any piece, and the first King taken
ends the game: the taker ranks first, the King's owner last, the other two share second.
``ply_limit`` plies (option, default 800) draw; resigning ends the game with the resigner last
and the others sharing first place. A seat with no move passes.

Notation (the gesture notation of :mod:`server.engine.grid`): ``c1-b2``, ``c1xb2`` (a
capture), ``d7-d8=+`` (promoting; the plain text does not promote), ``P*e5`` (a drop; P S G
R), ``pass``.

The package, each module importing only those above it: :mod:`.board` (squares, frames,
pieces), :mod:`.values` (move, state), :mod:`.rules` (moves, their effect, the end) and
:mod:`.game` (the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import SEAT_NAMES, parse_square, square_name, start_board
from .game import YoninShogi, position
from .rules import apply, end, generate, king_attacked
from .values import PASS, YoninMove, YoninState

GAMES = (YoninShogi(),)

__all__ = [
    "GAMES",
    "PASS",
    "SEAT_NAMES",
    "YoninMove",
    "YoninShogi",
    "YoninState",
    "apply",
    "end",
    "generate",
    "king_attacked",
    "parse_square",
    "position",
    "square_name",
    "start_board",
]

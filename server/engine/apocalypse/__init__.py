"""Apocalypse: 5x5 chess with simultaneous moves, Dagaz ruleset (docs/GAMES.md 1.1-1.4).

Seat 0 is White (rank 1 side), seat 1 is Black. Each turn both seats choose a move from the
same position, each from its own legal list (1.2); the room seals them until both are in, and
:meth:`Apocalypse.play` merges them with the join rule (1.3).

Notation: every move is ``<from><to>`` in lower case, e.g. ``a2a3``, ``a1b3``. A pawn move to
its last rank is always a promotion attempt (1.2.4) whose result the join decides (1.3 c), so
it carries no suffix; a forced relocation (1.2.5) is written the same way (``c5b3``).
``parse_move`` also accepts ``a1-b3``, ``a1xb3`` and upper case.

Board text (views, tests): FEN-like rows from rank 5 down to rank 1, digits for runs of empty
squares; ``N``/``P`` White horseman/footman, ``n``/``p`` Black. The start is
``npppn/p3p/5/P3P/NPPPN``.

Readings of docs/GAMES.md where it leaves room:

* Join (1.3): both moves read their piece from the pre-turn board. Different targets: each
  mover lands on its target (capturing whatever still stands there) and a from-square is
  emptied unless the other mover has just landed on it, so a piece that leaves the square the
  enemy moves onto survives, swaps keep both pieces, and a pawn's diagonal move stands even
  when its victim left. Same target: the pre-move piece types decide (horseman beats footman,
  equal types both die); a promoting pawn counts as a footman there.
* Promotion limit (1.3 c), per side: ``2 - own horsemen before the turn``, plus one when the
  opponent's move ends on a square holding one of this side's horsemen (other than this
  move's from-square); the promotion happens iff the limit is above 0. A refused promotion
  leaves a footman on the last rank, which must relocate next turn (1.2.5).
* A forced relocation is an ordinary simple move for the join, the ko and collisions.
* Anti-swap ko (1.2.6): L is the set of moves applied on the previous turn (one or two); a move
  ``s -> d`` is illegal when every from/to square of L lies in ``{s, d}``. No ban on turn one.
* End (1.4), checked after every turn: a side without horsemen loses, both at once is a draw
  (reason ``horsemen_lost``). Then, following Dagaz's controller: if White has no legal move
  the game ends and White loses (reason ``no_moves``, also when Black cannot move either);
  if only Black has no legal move, ``to_act`` is ``{0}`` and White's move is applied alone.
  Dagaz has no other draw rule, so a game could go on for ever; we add one [Decide]: after
  ``max_turns`` joint turns (option, default 200; 0 = no limit) the game is drawn (reason
  ``turn_limit``).
"""

from __future__ import annotations

from .board import (
    _KNIGHT_TARGETS,
    BLACK,
    EMPTY,
    FILES,
    KNIGHT,
    LAST_RANK,
    PAWN,
    SIZE,
    START_BOARD,
    WHITE,
    board_from_text,
    board_to_text,
    owner,
    parse_square,
    square_name,
)
from .game import Apocalypse
from .rules import generate, join
from .values import ApocalypseMove, ApocalypseState, Event, position

GAMES = (Apocalypse(),)

__all__ = [
    "BLACK",
    "EMPTY",
    "FILES",
    "GAMES",
    "KNIGHT",
    "LAST_RANK",
    "PAWN",
    "SIZE",
    "START_BOARD",
    "WHITE",
    "_KNIGHT_TARGETS",
    "Apocalypse",
    "ApocalypseMove",
    "ApocalypseState",
    "Event",
    "board_from_text",
    "board_to_text",
    "generate",
    "join",
    "owner",
    "parse_square",
    "position",
    "square_name",
]

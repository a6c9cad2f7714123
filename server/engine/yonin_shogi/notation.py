"""Yonin Shogi's moves as shogi players write them: Western (Hodges) shogi notation on the
game's own squares (docs/GAMES.md 8.1).

A move is the piece's letter (``K G S R P``; a promoted piece with ``+`` before it: ``+S``,
``+R``, ``+P``), then where it stood, ``-`` for a move or ``x`` for a capture, and where it
goes; ``+`` after it when it promotes and ``=`` when it could have promoted and did not. A
drop is the letter, ``*`` and the square: ``P*e5``. So ``c1-c2`` by South's Silver is
``Sc1-c2``, ``d7-d8=+`` by a Pawn is ``Pd7-d8+``. Shogi writes files as numbers and ranks
as letters seen from one of two sides; a board with four sides keeps the squares the game is
played in (``a1`` is South's left corner), so a move reads the same in the move list, the
record and the gesture that made it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import SQUARE_NAMES
from .rules import apply, may_promote, must_promote
from .values import YoninMove, YoninState


def written(state: YoninState, move: YoninMove) -> str:
    """``move`` in ``state`` in shogi notation (module docstring)."""
    if move.is_pass:
        return "pass"
    if move.src is None:
        return f"{move.drop}*{SQUARE_NAMES[move.dst]}"
    cell = state.board[move.src]
    seat, kind = int(cell[0]), cell[1:]
    text = f"{kind}{SQUARE_NAMES[move.src]}{'x' if move.capture else '-'}{SQUARE_NAMES[move.dst]}"
    if move.promote:
        return text + "+"
    if may_promote(seat, kind, move.src, move.dst) and not must_promote(seat, kind, move.dst):
        return text + "="  # promotion declined
    return text


def written_moves(start: YoninState, moves: Iterable[YoninMove]) -> list[str]:
    """Each move of a game from ``start`` in shogi notation, in order."""
    out = []
    state = start
    for move in moves:
        out.append(written(state, move))
        state = apply(state, move)
    return out

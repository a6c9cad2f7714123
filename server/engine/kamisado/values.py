"""Kamisado values: a move and the state."""

from __future__ import annotations

from dataclasses import dataclass

from .. import grid
from ..base import Seat
from .board import COLOURS, SQUARES


class KamisadoMove(grid.Step):
    """A tower's move ``src -> dst``, or the pass (:data:`PASS`): the seat whose tower must
    move cannot move it."""

    __slots__ = ()
    squares, game, forms = SQUARES, "Kamisado", "a1-a5, or pass"
    captures, passes = False, True


#: the one pass
PASS = KamisadoMove.pass_move()


@dataclass(frozen=True, slots=True)
class KamisadoState:
    """The position.

    Attributes:
        board: 64 chars, index ``rank * 8 + file`` (``a1 = 0``): a tower letter or ``.``.
        to_move: the seat to act.
        must: the colour (index into :data:`~.board.COLOURS`) of the tower ``to_move`` must
            move, ``None`` on the first move of the game (any tower).
        ply: turns played, passes included.
        last_move: the move that produced this state.
    """

    board: str
    to_move: Seat = 0
    must: int | None = None
    ply: int = 0
    last_move: KamisadoMove | None = None

    def __repr__(self) -> str:
        must = None if self.must is None else COLOURS[self.must]
        return f"KamisadoState({rows(self.board)!r}, to_move={self.to_move}, must={must!r})"


#: the board as text: ranks 8 .. 1 separated by ``/``, 8 chars each
rows = SQUARES.rows

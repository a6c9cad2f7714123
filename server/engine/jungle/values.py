"""Jungle values: a move, the state and the position key (docs/GAMES.md 5.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import grid
from ..base import Seat
from .board import SQUARES


class JungleMove(grid.Step):
    """One move ``src -> dst``: a step or a leap, taking what stands on ``dst`` if ``capture``."""

    __slots__ = ()
    squares, game, forms = SQUARES, "Jungle", "a1-a2, or a1xa2 to capture"


@dataclass(frozen=True, slots=True)
class JungleState:
    """The position, all of it public: ``board`` (a piece letter or ``.`` a square, ``a1``
    first: :class:`~server.engine.grid.Squares`), ``to_move`` and ``ply``
    (:class:`~server.engine.turns.TurnGame`), ``captured`` (the letters of the captured
    pieces, in order), the draw counters ``quiet`` and ``history`` (:mod:`server.engine.draws`;
    ``history`` is also Dagaz's ko in the ``dagaz`` variant), ``last_move``, and the options
    ``variant`` (``"standard"`` or ``"dagaz"``) and ``draw_plies``."""

    board: str
    to_move: Seat = 0
    captured: str = ""
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: JungleMove | None = None
    variant: str = "standard"
    draw_plies: int = 100

    def __repr__(self) -> str:
        return f"JungleState({rows(self.board)!r}, to_move={self.to_move}, ply={self.ply})"


#: the board as text: rows rank 9 .. rank 1 separated by ``/``
rows = SQUARES.rows


def position_key(board: str, to_move: Seat) -> str:
    """What repetition and ko compare: the board and the seat to move."""
    return f"{board}{to_move}"

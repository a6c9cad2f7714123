"""Four-field Kono values: a move and the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from .. import grid
from ..base import InvalidMove, Seat
from .board import N_FILES, SQUARES


class KonoMove(grid.Step):
    """A step ``src -> dst`` to an adjacent empty square, or (``capture``) a jump over an own
    stone onto the enemy stone two squares away in a line."""

    __slots__ = ()
    squares, game, forms = SQUARES, "Kono", "a step a1-a2, a capture a1xa3"

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Parse ``a1-a2`` (a step) or ``a1xa3`` (a capture), the whole string; the shape is
        checked here (a step to a neighbour, a capture two squares along a line), legality
        by the game. :class:`InvalidMove` otherwise."""
        move = super().from_text(text)
        df = abs(move.src % N_FILES - move.dst % N_FILES)
        dr = abs(move.src // N_FILES - move.dst // N_FILES)
        if sorted((df, dr)) != [0, 2 if move.capture else 1]:
            what = "a capture jumps two squares" if move.capture else "a step goes one square"
            raise InvalidMove(f"{text!r}: {what} along a file or a rank")
        return move


@dataclass(frozen=True, slots=True)
class KonoState:
    """The position.

    Attributes:
        board: 16 chars, index ``rank * 4 + file`` (``a1 = 0``): ``b``, ``w`` or ``.``.
        to_move: the seat to move (0 Black, 1 White).
        quiet: consecutive plies without a capture.
        history: position keys since the last capture, the current one last (threefold
            repetition; a capture makes every earlier position unreachable).
        last_move: the move that produced this state.
        draw_plies: the option: that many quiet plies in a row draw (0: never).
    """

    board: str
    to_move: Seat = 0
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: KonoMove | None = None
    draw_plies: int = 50

    def __repr__(self) -> str:
        return f"KonoState({SQUARES.rows(self.board)!r}, to_move={self.to_move}, ply={self.ply})"


def position_key(board: str, to_move: Seat) -> str:
    """What threefold repetition compares: the board and the seat to move."""
    return f"{SQUARES.rows(board)} {to_move}"

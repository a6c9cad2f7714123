"""Four-field Kono values: a move and the state."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import InvalidMove, Seat
from .board import N_FILES, board_layout, parse_square, square_name

_TEXT = re.compile(r"([a-z][0-9]+)([-x])([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class KonoMove:
    """A step ``src -> dst`` to an adjacent empty square, or (``capture``) a jump over an own
    stone onto the enemy stone two squares away in a line."""

    src: int
    dst: int
    capture: bool = False

    @classmethod
    def from_text(cls, text: str) -> KonoMove:
        """Parse ``a1-a2`` (a step) or ``a1xa3`` (a capture), the whole string; the shape is
        checked here (a step to a neighbour, a capture two squares along a line), legality
        by the game. :class:`InvalidMove` otherwise."""
        m = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMove(f"{text!r} is not a Kono move (a step a1-a2, a capture a1xa3)")
        src, dst = parse_square(m[1]), parse_square(m[3])
        df = abs(src % N_FILES - dst % N_FILES)
        dr = abs(src // N_FILES - dst // N_FILES)
        capture = m[2] == "x"
        if sorted((df, dr)) != [0, 2 if capture else 1]:
            what = "a capture jumps two squares" if capture else "a step goes one square"
            raise InvalidMove(f"{text!r}: {what} along a file or a rank")
        return cls(src, dst, capture)

    def __str__(self) -> str:
        return square_name(self.src) + ("x" if self.capture else "-") + square_name(self.dst)

    def __repr__(self) -> str:
        return f"KonoMove.from_text({str(self)!r})"


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
        return f"KonoState({board_layout(self.board)!r}, to_move={self.to_move}, ply={self.ply})"


def position_key(board: str, to_move: Seat) -> str:
    """What threefold repetition compares: the board and the seat to move."""
    return f"{board_layout(board)} {to_move}"

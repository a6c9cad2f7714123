"""Ming-Mang values: a move and the state (GAMES.md 5.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..base import InvalidMove, Seat
from .board import board_layout

_TEXT = re.compile(r"([a-q])([1-9]|1[0-7])-([a-q])([1-9]|1[0-7])")


@dataclass(frozen=True, slots=True)
class MingMangMove:
    """A stone's slide from ``src`` to ``dst`` (point names), along a file or a rank.

    The stones it converts are not part of the move: they follow from the position (5.4.3).
    """

    src: str
    dst: str

    @classmethod
    def from_text(cls, text: str) -> MingMangMove:
        """Parse ``a1-a5``, the whole string: two points on one file or one rank. Whether
        they are on the board and the slide is legal now is the game's business.
        :class:`InvalidMove` otherwise."""
        m = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMove(
                f"{text!r} is not a Ming-Mang move (a slide written from-to, as a1-a5)"
            )
        if (m[1] == m[3]) == (m[2] == m[4]):
            raise InvalidMove(f"{text!r}: a stone slides along a file or a rank, to another point")
        return cls(m[1] + m[2], m[3] + m[4])

    def __str__(self) -> str:
        return f"{self.src}-{self.dst}"

    def __repr__(self) -> str:
        return f"MingMangMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class MingMangState:
    """The position.

    Attributes:
        board: ``size * size`` chars, index ``rank * size + file``: ``b``, ``w`` or ``.``.
        size: lines each way (8, 9 or 17).
        to_move: the seat to move (0 Black, 1 White).
        quiet: consecutive plies without a conversion.
        history: the Zobrist keys of every position of the game (board + seat to move), the
            current one last: the ko rule forbids a move back to any of them (5.4.4).
        ply: plies played.
        last_move: the move that produced this state; ``converted`` the points it turned.
        draw_plies, max_plies: the options (5.4.5; 0: off).
        cache: the legal moves, computed once per state (not part of its value).
    """

    board: str
    size: int
    to_move: Seat = 0
    quiet: int = 0
    history: tuple[int, ...] = ()
    ply: int = 0
    last_move: MingMangMove | None = None
    converted: tuple[str, ...] = ()
    draw_plies: int = 100
    max_plies: int = 400
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __repr__(self) -> str:
        layout = board_layout(self.board, self.size)
        return f"MingMangState({layout!r}, to_move={self.to_move}, ply={self.ply})"


def key_text(key: int) -> str:
    """A Zobrist key as the 16 hex digits the views and snapshots carry."""
    return f"{key:016x}"


__all__ = ["MingMangMove", "MingMangState", "key_text"]

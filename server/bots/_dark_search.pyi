"""Typing stub of Dark Chess's compiled search over worlds (``_dark_search.c``).

A world is a board as the chess core reads it: turn, pawns, knights, bishops, rooks, queens,
kings, White's squares, Black's squares, promoted, the en passant square (-1: none) and the
castling rights (``server/bots/dark_search.py``: ``fields``).
"""

from typing import Any

World = tuple[Any, ...]

def setup(mg: list[int], eg: list[int], phase: list[int], value: list[int], /) -> None: ...
def search(
    worlds: list[World],
    root: list[int],
    budget: float,
    margin: int,
    max_depth: int,
    table: bytearray,
    /,
) -> tuple[list[list[int]], list[int], int]: ...
def moves(world: World, /) -> list[int]: ...

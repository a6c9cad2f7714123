"""Typing stub of the chess bot's compiled search (``_chess_search.c``).

``start`` is a game's first position: the twelve board fields ``standard_fields`` gives
(``server/engine/chess_moves.py``) and its halfmove clock; ``moves`` the game's moves since,
as codes.
"""

from typing import Any

Start = tuple[Any, ...]

def setup(mg: list[int], eg: list[int], phase: list[int], value: list[int], /) -> None: ...
def search(
    start: Start,
    moves: list[int],
    root: list[int],
    budget: float,
    next_depth: float,
    max_depth: int,
    max_nodes: int,
    table: bytearray,
    /,
) -> tuple[int, int, int, int]: ...
def evaluate(start: Start, moves: list[int], /) -> int: ...
def perft(start: Start, moves: list[int], depth: int, /) -> int: ...

"""The chess bot's compiled search (``_chess_search.c``), when it was built and is not
switched off.

It is :class:`~server.bots.alphabeta.AlphaBeta` on chess with PeSTO's evaluation, step for
step, in C, on the engine's compiled move generator (``server/engine/chess_core.h``): tens of
times the Python search's nodes a second (``scripts/search_speed.py``). The evaluation's
tables are data kept once, in Python (:mod:`.pesto`, :mod:`.chess_eval`), and handed over
here at import (``setup``). The Python chess search it mirrors is a test reference only
(``tests/bots/chess_reference.py``; ``tests/bots/test_compiled_search.py`` holds the two to
the same scores, moves and leaf counts). Without a C compiler, or with
``KIBITZ_PURE_PYTHON=1``, :data:`SEARCH` is ``None`` and chess's ``alphabeta`` plays MCTS
(:data:`server.bots.alphabeta.CHESS_FALLBACK`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import chess

from server.engine import compiled as engine_compiled
from server.engine.chess_moves import code_of, standard_fields

from .bot import Deadline
from .chess_eval import PHASE, VALUE
from .pesto import PESTO, unpack

#: the compiled search, or None (not built, or switched off)
SEARCH: ModuleType | None
try:
    import server.bots._chess_search as SEARCH
except ImportError:  # built without a C compiler
    SEARCH = None
if engine_compiled.gen is None:  # KIBITZ_PURE_PYTHON, or no compiled move generator
    SEARCH = None

#: a game as the compiled search reads it: its first position (the twelve board fields and
#: the halfmove clock) and its moves since (codes)
Game = tuple[tuple[Any, ...], list[int]]

#: a transposition table's size: 2**19 entries of 16 bytes (8 MB)
TABLE_BYTES = 16 << 19


def setup_tables(module: ModuleType) -> None:
    """Hand the evaluation's tables to a compiled search (this one, and Dark Chess's
    ``_dark_search``): PeSTO's by colour and piece, phase and value by piece type."""
    mg, eg = [0] * (14 * 64), [0] * (14 * 64)
    for color in chess.COLORS:  # row color * 7 + piece type, as the C side reads it
        for piece, table in PESTO[color].items():
            row = (color * 7 + piece) * 64
            for sq, packed in enumerate(table):
                mg[row + sq], eg[row + sq] = unpack(packed)
    types = range(7)
    module.setup(mg, eg, [PHASE.get(t, 0) for t in types], [VALUE.get(t, 0) for t in types])


if SEARCH is not None:
    setup_tables(SEARCH)


def new_table() -> bytearray:
    """An empty transposition table for :func:`search` (a bot keeps it between turns)."""
    return bytearray(TABLE_BYTES)


def game_of(start_fen: str, moves: Sequence[chess.Move]) -> Game | None:
    """The compiled search's reading of a game: its first position's fields (and halfmove
    clock) and its moves as codes; None when the core cannot read the board (not standard
    chess, or the core switched off)."""
    start = chess.Board(start_fen)
    fields = standard_fields(start)
    if fields is None:
        return None
    return (*fields, start.halfmove_clock), [code_of(m) for m in moves]


def search(
    game: Game,
    root: list[int],
    *,
    budget: float,
    next_depth: float = 0.95,
    max_depth: int = 64,
    max_nodes: int = 0,
    table: bytearray | None = None,
) -> tuple[int, int, int, int]:
    """(move code, score, depth finished, nodes) of the compiled search of ``game`` (see
    :func:`game_of`) among ``root`` (codes, tried in this order): at most ``budget``
    seconds (no new depth after ``next_depth`` of it), ``max_depth`` plies and, past depth
    1, ``max_nodes`` nodes (0: no cap; with a cap and a long budget the search is
    deterministic)."""
    assert SEARCH is not None
    start, moves = game
    return SEARCH.search(
        start,
        moves,
        root,
        budget,
        next_depth,
        max_depth,
        max_nodes,
        new_table() if table is None else table,
    )


def best_move(
    game: Game,
    root: list[chess.Move],
    deadline: Deadline,
    next_depth: float,
    max_depth: int,
    table: bytearray,
) -> tuple[chess.Move, int, int, int, float]:
    """The bot's search: the best of ``root`` (tried in this order) by ``deadline``, with
    ``table`` (kept from the seat's last turn, or new): (move, score, depth, nodes,
    seconds)."""
    started = time.perf_counter()
    codes = [code_of(move) for move in root]
    code, score, depth, nodes = search(
        game,
        codes,
        budget=max(0.0, deadline.left()),
        next_depth=next_depth,
        max_depth=max_depth,
        table=table,
    )
    return root[codes.index(code)], score, depth, nodes, time.perf_counter() - started


def evaluate(game: Game) -> int:
    """The compiled evaluation of the game's position, for the side to move."""
    assert SEARCH is not None
    return SEARCH.evaluate(*game)


def perft(game: Game, depth: int) -> int:
    """Leaves ``depth`` plies below the game's position, through the search's own make."""
    assert SEARCH is not None
    return SEARCH.perft(*game, depth)

"""The chess bot's compiled search against the same search in Python, in CPU time.

    .venv/bin/python scripts/search_speed.py [ROUNDS]

The figure the docs quote ("about 95 times"): the search with the bot's defaults to depth 5
on the four positions of ``kibitz bench --engine`` (``SEARCH_FENS``), compiled
(``server/bots/_chess_search.c``) and in Python on python-chess's moves (``alphabeta.py`` on
``ChessPosition``: the bot's fallback without a C compiler), in one process, each round the
Python search once and the compiled one five times (it takes milliseconds), nodes per CPU
second (``time.process_time``: other processes on the machine do not count, as they do in
the bench's wall-clock ``speedup``). It prints each round's ratio and their median.
"""

from __future__ import annotations

import statistics
import sys
import time

import chess

from server.bots import compiled
from server.bots.alphabeta import AlphaBeta, AlphaBetaBot
from server.bots.bot import Deadline
from server.bots.chess_position import ChessPosition
from server.engine.chess_moves import code_of
from server.tools.bench_modes import SEARCH_FENS

DEPTH = 5


def python_round(bot: AlphaBetaBot) -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for fen in SEARCH_FENS:
        board = chess.Board(fen)
        position = ChessPosition(board, pesto=bot.pesto)
        search = AlphaBeta(position, null_move=True, pruning=bot.pruning)
        t0 = time.process_time()
        result = search.search(list(board.legal_moves), Deadline(600), max_depth=DEPTH)
        seconds += time.process_time() - t0
        nodes += result.nodes
    return nodes, seconds


def compiled_round() -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for fen in SEARCH_FENS:
        board = chess.Board(fen)
        game = compiled.game_of(board, fen)
        assert game is not None
        root = [code_of(m) for m in board.legal_moves]
        t0 = time.process_time()
        nodes += compiled.search(game, root, budget=600, max_depth=DEPTH)[3]
        seconds += time.process_time() - t0
    return nodes, seconds


def main(rounds: int = 5) -> int:
    if compiled.SEARCH is None:
        print("the compiled search is not built (or KIBITZ_PURE_PYTHON is set)", file=sys.stderr)
        return 1
    bot = AlphaBetaBot()  # its defaults: the pruning every level plays with
    compiled_round()  # the first call allocates the table
    ratios = []
    for i in range(rounds):
        py_nodes, py_seconds = python_round(bot)
        c_nodes, c_seconds = 0, 0.0
        for _ in range(5):
            n, s = compiled_round()
            c_nodes, c_seconds = c_nodes + n, c_seconds + s
        py_rate, c_rate = py_nodes / py_seconds, c_nodes / c_seconds
        ratios.append(c_rate / py_rate)
        print(
            f"round {i + 1}: Python {py_rate:,.0f} nodes/CPU-s ({py_nodes} nodes), "
            f"compiled {c_rate:,.0f} ({c_nodes // 5} nodes): {ratios[-1]:.1f} times"
        )
    print(
        f"median {statistics.median(ratios):.1f} times (range {min(ratios):.1f}-{max(ratios):.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:2])))

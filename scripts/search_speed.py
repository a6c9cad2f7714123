"""The chess bot's compiled search against the same search in Python, in CPU time.

    .venv/bin/python scripts/search_speed.py [ROUNDS]

The figure the docs quote ("about 90 times"): the search with the bot's defaults to depth 5
on the four positions of ``kibitz bench --engine`` (``SEARCH_FENS``), compiled
(``server/bots/_chess_search.c``) and in Python on python-chess's moves (``alphabeta.py`` on
``ChessPosition``, the test reference ``tests/bots/chess_reference.py``), in one process,
each round the Python search once and the compiled one five times (it takes milliseconds),
nodes per CPU second (``time.process_time``, as ``kibitz bench --engine`` counts them). It
prints each round's ratio and their median.
"""

from __future__ import annotations

import statistics
import sys

from server.bots import compiled
from server.tools.bench_modes import compiled_search_round
from tests.bots.chess_reference import python_search_round

DEPTH = 5


def main(rounds: int = 5) -> int:
    if compiled.SEARCH is None:
        print("the compiled search is not built (or KIBITZ_PURE_PYTHON is set)", file=sys.stderr)
        return 1
    compiled_search_round(DEPTH)  # the first call allocates the table
    ratios = []
    for i in range(rounds):
        py_nodes, py_seconds = python_search_round(DEPTH)
        c_nodes, c_seconds = 0, 0.0
        for _ in range(5):
            n, s = compiled_search_round(DEPTH)
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

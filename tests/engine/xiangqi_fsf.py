"""Fairy-Stockfish as the XiangQi oracle (docs/GAMES.md 5.6.9), through pyffish.

Fairy-Stockfish's ``xiangqi`` writes the same squares as we do (files a-i, ranks 1-10 from
Red's side, ``a10`` style) and the same piece letters; its moves are UCI (``h3e3``), ours are
gestures (``h3-e3``, ``h3xh10``); its FEN is the engine's own (server/engine/xiangqi/fen.py).
Used by tests/engine/test_xiangqi.py and scripts/xiangqi_fsf.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

import pyffish as sf

from server.engine.grid import EMPTY
from server.engine.xiangqi import XiangqiMove, XiangqiState, apply, generate, outcome
from server.engine.xiangqi import write_fen as fen
from server.engine.xiangqi.board import SQUARES

VARIANT = "xiangqi"
_UCI = re.compile(r"([a-i](?:10|[1-9]))([a-i](?:10|[1-9]))")


def from_uci(text: str, board: str) -> str:
    """Fairy-Stockfish's ``h3e3`` as our gesture on ``board`` (``h3-e3`` or ``h3xe3``)."""
    m = _UCI.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a Fairy-Stockfish xiangqi move")
    dst = SQUARES.parse(m[2])
    return f"{m[1]}{'-' if board[dst] == EMPTY else 'x'}{m[2]}"


def to_uci(move: XiangqiMove | str) -> str:
    """Our gesture as Fairy-Stockfish's UCI move."""
    return str(move).replace("-", "").replace("x", "")


def fsf_legal(state: XiangqiState) -> list[str]:
    """Fairy-Stockfish's legal moves in ``state``, in our notation, sorted."""
    return sorted(from_uci(m, state.board) for m in sf.legal_moves(VARIANT, fen(state), []))


def ours(state: XiangqiState) -> list[str]:
    return sorted(str(m) for m in generate(state))


def fsf_perft(state: XiangqiState, depth: int) -> int:
    """Leaves of Fairy-Stockfish's move tree (its legal moves only: no game end)."""

    def count(f: str, moves: list[str], depth: int) -> int:
        legal = sf.legal_moves(VARIANT, f, moves)
        if depth == 1:
            return len(legal)
        return sum(count(f, [*moves, m], depth - 1) for m in legal)

    return count(fen(state), [], depth) if depth else 1


def compare_random_games(
    start: Callable[[], XiangqiState],
    seeds: Iterable[int],
    *,
    max_plies: int = 300,
    check_every: int = 1,
) -> tuple[int, int]:
    """Play seeded random games with our engine (half the time a capture when there is
    one, so games reach the middle and end games) and compare, at every position, our legal
    moves with Fairy-Stockfish's, and (every ``check_every`` plies) our check flag with its
    ``gives_check``. Raises
    ``AssertionError`` at the first difference; returns (positions, games)."""
    positions = games = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = start()
        games += 1
        for _ply in range(max_plies):
            where = f"seed {seed}, ply {state.ply}, {fen(state)}"
            mine, theirs = ours(state), fsf_legal(state)
            assert mine == theirs, (
                f"{where}: we alone {sorted(set(mine) - set(theirs))}, "
                f"Fairy-Stockfish alone {sorted(set(theirs) - set(mine))}"
            )
            positions += 1
            if outcome(state) is not None:
                break
            moves = generate(state)
            captures = [m for m in moves if m.capture]
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
            child = apply(state, move)
            if state.ply % check_every == 0:
                gives = sf.gives_check(VARIANT, fen(state), [to_uci(move)])
                assert child.in_check == gives, f"{where}: {move} gives check: {gives}"
            state = child
    return positions, games

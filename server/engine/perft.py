"""Perft: count the leaves of the move tree to a depth, for any game of the contract.

A simultaneous turn counts every joint combination of the acting seats' moves (so the first
Apocalypse turn has 9 x 9 = 81 leaves). Chance comes from ``turn_rng(seed, ply)``, the same
rng a room would use, so a count is reproducible for a given seed. A game may provide a
faster ``perft(state, depth)`` of its own (chess does).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from .base import Game, turn_rng


def joint_moves(game: Game[Any, Any], state: Any) -> list[dict[int, Any]]:
    """Every combination of one legal move per acting seat (one per move when turn-based)."""
    seats = sorted(game.to_act(state))
    if not seats:
        return []
    per_seat = [game.legal_moves(state, s) for s in seats]
    return [dict(zip(seats, combo, strict=True)) for combo in itertools.product(*per_seat)]


def perft(game: Game[Any, Any], state: Any, depth: int, seed: str = "perft") -> int:
    """Number of move sequences of length ``depth`` from ``state`` (games over: none)."""
    fast: Callable[[Any, int], int] | None = getattr(game, "perft", None)
    if fast is not None:
        return fast(state, depth)
    if depth == 0:
        return 1
    seats = sorted(game.to_act(state))
    if not seats:
        return 0
    if depth == 1:
        count = 1
        for s in seats:
            count *= len(game.legal_moves(state, s))
        return count
    total = 0
    for moves in joint_moves(game, state):
        child = game.play(state, moves, turn_rng(seed, game.ply(state) + 1), check=False)
        total += perft(game, child, depth - 1, seed)
    return total


def divide(game: Game[Any, Any], state: Any, depth: int, seed: str = "perft") -> dict[str, int]:
    """Perft split by first move: ``{"e2e4": 9771, ...}`` (joint moves as ``"a|b"``)."""
    out: dict[str, int] = {}
    for moves in joint_moves(game, state):
        child = game.play(state, moves, turn_rng(seed, game.ply(state) + 1), check=False)
        key = "|".join(str(moves[s]) for s in sorted(moves))
        out[key] = perft(game, child, depth - 1, seed) if depth > 1 else 1
    return out

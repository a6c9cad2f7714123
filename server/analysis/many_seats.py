"""Yonin Shogi (four seats, nothing hidden) analysed by its own top search: the max^n of its
strongest bot level (``server/bots/ladder.json``: ``maxn``, with the Yonin evaluator, the
others' four best replies), through the engine contract, each position for the same time.

A position's value is a vector, one utility per seat (``server/bots/yonin_eval.py``: a win
1, a shared second place 0.2, losing the King 0; a game going on about 0.3 give or take the
material): ``values`` holds each seat's value of every position, the start first. A move is
judged on its mover's own utility, the best root move's against the one played, read as a
win chance on lichess's scale (``2u - 1`` winning chances, :func:`.judgement.chance_score`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..bots.bot import Deadline, moves_by_text
from ..bots.maxn import MaxN, SearchTimeout, better_for
from ..bots.yonin_eval import YoninEvaluator
from .judgement import MARKS, chance_score, judge, move_accuracy
from .plies import seat_values
from .replay import replay
from .report import Json

GAMES = ("yonin_shogi",)
#: the top level's search (server/bots/__init__.py, ``yonin_shogi``'s ``maxn``)
MAX_DEPTH, OPPONENT_N, BEST_N = 3, 4, (0, 0, 8, 8, 4)


def root_values(
    game: Any, state: Any, seat: int, seconds: float, rng: random.Random
) -> dict[str, list[float]]:
    """Every root move's value vector at the deepest depth finished within ``seconds``."""
    evaluator = YoninEvaluator(game)
    deadline = Deadline(seconds / 0.8)
    moves = moves_by_text(game, state, seat, [str(m) for m in game.legal_moves(state, seat)])
    found: dict[str, list[float]] = {}
    for depth in range(1, MAX_DEPTH + 1):
        search = MaxN(
            game,
            evaluator,
            BEST_N,
            deadline if depth > 1 else None,
            rng,
            opponent_n=OPPONENT_N,
            root_seat=seat,
        )
        try:
            found = search.root(state, seat, moves, depth)
        except SearchTimeout:
            break
    return found


def analyse(record: Mapping[str, Any], *, seconds: float) -> Json:
    """The stored analysis of a finished Yonin Shogi game's ``record`` (module docstring)."""
    line = replay(record)
    game = line.game
    n = int(record["n_seats"])
    values: list[list[float] | None] = []
    plies: list[Json] = []
    marks: list[list[float]] = [[] for _ in range(n)]
    counts = [{k: 0 for k in MARKS} for _ in range(n)]
    for i, state in enumerate(line.states):
        end = game.outcome(state)
        if end is not None:
            values.append(list(YoninEvaluator(game).final(end)))
            continue
        seat = min(game.to_act(state))
        rng = random.Random(f"{record.get('seed', '')}/{i}")
        found = root_values(game, state, seat, seconds, rng)
        best = None
        for text, vector in found.items():
            if best is None or better_for(vector, found[best], seat):
                best = text
        values.append(None if best is None else [round(v, 4) for v in found[best]])
        if i >= len(line.turns) or best is None:
            continue
        played = line.turns[i][seat]
        mine, top = found.get(played), found[best]
        verdict, value = None, 100.0
        if mine is not None:
            before, after = chance_score(top[seat]), chance_score(mine[seat])
            verdict = judge(before, after) if played != best else None
            value = move_accuracy(before, after)
        marks[seat].append(value)
        if verdict is not None:
            counts[seat][verdict] += 1
        plies.append(
            {
                "ply": i + 1,
                "move": played,
                "seat": seat,
                "judgement": verdict,
                "best": best if best != played else None,
                "accuracy": round(value, 1),
            }
        )
    return seat_values(game.name, "kibitz maxn", seconds, values, plies, marks, counts)

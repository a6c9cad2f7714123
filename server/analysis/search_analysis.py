"""Games of two seats taking turns with nothing hidden (Jungle, Kamisado, Kono, Ming Mang)
analysed by their own top search: the alpha-beta of their strongest bot level
(``server/bots/ladder.json``: ``alphabeta`` for every one), through the engine contract
(:class:`~server.bots.game_position.GamePosition`), each position for the same time.

The search's score is the game's ``evaluate`` hook, mover minus opponent, times 100 (its
centipawns, docs/BOTS.md), with a won or lost end as a mate; moves are judged on lichess's
scale on those centipawns (:mod:`.plies`; docs/ANALYSIS.md, "Thresholds").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..bots.alphabeta import AlphaBeta, Pruning
from ..bots.bot import Deadline
from ..bots.chess_eval import MATE
from ..bots.game_position import GamePosition
from .judgement import Score
from .plies import for_seat, judged
from .replay import replay
from .report import VERSION, Json, score_json
from .xiangqi_analysis import final_score

#: the games analysed here (their strongest level searches with alpha-beta)
GAMES = ("jungle", "kamisado", "kono", "ming_mang")
#: the bots' measured best pruning (``AlphaBetaBot``'s defaults), every depth it can finish
PRUNING = Pruning(prune=True, futility=True, lmp=True, next_depth=0.95, deep_lmr=True)


def score_of(value: int) -> Score:
    """The search's score (the mover's) as a :class:`Score`: near :data:`MATE`, a mate in
    moves."""
    if abs(value) > MATE - 1000:
        moves = (MATE - abs(value) + 1) // 2
        return Score(mate=moves if value > 0 else -moves)
    return Score(cp=value)


def search_position(
    game: Any, state: Any, seat: int, seconds: float, rng: random.Random
) -> tuple[Score, str]:
    """``state``'s value for ``seat`` (to move) and its best move, searched for ``seconds``."""
    root = list(game.legal_moves(state, seat))
    search = AlphaBeta(GamePosition(game, state, rng), pruning=PRUNING)
    found = search.search(root, Deadline(seconds / 0.8))
    return score_of(found.score), str(found.move)


def analyse(record: Mapping[str, Any], *, seconds: float) -> Json:
    """The stored analysis (:mod:`.report`) of a finished game's ``record``, every position
    searched for ``seconds``."""
    line = replay(record)
    game = line.game
    evals: list[Score] = []
    best: list[str | None] = []
    rng = random.Random(str(record.get("room", "")))
    for state in line.states:
        done = final_score(game, state)
        if done is not None:
            evals.append(done)
            best.append(None)
            continue
        seat = min(game.to_act(state))
        value, move = search_position(game, state, seat, seconds, rng)
        evals.append(for_seat(value, seat))
        best.append(move)
    movers = [min(t) for t in line.turns]
    played = [t[s] for t, s in zip(line.turns, movers, strict=True)]
    plies, players = judged(evals, movers, played, best)
    return {
        "version": VERSION,
        "game": game.name,
        "engine": "kibitz alphabeta",
        "seconds": seconds,
        "evals": [score_json(s) for s in evals],
        "plies": plies,
        "players": players,
    }

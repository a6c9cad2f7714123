"""XiangQi analysed by Fairy-Stockfish (``UCI_Variant`` ``xiangqi``), spoken to over UCI
(:mod:`.uci_process`), every position at the same node budget as chess.

Positions are the game's own (replayed from the record, :mod:`.replay`) written as the FEN
Fairy-Stockfish reads (``view["fen"]``, docs/GAMES.md 5.6.6); the engine's value is for the
side to move and is stored for Red (seat 0). A position the rules have ended is not searched.
Moves are judged on lichess's scale (:mod:`.plies`), the better move named in the game's own
notation (``h2-e2``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..bots.uci import read_move
from ..engine import Game
from .judgement import Score
from .plies import for_seat, judged
from .replay import replay
from .report import VERSION, Json, score_json
from .uci_process import UciProcess

VARIANT = "xiangqi"


def final_score(game: Game[Any, Any], state: Any) -> Score | None:
    """A finished position's value for seat 0 (None: not finished)."""
    end = game.outcome(state)
    if end is None:
        return None
    if end.scores[0] == end.scores[1]:
        return Score(cp=0)
    return Score(over=1 if end.scores[0] > end.scores[1] else -1)


def analyse(
    record: Mapping[str, Any], engine_path: str, *, nodes: int, seconds: float = 60.0
) -> Json:
    """The stored analysis (:mod:`.report`) of a finished XiangQi game's ``record`` (each
    position ``nodes`` nodes, or ``seconds`` if sooner)."""
    line = replay(record)
    game = line.game
    evals: list[Score] = []
    best: list[str | None] = []
    with UciProcess(engine_path, {"UCI_Variant": VARIANT, "Threads": "1"}) as engine:
        for state in line.states:
            done = final_score(game, state)
            if done is not None:
                evals.append(done)
                best.append(None)
                continue
            seat = next(iter(game.to_act(state)))
            found = engine.evaluate(str(game.view(state, None)["fen"]), nodes, seconds)
            evals.append(for_seat(found.score, seat))
            legal = [str(m) for m in game.legal_moves(state, seat)]
            try:
                best.append(read_move(VARIANT, found.best or "", legal))
            except ValueError:
                best.append(None)  # no move, or one we do not read: nothing is judged
        name = engine.name
    movers = [next(iter(t)) for t in line.turns]
    played = [t[s] for t, s in zip(line.turns, movers, strict=True)]
    plies, players = judged(evals, movers, played, best)
    return {
        "version": VERSION,
        "game": VARIANT,
        "engine": name,
        "nodes": nodes,
        "evals": [score_json(s) for s in evals],
        "plies": plies,
        "players": players,
    }

"""An analysis as plain JSON, as it is stored with the game, and back; and the shapes lichess
writes it in (its game JSON's ``analysis`` list and each player's ``analysis`` summary).

The stored form (``version`` 1)::

    {"version": 1, "game": "chess", "engine": "Stockfish 16", "nodes": 200000,
     "evals": [{"cp": 18}, ..., {"mate": -1}, {"over": 1}],   # every position, seat 0's side
     "plies": [{"ply": 6, "move": "g8f6", "san": "Nf6", "seat": 1, "judgement": "blunder",
                "best": "d8f6", "best_san": "Qf6", "accuracy": 0.0}, ...],
     "players": [{"accuracy": 93.1, "acpl": 12, "inaccuracy": 0, "mistake": 0,
                  "blunder": 0}, ...]}

Games analysed from more than one view add ``views`` (hidden information: per seat, what
that seat could see, beside ``evals`` of the true position).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .judgement import CEILING, MARKS, Score

VERSION = 1
Json = dict[str, Any]


def score_json(score: Score) -> Json:
    if score.over is not None:
        return {"over": score.over}
    if score.mate is not None:
        return {"mate": score.mate}
    return {"cp": score.cp}


def score_of_json(data: Mapping[str, Any]) -> Score:
    if "over" in data:
        return Score(over=int(data["over"]))
    if "mate" in data:
        return Score(mate=int(data["mate"]))
    return Score(cp=int(data["cp"]))


def centipawn_loss(before: Score, after: Score) -> int:
    """The mover's loss in centipawns (both for the mover, clamped to the ceiling)."""
    return max(0, before.centipawns() - after.centipawns())


def acpl(losses: Sequence[int]) -> int | None:
    """Average centipawn loss, rounded as lichess rounds it (None: no move)."""
    return round(sum(losses) / len(losses)) if losses else None


def lichess_evals(stored: Mapping[str, Any]) -> list[Json]:
    """lichess's ``analysis`` list: one entry per move, the position after it from White's
    side (``{"eval": cp}`` or ``{"mate": n}``), with the judgement and the better move."""
    out: list[Json] = []
    for ply, after in zip(stored["plies"], stored["evals"][1:], strict=False):
        entry: Json = {}
        if "mate" in after:
            entry["mate"] = after["mate"]
        elif "cp" in after:
            entry["eval"] = after["cp"]
        else:  # the game is over by mate: lichess writes the mate as done
            entry["mate"] = 0
        if ply.get("judgement"):
            name = str(ply["judgement"]).capitalize()
            entry["best"] = ply.get("best")
            entry["judgment"] = {
                "name": name,
                "comment": f"{name}. {ply.get('best_san') or ply.get('best')} was best.",
            }
        out.append(entry)
    return out


def lichess_player(stored: Mapping[str, Any], seat: int) -> Json | None:
    """lichess's per-player ``analysis``: ``{inaccuracy, mistake, blunder, acpl, accuracy}``."""
    players = stored.get("players") or []
    if seat >= len(players):
        return None
    mine = players[seat]
    out = {k: int(mine.get(k, 0)) for k in MARKS}
    if mine.get("acpl") is not None:
        out["acpl"] = int(mine["acpl"])
    if mine.get("accuracy") is not None:
        out["accuracy"] = round(float(mine["accuracy"]))
    return out


__all__ = [
    "CEILING",
    "VERSION",
    "acpl",
    "centipawn_loss",
    "lichess_evals",
    "lichess_player",
    "score_json",
    "score_of_json",
]

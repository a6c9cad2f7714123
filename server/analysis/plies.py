"""Moves judged on a line of evaluations, for any game of two seats taking turns: the same
scale as chess (:mod:`.judgement`), each move against the mover's best value before it.

``evals[i]`` is position ``i``'s value for seat 0 (``evals[0]``: the start), ``movers[i]``
the seat that moved from position ``i``, ``played[i]`` its move and ``best[i]`` the
engine's choice there (None: not searched, a finished position). A move that is the
engine's own choice is never judged.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from .judgement import MARKS, Score, accuracy, chance_score, judge, move_accuracy
from .report import VERSION, Json, acpl, centipawn_loss, score_json


def for_seat(score: Score, seat: int) -> Score:
    return score if seat == 0 else score.flipped()


def judged(
    evals: Sequence[Score],
    movers: Sequence[int],
    played: Sequence[str],
    best: Sequence[str | None],
    *,
    n_seats: int = 2,
) -> tuple[list[Json], list[Json]]:
    """(the plies, the players) in the stored form (:mod:`.report`)."""
    plies: list[Json] = []
    marks: list[list[float]] = [[] for _ in range(n_seats)]
    losses: list[list[int]] = [[] for _ in range(n_seats)]
    counts = [{k: 0 for k in MARKS} for _ in range(n_seats)]
    for i, move in enumerate(played):
        mover = movers[i]
        before, after = for_seat(evals[i], mover), for_seat(evals[i + 1], mover)
        other = best[i] is not None and best[i] != move
        verdict = judge(before, after) if other else None
        value = move_accuracy(before, after)
        marks[mover].append(value)
        losses[mover].append(centipawn_loss(before, after))
        if verdict is not None:
            counts[mover][verdict] += 1
        plies.append(
            {
                "ply": i + 1,
                "move": move,
                "seat": mover,
                "judgement": verdict,
                "best": best[i] if other else None,
                "accuracy": round(value, 1),
            }
        )
    players: list[Json] = []
    for seat in range(n_seats):
        mean = accuracy(marks[seat])
        players.append(
            {
                "accuracy": None if mean is None else round(mean, 1),
                "acpl": acpl(losses[seat]),
                **counts[seat],
            }
        )
    return plies, players


def sighted(values: Mapping[str, float], played: str) -> Json | None:
    """A move judged as its mover's own search saw it: ``values`` is each move's win chance
    for the mover (None: the played move was not weighed)."""
    if not values or played not in values:
        return None
    best = max(values, key=values.__getitem__)
    verdict = None
    if best != played:
        verdict = judge(chance_score(values[best]), chance_score(values[played]))
    return {
        "value": round(values[best], 3),
        "played": round(values[played], 3),
        "best": best if best != played else None,
        "judgement": verdict,
    }


def seen_counts(plies: Sequence[Json], seat: int) -> dict[str, int]:
    """How many of ``seat``'s moves its own view judged each way (:func:`sighted`)."""
    counts = {k: 0 for k in MARKS}
    for ply in plies:
        verdict = (ply.get("seen") or {}).get("judgement")
        if ply["seat"] == seat and verdict:
            counts[verdict] += 1
    return counts


def views_rng(views: Sequence[Mapping[str, Any]]) -> random.Random:
    """The randomness of a seat's search of its own views: a function of those views alone
    (a digest of them), so two games the seat cannot tell apart are searched alike."""
    text = json.dumps(list(views), sort_keys=True, separators=(",", ":"))
    return random.Random(hashlib.sha256(text.encode()).hexdigest())


def two_views(
    game: str,
    engine: str,
    seconds: float,
    evals: Sequence[Score],
    turns: Sequence[Mapping[int, str]],
    best: Sequence[str | None],
    sights: Sequence[Json | None],
) -> Json:
    """The stored analysis of a hidden game (``views: "seen"``): each ply judged on the true
    position's ``evals`` (the mover: the least seat to act), beside what the mover saw
    (``sights``, by ply; each player's counts of it)."""
    movers = [min(t) for t in turns]
    played = [t[s] for t, s in zip(turns, movers, strict=True)]
    plies, players = judged(evals, movers, played, best)
    for ply, sight in zip(plies, sights, strict=False):
        ply["seen"] = sight
    for seat, player in enumerate(players):
        player["seen"] = seen_counts(plies, seat)
    return {
        "version": VERSION,
        "game": game,
        "engine": engine,
        "seconds": seconds,
        "views": "seen",
        "evals": [score_json(s) for s in evals],
        "plies": plies,
        "players": players,
    }


def seat_values(
    game: str,
    engine: str,
    seconds: float,
    values: list[Any],
    plies: list[Json],
    marks: Sequence[Sequence[float]],
    counts: Sequence[Mapping[str, int]],
) -> Json:
    """The stored analysis of a game valued per seat (``values``: many seats, simultaneous
    moves): each player's mean accuracy over ``marks`` beside its judgement ``counts``."""
    players = []
    for seat_marks, seat_counts in zip(marks, counts, strict=True):
        mean = accuracy(seat_marks)
        players.append({"accuracy": None if mean is None else round(mean, 1), **seat_counts})
    return {
        "version": VERSION,
        "game": game,
        "engine": engine,
        "seconds": seconds,
        "values": values,
        "plies": plies,
        "players": players,
    }

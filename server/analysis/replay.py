"""A finished game's positions, replayed from its record (``Room.record``: seed, options,
every turn's moves) through the engine contract, as the room itself replays it.

The record of a finished game is what every door already shows of it (the seed included),
so the true positions rebuilt here tell nothing the record does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Game, get_game, turn_rng


@dataclass(frozen=True, slots=True)
class Line:
    """Every position of a game (``states[0]``: the start) and the turns between them
    (``turns[i]``: each moving seat's move text, from ``states[i]`` to ``states[i + 1]``)."""

    game: Game[Any, Any]
    states: tuple[Any, ...]
    turns: tuple[dict[int, str], ...]


def replay(record: Mapping[str, Any]) -> Line:
    """The positions of ``record``; a ``ValueError`` for a record that does not replay."""
    game = get_game(str(record["game"]))
    seed = str(record["seed"])
    state = game.new(record.get("options") or {}, int(record["n_seats"]), turn_rng(seed, 0))
    states = [state]
    turns: list[dict[int, str]] = []
    for i, turn in enumerate(record.get("moves") or [], 1):
        texts = {int(s): str(t) for s, t in turn["moves"].items()}
        moves = {s: game.parse_move(state, s, t) for s, t in texts.items()}
        state = game.play(state, moves, turn_rng(seed, i), check=False)
        states.append(state)
        turns.append(texts)
    return Line(game, tuple(states), tuple(turns))

"""Dark Chess worlds kept from one turn to the next (a particle filter for ISMCTS).

A world the bot searched on its previous turn reproduces every view up to that turn. The views
since then name the bot's own move and show what the opponent's reply left in sight, so the
world is *advanced* instead of sampled again: the bot's move is pushed, then every legal
opponent move of that world whose view equals the new one is a child world (a world with
none is dropped). Each child reproduces every view of the history, as a world of the history
sampler does (:mod:`server.engine.dark_chess.history`, which with a hint replays the whole game
from the first move and costs tens of milliseconds a world late in a game), for about a
millisecond.

Only the seat's views, its own remembered worlds (the same room and seat, found by a digest of
every view) and the rng go in; the children are ordered as the history sampler orders an
opponent's moves (an attack on our king, a capture or a threat to a piece first, with noise).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from server.engine.dark_chess.history import menace
from server.engine.dark_chess.observations import Observation, captured_counts
from server.engine.dark_chess.rules import DarkChessState, advance
from server.engine.dark_chess.views import visible_squares

#: the game whose worlds this module advances
GAME = "dark_chess"


def advance_worlds(
    worlds: Sequence[Any], views: Sequence[Mapping[str, Any]], seat: int, rng: random.Random
) -> list[list[DarkChessState]]:
    """For each remembered world, its children consistent with the views since it (best
    first, by the sampler's menace ordering with noise); ``[]`` for a world that has none or
    cannot be advanced (not a Dark Chess state, or a view missing for a ply)."""
    views_since = Tracker(views, seat)
    return [views_since.advance(world, rng) for world in worlds]


class Tracker:
    """Advances worlds through the views since them (one :class:`Observation` per ply)."""

    def __init__(self, views: Sequence[Mapping[str, Any]], seat: int) -> None:
        self.color = seat == 0
        self.visibility = str(views[-1]["visibility"])
        self.target = int(views[-1]["ply"])
        self.by_ply: dict[int, Mapping[str, Any]] = {}
        for view in views:
            self.by_ply[int(view["ply"])] = view
        self.parsed: dict[int, Observation] = {}

    def _obs(self, ply: int) -> Observation | None:
        if ply not in self.parsed:
            view = self.by_ply.get(ply)
            if view is None:
                return None
            self.parsed[ply] = Observation.parse(view)
        return self.parsed[ply]

    def _extend(
        self, states: list[tuple[DarkChessState, float]], ply: int
    ) -> list[tuple[DarkChessState, float]]:
        """``states`` (at ``ply``, with their menace) advanced to the last view."""
        for p in range(ply + 1, self.target + 1):
            o = self._obs(p)
            if o is None:
                return []
            states = [
                (child, menace + m)
                for s, m in states
                for child, menace in _children(s, o, self.color, self.visibility)
            ]
            if not states:
                break
        return states

    @staticmethod
    def _ordered(
        states: list[tuple[DarkChessState, float]], rng: random.Random
    ) -> list[DarkChessState]:
        keyed = [(1.5 * rng.random() - m, i, s) for i, (s, m) in enumerate(states)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [s for _, _, s in keyed]

    def advance(self, world: Any, rng: random.Random) -> list[DarkChessState]:
        """``world``'s children that fit the views since it, best first."""
        if not isinstance(world, DarkChessState) or world.result is not None:
            return []
        ply = len(world.board.move_stack)
        if not ply < self.target:
            return []
        return self._ordered(self._extend([(world, 0.0)], ply), rng)


def _children(
    state: DarkChessState, o: Observation, color: chess.Color, visibility: str
) -> list[tuple[DarkChessState, float]]:
    """The states one move after ``state`` whose view for ``color`` is ``o``."""
    board = state.board
    if board.turn == color:  # our own move: the view names it
        if o.last_move is None or not board.is_pseudo_legal(o.last_move):
            return []
        moves = [o.last_move]
    else:
        moves = list(board.generate_legal_moves())
    scratch = board.copy(stack=False)
    out = []
    for move in moves:
        # cheap first test on a scratch board: the squares in sight
        scratch.push(move)
        seen = visible_squares(scratch, color, visibility)
        scratch.pop()
        if seen != o.seen:
            continue
        child = advance(state, move)
        if child.result is not None:
            continue
        if o.matches(child.board, color, visibility, captured_counts(child.captured)):
            took = len(child.captured) > len(state.captured)
            out.append(
                (child, 0.0 if board.turn == color else menace(child.board, move, color, took))
            )
    return out

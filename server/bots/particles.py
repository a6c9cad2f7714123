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

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from server.engine.dark_chess.history import menace
from server.engine.dark_chess.observations import Observation, captured_counts
from server.engine.dark_chess.rules import WORTH, DarkBoard, DarkChessState, advance
from server.engine.dark_chess.views import visible_squares

#: the game whose worlds this module advances
GAME = "dark_chess"


def advance_worlds(
    worlds: Sequence[Any],
    views: Sequence[Mapping[str, Any]],
    seat: int,
    rng: random.Random,
    stop: float | None = None,
) -> list[list[DarkChessState]]:
    """For each remembered world, its children consistent with the views since it (best
    first, by the sampler's menace ordering with noise); ``[]`` for a world that has none or
    cannot be advanced (not a Dark Chess state, or a view missing for a ply) — or, past
    ``stop`` (a ``time.perf_counter()`` time; the first world is always advanced), was not
    advanced in time."""
    views_since = Tracker(views, seat)
    out: list[list[DarkChessState]] = []
    for world in worlds:
        if stop is not None and out and time.perf_counter() >= stop:
            out.append([])
        else:
            out.append(views_since.advance(world, rng))
    return out


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
        ply = len(world.moves)
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


#: how much an opponent prefers material (per pawn, in the exponent of its move policy)
GREED = 2.0
#: a king taken, in pawns of that policy: no opponent leaves it
KING_GAIN = 20.0
#: the opponent moves weighed, back from the last (a window: a world kept from turn to turn
#: is weighed again on each)
WEIGHED_MOVES = 4


def likelihood(world: Any, color: chess.Color, greed: float = GREED) -> float:
    """How likely the opponent's last moves in ``world`` are, under a model of an opponent
    that sees the board and takes material: each of its moves has probability
    ``exp(greed * gain) / Z`` among all of its legal moves, where a quiet move gains 0 and a
    capture the victim's worth (less the taker's if the victim was guarded; a king
    :data:`KING_GAIN`). A world where it passed up our free queen, or our king, is one a
    seat should hardly believe. ``1.0`` for a world that is not a Dark Chess state."""
    if not isinstance(world, DarkChessState):
        return 1.0
    # the position 2 * WEIGHED_MOVES plies back, replayed from the start (a world keeps its
    # moves, not the positions before them)
    moves = world.moves
    back = max(0, len(moves) - 2 * WEIGHED_MOVES)
    board = DarkBoard(world.start_fen)
    for move in moves[:back]:
        board.push(move)
    log = 0.0
    for move in moves[back:]:
        if board.turn != color:
            log += _log_policy(board, move, greed)
        board.push(move)
    return math.exp(log)


def _gain(board: chess.Board, move: chess.Move) -> float:
    """What the side to move gains by ``move`` in the policy of :func:`likelihood`."""
    gain = float(WORTH[move.promotion] - 1) if move.promotion else 0.0
    if board.is_en_passant(move):
        return gain + 1.0
    victim = board.piece_type_at(move.to_square)
    if victim is None or board.color_at(move.to_square) == board.turn:
        return gain
    if victim == chess.KING:
        return KING_GAIN
    taker = board.piece_type_at(move.from_square) or chess.PAWN
    value = WORTH[victim]
    if board.is_attacked_by(not board.turn, move.to_square):
        value = max(0, value - WORTH[taker])
    return gain + value


def _log_policy(board: chess.Board, move: chess.Move, greed: float) -> float:
    """log of the probability of ``move`` among the legal moves of ``board``."""
    total = 0.0
    for m in board.generate_legal_moves():
        total += math.exp(greed * _gain(board, m))
    if total <= 0.0:
        return 0.0
    return greed * _gain(board, move) - math.log(total)

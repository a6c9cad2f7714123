"""Dark Chess worlds, sampler 1: a history of opponent moves that reproduces every view one
seat has had (see :mod:`server.engine.dark_chess.worlds`)."""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import chess

from .observations import DIST, NoWorld, Observation, Sightings, captured_counts, observations
from .rules import WORTH, DarkBoard, DarkChessState, advance, position_key, start

Counts = tuple[tuple[int, ...], ...]


class _Replay:
    """A board replayed from the start with the bookkeeping of :class:`DarkChessState`."""

    def __init__(self, start_fen: str) -> None:
        self.board = DarkBoard(start_fen)
        self.keys: list[Hashable] = [position_key(self.board)]
        self.key_marks: list[list[Hashable]] = []
        self.captured: list[tuple[bool, int]] = []
        self.capture_marks: list[int] = []
        #: ``captured_counts(self.captured)`` after each push (kept, not recounted)
        self.counts: list[Counts] = [captured_counts([])]

    @property
    def captured_last(self) -> bool:
        """Whether the last move pushed took a piece."""
        return bool(self.capture_marks) and len(self.captured) > self.capture_marks[-1]

    def push(self, move: chess.Move) -> None:
        board = self.board
        self.capture_marks.append(len(self.captured))
        victim = None
        if board.is_en_passant(move):
            victim = chess.PAWN
        elif not board.is_castling(move):
            victim = board.piece_type_at(move.to_square)
        counts = self.counts[-1]
        if victim is not None:
            self.captured.append((not board.turn, victim))
            counts = _taken(counts, not board.turn, victim)
        self.counts.append(counts)
        zeroing = board.is_zeroing(move)
        board.push(move)
        self.key_marks.append(self.keys)
        key = position_key(board)
        self.keys = [key] if zeroing else [*self.keys, key]

    def pop(self) -> None:
        self.board.pop()
        self.keys = self.key_marks.pop()
        del self.captured[self.capture_marks.pop() :]
        self.counts.pop()

    def lost(self, color: chess.Color) -> int:
        """How many pieces ``color`` has lost so far."""
        return sum(1 for side, _ in self.captured if side == color)

    def ongoing(self) -> bool:
        """The game goes on here (no king taken, no repetition, a move left, clock < 100)."""
        board = self.board
        if board.is_variant_end() or self.keys.count(self.keys[-1]) >= 3:
            return False
        if board.halfmove_clock >= 100:
            return False
        return any(board.generate_legal_moves())


def _taken(counts: Counts, side: chess.Color, piece_type: int) -> Counts:
    """``counts`` (as :func:`.observations.captured_counts` gives them) with one more piece
    of ``side`` taken."""
    row = list(counts[int(side)])
    row[piece_type - 1] += 1
    return (tuple(row), counts[1]) if side == chess.BLACK else (counts[0], tuple(row))


def sample_history(
    views: Sequence[Mapping[str, Any]],
    seat: int,
    rng: random.Random,
    *,
    start_fen: str = chess.STARTING_FEN,
    hint: Sequence[chess.Move] = (),
    max_nodes: int = 20_000,
    restarts: int = 3,
    max_seconds: float | None = None,
) -> DarkChessState:
    """A world whose view for ``seat`` equals every view in ``views``, found by replaying
    the game from ``start_fen`` and choosing the opponent's moves; :class:`NoWorld` if none
    was found within ``max_nodes`` tried moves in all (or the views do not start there).

    The search is depth-first with chronological backtracking; the budget is split over
    ``restarts`` + 1 attempts with fresh random orders (backtracking has heavy tails).
    ``hint``: the moves of an earlier world (say, from the previous turn); at every ply its
    move is tried first, so an earlier world is extended (and repaired from the end when the
    new views contradict it) at little cost. ``max_seconds`` bounds the time as well.
    """
    stop = None if max_seconds is None else time.perf_counter() + max_seconds
    color = seat == 0
    visibility = str(views[-1]["visibility"])
    obs = observations(views)
    target = int(views[-1]["ply"])
    if 0 in obs and not _consistent(_Replay(start_fen), obs[0], color, visibility):
        raise NoWorld("the views do not start from this position")
    sightings = Sightings(obs, color, target)
    share = max_nodes // (restarts + 1)
    for attempt in range(restarts + 1):
        search = _HistorySearch(start_fen, obs, sightings, color, visibility, rng, stop)
        path = search.run(target, share, hint if attempt == 0 else ())
        if path is not None:
            state = start(DarkBoard(start_fen), start_fen, visibility)
            for move in path:
                state = advance(state, move)
            return state
        if search.exhausted:
            raise NoWorld("no history fits the views")
        if search.timed_out:
            break
    raise NoWorld(f"no history found in {max_nodes} nodes")


class _HistorySearch:
    """One depth-first attempt of :func:`sample_history`."""

    def __init__(
        self,
        start_fen: str,
        obs: Mapping[int, Observation],
        sightings: Sightings,
        color: chess.Color,
        visibility: str,
        rng: random.Random,
        stop: float | None = None,
    ) -> None:
        self.stop = stop
        self.timed_out = False
        self.replay = _Replay(start_fen)
        self.obs = obs
        self.sightings = sightings
        self.color = color
        self.visibility = visibility
        self.rng = rng
        self.nodes = 0
        self.exhausted = False

    def run(
        self, target: int, max_nodes: int, hint: Sequence[chess.Move] = ()
    ) -> list[chess.Move] | None:
        """The moves from the start to ``target`` plies, or ``None`` (out of nodes, or
        ``exhausted`` when no history exists at all)."""
        replay = self.replay
        path: list[chess.Move] = []
        # a frame: [hinted move or None, the other moves (best last) or None until needed,
        # the hinted move once tried]
        frames: list[list[Any]] = [[hint[0] if hint else None, None, None]]
        while len(path) < target:
            if self.stop is not None and time.perf_counter() > self.stop:
                self.timed_out = True
                return None
            move = self.next_move(frames[-1], len(path))
            if move is not None:
                replay.push(move)
                path.append(move)
                ply = len(path)
                frames.append([hint[ply] if ply < len(hint) else None, None, None])
                continue
            frames.pop()
            if not path:
                self.exhausted = True
                return None
            path.pop()
            replay.pop()
            if self.nodes > max_nodes:
                return None
        return path

    def next_move(self, frame: list[Any], ply: int) -> chess.Move | None:
        hinted = frame[0]
        if hinted is not None:
            frame[0] = None
            frame[2] = hinted
            if self.replay.board.is_pseudo_legal(hinted) and self.valid(hinted, ply) is not None:
                return hinted
        if frame[1] is None:
            frame[1] = [m for m in self.candidates(ply) if m != frame[2]]
        return frame[1].pop() if frame[1] else None

    def valid(self, move: chess.Move, ply: int) -> float | None:
        """``None`` if ``move`` at ``ply`` contradicts the views, else its order score."""
        replay, board, color = self.replay, self.replay.board, self.color
        after = self.obs.get(ply + 1)
        self.nodes += 1
        if after is not None and not _may_match(replay, move, after):
            return None  # without playing it: the pieces on the squares seen next differ
        replay.push(move)
        try:  # the view after it first: it refuses most moves, and costs less
            if after is not None and not _consistent(replay, after, color, self.visibility):
                return None
            if not replay.ongoing():
                return None
            if board.turn != color:  # our own move: known, nothing to prune or order
                return 0.0
            if not self.sightings.reachable(board, ply + 1, replay.lost(color)):
                return None
            score = self.sightings.need(board, ply + 1) + 1.5 * self.rng.random()
            return score - menace(board, move, color, replay.captured_last)
        finally:
            replay.pop()

    def candidates(self, ply: int) -> list[chess.Move]:
        """The moves from ``ply`` that survive the view after them, best to try last."""
        board, color = self.replay.board, self.color
        after = self.obs.get(ply + 1)
        if board.turn == color and after is not None and after.last_move is not None:
            moves = [after.last_move] if board.is_pseudo_legal(after.last_move) else []
        else:
            moves = list(board.generate_legal_moves())
        scored: list[tuple[float, int, chess.Move]] = []
        for i, move in enumerate(moves):
            score = self.valid(move, ply)
            if score is not None:
                scored.append((-score, i, move))
        scored.sort()
        return [move for _, _, move in scored]


def menace(board: chess.Board, move: chess.Move, color: chess.Color, took: bool) -> float:
    """How dangerous the opponent's ``move`` (just pushed) is for ``color``: worlds where
    the opponent attacked are sampled first. A move that attacks our king, lines up on it
    (an empty-board line: a pin or a discovered threat in the fog), takes a piece or strikes
    one it could take with profit is what an opponent plays; the seat had better fear it.
    An ordering, never a filter."""
    king = board.king(color)
    if king is None:
        return 0.0
    score = 1.0 if took else 0.0
    piece = board.piece_type_at(move.to_square)
    strikes = board.attacks_mask(move.to_square)
    if strikes & chess.BB_SQUARES[king]:
        score += 3.0
    elif piece in DIST and piece != chess.KING and DIST[piece][move.to_square][king] == 1:
        score += 1.5
    if piece is not None and _wins_material(board, strikes, piece, color):
        score += THREAT
    return score


#: the menace of a move that strikes a piece of ours it could take with profit
THREAT = 1.0


def _wins_material(board: chess.Board, strikes: int, piece: int, color: chess.Color) -> bool:
    """Does the piece just moved strike a piece of ``color`` worth more than itself, or one
    that nothing of ``color`` guards?"""
    targets = strikes & board.occupied_co[color] & ~board.kings & ~board.pawns
    for square in chess.scan_forward(targets):
        victim = board.piece_type_at(square)
        if victim is not None and (
            WORTH[victim] > WORTH[piece] or not board.is_attacked_by(color, square)
        ):
            return True
    return False


def _may_match(replay: _Replay, move: chess.Move, o: Observation) -> bool:
    """False if the board after the pseudo-legal ``move`` (not played) certainly differs
    from ``o``: other pieces on the squares ``o`` saw, or other capture counts. A plain move
    or capture is worked out on the bitboards (far cheaper than playing it); castling, en
    passant and promotions say True and are checked by playing them (:func:`_consistent`,
    which decides in every case: this is only a filter in front of it)."""
    board = replay.board
    if move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    frm, to = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    piece = board.piece_type_at(move.from_square)
    victim = board.piece_type_at(move.to_square)
    mover = board.turn
    counts = replay.counts[-1]
    if victim is not None:
        counts = _taken(counts, not mover, victim)
    if counts != o.captured:
        return False
    kinds = [0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings]
    if victim is not None:
        kinds[victim] &= ~to
    if piece is not None:
        kinds[piece] = (kinds[piece] & ~frm) | to
    occupied = [board.occupied_co[0], board.occupied_co[1]]
    occupied[int(mover)] = (occupied[int(mover)] & ~frm) | to
    occupied[int(not mover)] &= ~to
    return o.shows(kinds, occupied)


def _consistent(replay: _Replay, o: Observation, color: chess.Color, visibility: str) -> bool:
    return o.matches(replay.board, color, visibility, replay.counts[-1])

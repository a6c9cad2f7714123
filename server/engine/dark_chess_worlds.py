"""Dark Chess worlds: true states consistent with everything one seat has seen.

This is the ``determinize`` hook of :class:`~server.engine.dark_chess.DarkChess` (docs/GAMES.md
2.2), the way a bot plays the fog honestly: it never sees the true board, only its own views,
and searches boards sampled from those views.

Two samplers, tried in this order:

1. **History** (:func:`sample_history`): replays the game from the start position and picks an
   opponent move at every opponent turn such that the seat's view after it equals the view the
   seat really received (own moves are known: each view after one of our moves names it).
   Random choice order with chronological backtracking and a node budget. A world found this
   way reproduces *every* view of the history, not only the current one, and carries a real
   move stack (repetition keys, castling rights, en-passant square, halfmove clock). Forward
   pruning: an opponent move must keep every enemy piece the seat will see later reachable in
   time (:class:`_Sightings`), which avoids most dead ends.
2. **Placement** (:func:`sample_placement`): when the history sampler runs out of budget (or
   the history has gaps or a non-standard start), the hidden enemy pieces are placed on unseen
   squares of the current view, preferring squares near where each kind was last seen, and
   kept only if the resulting view equals the current view exactly. Its move stack is empty,
   so repetition history before the current position is unknown.

Every world returned gives ``view(world, seat) == views[-1]``; ``tests/bots`` checks it over
many seeded games. Everything here depends only on the views and the ``rng``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from .dark_chess import (
    DarkBoard,
    DarkChess,
    DarkChessState,
    _advance,
    _start,
    dark_fen,
    position_key,
    visible_squares,
)

_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_SYMBOLS = {t: chess.piece_symbol(t) for t in _TYPES}


class NoWorld(Exception):
    """No world consistent with the views was found within the budget."""


# -- observations -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """One view, parsed for fast comparison with a candidate board."""

    ply: int
    seen: int
    fen: str
    #: ``masks[color][piece_type]``: the squares of such pieces among ``seen``
    masks: tuple[tuple[int, ...], tuple[int, ...]]
    last_move: chess.Move | None
    captured: tuple[tuple[int, ...], tuple[int, ...]]  # [color][type index]: count
    turn: chess.Color

    @classmethod
    def parse(cls, view: Mapping[str, Any]) -> Observation:
        seen = 0
        for name in view["visible"]:
            seen |= chess.BB_SQUARES[chess.parse_square(name)]
        placement = str(view["fen"]).split()[0]
        masks = [[0] * 7, [0] * 7]
        rank = 7
        for row in placement.split("/"):
            file = 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                    continue
                if ch != "?":
                    piece = chess.Piece.from_symbol(ch)
                    masks[int(piece.color)][piece.piece_type] |= chess.BB_SQUARES[
                        chess.square(file, rank)
                    ]
                file += 1
            rank -= 1
        last = view.get("last_move")
        captured = view["captured"]
        caps = tuple(
            tuple(int(captured[side][_SYMBOLS[t]]) for t in _TYPES) for side in ("black", "white")
        )
        return cls(
            ply=int(view["ply"]),
            seen=seen,
            fen=str(view["fen"]),
            masks=(tuple(masks[0]), tuple(masks[1])),
            last_move=None if last is None else chess.Move.from_uci(str(last)),
            captured=(caps[0], caps[1]),
            turn=view["turn"] == "white",
        )

    def matches(
        self, board: chess.Board, color: chess.Color, visibility: str, captured: Any
    ) -> bool:
        """Whether ``color``'s view of ``board`` (with ``captured`` counts) is this one."""
        seen = visible_squares(board, color, visibility)
        if seen != self.seen:
            return False
        for side in (chess.WHITE, chess.BLACK):
            occupied = board.occupied_co[side] & seen
            masks = self.masks[int(side)]
            for t in _TYPES:
                if board.pieces_mask(t, side) & occupied != masks[t]:
                    return False
        if captured != self.captured:
            return False
        return dark_fen(board, color, seen) == self.fen


def _captured_counts(captured: Sequence[tuple[bool, int]]) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * 6, [0] * 6]
    for side, t in captured:
        counts[int(side)][t - 1] += 1
    return (tuple(counts[0]), tuple(counts[1]))


# -- sightings: where the enemy will be seen ----------------------------------------------------


def _knight_steps() -> dict[tuple[int, int], int]:
    """Knight moves needed for a (file, rank) difference on an unbounded board: a lower
    bound of the 8x8 distance (it only differs near corners), which is all pruning needs."""
    dist = {(0, 0): 0}
    queue = [(0, 0)]
    jumps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
    for df, dr in queue:
        for jf, jr in jumps:
            nxt = (df + jf, dr + jr)
            if nxt not in dist and abs(nxt[0]) <= 9 and abs(nxt[1]) <= 9:
                dist[nxt] = dist[(df, dr)] + 1
                queue.append(nxt)
    return dist


def _distance_table() -> dict[int, tuple[tuple[int, ...], ...]]:
    """``table[kind][a][b]``: moves a piece of that kind needs from ``a`` to ``b`` on an
    empty board (99: never); a lower bound for any board."""
    knight = _knight_steps()
    files = [chess.square_file(sq) for sq in chess.SQUARES]
    ranks = [chess.square_rank(sq) for sq in chess.SQUARES]
    pairs = [
        [(abs(files[a] - files[b]), abs(ranks[a] - ranks[b])) for b in chess.SQUARES]
        for a in chess.SQUARES
    ]
    bishop = tuple(
        tuple(0 if f == r == 0 else 1 if f == r else 2 if (f + r) % 2 == 0 else 99 for f, r in row)
        for row in pairs
    )
    rook = tuple(
        tuple(0 if f == r == 0 else 1 if f == 0 or r == 0 else 2 for f, r in row) for row in pairs
    )
    queen = tuple(
        tuple(0 if f == r == 0 else 1 if f == 0 or r == 0 or f == r else 2 for f, r in row)
        for row in pairs
    )
    return {
        chess.KNIGHT: tuple(tuple(knight[(f, r)] for f, r in row) for row in pairs),
        chess.KING: tuple(tuple(max(f, r) for f, r in row) for row in pairs),
        chess.BISHOP: bishop,
        chess.ROOK: rook,
        chess.QUEEN: queen,
    }


_DIST = _distance_table()
_KING = _DIST[chess.KING]


class _Sightings:
    """Where the seat sees enemy pieces at each observed ply, for forward pruning.

    :meth:`reachable` is a necessary condition for a world to survive the later views: every
    enemy piece seen at a later ply ``t`` needs a piece of its kind in the world now that can
    get there with the opponent moves left until ``t`` (sliders and knights on an empty board,
    kings one step at a time, pawns only forward and sideways only by capturing one of our
    pieces), and the distances add up to no more than those moves. The views' halfmove clock
    tells which opponent moves were pawn moves (the clock restarts; no piece of ours lost)
    and which were piece moves (it runs on), so pawns and pieces are budgeted apart. A kind
    seen more often than the world holds it is skipped (a promotion may explain it).
    """

    def __init__(self, obs: Mapping[int, Observation], color: chess.Color, target: int) -> None:
        enemy = not color
        self.enemy = enemy
        self.forward = 1 if enemy == chess.WHITE else -1
        self.start_rank = 1 if enemy == chess.WHITE else 6
        self.plies: list[int] = []
        self.seen: list[list[tuple[int, list[int]]]] = []
        self.lost: list[int] = []
        for ply in sorted(obs):
            o = obs[ply]
            kinds = []
            for t in _TYPES:
                squares = list(chess.scan_forward(o.masks[int(enemy)][t]))
                if squares:
                    kinds.append((t, squares))
            self.plies.append(ply)
            self.seen.append(kinds)
            self.lost.append(sum(o.captured[int(color)]))
        # cum_pawn[x] / cum_piece[x]: opponent moves before ply x that may move a pawn / piece
        self.cum_pawn = [0] * (target + 2)
        self.cum_piece = [0] * (target + 2)
        for q in range(target + 1):
            pawn = piece = 1
            before, after = obs.get(q), obs.get(q + 1)
            if after is None or after.turn == enemy:  # not an opponent move, or unknown
                pawn = piece = 0 if after is not None else 1
            elif before is not None and before.turn == enemy:
                took = sum(after.captured[int(color)]) > sum(before.captured[int(color)])
                zeroing = after.fen.split()[4] == "0"
                if not took:
                    pawn, piece = (1, 0) if zeroing else (0, 1)
            self.cum_pawn[q + 1] = self.cum_pawn[q] + pawn
            self.cum_piece[q + 1] = self.cum_piece[q] + piece

    def reachable(self, board: chess.Board, ply: int, lost_now: int) -> bool:
        enemy = self.enemy
        mine: dict[int, list[int]] = {
            t: list(chess.scan_forward(board.pieces_mask(t, enemy))) for t in _TYPES
        }
        castle = board.has_castling_rights(enemy)
        for i, t_ply in enumerate(self.plies):
            if t_ply <= ply:
                continue
            k_pawn = self.cum_pawn[t_ply] - self.cum_pawn[ply]
            k_piece = self.cum_piece[t_ply] - self.cum_piece[ply]
            total_pawn = total_piece = 0
            for kind, squares in self.seen[i]:
                have = mine[kind]
                if kind == chess.PAWN:
                    need = self._pawns(have, squares, k_pawn, self.lost[i] - lost_now)
                    if need is None:
                        return False
                    total_pawn += need
                    continue
                if len(squares) > len(have):
                    continue
                table = _DIST[kind]
                for s in squares:
                    best = min(table[w][s] for w in have)
                    if kind == chess.KING and best == 2 and castle:
                        best = 1
                    total_piece += best
                if total_piece > k_piece:
                    return False
            if total_pawn > k_pawn:
                return False
        return True

    def need(self, board: chess.Board, ply: int, horizon: int = 8) -> float:
        """How far the world's enemy pieces are from where the next ``horizon`` views will
        show them, counting a slider's blocked line as one more move: a move-ordering
        guide (smaller first), not a rule."""
        enemy = self.enemy
        mine = {t: list(chess.scan_forward(board.pieces_mask(t, enemy))) for t in _TYPES}
        total = 0.0
        done = 0
        for i, t_ply in enumerate(self.plies):
            if t_ply <= ply:
                continue
            done += 1
            if done > horizon:
                break
            for kind, squares in self.seen[i]:
                have = mine[kind]
                if not have:
                    continue
                if kind == chess.PAWN:
                    for s in squares:
                        best = 9
                        for w in have:
                            dr = (chess.square_rank(s) - chess.square_rank(w)) * self.forward
                            if dr >= 0 and chess.square_file(s) == chess.square_file(w):
                                best = min(best, dr)
                        total += best
                    continue
                table = _DIST[kind]
                slider = kind in (chess.BISHOP, chess.ROOK, chess.QUEEN)
                for s in squares:
                    best = 9
                    for w in have:
                        d = table[w][s]
                        if d == 1 and slider and not board.attacks_mask(w) & chess.BB_SQUARES[s]:
                            d = 2
                        best = min(best, d)
                    total += best
        return total

    def _pawns(self, have: list[int], seen: list[int], moves: int, captures: int) -> int | None:
        """A lower bound of the pawn moves that bring pawns of ``have`` onto ``seen`` (each
        a pawn of its own), ``None`` if that cannot be done in ``moves``."""
        edges: list[list[tuple[int, int]]] = []
        total = 0
        for s in seen:
            row = []
            for j, w in enumerate(have):
                dr = (chess.square_rank(s) - chess.square_rank(w)) * self.forward
                df = abs(chess.square_file(s) - chess.square_file(w))
                if dr < 0 or df > dr or df > captures:
                    continue
                need = dr - 1 if dr >= 2 and chess.square_rank(w) == self.start_rank else dr
                if need <= moves:
                    row.append((need, j))
            if not row:
                return None
            total += min(row)[0]
            edges.append(row)
        if total > moves:
            return None
        match: dict[int, int] = {}

        def augment(i: int, visited: set[int]) -> bool:
            for _, j in edges[i]:
                if j in visited:
                    continue
                visited.add(j)
                if j not in match or augment(match[j], visited):
                    match[j] = i
                    return True
            return False

        for i in range(len(edges)):
            if not augment(i, set()):
                return None
        return total


# -- sampler 1: a history of opponent moves ---------------------------------------------------


def observations(views: Sequence[Mapping[str, Any]]) -> dict[int, Observation]:
    """The views by ply (a repeated ply keeps its last view)."""
    return {int(v["ply"]): Observation.parse(v) for v in views}


class _Replay:
    """A board replayed from the start with the bookkeeping of :class:`DarkChessState`."""

    def __init__(self, start_fen: str) -> None:
        self.board = DarkBoard(start_fen)
        self.keys: list[Hashable] = [position_key(self.board)]
        self.key_marks: list[list[Hashable]] = []
        self.captured: list[tuple[bool, int]] = []
        self.capture_marks: list[int] = []

    @property
    def captured_last(self) -> bool:
        """Whether the last move pushed took a piece."""
        return bool(self.capture_marks) and len(self.captured) > self.capture_marks[-1]

    def push(self, move: chess.Move) -> None:
        board = self.board
        self.capture_marks.append(len(self.captured))
        if board.is_en_passant(move):
            self.captured.append((not board.turn, chess.PAWN))
        elif not board.is_castling(move):
            victim = board.piece_type_at(move.to_square)
            if victim is not None:
                self.captured.append((not board.turn, victim))
        zeroing = board.is_zeroing(move)
        board.push(move)
        self.key_marks.append(self.keys)
        key = position_key(board)
        self.keys = [key] if zeroing else [*self.keys, key]

    def pop(self) -> None:
        self.board.pop()
        self.keys = self.key_marks.pop()
        del self.captured[self.capture_marks.pop() :]

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
    sightings = _Sightings(obs, color, target)
    share = max_nodes // (restarts + 1)
    for attempt in range(restarts + 1):
        search = _HistorySearch(start_fen, obs, sightings, color, visibility, rng, stop)
        path = search.run(target, share, hint if attempt == 0 else ())
        if path is not None:
            state = _start(DarkBoard(start_fen), start_fen, visibility)
            for move in path:
                state = _advance(state, move)
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
        sightings: _Sightings,
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
        replay.push(move)
        try:
            if not replay.ongoing():
                return None
            if after is not None and not _consistent(replay, after, color, self.visibility):
                return None
            if board.turn != color:  # our own move: known, nothing to prune or order
                return 0.0
            if not self.sightings.reachable(board, ply + 1, replay.lost(color)):
                return None
            score = self.sightings.need(board, ply + 1) + 1.5 * self.rng.random()
            return score - _menace(board, move, color, replay.captured_last)
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


def _menace(board: chess.Board, move: chess.Move, color: chess.Color, took: bool) -> float:
    """How dangerous the opponent's ``move`` (just pushed) is for ``color``: worlds where
    the opponent attacked are sampled first. A move that attacks our king, lines up on it
    (an empty-board line: a pin or a discovered threat in the fog) or takes a piece is what
    an opponent plays; the seat had better fear it. An ordering, never a filter."""
    king = board.king(color)
    if king is None:
        return 0.0
    score = 1.0 if took else 0.0
    piece = board.piece_type_at(move.to_square)
    if board.attacks_mask(move.to_square) & chess.BB_SQUARES[king]:
        score += 3.0
    elif piece in _DIST and piece != chess.KING and _DIST[piece][move.to_square][king] == 1:
        score += 1.5
    return score


def _consistent(replay: _Replay, o: Observation, color: chess.Color, visibility: str) -> bool:
    return o.matches(replay.board, color, visibility, _captured_counts(replay.captured))


# -- sampler 2: a placement of the hidden pieces ----------------------------------------------

#: a side's pieces at the standard start
_START_COUNT = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1,
                chess.KING: 1}  # fmt: skip


def sample_placement(
    views: Sequence[Mapping[str, Any]], seat: int, rng: random.Random, *, tries: int = 50
) -> DarkChessState:
    """A world whose view for ``seat`` equals the last view: the enemy pieces not in sight
    (the standard set less the captured and the visible ones) go to unseen squares, each
    kind preferring squares near where the seat last saw such a piece.

    The world's move stack is synthetic (null moves, then the seat's own last move when
    the view shows it): only its length, the ply, is meaningful, and the repetition history
    starts at the current position. :class:`NoWorld` if ``tries`` placements all fail.
    """
    color = seat == 0
    enemy = not color
    view = views[-1]
    o = Observation.parse(view)
    visibility = str(view["visibility"])
    fields = str(view["fen"]).split()
    hints = _last_seen(views, enemy)
    pool: list[int] = []
    promoted = 0
    for t in _TYPES:
        left = (
            _START_COUNT[t] - o.captured[int(enemy)][t - 1] - chess.popcount(o.masks[int(enemy)][t])
        )
        if left < 0 and t != chess.PAWN:
            promoted -= left
        pool += [t] * max(left, 0)
    for _ in range(promoted):  # a promotion in the fog: one pawn fewer
        if chess.PAWN in pool:
            pool.remove(chess.PAWN)
    unseen = [sq for sq in chess.SQUARES if not o.seen & chess.BB_SQUARES[sq]]
    forced = _forced_occupied(o, color, fields)
    barred = _barred(o, color)
    last = view.get("last_move")
    for _ in range(tries):
        board = _place(o, color, pool, unseen, forced, barred, hints, fields, rng)
        if board is None:
            continue
        world = _placed_state(board, int(view["ply"]), last, visibility, o.captured)
        if _view_equal(world, seat, view):
            return world
    raise NoWorld("no placement of the hidden pieces fits the view")


def _last_seen(
    views: Sequence[Mapping[str, Any]], enemy: chess.Color
) -> dict[int, list[tuple[int, int]]]:
    """For each enemy kind, (square, ply) of its most recent sightings, newest first."""
    out: dict[int, list[tuple[int, int]]] = {t: [] for t in _TYPES}
    taken: dict[int, int] = {t: 0 for t in _TYPES}
    for view in reversed(views):
        o = Observation.parse(view)
        for t in _TYPES:
            squares = list(chess.scan_forward(o.masks[int(enemy)][t]))
            for sq in squares:
                if taken[t] < 16 and all(sq != s for s, _ in out[t]):
                    out[t].append((sq, o.ply))
                    taken[t] += 1
    return out


def _forced_occupied(o: Observation, color: chess.Color, fields: list[str]) -> list[int]:
    """Unseen squares that must hold an enemy piece: in front of one of our pawns (an empty
    square there would be seen), or two in front of a pawn on its start rank whose first
    step is seen empty."""
    own_pawns = o.masks[int(color)][chess.PAWN]
    step = 8 if color == chess.WHITE else -8
    start_rank = 1 if color == chess.WHITE else 6
    occupied = 0
    for side in (0, 1):
        for t in _TYPES:
            occupied |= o.masks[side][t]
    out = []
    for sq in chess.scan_forward(own_pawns):
        one = sq + step
        if not 0 <= one < 64:
            continue
        if not o.seen & chess.BB_SQUARES[one]:
            out.append(one)
        elif chess.square_rank(sq) == start_rank and not occupied & chess.BB_SQUARES[one]:
            two = one + step
            if not o.seen & chess.BB_SQUARES[two]:
                out.append(two)
    return out


def _barred(o: Observation, color: chess.Color) -> int:
    """Unseen squares an enemy piece may not stand on: our pawns' capture squares (an
    enemy there would be seen)."""
    barred = 0
    for sq in chess.scan_forward(o.masks[int(color)][chess.PAWN]):
        barred |= chess.BB_PAWN_ATTACKS[color][sq]
    return barred & ~o.seen


def _place(
    o: Observation,
    color: chess.Color,
    pool: list[int],
    unseen: list[int],
    forced: list[int],
    barred: int,
    hints: Mapping[int, list[tuple[int, int]]],
    fields: list[str],
    rng: random.Random,
) -> chess.Board | None:
    enemy = not color
    board = DarkBoard(None)
    for side in (chess.WHITE, chess.BLACK):
        for t in _TYPES:
            for sq in chess.scan_forward(o.masks[int(side)][t]):
                board.set_piece_at(sq, chess.Piece(t, side))
    free = [sq for sq in unseen if not barred & chess.BB_SQUARES[sq]]
    kings = o.masks[int(color)][chess.KING]
    king = chess.lsb(kings) if kings else None
    pieces = list(pool)
    rng.shuffle(pieces)
    # most constrained first: pawns, then the king, then the rest
    pieces.sort(key=lambda t: {chess.PAWN: 0, chess.KING: 1}.get(t, 2))
    must = [sq for sq in forced if sq in free]
    if len(must) > len(pieces):
        return None
    taken: set[int] = set()
    for i, t in enumerate(pieces):
        left = len(pieces) - i
        open_must = [sq for sq in must if sq not in taken]
        choices = [sq for sq in free if sq not in taken and _may_stand(t, sq, enemy)]
        if len(open_must) >= left:  # the rest must fill the forced squares
            choices = [sq for sq in open_must if _may_stand(t, sq, enemy)]
        if not choices:
            return None
        weights = [_weight(t, sq, enemy, hints.get(t, ()), o.ply) for sq in choices]
        if king is not None and t in _DIST and t != chess.KING:
            # fear: a hidden piece lined up on our king (through the fog) is likelier
            weights = [
                w * (3.0 if _DIST[t][sq][king] == 1 else 1.0)
                for w, sq in zip(weights, choices, strict=True)
            ]
        sq = rng.choices(choices, weights)[0]
        taken.add(sq)
        board.set_piece_at(sq, chess.Piece(t, enemy))
    board.turn = fields[1] == "w"
    rights = _own_rights(fields[2], color) | _enemy_rights(board, enemy, hints)
    board.castling_rights = rights & board.occupied
    board.ep_square = None if fields[3] == "-" else chess.parse_square(fields[3])
    board.halfmove_clock = int(fields[4])
    board.fullmove_number = int(fields[5])
    return board


def _may_stand(t: int, sq: int, color: chess.Color) -> bool:
    if t != chess.PAWN:
        return True
    rank = chess.square_rank(sq)
    return 0 < rank < 7


def _weight(
    t: int, sq: int, color: chess.Color, seen: Sequence[tuple[int, int]], ply: int
) -> float:
    """How likely a hidden piece of kind ``t`` stands on ``sq``, from its last sightings."""
    if t == chess.PAWN:
        home = 6 if color == chess.BLACK else 1
        forward = -1 if color == chess.BLACK else 1
        advance = (chess.square_rank(sq) - home) * forward
        if advance < 0:
            return 0.05
        base = 0.3**advance
        # a file where a pawn was seen and could still be
        for s, _ in seen:
            if chess.square_file(s) == chess.square_file(sq):
                d = (chess.square_rank(sq) - chess.square_rank(s)) * forward
                if d >= 0:
                    base = max(base, 0.5**d)
        return base + 0.01
    if not seen:
        return 1.0
    table = _DIST.get(t, _KING)
    best = 0.02
    for s, when in seen:
        d = table[s][sq]
        moves = max(1, (ply - when) // 2)
        if d <= moves:
            best = max(best, 1.0 / (1 + d))
    return best


def _own_rights(field: str, color: chess.Color) -> int:
    rights = 0
    for ch, sq in (("K", chess.H1), ("Q", chess.A1), ("k", chess.H8), ("q", chess.A8)):
        if ch in field:
            rights |= chess.BB_SQUARES[sq]
    return rights


def _enemy_rights(
    board: chess.Board, enemy: chess.Color, hints: Mapping[int, Sequence[tuple[int, int]]]
) -> int:
    """The enemy keeps a castling right when its king and that rook stand at home and the
    king was never seen elsewhere."""
    home = chess.E1 if enemy == chess.WHITE else chess.E8
    if board.piece_at(home) != chess.Piece(chess.KING, enemy):
        return 0
    if any(sq != home for sq, _ in hints.get(chess.KING, ())):
        return 0
    rights = 0
    for corner in (chess.A1, chess.H1) if enemy == chess.WHITE else (chess.A8, chess.H8):
        if board.piece_at(corner) == chess.Piece(chess.ROOK, enemy):
            rights |= chess.BB_SQUARES[corner]
    return rights


def _placed_state(
    board: chess.Board,
    ply: int,
    last: str | None,
    visibility: str,
    captured: tuple[tuple[int, ...], tuple[int, ...]],
) -> DarkChessState:
    """A state for a placed board with a synthetic move stack of ``ply`` entries and the
    captured pieces of the view (their order is unknown and does not matter)."""
    dark = DarkBoard(board.fen(en_passant="fen"))
    dark.ep_square = board.ep_square
    filler = [chess.Move.null()] * ply
    if last is not None and ply:
        filler[-1] = chess.Move.from_uci(last)
    dark.move_stack = filler
    start = dark.fen(en_passant="fen")
    taken = tuple(
        (bool(side), t) for side in (1, 0) for t in _TYPES for _ in range(captured[side][t - 1])
    )
    return dataclasses.replace(_start(dark, start, visibility), captured=taken)


def _view_equal(world: DarkChessState, seat: int, view: Mapping[str, Any]) -> bool:
    return DarkChess().view(world, seat) == dict(view)


# -- the hook ---------------------------------------------------------------------------------


def determinize(
    views: Sequence[Mapping[str, Any]],
    seat: int,
    rng: random.Random,
    *,
    hint: DarkChessState | None = None,
    max_nodes: int = 4000,
    max_seconds: float | None = None,
) -> DarkChessState:
    """A world for ``seat`` from its views: :func:`sample_history` (extending ``hint``, an
    earlier world of the same game, when given; at most ``max_nodes`` moves tried and
    ``max_seconds`` spent), else :func:`sample_placement`."""
    if not views:
        raise NoWorld("no view")
    moves: Sequence[chess.Move] = ()
    if hint is not None:
        stack = hint.board.move_stack
        if all(stack):  # a placed world's stack is synthetic: no use as a hint
            moves = stack
    try:
        return sample_history(
            views, seat, rng, hint=moves, max_nodes=max_nodes, max_seconds=max_seconds
        )
    except NoWorld:
        return sample_placement(views, seat, rng)

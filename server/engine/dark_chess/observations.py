"""What one seat has seen of a Dark Chess game, read from its views: the observations, and
where each enemy piece must have been able to go to be seen where it was (the sightings that
prune the world samplers of :mod:`server.engine.dark_chess.worlds`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from .views import dark_fen_tail, visible_squares

PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_SYMBOLS = {t: chess.piece_symbol(t) for t in PIECE_TYPES}


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
    #: the FEN after its placement (:func:`.views.dark_fen_tail`)
    fen_tail: str

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
            tuple(int(captured[side][_SYMBOLS[t]]) for t in PIECE_TYPES)
            for side in ("black", "white")
        )
        return cls(
            ply=int(view["ply"]),
            seen=seen,
            fen=str(view["fen"]),
            masks=(tuple(masks[0]), tuple(masks[1])),
            last_move=None if last is None else chess.Move.from_uci(str(last)),
            captured=(caps[0], caps[1]),
            turn=view["turn"] == "white",
            fen_tail=str(view["fen"]).split(" ", 1)[1],
        )

    def matches(
        self, board: chess.Board, color: chess.Color, visibility: str, captured: Any
    ) -> bool:
        """Whether ``color``'s view of ``board`` (with ``captured`` counts) is this one.

        The cheap tests first: the counts, then the pieces on the squares this view saw
        (a board that would see other squares fails the visibility test after them all the
        same), then what the board sees, then the FEN."""
        if captured != self.captured:
            return False
        kinds = (
            0,
            board.pawns,
            board.knights,
            board.bishops,
            board.rooks,
            board.queens,
            board.kings,
        )
        if not self.shows(kinds, board.occupied_co):
            return False
        if visible_squares(board, color, visibility) != self.seen:
            return False
        # the same squares seen, the same pieces on them: the same FEN placement (it is
        # drawn from nothing else), so the rest of the FEN decides
        return dark_fen_tail(board, color) == self.fen_tail

    def shows(self, kinds: Sequence[int], occupied: Sequence[int]) -> bool:
        """Whether pieces placed as ``kinds`` (bitboards by piece type: ``kinds[1]`` pawns
        ... ``kinds[6]`` kings) and ``occupied`` (by colour) put on the squares this view
        saw the very pieces it saw there."""
        seen = self.seen
        for side in (0, 1):
            occupied_seen = occupied[side] & seen
            m = self.masks[side]
            if (
                kinds[1] & occupied_seen != m[1]
                or kinds[2] & occupied_seen != m[2]
                or kinds[3] & occupied_seen != m[3]
                or kinds[4] & occupied_seen != m[4]
                or kinds[5] & occupied_seen != m[5]
                or kinds[6] & occupied_seen != m[6]
            ):
                return False
        return True


def captured_counts(captured: Sequence[tuple[bool, int]]) -> tuple[tuple[int, ...], ...]:
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


DIST = _distance_table()
KING_DIST = DIST[chess.KING]


class Sightings:
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
        #: memos of :meth:`reachable`'s parts (a world differs from its neighbours in the
        #: search by one moved piece): the piece moves view ``i`` needs of one kind, by
        #: ``(i, kind, squares of that kind, castling)``; and :meth:`_pawns` by its arguments
        self._kind_need: dict[tuple[int, int, int, bool], int | None] = {}
        self._pawn_need: dict[tuple[int, int, int, int], int | None] = {}
        self.lost: list[int] = []
        for ply in sorted(obs):
            o = obs[ply]
            kinds = []
            for t in PIECE_TYPES:
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
        occupied = board.occupied_co[enemy]
        masks = (
            0,
            board.pawns & occupied,
            board.knights & occupied,
            board.bishops & occupied,
            board.rooks & occupied,
            board.queens & occupied,
            board.kings & occupied,
        )
        castle = board.has_castling_rights(enemy)
        if len(self._kind_need) > 200_000 or len(self._pawn_need) > 200_000:
            self._kind_need.clear()
            self._pawn_need.clear()
        kind_need, pawn_need = self._kind_need, self._pawn_need
        for i, t_ply in enumerate(self.plies):
            if t_ply <= ply:
                continue
            k_pawn = self.cum_pawn[t_ply] - self.cum_pawn[ply]
            k_piece = self.cum_piece[t_ply] - self.cum_piece[ply]
            total_pawn = total_piece = 0
            for kind, squares in self.seen[i]:
                mask = masks[kind]
                if kind == chess.PAWN:
                    captures = self.lost[i] - lost_now
                    pkey = (i, mask, k_pawn, captures)
                    if pkey in pawn_need:
                        need = pawn_need[pkey]
                    else:
                        have = list(chess.scan_forward(mask))
                        need = pawn_need[pkey] = self._pawns(have, squares, k_pawn, captures)
                    if need is None:
                        return False
                    total_pawn += need
                    continue
                key = (i, kind, mask, castle and kind == chess.KING)
                if key in kind_need:
                    steps = kind_need[key]
                else:
                    steps = kind_need[key] = self._steps(kind, mask, squares, castle)
                if steps is not None:
                    total_piece += steps
                    if total_piece > k_piece:
                        return False
            if total_pawn > k_pawn:
                return False
        return True

    @staticmethod
    def _steps(kind: int, mask: int, squares: list[int], castle: bool) -> int | None:
        """The fewest moves that bring pieces of ``kind`` on ``mask`` to every square of
        ``squares`` (on an empty board, each square by its nearest piece); None: the world
        holds fewer such pieces than were seen (a promotion may explain it: not counted)."""
        have = list(chess.scan_forward(mask))
        if len(squares) > len(have):
            return None
        table = DIST[kind]
        total = 0
        for s in squares:
            best = min(table[w][s] for w in have)
            if kind == chess.KING and best == 2 and castle:
                best = 1
            total += best
        return total

    def need(self, board: chess.Board, ply: int, horizon: int = 8) -> float:
        """How far the world's enemy pieces are from where the next ``horizon`` views will
        show them, counting a slider's blocked line as one more move: a move-ordering
        guide (smaller first), not a rule."""
        enemy = self.enemy
        mine = {t: list(chess.scan_forward(board.pieces_mask(t, enemy))) for t in PIECE_TYPES}
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
                table = DIST[kind]
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

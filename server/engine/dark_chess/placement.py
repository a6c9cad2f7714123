"""Dark Chess worlds, sampler 2: the hidden enemy pieces placed on unseen squares of the
current view (see :mod:`server.engine.dark_chess.worlds`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from .observations import DIST, KING_DIST, PIECE_TYPES, NoWorld, Observation
from .rules import DarkBoard, DarkChessState, start
from .views import seat_view

#: a side's pieces at the standard start
_START_COUNT = {
    chess.PAWN: 8,
    chess.KNIGHT: 2,
    chess.BISHOP: 2,
    chess.ROOK: 2,
    chess.QUEEN: 1,
    chess.KING: 1,
}


def sample_placement(
    views: Sequence[Mapping[str, Any]], seat: int, rng: random.Random, *, tries: int = 50
) -> DarkChessState:
    """A world whose view for ``seat`` equals the last view: the enemy pieces not in sight
    (the standard set less the captured and the visible ones) go to unseen squares, each
    kind preferring squares near where the seat last saw such a piece.

    The world's history (``moves``) is synthetic (null moves, then the seat's own last move
    when the view shows it): only its length, the ply, is meaningful, and the repetition history
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
    for t in PIECE_TYPES:
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
        world = dataclasses.replace(world, last_san=view.get("last_san"))
        if _view_equal(world, seat, view):
            return world
    raise NoWorld("no placement of the hidden pieces fits the view")


def _last_seen(
    views: Sequence[Mapping[str, Any]], enemy: chess.Color
) -> dict[int, list[tuple[int, int]]]:
    """For each enemy kind, (square, ply) of its most recent sightings, newest first."""
    out: dict[int, list[tuple[int, int]]] = {t: [] for t in PIECE_TYPES}
    taken: dict[int, int] = {t: 0 for t in PIECE_TYPES}
    for view in reversed(views):
        o = Observation.parse(view)
        for t in PIECE_TYPES:
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
        for t in PIECE_TYPES:
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
        for t in PIECE_TYPES:
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
        if king is not None and t in DIST and t != chess.KING:
            # fear: a hidden piece lined up on our king (through the fog) is likelier
            weights = [
                w * (3.0 if DIST[t][sq][king] == 1 else 1.0)
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
    table = DIST.get(t, KING_DIST)
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
    """A state for a placed board with a synthetic history of ``ply`` moves and the
    captured pieces of the view (their order is unknown and does not matter)."""
    dark = DarkBoard(board.fen(en_passant="fen"))
    dark.ep_square = board.ep_square
    filler = [chess.Move.null()] * ply
    if last is not None and ply:
        filler[-1] = chess.Move.from_uci(last)
    start_fen = dark.fen(en_passant="fen")
    taken = tuple(
        (bool(side), t)
        for side in (1, 0)
        for t in PIECE_TYPES
        for _ in range(captured[side][t - 1])
    )
    return dataclasses.replace(start(dark, start_fen, visibility, tuple(filler)), captured=taken)


def _view_equal(world: DarkChessState, seat: int, view: Mapping[str, Any]) -> bool:
    return seat_view(world, seat) == dict(view)

"""Apocalypse rules: each side's moves and the join of two moves (docs/GAMES.md 1.2-1.3)."""

from __future__ import annotations

from collections.abc import Mapping

from ..base import Seat
from .board import (
    _KNIGHT_TARGETS,
    _RANK,
    BLACK,
    EMPTY,
    FORWARD,
    KNIGHT,
    LAST_RANK,
    PAWN,
    SIZE,
    WHITE,
    owner,
)
from .values import ApocalypseMove, ApocalypseState, Event


def generate(state: ApocalypseState, seat: Seat) -> list[ApocalypseMove]:
    """The moves of ``seat`` on this board (1.2), ignoring whose turn it is (computed once
    per state and seat; callers must not change the list)."""
    cached = state.moves.get(seat)
    if cached is None:
        cached = state.moves[seat] = _generate(state, seat)
    return cached


def _generate(state: ApocalypseState, seat: Seat) -> list[ApocalypseMove]:
    board = state.board
    pawn, knight, enemy = PAWN[seat], KNIGHT[seat], 1 - seat
    last_rank = LAST_RANK[seat]
    stuck = [sq for sq, ch in enumerate(board) if ch == pawn and sq // SIZE == last_rank]
    moves: list[ApocalypseMove] = []
    if stuck:  # forced relocation, 1.2.5
        for src in stuck:
            moves += [
                ApocalypseMove(src, dst)
                for dst, ch in enumerate(board)
                if ch == EMPTY and dst // SIZE != last_rank
            ]
    else:
        for src, ch in enumerate(board):
            if ch == knight:
                moves += [
                    ApocalypseMove(src, dst)
                    for dst in _KNIGHT_TARGETS[src]
                    if owner(board[dst]) != seat
                ]
            elif ch == pawn:
                r, f = divmod(src, SIZE)
                nr = r + FORWARD[seat]
                if not 0 <= nr < SIZE:
                    continue
                for nf in (f - 1, f, f + 1):
                    if not 0 <= nf < SIZE:
                        continue
                    dst = nr * SIZE + nf
                    if (nf == f and board[dst] == EMPTY) or (
                        nf != f and owner(board[dst]) == enemy
                    ):
                        moves.append(ApocalypseMove(src, dst))
    ko = {sq for m in state.last_moves if m is not None for sq in (m.src, m.dst)}
    if ko:
        moves = [m for m in moves if not ko <= {m.src, m.dst}]
    return moves


def _promotes(board: str, seat: Seat, move: ApocalypseMove, other: ApocalypseMove | None) -> bool:
    """Whether ``seat``'s pawn move to its last rank really promotes (1.3 c)."""
    knight = KNIGHT[seat]
    limit = 2 - board.count(knight)
    if other is not None and board[other.dst] == knight and other.dst != move.src:
        limit += 1
    return limit > 0


def join(board: str, moves: Mapping[Seat, ApocalypseMove]) -> tuple[str, tuple[Event, ...]]:
    """Apply one or two simultaneous moves to ``board`` (1.3); return the board and events."""
    new = list(board)
    events: list[Event] = []
    landing: dict[Seat, str] = {}  # the piece each mover puts down
    promotions: list[Event] = []
    for seat, move in sorted(moves.items()):
        piece = board[move.src]
        landing[seat] = piece
        if piece == PAWN[seat] and move.dst // SIZE == LAST_RANK[seat]:
            if _promotes(board, seat, move, moves.get(1 - seat)):
                landing[seat] = KNIGHT[seat]
                promotions.append(Event("promotion", move.dst, seat=seat))
            else:
                promotions.append(Event("promotion_refused", move.dst, seat=seat))
    targets = {move.dst for move in moves.values()}
    if len(moves) == 2 and len(targets) == 1:  # collision on one square
        a, b = moves[WHITE], moves[BLACK]
        x, y = board[a.src], board[b.src]
        new[a.src] = new[b.src] = EMPTY
        if _RANK[x] > _RANK[y]:
            new[a.dst], removed = landing[WHITE], y
        elif _RANK[x] < _RANK[y]:
            new[a.dst], removed = landing[BLACK], x
        else:
            new[a.dst], removed = EMPTY, x + y
        events.append(Event("collision", a.dst, removed))
        return "".join(new), tuple(events)
    sources = {move.src for move in moves.values()}
    for _seat, move in sorted(moves.items()):
        victim = board[move.dst]
        if victim != EMPTY:
            kind = "evaded" if move.dst in sources else "capture"
            events.append(Event(kind, move.dst, victim))
    for seat, move in moves.items():
        new[move.dst] = landing[seat]
    for move in moves.values():
        if move.src not in targets:
            new[move.src] = EMPTY
    return "".join(new), tuple(events + promotions)

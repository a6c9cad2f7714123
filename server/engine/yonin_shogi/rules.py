"""Yonin Shogi rules: the legal moves, their effect and the end (docs/GAMES.md 5.5)."""

from __future__ import annotations

from dataclasses import replace

from ..base import Outcome
from .board import (
    DEMOTES,
    HAND_KINDS,
    N_SQUARES,
    PROMOTES,
    RAYS,
    STEP_TO,
    depth,
    in_zone,
    line,
)
from .values import DROPS, PASS, YoninMove, YoninState

LAST = 8  # the depth of a seat's last line


def must_promote(seat: int, kind: str, dst: int) -> bool:
    """A Pawn on its last line could never move again: it must promote."""
    return kind == "P" and depth(seat, dst) == LAST


def may_promote(seat: int, kind: str, src: int, dst: int) -> bool:
    """A Silver, Rook or Pawn whose move starts or ends in the seat's promotion zone."""
    return kind in PROMOTES and (in_zone(seat, src) or in_zone(seat, dst))


def targets(board: tuple[str, ...], seat: int, kind: str, src: int) -> list[int]:
    """The squares the ``kind`` of ``seat`` on ``src`` reaches: its steps, and its slides up to
    and including the first occupied square; never a square of its own."""
    mine = str(seat)
    out = [sq for sq in STEP_TO[seat][kind][src] if not board[sq].startswith(mine)]
    for ray in RAYS[seat][kind][src]:
        for sq in ray:
            cell = board[sq]
            if not cell:
                out.append(sq)
                continue
            if cell[0] != mine:
                out.append(sq)
            break
    return out


def board_moves(board: tuple[str, ...], seat: int) -> list[YoninMove]:
    """The moves of ``seat``'s pieces on the board, with their promotion choices."""
    mine = str(seat)
    out = []
    for src, cell in enumerate(board):
        if not cell or cell[0] != mine:
            continue
        kind = cell[1:]
        for dst in targets(board, seat, kind, src):
            capture = bool(board[dst])
            if may_promote(seat, kind, src, dst):
                out.append(YoninMove(src, dst, capture, True))
                if must_promote(seat, kind, dst):
                    continue
            out.append(YoninMove(src, dst, capture))
    return out


def pawn_lines(board: tuple[str, ...], seat: int) -> frozenset[int]:
    """The forward lines that hold an unpromoted Pawn of ``seat``."""
    pawn = f"{seat}P"
    return frozenset(line(seat, sq) for sq, c in enumerate(board) if c == pawn)


def drop_ok(board: tuple[str, ...], seat: int, kind: str, dst: int, lines: frozenset[int]) -> bool:
    """A drop on an empty square; a Pawn not on the seat's last line, nor on a forward line
    that holds an unpromoted Pawn of the seat already (``lines``: :func:`pawn_lines`)."""
    if board[dst]:
        return False
    if kind != "P":
        return True
    return depth(seat, dst) != LAST and line(seat, dst) not in lines


def drops(state: YoninState, seat: int) -> list[YoninMove]:
    board, hand = state.board, state.hands[seat]
    if not any(hand):
        return []
    lines = pawn_lines(board, seat)
    out: list[YoninMove] = []
    for kind, count in zip(HAND_KINDS, hand, strict=True):
        if count:
            made = DROPS[kind]
            out.extend(
                made[dst] for dst in range(N_SQUARES) if drop_ok(board, seat, kind, dst, lines)
            )
    return out


def generate(state: YoninState) -> list[YoninMove]:
    """The moves of the seat to move: board moves, then drops; a pass when it has none."""
    seat = state.to_move
    moves = board_moves(state.board, seat) + drops(state, seat)
    return moves or [PASS]


def apply(state: YoninState, move: YoninMove) -> YoninState:
    """The state after ``move`` (assumed legal). A taken piece goes to the taker's hand,
    demoted; taking a King ends the game (:func:`end`)."""
    seat = state.to_move
    nxt = (seat + 1) % 4
    if move.is_pass:
        return replace(state, to_move=nxt, ply=state.ply + 1, last_move=move)
    cells = list(state.board)
    hands = list(state.hands)
    king_taken = state.king_taken
    hand = list(hands[seat])
    if move.src is None:
        assert move.drop is not None
        hand[HAND_KINDS.index(move.drop)] -= 1
        cells[move.dst] = f"{seat}{move.drop}"
    else:
        taken = cells[move.dst]
        if taken:
            kind = taken[1:]
            if kind == "K":
                king_taken = (seat, int(taken[0]))
            else:
                hand[HAND_KINDS.index(DEMOTES.get(kind, kind))] += 1
        kind = cells[move.src][1:]
        cells[move.dst] = f"{seat}{PROMOTES[kind] if move.promote else kind}"
        cells[move.src] = ""
    p, s, g, r = hand
    hands[seat] = (p, s, g, r)
    return replace(
        state,
        board=tuple(cells),
        hands=(hands[0], hands[1], hands[2], hands[3]),
        to_move=nxt,
        ply=state.ply + 1,
        last_move=move,
        king_taken=king_taken,
    )


#: the ranks when a King is taken: the taker first, the King's owner last, the others 2nd
def king_ranks(taker: int, loser: int) -> tuple[int, ...]:
    return tuple(1 if s == taker else 4 if s == loser else 2 for s in range(4))


def end(state: YoninState) -> Outcome | None:
    """The end: the first King taken (``king_captured``: the taker 1st, the King's owner 4th,
    the other two share 2nd); else ``ply_limit`` plies played (``ply_limit``: all share 1st)."""
    if state.king_taken is not None:
        return Outcome.from_ranks(king_ranks(*state.king_taken), "king_captured")
    if state.ply >= state.ply_limit:
        return Outcome.draw(4, "ply_limit")
    return None


def king_attacked(board: tuple[str, ...], seat: int) -> bool:
    """Whether a piece of another seat reaches ``seat``'s King (``False`` without a King)."""
    king = f"{seat}K"
    if king not in board:
        return False
    sq = board.index(king)
    for src in STEP_TO[0]["K"][sq]:  # the eight neighbours: a step from there
        cell = board[src]
        if cell and cell[0] != king[0] and sq in STEP_TO[int(cell[0])][cell[1:]][src]:
            return True
    for ray in RAYS[0]["R"][sq]:  # the four lines: the first piece on each, if it slides
        for src in ray:
            cell = board[src]
            if cell:
                if cell[0] != king[0] and cell[1:] in ("R", "+R"):
                    return True
                break
    return False

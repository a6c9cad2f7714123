"""XiangQi rules: the legal moves, their effect and the end of the game (docs/GAMES.md 5.6)."""

from __future__ import annotations

from .. import draws, turns
from ..base import Outcome
from ..grid import EMPTY
from .board import (
    ADVISOR,
    ELEPHANT,
    GENERAL,
    HORSE,
    HORSE_ATTACKERS,
    N_FILES,
    RAYS,
    RED,
    SOLDIER,
    SOLDIER_ATTACKERS,
)
from .values import XiangqiMove, XiangqiState, position_key

_OWN = (str.isupper, str.islower)
#: the squares whose piece may be the leg of a horse attacking each square
HORSE_LEGS = tuple(frozenset(leg for _src, leg in pairs) for pairs in HORSE_ATTACKERS)


def attacked(board: str, sq: int, seat: int) -> bool:
    """Whether the enemies of ``seat`` attack ``sq`` (where ``seat``'s general stands): a
    chariot, or the enemy general on the same open file (the flying general, 5.6.4), with
    nothing between; a cannon over exactly one screen; a horse whose leg is free; a soldier."""
    if seat == RED:
        chariot, cannon, horse, soldier, general = "r", "c", "n", "p", "k"
    else:
        chariot, cannon, horse, soldier, general = "R", "C", "N", "P", "K"
    for ray in RAYS[sq]:
        screened = False
        for t in ray:
            q = board[t]
            if q == EMPTY:
                continue
            if screened:
                if q == cannon:
                    return True
                break
            if q in (chariot, general):
                return True
            screened = True
    for src, leg in HORSE_ATTACKERS[sq]:
        if board[src] == horse and board[leg] == EMPTY:
            return True
    return any(board[src] == soldier for src in SOLDIER_ATTACKERS[seat][sq])


def in_check(board: str, seat: int) -> bool:
    """Whether ``seat``'s general is attacked (or faces the other general)."""
    return attacked(board, board.index("K" if seat == RED else "k"), seat)


def pseudo_moves(board: str, me: int) -> list[XiangqiMove]:
    """The moves of ``me`` by the pieces' movement (5.6.3), before the general's safety."""
    own = _OWN[me]
    moves: list[XiangqiMove] = []
    add = moves.append

    def step(src: int, dst: int) -> None:
        q = board[dst]
        if q == EMPTY:
            add(XiangqiMove(src, dst))
        elif not own(q):
            add(XiangqiMove(src, dst, True))

    for src, p in enumerate(board):
        if p == EMPTY or not own(p):
            continue
        kind = p.lower()
        if kind == "r":
            for ray in RAYS[src]:
                for t in ray:
                    q = board[t]
                    if q == EMPTY:
                        add(XiangqiMove(src, t))
                        continue
                    if not own(q):
                        add(XiangqiMove(src, t, True))
                    break
        elif kind == "c":
            for ray in RAYS[src]:
                screened = False
                for t in ray:
                    q = board[t]
                    if not screened:
                        if q == EMPTY:
                            add(XiangqiMove(src, t))
                        else:
                            screened = True
                    elif q != EMPTY:
                        if not own(q):
                            add(XiangqiMove(src, t, True))
                        break
        elif kind == "n":
            for leg, t in HORSE[src]:
                if board[leg] == EMPTY:
                    step(src, t)
        elif kind == "b":
            for eye, t in ELEPHANT[me][src]:
                if board[eye] == EMPTY:
                    step(src, t)
        else:
            table = ADVISOR if kind == "a" else GENERAL if kind == "k" else SOLDIER
            for t in table[me][src]:
                step(src, t)
    return moves


def after(board: str, move: XiangqiMove) -> str:
    """The board after ``move``."""
    src, dst = move.src, move.dst
    piece = board[src]
    if src < dst:
        return board[:src] + EMPTY + board[src + 1 : dst] + piece + board[dst + 1 :]
    return board[:dst] + piece + board[dst + 1 : src] + EMPTY + board[src + 1 :]


def legal(board: str, me: int) -> list[XiangqiMove]:
    """The legal moves: those that leave ``me``'s general neither attacked nor facing the
    other general (5.6.4). Out of check, a move by another piece can only expose the general
    if it leaves or enters the general's file or rank (lines of chariots, cannons and the
    other general) or leaves a leg of a horse that could reach it; the others need no test."""
    king = board.index("K" if me == RED else "k")
    pseudo = pseudo_moves(board, me)
    if attacked(board, king, me):
        return [m for m in pseudo if not attacked(after(board, m), _dst_king(m, king), me)]
    kf, kr = king % N_FILES, king // N_FILES
    legs = HORSE_LEGS[king]
    out = []
    for move in pseudo:
        src, dst = move.src, move.dst
        if (
            src == king
            or src % N_FILES == kf
            or src // N_FILES == kr
            or dst % N_FILES == kf
            or dst // N_FILES == kr
            or src in legs
        ) and attacked(after(board, move), _dst_king(move, king), me):
            continue
        out.append(move)
    return out


def _dst_king(move: XiangqiMove, king: int) -> int:
    return move.dst if move.src == king else king


def generate(state: XiangqiState) -> list[XiangqiMove]:
    """The legal moves of the side to move, kept with the state once generated."""
    moves = state.cache
    if moves is None:
        moves = legal(state.board, state.to_move)
        object.__setattr__(state, "cache", moves)
    return moves


def apply(state: XiangqiState, move: XiangqiMove) -> XiangqiState:
    """The state after ``move`` (assumed legal)."""
    board = after(state.board, move)
    to_move = 1 - state.to_move
    key = position_key(board, to_move, in_check(board, to_move))
    return turns.after(
        state, move, board=board, cache=None, **draws.after(state, key, move.capture)
    )


def perpetual_checker(history: tuple[str, ...]) -> int | None:
    """If the last position has occurred three times, the seat that gave check with every
    one of its moves since the first of the three (5.6.5), else ``None``; ``-1`` when the
    position is threefold without a lone perpetual checker."""
    last = history[-1]
    if history.count(last) < 3:
        return None
    seen = [i for i, key in enumerate(history) if key == last]
    if len(seen) < 3:
        return None
    span = history[seen[-3] + 1 :]
    checking = []
    for seat in (0, 1):
        # seat's moves lead to the positions where the other side is to move
        mine = [key for key in span if key[-2] == str(1 - seat)]
        checking.append(all(key.endswith("+") for key in mine))
    if checking[0] != checking[1]:
        return 0 if checking[0] else 1
    return -1


def outcome(state: XiangqiState) -> Outcome | None:
    """The end of the game (5.6.5), checked in this order: the side to move with no legal
    move loses (checkmate or stalemate); a position for the third time since the last capture
    loses for a lone perpetual checker, else draws; ``draw_plies`` plies without a capture
    draw."""
    if not generate(state):
        reason = "checkmate" if state.in_check else "stalemate"
        return Outcome.win(1 - state.to_move, 2, reason)
    if len(state.history) >= 9:  # a threefold cycle takes eight plies at least
        checker = perpetual_checker(state.history)
        if checker is not None:
            if checker >= 0:
                return Outcome.win(1 - checker, 2, "perpetual_check")
            return Outcome.draw(2, "repetition")
    return draws.drawn(state, repetition=False)

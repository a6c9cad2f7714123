"""Ming-Mang rules: the slides, the lines they close, the ko rule and the end (GAMES.md 5.4)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from .. import draws
from ..base import Outcome
from .board import EMPTY, STONES, Geometry, geometry
from .values import MingMangMove, MingMangState


def converted_by(board: str, geo: Geometry, dst: int, seat: int) -> list[int]:
    """The enemy stones a stone of ``seat`` arriving on ``dst`` turns (5.4.3): along each of
    the four rays from ``dst``, an unbroken line of enemy stones closed by a stone of
    ``seat``. Only straight lines from the moved stone count (no corner, no chain).

    ``board`` may still show the stone on its start point: that point is never inside a
    closed line (the ray back along the slide meets it first, or an empty point)."""
    mine, theirs = STONES[seat], STONES[1 - seat]
    out: list[int] = []
    for ray in geo.rays[dst]:
        if not ray or board[ray[0]] != theirs:
            continue  # the usual case: no enemy stone next to the moved one that way
        for k in range(1, len(ray)):
            ch = board[ray[k]]
            if ch != theirs:
                if ch == mine:
                    out.extend(ray[:k])
                break
    return out


def slides(board: str, geo: Geometry, seat: int) -> Iterator[tuple[int, int]]:
    """Every ``(src, dst)`` slide of ``seat``: a stone moves like a rook over empty points."""
    mine = STONES[seat]
    for src, ch in enumerate(board):
        if ch != mine:
            continue
        for ray in geo.rays[src]:
            for dst in ray:
                if board[dst] != EMPTY:
                    break
                yield src, dst


_RUN = re.compile(r"\.+")


def mobility(board: str, size: int) -> list[int]:
    """Per seat, the number of its slides, ko aside (a fast count for the evaluation: each
    run of empty points on a rank or file counts once for each stone that ends it)."""
    out = {"b": 0, "w": 0, EMPTY: 0}
    lines = [board[r * size : (r + 1) * size] for r in range(size)]
    lines += [board[f::size] for f in range(size)]
    for line in lines:
        for run in _RUN.finditer(line):
            start, stop = run.span()
            if start:
                out[line[start - 1]] += stop - start
            if stop < size:
                out[line[stop]] += stop - start
    return [out[s] for s in STONES]


def _key_after(state: MingMangState, geo: Geometry, src: int, dst: int, turned: list[int]) -> int:
    """The Zobrist key of the position after a slide that turns ``turned``."""
    seat = state.to_move
    z = geo.zobrist
    key = state.history[-1] ^ geo.side ^ z[src][seat] ^ z[dst][seat]
    for sq in turned:
        key ^= z[sq][0] ^ z[sq][1]
    return key


def legal(state: MingMangState) -> list[tuple[int, int]]:
    """The slides of the seat to move that do not recreate an earlier position of the game
    (the ko rule, 5.4.4), cached with the state (with the number of stones each turns)."""
    got: list[tuple[int, int]] | None = state.cache.get("legal")
    if got is None:
        geo = geometry(state.size)
        seen = frozenset(state.history)
        got, turns = [], {}
        for src, dst in slides(state.board, geo, state.to_move):
            turned = converted_by(state.board, geo, dst, state.to_move)
            if _key_after(state, geo, src, dst, turned) not in seen:
                got.append((src, dst))
                turns[src, dst] = len(turned)
        state.cache["legal"], state.cache["turns"] = got, turns
    return got


def turns(state: MingMangState, move: MingMangMove) -> int:
    """How many stones ``move`` turns (from the cache when the moves were generated)."""
    geo = geometry(state.size)
    src, dst = geo.index[move.src], geo.index[move.dst]
    cached: dict[tuple[int, int], int] | None = state.cache.get("turns")
    if cached is not None and (src, dst) in cached:
        return cached[src, dst]
    return len(converted_by(state.board, geo, dst, state.to_move))


def generate(state: MingMangState) -> list[MingMangMove]:
    """The legal moves of the seat to move (whether or not the game is already over)."""
    moves: list[MingMangMove] | None = state.cache.get("moves")
    if moves is None:
        names = geometry(state.size).names
        moves = [MingMangMove(names[src], names[dst]) for src, dst in legal(state)]
        state.cache["moves"] = moves
    return list(moves)


def is_legal(state: MingMangState, move: MingMangMove) -> bool:
    """Whether ``move`` is legal now, without generating every move."""
    geo = geometry(state.size)
    src, dst = geo.index.get(move.src), geo.index.get(move.dst)
    if src is None or dst is None or state.board[src] != STONES[state.to_move]:
        return False
    cached: dict[tuple[int, int], int] | None = state.cache.get("turns")
    if cached is not None:
        return (src, dst) in cached
    for ray in geo.rays[src]:
        if dst in ray:
            path = ray[: ray.index(dst) + 1]
            if any(state.board[sq] != EMPTY for sq in path):
                return False
            turned = converted_by(state.board, geo, dst, state.to_move)
            return _key_after(state, geo, src, dst, turned) not in state.history
    return False


def apply(state: MingMangState, move: MingMangMove) -> MingMangState:
    """The state after ``move`` (assumed legal): the stone slides, the lines it closes turn."""
    geo = geometry(state.size)
    src, dst = geo.index[move.src], geo.index[move.dst]
    seat = state.to_move
    turned = converted_by(state.board, geo, dst, seat)
    key = _key_after(state, geo, src, dst, turned)
    cells = list(state.board)
    cells[src], cells[dst] = EMPTY, STONES[seat]
    for sq in turned:
        cells[sq] = STONES[seat]
    return replace(
        state,
        board="".join(cells),
        to_move=1 - seat,
        quiet=0 if turned else state.quiet + 1,
        history=(*state.history, key),
        ply=state.ply + 1,
        last_move=move,
        converted=tuple(sorted(geo.names[sq] for sq in turned)),
        cache={},
    )


def end(state: MingMangState) -> Outcome | None:
    """The end of the game, checked in this order (5.4.5):

    * the side to move has no stone left, all turned (``all_converted``): it has lost;
    * the side to move has no legal move (``no_moves``): it has lost;
    * ``draw_plies`` plies in a row without a conversion draw (``no_progress``);
    * ``max_plies`` plies in all draw (``move_limit``).
    """
    if "end" not in state.cache:
        state.cache["end"] = _end(state)
    out: Outcome | None = state.cache["end"]
    return out


def _end(state: MingMangState) -> Outcome | None:
    seat = state.to_move
    if STONES[seat] not in state.board:
        return Outcome.win(1 - seat, 2, "all_converted")
    if not _has_move(state):
        return Outcome.win(1 - seat, 2, "no_moves")
    if drawn := draws.drawn(state, repetition=False):
        return drawn
    if state.max_plies and state.ply >= state.max_plies:
        return Outcome.draw(2, "move_limit")
    return None


def _has_move(state: MingMangState) -> bool:
    """Whether the seat to move has a legal move (stops at the first one found)."""
    got = state.cache.get("legal")
    if got is not None:
        return bool(got)
    geo = geometry(state.size)
    seen = frozenset(state.history)
    for src, dst in slides(state.board, geo, state.to_move):
        turned = converted_by(state.board, geo, dst, state.to_move)
        if _key_after(state, geo, src, dst, turned) not in seen:
            return True
    return False

"""Yonin Shogi for a max^n search: who takes a King next, and what a win is worth.

In Yonin Shogi the first King taken ends the game and only its taker wins; the other two
non-losers share second place. A search that scores outcomes by rank (as :mod:`.maxn` does
by default) finds a game that ends with someone *else* taking a King about as good as one
that goes on, and plays for second place: our first max^n was first in 10 of 60 games
against three greedy bots (docs/results/yonin_shogi_hard_vs_3greedy_n60.txt). This
evaluator (used by the search only; the ``greedy`` bot keeps the game's ``evaluate`` hook)
changes three things (measured: first in 36 of 60 such games,
docs/results/yonin_shogi_top_vs_greedy.txt):

* utilities: a win is worth :data:`WIN`, a shared second place :data:`MIDDLE`, losing the
  King :data:`LOSS`; a game still going is worth :data:`GOING` give or take the material
  (:func:`going`), more than a second place, so the search plays to be the taker;
* the leaf is resolved statically (:func:`resolve`): from the seat to move on, in turn
  order, the first seat whose piece reaches another seat's King takes it (a seat whose own
  King is reached when its turn comes steps away first, if it has a safe square to step
  to: else it is stuck, a mate), so a King left hanging at the horizon counts as taken by
  whoever comes first, not as a material detail;
* move ordering (the others' ``opponent_n`` best moves): taking a King, then escapes when
  the mover's King is reached, then moves that reach a King, captures and promotions.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from server.engine import Game, Outcome
from server.engine.yonin_shogi.board import RAYS, STEP_TO, depth
from server.engine.yonin_shogi.game import HAND_VALUES, VALUES
from server.engine.yonin_shogi.values import YoninMove, YoninState

from .evaluator import HookEvaluator

WIN, MIDDLE, LOSS = 1.0, 0.2, 0.0
GOING = 0.3  # a game still going, before material: more than a second place
PER_PAWN = 0.01  # utility per Pawn of material ahead of the mean of the four
REACHED = 0.05  # a King that another seat's piece reaches (it must step away)
CORNERED = 0.2  # ... with no safe square to step to (half of it with one)
ADVANCED = 0.01  # per line a King has left its home edge
NEAR = 0.01  # per piece within two squares of another seat's King
RESOLVED = 0.95  # a King taken at the horizon by the static resolution, not yet on the board

_SLIDERS = ("R", "+R")
#: the squares within two steps of each square (where :func:`pressure` counts pieces)
WINDOW = tuple(
    tuple(t for t in range(81) if abs(t % 9 - sq % 9) <= 2 and abs(t // 9 - sq // 9) <= 2)
    for sq in range(81)
)
#: FROM[seat][kind][sq]: the squares from which ``seat``'s ``kind`` steps onto ``sq``
FROM = tuple(
    {
        k: tuple(frozenset(s for s in range(81) if sq in STEP_TO[seat][k][s]) for sq in range(81))
        for k in STEP_TO[seat]
    }
    for seat in range(4)
)


def attacks(board: tuple[str, ...], sq: int) -> dict[int, int]:
    """The squares of the pieces that reach ``sq`` (a step or a rook line), with their
    seats."""
    out: dict[int, int] = {}
    for src in STEP_TO[0]["K"][sq]:
        cell = board[src]
        if cell and sq in STEP_TO[int(cell[0])][cell[1:]][src]:
            out[src] = int(cell[0])
    for ray in RAYS[0]["R"][sq]:
        for src in ray:
            cell = board[src]
            if cell:
                if cell[1:] in _SLIDERS:
                    out[src] = int(cell[0])
                break
    return out


def attackers(board: tuple[str, ...], sq: int) -> set[int]:
    """The seats with a piece that reaches ``sq``."""
    return set(attacks(board, sq).values())


def king_squares(board: tuple[str, ...]) -> list[int]:
    """Each seat's King square (-1 if it has none)."""
    return [board.index(k) if k in board else -1 for k in ("0K", "1K", "2K", "3K")]


def reached_by(board: tuple[str, ...], kings: list[int]) -> list[set[int]]:
    """Per seat, the other seats whose pieces reach its King."""
    return [attackers(board, sq) - {s} if sq >= 0 else set() for s, sq in enumerate(kings)]


def resolve(
    board: tuple[str, ...], to_move: int, reached: list[set[int]] | None = None
) -> tuple[int, int] | None:
    """``(taker, loser)`` if, from ``to_move`` on in turn order, some seat's piece reaches
    another seat's King before that King's owner moves, or after it when that King had
    nowhere safe to step (:func:`safe_squares`); a seat whose King is reached when its own
    turn comes and has a safe square steps away (``None``: no King falls this round).
    ``reached``: :func:`reached_by`, if known."""
    kings = king_squares(board)
    if reached is None:
        reached = reached_by(board, kings)
    moved: set[int] = set()
    for k in range(4):
        s = (to_move + k) % 4
        for x in range(4):
            if x != s and x not in moved and s in reached[x]:
                return s, x
        if not reached[s] or safe_squares(board, s, kings[s]):
            moved.add(s)  # nothing reaches its King, or it steps away; else it is stuck
    return None


def safe_squares(board: tuple[str, ...], seat: int, sq: int, enough: int = 1) -> int:
    """How many squares ``seat``'s King on ``sq`` can step to (empty or another seat's
    piece) that no other seat's piece reaches, counting up to ``enough``. (Taking the
    piece that reaches it with another piece, or putting one in between, is not counted:
    at a horizon a King with nowhere to step is taken as stuck.)"""
    mine = str(seat)
    safe = 0
    for to in STEP_TO[seat]["K"][sq]:
        cell = board[to]
        if not cell.startswith(mine) and not attackers(board, to) - {seat}:
            safe += 1
            if safe >= enough:
                break
    return safe


def utilities(taker: int, loser: int, weight: float = 1.0) -> list[float]:
    out = [MIDDLE] * 4
    out[taker], out[loser] = WIN, LOSS
    return [weight * v for v in out]


def material(state: YoninState) -> list[float]:
    out = [sum(v * n for v, n in zip(HAND_VALUES, state.hands[s], strict=True)) for s in range(4)]
    for cell in state.board:
        if cell:
            out[int(cell[0])] += VALUES[cell[1:]]
    return out


def exposure(board: tuple[str, ...], seat: int, sq: int, reached: bool | None = None) -> float:
    """How much ``seat``'s King on ``sq`` is in danger: nothing while no other seat reaches
    it; when one does (it will have to step away), :data:`REACHED`, and more when it has one
    safe square to go to or none (two seats, each bringing a piece, mate a King: the
    taker is then whoever comes first); plus :data:`ADVANCED` a line it has left home.
    ``reached``: whether another seat reaches it, if known."""
    away = ADVANCED * depth(seat, sq)
    if reached is None:
        reached = bool(attackers(board, sq) - {seat})
    if not reached:
        return away
    safe = safe_squares(board, seat, sq, 2)
    return away + REACHED + (0.0 if safe > 1 else CORNERED if safe == 0 else CORNERED / 2)


def going(
    state: YoninState, kings: list[int] | None = None, reached: list[set[int]] | None = None
) -> list[float]:
    """A game still going: :data:`GOING` plus :data:`PER_PAWN` a Pawn ahead of the mean and
    the :func:`pressure`, less the King's :func:`exposure`."""
    board = state.board
    m = material(state)
    mean = sum(m) / 4
    kings = king_squares(board) if kings is None else kings
    reached = reached_by(board, kings) if reached is None else reached
    near = pressure(board, kings)
    return [
        min(
            0.9,
            max(
                0.02,
                GOING
                + PER_PAWN * (x - mean)
                + near[s]
                - exposure(board, s, kings[s], bool(reached[s])),
            ),
        )
        for s, x in enumerate(m)
    ]


def pressure(board: tuple[str, ...], kings: list[int]) -> list[float]:
    """Per seat: :data:`NEAR` for each of its pieces within two squares of another seat's
    King (where a King left hanging is taken), less as much for each other seat's piece
    within two squares of its own."""
    out = [0.0] * 4
    for x, k in enumerate(kings):
        if k < 0:
            continue
        for sq in WINDOW[k]:
            cell = board[sq]
            if cell and cell[0] != "0123"[x]:
                out[int(cell[0])] += NEAR
                out[x] -= NEAR
    return out


def checks(
    board: tuple[str, ...], seat: int, kings: list[int]
) -> tuple[dict[str, set[int]], set[int]]:
    """Where ``seat``'s pieces would reach another seat's King: per kind, the squares it
    steps onto one from; and the squares on open rook lines to one (up to the first piece)."""
    others = [k for s, k in enumerate(kings) if s != seat and k >= 0]
    steps = {kind: set().union(*(FROM[seat][kind][k] for k in others)) for kind in FROM[seat]}
    lines: set[int] = set()
    for k in others:
        for ray in RAYS[0]["R"][k]:
            for t in ray:
                lines.add(t)
                if board[t]:
                    break
    return steps, lines


class YoninEvaluator(HookEvaluator):
    """The game's hooks, with a search's utilities, leaf and move order (module docstring)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game, scale=6.0, prior_scale=3.0)
        self._context: Any = None

    def final(self, outcome: Outcome) -> list[float]:
        """The utilities of a finished game (all share first at the ply limit: a draw)."""
        if outcome.reason == "king_captured":
            return [WIN if r == 1 else LOSS if r == 4 else MIDDLE for r in outcome.ranks]
        return [MIDDLE] * 4

    def leaf(self, state: YoninState, seat: int) -> list[float]:
        kings = king_squares(state.board)
        reached = reached_by(state.board, kings)
        taken = resolve(state.board, state.to_move, reached)
        if taken is not None:
            return utilities(*taken, RESOLVED)
        return going(state, kings, reached)

    def turn_to(self, state: YoninState, seat: int) -> YoninState:
        """The position with ``seat`` to move (Best-Reply Search plays replies out of turn,
        :mod:`.brs`)."""
        return dataclasses.replace(state, to_move=seat)

    def heuristic(self, state: YoninState, seat: int, move: YoninMove) -> float:
        board = state.board
        ctx = self._context
        if ctx is None or ctx[0] is not board or ctx[1] != seat:  # once a position
            kings = king_squares(board)
            mine = kings[seat]
            found = attacks(board, mine) if mine >= 0 else {}
            reached = {sq for sq, s in found.items() if s != seat}
            ctx = self._context = (board, seat, kings, reached, *checks(board, seat, kings))
        _, _, kings, reached, steps, lines = ctx
        if move.is_pass:
            return 0.0
        if move.src is None:
            assert move.drop is not None
            kind, value = move.drop, 0.5
        else:
            taken = board[move.dst]
            if taken and taken[1] == "K":
                return 1000.0
            kind = board[move.src][1:]
            value = VALUES[taken[1:]] if taken else 0.0
            if move.promote:
                value += VALUES["+" + kind] - VALUES[kind]
                kind = "+" + kind
            if reached and (move.src == kings[seat] or move.dst in reached):
                value += 50.0  # the King steps away, or takes a piece that reaches it
        if move.dst in steps[kind] or (kind in _SLIDERS and move.dst in lines):
            value += 4.0  # it will reach a King
        return value


__all__ = [
    "YoninEvaluator",
    "attackers",
    "attacks",
    "checks",
    "exposure",
    "going",
    "king_squares",
    "pressure",
    "reached_by",
    "resolve",
    "safe_squares",
]

"""The Ming-Mang game: options, views with the board description, bot hooks (the turns and
snapshots: :class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import isqrt
from typing import Any

from .. import draws, grid, grid_views
from ..base import Json, Option, Seat
from ..turns import TurnGame
from .board import (
    EMPTY,
    SEAT_NAMES,
    SIZES,
    STONES,
    board_key,
    board_layout,
    geometry,
    layout_board,
    parse_square,
    start_board,
)
from .rules import apply, end, generate, is_legal, mobility, turns
from .values import MingMangMove, MingMangState, key_text

REASONS = {
    "all_converted": "every stone turned",
    "no_moves": "no legal move",
    "no_progress": "no conversion for too long",
    "move_limit": "the move limit reached",
}
#: evaluate: a stone is worth 1, a corner stone 1 + CORNER, a slide MOBILITY (on boards of
#: up to MOBILITY_SIZE lines)
CORNER = 0.5
MOBILITY = 0.02
MOBILITY_SIZE = 9
#: move_heuristic per stone turned
TURN_PRIOR = 0.1


class MingMang(TurnGame[MingMangState, MingMangMove]):
    name = "ming_mang"
    title = "Ming-Mang"
    description = (
        "Tibetan stone game: stones slide like rooks; close a line of enemy stones between "
        "the stone you moved and another of yours and they turn to your colour. Turn them "
        "all, or leave your opponent no move."
    )
    how_to_play = (
        "Black and White start with their stones along two sides of the board. On your turn "
        "slide one stone like a rook: any distance in a straight line over empty points.",
        "A line of enemy stones closed between the stone you moved and another of your own, in "
        "a straight line from the moved stone, turns to your colour. A stone may move in "
        "between two enemy stones safely.",
        "No move may bring back a position the game has already had.",
        "Turn all your opponent's stones, or leave them no move, to win. Too long without a "
        "stone turned, or too long a game (see the options), is a draw.",
    )
    seat_names = SEAT_NAMES
    play_draws = False
    public_moves = True
    #: evaluate is in stones (a few to a few dozen); the heuristic is a tenth of the stones
    #: turned, so a prior doubles per stone turned
    eval_scales = (3.0, TURN_PRIOR)
    options = {
        "size": Option("int", 9, "Lines each way: 8, 9 or 17 (the traditional board)", SIZES),
        "draw_plies": draws.progress_option(100, "a conversion"),
        "max_plies": Option(
            "int", 400, "Draw after this many plies in all (0: never)", minimum=0, maximum=5000
        ),
    }

    state_type, move_type = MingMangState, MingMangMove
    snapshot_first = ("size",)
    #: the board as its rows; the ko keys as hex, one string in a snapshot (a list in a view)
    codecs = {
        "board": (lambda b: board_layout(b, isqrt(len(b))), lambda t: layout_board(str(t))),
        "history": (
            lambda keys: " ".join(key_text(k) for k in keys),
            lambda keys: tuple(int(k, 16) for k in _keys(keys)),
        ),
    }
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(end)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> MingMangState:
        opts = self.check_options(options)
        return position(board_layout(start_board(opts["size"]), opts["size"]), options=opts)

    def is_legal(self, state: MingMangState, seat: Seat, move: MingMangMove) -> bool:
        return seat in self.to_act(state) and is_legal(state, move)

    def parse_move(self, state: MingMangState, seat: Seat, text: str) -> MingMangMove:
        move = MingMangMove.from_text(text)
        parse_square(move.src, state.size)
        parse_square(move.dst, state.size)
        return move

    def view(self, state: MingMangState, seat: Seat | None) -> Json:
        """The whole position, the same for every seat and spectators: the board, the
        counters and the keys of every position so far (what the ko rule compares)."""
        last = state.last_move
        return {
            "size": state.size,
            "draw_plies": state.draw_plies,
            "max_plies": state.max_plies,
            "board": board_layout(state.board, state.size),
            "grid": self._grid(state),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "stones": [state.board.count(s) for s in STONES],
            "quiet": state.quiet,
            "last_move": None if last is None else str(last),
            "converted": list(state.converted),
            "history": [key_text(k) for k in state.history],
        }

    def _grid(self, state: MingMangState) -> Json:
        names = geometry(state.size).names
        pieces = {
            names[sq]: dict(grid_views.STONES[STONES.index(ch)])
            for sq, ch in enumerate(state.board)
            if ch != EMPTY
        }
        last = state.last_move
        outcome = end(state)
        counts = " ".join(f"{SEAT_NAMES[s]} {state.board.count(STONES[s])}" for s in (0, 1))
        status = grid_views.status(SEAT_NAMES, state.to_move, outcome, REASONS, loser_has=True)
        if outcome is None or outcome.winner is None:
            status += f" ({counts})"
        return grid.describe(
            files=state.size,
            ranks=state.size,
            style="points",
            seats=grid_views.STONE_SEATS,
            pieces=pieces,
            last=() if last is None else (last.src, last.dst),
            marks={sq: "converted" for sq in state.converted},
            status=status,
        )

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: MingMangState, seat: Seat) -> list[float]:
        """Per seat: its stones, a corner stone worth 1.5 (it can never be turned), and on
        the 8 and 9 boards a little for each slide its stones have (mobility; left out on
        17 lines, where it costs more than it tells)."""
        board, size = state.board, state.size
        corners = board[0] + board[size - 1] + board[-size] + board[-1]
        out = [board.count(s) + CORNER * corners.count(s) for s in STONES]
        if size <= MOBILITY_SIZE:
            for s, moves in enumerate(mobility(board, size)):
                out[s] += MOBILITY * moves
        return out

    def move_heuristic(self, state: MingMangState, seat: Seat, move: MingMangMove) -> float:
        """A tenth of the stones the move turns (docs/GAMES.md 5.4.9: the generic alpha-beta's
        quiescence, threshold 0.5, then follows only conversions of 6 stones or more)."""
        return TURN_PRIOR * turns(state, move)


def _keys(history: Any) -> list[str]:
    """The history of a snapshot (one string, keys between spaces) or of a view (a list)."""
    return str(history).split() if isinstance(history, str) else [str(k) for k in history]


def position(
    layout: str,
    *,
    to_move: Seat = 0,
    options: Mapping[str, Any] | None = None,
) -> MingMangState:
    """A state from a layout (for tests and analysis): rows from the last rank down to rank
    1 separated by ``/``, ``b`` Black, ``w`` White, ``.`` empty; the size is the number of
    rows (its ``size`` option is ignored)."""
    board = layout_board(layout)
    size = round(len(board) ** 0.5)
    opts = MingMang().check_options({**(options or {}), "size": size})
    return MingMangState(
        board,
        size,
        to_move,
        history=(board_key(board, to_move, geometry(size)),),
        draw_plies=opts["draw_plies"],
        max_plies=opts["max_plies"],
    )

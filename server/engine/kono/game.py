"""The Four-field Kono game: options, views and bot hooks for the rooms."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .. import draws, grid_views
from ..base import Json, Seat
from ..turns import TurnGame
from .board import EMPTY, SEAT_NAMES, SQUARES, START, STONES, layout_board
from .rules import apply, end, generate, moves_of
from .values import KonoMove, KonoState, position_key

_REASONS = {
    "too_few_stones": "fewer than 2 stones left",
    "no_moves": "no legal move",
    "repetition": "threefold repetition",
    "no_progress": "no capture for too long",
}


class Kono(TurnGame[KonoState, KonoMove]):
    name = "kono"
    title = "Four-field Kono"
    description = (
        "Korean 4x4 stone game: step to an empty point, or jump over your own stone to take "
        "the enemy stone behind it; leave your opponent fewer than two stones or no move."
    )
    how_to_play = (
        "A 4x4 board that starts full: eight stones a side. Black moves first.",
        "On your turn either step one stone to an empty neighbouring point (straight, not "
        "diagonally), or jump a stone over one of your own stones onto the enemy stone right "
        "behind it, which is taken. Captures are not compulsory.",
        "You win when your opponent has fewer than two stones, or no move on their turn. The same "
        "position three times, or too long without a capture, is a draw.",
    )
    seat_names = SEAT_NAMES
    play_draws = False
    options = {"draw_plies": draws.progress_option(50)}
    state_type, move_type = KonoState, KonoMove
    codecs = {"board": (SQUARES.rows, lambda text: layout_board(str(text)))}
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(end)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> KonoState:
        return position(START, options=options)

    def view(self, state: KonoState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        last = state.last_move
        return {
            "board": SQUARES.rows(state.board),
            "grid": self._grid(state),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "stones": [state.board.count(s) for s in STONES],
            "counters": draws.counters(state),
            "draw_plies": state.draw_plies,
            "last_move": None if last is None else str(last),
            "history": list(state.history),
        }

    def _grid(self, state: KonoState) -> Json:
        pieces = {
            SQUARES.name(sq): dict(grid_views.STONES[STONES.index(ch)])
            for sq, ch in enumerate(state.board)
            if ch != EMPTY
        }
        status = grid_views.status(SEAT_NAMES, state.to_move, end(state), _REASONS, loser_has=True)
        return grid_views.describe_board(  # played on the points where the lines cross
            SQUARES,
            grid_views.STONE_SEATS,
            pieces,
            move=state.last_move,
            status=status,
            style="points",
        )

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: KonoState, seat: Seat) -> list[float]:
        """Per seat: its stones, plus a tenth of a stone for each move it would have."""
        return [state.board.count(STONES[s]) + 0.1 * len(moves_of(state.board, s)) for s in (0, 1)]

    def move_heuristic(self, state: KonoState, seat: Seat, move: KonoMove) -> float:
        """A capture 1, a step 0."""
        return 1.0 if move.capture else 0.0


def position(
    layout: str,
    *,
    to_move: Seat = 0,
    options: Mapping[str, Any] | None = None,
) -> KonoState:
    """A state from a layout (for tests and analysis): rows rank 4 .. rank 1 separated by
    ``/``, 4 chars each, ``b`` Black, ``w`` White, ``.`` empty."""
    board = layout_board(layout)
    opts = Kono().check_options(options)
    return KonoState(
        board, to_move, history=(position_key(board, to_move),), draw_plies=opts["draw_plies"]
    )

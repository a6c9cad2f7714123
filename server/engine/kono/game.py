"""The Four-field Kono game: options, turns, views, bot hooks and snapshots for the rooms."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .. import grid
from ..base import Json, Option, Outcome, Seat
from ..turns import TurnGame
from .board import (
    EMPTY,
    N_FILES,
    N_RANKS,
    SEAT_NAMES,
    START,
    STONES,
    board_layout,
    layout_board,
    square_name,
)
from .rules import apply as apply_move
from .rules import end, generate, moves_of
from .values import KonoMove, KonoState, position_key

#: seat colours and edges in the board description
_SEATS = (
    {"name": "Black", "colour": "#222222", "edge": "south"},
    {"name": "White", "colour": "#f4f1ea", "edge": "north"},
)
_STONE_PIECES = tuple(grid.piece(s, "stone", f"{SEAT_NAMES[s]} stone") for s in (0, 1))
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
    min_seats = max_seats = 2
    seat_names = SEAT_NAMES
    play_draws = False
    options = {
        "draw_plies": Option(
            "int",
            50,
            "Draw after this many plies in a row without a capture (0: never)",
            minimum=0,
            maximum=1000,
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> KonoState:
        opts = self.check_options(options)
        board = layout_board(START)
        return KonoState(board, history=(position_key(board, 0),), draw_plies=opts["draw_plies"])

    # -- playing -------------------------------------------------------------------------

    def generate(self, state: KonoState) -> Sequence[KonoMove]:
        return generate(state)

    def apply(self, state: KonoState, move: KonoMove) -> KonoState:
        return apply_move(state, move)

    def parse_move(self, state: KonoState, seat: Seat, text: str) -> KonoMove:
        return KonoMove.from_text(text)

    def outcome(self, state: KonoState) -> Outcome | None:
        return end(state)

    def view(self, state: KonoState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        last = state.last_move
        return {
            "board": board_layout(state.board),
            "grid": self._grid(state),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "stones": [state.board.count(s) for s in STONES],
            "counters": {
                "quiet": state.quiet,
                "repetitions": state.history.count(state.history[-1]) if state.history else 1,
            },
            "draw_plies": state.draw_plies,
            "last_move": None if last is None else str(last),
            "history": list(state.history),
        }

    def _grid(self, state: KonoState) -> Json:
        pieces = {
            square_name(sq): dict(_STONE_PIECES[STONES.index(ch)])
            for sq, ch in enumerate(state.board)
            if ch != EMPTY
        }
        last = state.last_move
        outcome = end(state)
        if outcome is None:
            status = f"{SEAT_NAMES[state.to_move]} to move"
        elif outcome.winner is None:
            status = f"Draw: {_REASONS[outcome.reason]}"
        else:
            loser = SEAT_NAMES[1 - outcome.winner]
            status = f"{SEAT_NAMES[outcome.winner]} wins: {loser} has {_REASONS[outcome.reason]}"
        return grid.describe(
            files=N_FILES,
            ranks=N_RANKS,
            seats=_SEATS,
            pieces=pieces,
            last=() if last is None else (square_name(last.src), square_name(last.dst)),
            status=status,
        )

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: KonoState, seat: Seat) -> list[float]:
        """Per seat: its stones, plus a tenth of a stone for each move it would have."""
        return [state.board.count(STONES[s]) + 0.1 * len(moves_of(state.board, s)) for s in (0, 1)]

    def move_heuristic(self, state: KonoState, seat: Seat, move: KonoMove) -> float:
        """A capture 1, a step 0."""
        return 1.0 if move.capture else 0.0

    # -- snapshots -----------------------------------------------------------------------

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> KonoState:
        """The state itself: everything is public, and the view holds all of it (the board,
        the counters, and the positions since the last capture that repetition compares)."""
        view = views[-1]
        return self.decode_state({**view, "quiet": view["counters"]["quiet"]})

    def encode_state(self, state: KonoState) -> Json:
        return {
            "board": board_layout(state.board),
            "to_move": state.to_move,
            "quiet": state.quiet,
            "history": list(state.history),
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "draw_plies": state.draw_plies,
        }

    def decode_state(self, data: Mapping[str, Any]) -> KonoState:
        last = data["last_move"]
        return KonoState(
            layout_board(str(data["board"])),
            int(data["to_move"]),
            int(data["quiet"]),
            tuple(str(k) for k in data["history"]),
            int(data["ply"]),
            None if last is None else KonoMove.from_text(str(last)),
            int(data["draw_plies"]),
        )


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

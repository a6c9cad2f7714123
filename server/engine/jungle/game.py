"""The Jungle game: options, turns, views with the board description, bot hooks, snapshots."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .. import grid
from ..base import Json, Option, Outcome, Seat
from ..turns import TurnGame
from .board import (
    ANIMALS,
    DENS,
    EMPTY,
    N_FILES,
    N_RANKS,
    RANKS,
    SEAT_NAMES,
    START,
    TRAPS,
    VARIANTS,
    WATER,
    seat_of,
    square_name,
)
from .rules import apply, generate, outcome, targets
from .values import JungleMove, JungleState, position_key, rows

SEATS = (
    {"name": "Red", "colour": "#c0392b", "edge": "south"},
    {"name": "Blue", "colour": "#2c6fbb", "edge": "north"},
)
TERRAIN = {
    "water": {"label": "River", "fill": "#8ecae6"},
    "trap": {"label": "Trap", "fill": "#e9c46a"},
    "den": {"label": "Den", "fill": "#8d6e63"},
}
#: the glyph on a piece: its initial (P for the leopard, or panther: L is the Lion)
GLYPHS = {"e": "E", "l": "L", "t": "T", "p": "P", "w": "W", "d": "D", "c": "C", "r": "R"}
REASONS = {
    "den": "a piece entered the den",
    "all_captured": "every enemy piece taken",
    "no_moves": "no legal move left",
    "repetition": "threefold repetition",
    "no_progress": "no capture for too long",
}
DEN_BONUS = 5.0  # evaluate: a piece one move from the enemy den
ADVANCE = 0.1  # evaluate: per step nearer the enemy den


def _cells() -> dict[str, list[str]]:
    cells = {square_name(sq): ["water"] for sq in sorted(WATER)}
    for seat in (0, 1):
        cells[square_name(DENS[seat])] = ["den", f"den-{seat}"]
        for sq in sorted(TRAPS[seat]):
            cells[square_name(sq)] = ["trap", f"trap-{seat}"]
    return cells


CELLS = _cells()


class Jungle(TurnGame[JungleState, JungleMove]):
    name = "jungle"
    title = "Jungle"
    description = (
        "Dou Shou Qi: eight animals a side take weaker ones by rank across a board of rivers "
        "and traps; the first into the enemy den wins."
    )
    how_to_play = (
        "Each side has eight animals, from strongest to weakest: Elephant, Lion, Tiger, Leopard, "
        "Wolf, Dog, Cat, Rat. A piece steps one square straight and takes an enemy of equal or "
        "lower rank by moving onto it; the Rat takes the Elephant, but the Elephant never takes "
        "the Rat.",
        "Only the Rat swims in the rivers, and nothing is taken between water and land. The Lion "
        "and the Tiger leap straight across a river unless a Rat in the water is in the way.",
        "An enemy standing in one of the traps around your den can be taken by any of your "
        "pieces. No piece enters its own den.",
        "Move a piece into the enemy den to win; a side with no pieces or no legal move loses. "
        "The same position three times, or too long without a capture, is a draw.",
    )
    min_seats = max_seats = 2
    seat_names = SEAT_NAMES
    #: a piece is worth 3-10, a capture's heuristic 10 x the victim's worth (bots' squash)
    eval_scales = (8.0, 10.0)
    play_draws = False
    public_moves = True
    options = {
        "variant": Option(
            "str",
            "standard",
            "Rules: standard, or Dagaz's (Tiger = Lion, leaping Leopard, no repeated position)",
            choices=VARIANTS,
        ),
        "draw_plies": Option(
            "int",
            100,
            "Draw after this many plies in a row without a capture (0: never)",
            minimum=0,
            maximum=1000,
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> JungleState:
        opts = self.check_options(options)
        return position(START, variant=opts["variant"], draw_plies=opts["draw_plies"])

    # -- playing -------------------------------------------------------------------------

    def generate(self, state: JungleState) -> Sequence[JungleMove]:
        return generate(state)

    def apply(self, state: JungleState, move: JungleMove) -> JungleState:
        return apply(state, move)

    def parse_move(self, state: JungleState, seat: Seat, text: str) -> JungleMove:
        return JungleMove.from_text(text)

    def outcome(self, state: JungleState) -> Outcome | None:
        return outcome(state)

    def view(self, state: JungleState, seat: Seat | None) -> Json:
        """The whole position: the same for every seat and spectators."""
        last = state.last_move
        return {
            "variant": state.variant,
            "draw_plies": state.draw_plies,
            "board": rows(state.board),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "captured": list(state.captured),
            "counters": {
                "quiet": state.quiet,
                "repetitions": state.history.count(state.history[-1]) if state.history else 1,
            },
            "last_move": None if last is None else str(last),
            "history": list(state.history),
            "grid": self._grid(state),
        }

    def _grid(self, state: JungleState) -> Json:
        ranks = RANKS[state.variant]
        pieces = {}
        for sq, ch in enumerate(state.board):
            if ch != EMPTY:
                kind = ANIMALS[ch.lower()]
                label = f"{kind.capitalize()} ({ranks[ch.lower()]})"
                pieces[square_name(sq)] = grid.piece(seat_of(ch), kind, label, GLYPHS[ch.lower()])
        last = state.last_move
        return grid.describe(
            files=N_FILES,
            ranks=N_RANKS,
            seats=SEATS,
            pieces=pieces,
            terrain=TERRAIN,
            cells=CELLS,
            last=() if last is None else (square_name(last.src), square_name(last.dst)),
            status=self._status(state),
        )

    def _status(self, state: JungleState) -> str:
        end = outcome(state)
        if end is None:
            return f"{SEAT_NAMES[state.to_move]} to move"
        if end.winner is None:
            return f"Draw: {REASONS[end.reason]}"
        return f"{SEAT_NAMES[end.winner]} wins: {REASONS[end.reason]}"

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: JungleState, seat: Seat) -> list[float]:
        """Per seat: material (rank + 2, the Rat 5 for its bite at the Elephant), a little
        for every step nearer the enemy den, and a bonus per piece that could enter it next."""
        scores = [0.0, 0.0]
        for sq, ch in enumerate(state.board):
            if ch == EMPTY:
                continue
            owner = seat_of(ch)
            den = DENS[1 - owner]
            scores[owner] += _worth(state.variant, ch)
            scores[owner] += ADVANCE * (N_FILES + N_RANKS - 2 - _distance(sq, den))
            if den in targets(state.board, sq, state.variant):
                scores[owner] += DEN_BONUS
        return scores

    def move_heuristic(self, state: JungleState, seat: Seat, move: JungleMove) -> float:
        """Entering the den first, then captures by the victim's worth, then steps toward
        the enemy den."""
        mover = state.board[move.src]
        den = DENS[1 - seat_of(mover)]
        if move.dst == den:
            return 1000.0
        if move.capture:
            return 10.0 * _worth(state.variant, state.board[move.dst])
        # a step closer is worth a little, under the search's tactical bar (0.5): quiescence
        # follows captures and den entries only, not every forward step
        return 0.25 if _distance(move.dst, den) < _distance(move.src, den) else 0.0

    # -- snapshots -----------------------------------------------------------------------

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> JungleState:
        """The state itself: everything is public, and the view holds all of it (the board,
        the counters, and the positions since the last capture that repetition compares)."""
        view = views[-1]
        quiet, captured = view["counters"]["quiet"], "".join(view["captured"])
        return self.decode_state({**view, "quiet": quiet, "captured": captured})

    def encode_state(self, state: JungleState) -> Json:
        return {
            "board": rows(state.board),
            "to_move": state.to_move,
            "captured": state.captured,
            "quiet": state.quiet,
            "history": list(state.history),
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "variant": state.variant,
            "draw_plies": state.draw_plies,
        }

    def decode_state(self, data: Mapping[str, Any]) -> JungleState:
        last = data["last_move"]
        return JungleState(
            _board(str(data["board"])),
            int(data["to_move"]),
            str(data["captured"]),
            int(data["quiet"]),
            tuple(str(k) for k in data["history"]),
            int(data["ply"]),
            None if last is None else JungleMove.from_text(last),
            str(data["variant"]),
            int(data["draw_plies"]),
        )


def _worth(variant: str, piece: str) -> float:
    kind = piece.lower()
    return 5.0 if kind == "r" else RANKS[variant][kind] + 2.0


def _distance(a: int, b: int) -> int:
    return abs(a % N_FILES - b % N_FILES) + abs(a // N_FILES - b // N_FILES)


def _board(layout: str) -> str:
    """A board string from rows rank 9 .. rank 1 separated by ``/``; ``ValueError`` if bad."""
    lines = layout.split("/")
    if len(lines) != N_RANKS or any(len(line) != N_FILES for line in lines):
        raise ValueError(f"{layout!r}: expected {N_RANKS} rows of {N_FILES} squares")
    board = "".join(reversed(lines))
    counts = Counter(ch for ch in board if ch != EMPTY)
    if any(ch.lower() not in ANIMALS for ch in counts) or any(n > 1 for n in counts.values()):
        raise ValueError(f"{layout!r}: pieces are E L T P W D C R (Red) or lower case, once each")
    return board


def position(
    layout: str,
    *,
    to_move: Seat = 0,
    variant: str = "standard",
    draw_plies: int = 100,
) -> JungleState:
    """A state from a layout (for tests and analysis): rows rank 9 .. rank 1 separated by
    ``/``, 7 chars each, ``.`` empty, Red's pieces in upper case, Blue's in lower case."""
    opts = Jungle().check_options({"variant": variant, "draw_plies": draw_plies})
    board = _board(layout)
    return JungleState(
        board,
        to_move,
        history=(position_key(board, to_move),),
        variant=opts["variant"],
        draw_plies=opts["draw_plies"],
    )

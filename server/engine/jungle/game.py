"""The Jungle game: options, views with the board description, bot hooks (the turns and
snapshots: :class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .. import draws, grid, grid_views
from ..base import Json, Option, Seat
from ..grid import EMPTY
from ..turns import TurnGame
from .board import (
    ANIMALS,
    CELLS,
    DENS,
    RANKS,
    SEAT_NAMES,
    SQUARES,
    START,
    TERRAIN,
    VARIANTS,
    seat_of,
)
from .rules import apply, generate, outcome, targets
from .values import JungleMove, JungleState, position_key, rows

SEATS = grid_views.seats(("Red", "#c0392b", "south"), ("Blue", "#2c6fbb", "north"))
#: the glyph on a piece: its initial (P for the leopard, or panther: L is the Lion), then its
#: rank in the game's variant (``E8``: who takes whom, on the piece)
GLYPHS = {"e": "E", "l": "L", "t": "T", "p": "P", "w": "W", "d": "D", "c": "C", "r": "R"}
#: the characters of Dou Shou Qi's own pieces, a choice beside the letters
CHINESE = {
    "elephant": "象",
    "lion": "獅",
    "tiger": "虎",
    "leopard": "豹",
    "wolf": "狼",
    "dog": "狗",
    "cat": "貓",
    "rat": "鼠",
}
REASONS = {
    "den": "a piece entered the den",
    "all_captured": "every enemy piece taken",
    "no_moves": "no legal move left",
    "repetition": "threefold repetition",
    "no_progress": "no capture for too long",
}
DEN_BONUS = 5.0  # evaluate: a piece one move from the enemy den
ADVANCE = 0.1  # evaluate: per step nearer the enemy den


class Jungle(TurnGame[JungleState, JungleMove]):
    name = "jungle"
    title = "Jungle"
    piece_sets = (("Letters and ranks", {}), ("Chinese", CHINESE))
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
        "draw_plies": draws.progress_option(100),
    }
    state_type, move_type = JungleState, JungleMove
    #: the captured pieces: one string (a view lists them)
    codecs = {"board": (rows, lambda text: _board(str(text))), "captured": (str, "".join)}
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(outcome)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> JungleState:
        opts = self.check_options(options)
        return position(START, variant=opts["variant"], draw_plies=opts["draw_plies"])

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
            "counters": draws.counters(state),
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
                glyph = f"{GLYPHS[ch.lower()]}{ranks[ch.lower()]}"
                pieces[SQUARES.name(sq)] = grid.piece(seat_of(ch), kind, label, glyph)
        status = grid_views.status(SEAT_NAMES, state.to_move, outcome(state), REASONS)
        return grid_views.describe_board(
            SQUARES,
            SEATS,
            pieces,
            move=state.last_move,
            status=status,
            terrain=TERRAIN,
            cells=CELLS,
        )

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
            scores[owner] += ADVANCE * (SQUARES.files + SQUARES.ranks - 2 - _distance(sq, den))
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


def _worth(variant: str, piece: str) -> float:
    kind = piece.lower()
    return 5.0 if kind == "r" else RANKS[variant][kind] + 2.0


def _distance(a: int, b: int) -> int:
    files = SQUARES.files
    return abs(a % files - b % files) + abs(a // files - b // files)


def _board(layout: str) -> str:
    """A board string from rows rank 9 .. rank 1 separated by ``/``; ``ValueError`` if bad."""
    board = SQUARES.board(layout)
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

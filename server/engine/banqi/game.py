"""The BanQi game: options, views, bot hooks and its worlds for the bots (the turns and
snapshots: :class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import draws
from ..base import Json, Option, Outcome, Seat
from ..grid import EMPTY
from ..turns import TurnGame
from .board import (
    BLACK,
    COLOUR_NAMES,
    FULL_SET,
    HIDDEN,
    RED,
    SQUARES,
    TYPE_NAMES,
    VALUE,
    colour_of,
)
from .describe import describe
from .rules import apply, generate
from .values import BanqiMove, BanqiState, position_key, public_board


class Banqi(TurnGame[BanqiState, BanqiMove]):
    name = "banqi"
    title = "BanQi"
    board = "banqi"
    description = (
        "Half-board Chinese chess with face-down pieces: flip, move and capture by rank "
        "until one side cannot act."
    )
    how_to_play = (
        "The 32 pieces of Chinese chess lie face down on half a board (8 x 4). On your turn flip "
        "any face-down piece, or move one of your own face-up pieces.",
        "The first flip decides the colours: the flipper plays the colour of the piece turned up.",
        "A piece steps one square straight to an empty square, or takes an adjacent face-up enemy "
        "of equal or lower rank: General, Advisor, Elephant, Chariot, Horse, Cannon, Soldier, "
        "from high to low. The Soldier takes the General, but the General does not take the "
        "Soldier.",
        "The Cannon (Taiwanese rules) takes by jumping over exactly one piece in a straight line "
        "to the first piece behind it, of any rank; it cannot take a neighbour. Under Chinese "
        "rules every piece, the Cannon too, only steps, and the General may take Soldiers.",
        "A face-down piece cannot be taken. A side that cannot act on its turn loses; a run of "
        "actions without a capture or a flip (set in the options) is a draw.",
    )
    seat_names = ("First", "Second")
    hidden_information = True
    public_moves = True  # "flip c3", "a1xa4": the view shows what a flip revealed anyway
    options = {
        "variant": Option(
            "str", "taiwanese", "Rules: Taiwanese or Chinese", choices=("taiwanese", "chinese")
        ),
        "cannon_quiet": Option(
            "str",
            "slide",
            "Taiwanese cannon's quiet move: slide like a chariot, or one step",
            choices=("slide", "step"),
        ),
        "draw_plies": draws.progress_option(50, "capture or flip", unit="actions"),
    }
    state_type, move_type = BanqiState, BanqiMove
    #: the face-down squares by name; the colours of seat 0 and seat 1, ``None`` before
    #: the first flip
    codecs = {
        "hidden": (
            lambda down: [SQUARES.name(sq) for sq in sorted(down)],
            lambda names: frozenset(SQUARES.parse(s) for s in names),
        ),
        "colours": (
            lambda c: None if c is None else list(c),
            lambda c: None if c is None else (int(c[0]), int(c[1])),
        ),
    }
    generate, apply = staticmethod(generate), staticmethod(apply)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> BanqiState:
        opts = self.check_options(options)
        pieces = list(FULL_SET)
        rng.shuffle(pieces)
        state = BanqiState(
            "".join(pieces),
            frozenset(range(SQUARES.size)),
            variant=opts["variant"],
            cannon_quiet=opts["cannon_quiet"],
            draw_plies=opts["draw_plies"],
        )
        return replace(state, history=(position_key(state),))

    def outcome(self, state: BanqiState) -> Outcome | None:
        if state.colours is not None:
            for seat, colour in enumerate(state.colours):
                if not any(ch != EMPTY and colour_of(ch) == colour for ch in state.board):
                    return Outcome.win(1 - seat, 2, "all_captured")
        if not generate(state):
            return Outcome.win(1 - state.to_move, 2, "no_moves")
        return draws.drawn(state)

    def view(self, state: BanqiState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        squares: Json = {}
        for sq, ch in enumerate(state.board):
            if sq in state.hidden:
                squares[SQUARES.name(sq)] = {"hidden": True}
            elif ch != EMPTY:
                squares[SQUARES.name(sq)] = _piece_json(ch)
        last = state.last_move
        event: Json | None = None
        if last is not None:
            if last.dst is None:
                event = {"type": "flip", "square": SQUARES.name(last.src)}
                event["piece"] = _piece_json(state.board[last.src])
            elif last.capture:
                event = {"type": "capture", "square": SQUARES.name(last.dst)}
                event["piece"] = _piece_json(state.captured[-1])
            else:
                event = {"type": "move", "square": SQUARES.name(last.dst)}
        view: Json = {
            "variant": state.variant,
            "cannon_quiet": state.cannon_quiet,
            "draw_plies": state.draw_plies,
            "board": public_board(state),
            "squares": squares,
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "colours": None
            if state.colours is None
            else {str(s): COLOUR_NAMES[c] for s, c in enumerate(state.colours)},
            "captured": list(state.captured),
            "counters": {"hidden": len(state.hidden), **draws.counters(state)},
            "history": list(state.history),
            "last_move": None if last is None else str(last),
            "last_event": event,
        }
        view["grid"] = describe(state, view, self.outcome(state))
        return view

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: BanqiState, seat: Seat) -> list[float]:
        """Material on the board (face-down pieces included) per seat; zeros before colours."""
        if state.colours is None:
            return [0.0, 0.0]
        by_colour = [0.0, 0.0]
        for ch in state.board:
            if ch != EMPTY:
                by_colour[colour_of(ch)] += VALUE[ch.lower()]
        return [by_colour[c] for c in state.colours]

    def move_heuristic(self, state: BanqiState, seat: Seat, move: BanqiMove) -> float:
        """The value of the captured piece; flips 1, quiet moves 0."""
        if move.dst is None:
            return 1.0
        if move.capture:
            return VALUE[state.board[move.dst].lower()]
        return 0.0

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> BanqiState:
        """A true state matching the last view: the face-down squares get a random
        arrangement of exactly the pieces neither face-up on the board nor captured."""
        view = views[-1]
        public = SQUARES.board(str(view["board"]))
        down = [sq for sq, ch in enumerate(public) if ch == HIDDEN]
        left = Counter(FULL_SET)
        left.subtract(Counter(ch for ch in public if ch not in (EMPTY, HIDDEN)))
        left.subtract(Counter(view["captured"]))
        if any(n < 0 for n in left.values()) or sum(left.values()) != len(down):
            raise ValueError("the view does not fit one BanQi set")
        pool = sorted(left.elements())
        rng.shuffle(pool)
        cells = list(public)
        for sq, piece in zip(down, pool, strict=True):
            cells[sq] = piece
        colours = view["colours"]
        last = view["last_move"]
        return BanqiState(
            "".join(cells),
            frozenset(down),
            int(view["to_move"]),
            None
            if colours is None
            else (COLOUR_NAMES.index(colours["0"]), COLOUR_NAMES.index(colours["1"])),
            "".join(view["captured"]),
            int(view["counters"]["quiet"]),
            tuple(view["history"]),
            int(view["ply"]),
            None if last is None else BanqiMove.from_text(last),
            str(view["variant"]),
            str(view["cannon_quiet"]),
            int(view["draw_plies"]),
        )


def _piece_json(ch: str) -> Json:
    return {"colour": COLOUR_NAMES[colour_of(ch)], "type": TYPE_NAMES[ch.lower()], "piece": ch}


def position(
    layout: str,
    *,
    hidden: Iterable[str] = (),
    to_move: Seat = 0,
    colours: tuple[int, int] | None = (RED, BLACK),
    options: Mapping[str, Any] | None = None,
) -> BanqiState:
    """A state from a layout (for tests and analysis).

    ``layout``: rows rank 4 .. rank 1 separated by ``/``, 8 chars each, ``.`` empty, piece
    letters; the squares in ``hidden`` are face-down. Pieces not on the board count as
    captured. ``colours`` maps seats to colours (``None``: no flip yet).
    """
    board = SQUARES.board(layout)
    left = Counter(FULL_SET)
    left.subtract(Counter(ch for ch in board if ch != EMPTY))
    if any(n < 0 for n in left.values()) or set(board) - set(FULL_SET) - {EMPTY}:
        raise ValueError(f"{layout!r} is not part of one BanQi set")
    down = frozenset(SQUARES.parse(s) for s in hidden)
    if any(board[sq] == EMPTY for sq in down):
        raise ValueError("a hidden square is empty")
    opts = Banqi().check_options(options)
    state = BanqiState(
        board,
        down,
        to_move,
        colours,
        "".join(ch * left[ch] for ch in dict.fromkeys(FULL_SET)),
        variant=opts["variant"],
        cannon_quiet=opts["cannon_quiet"],
        draw_plies=opts["draw_plies"],
    )
    return replace(state, history=(position_key(state),))

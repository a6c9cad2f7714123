"""The Yonin Shogi game: options, views and bot hooks for the rooms (the turns and snapshots:
:class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .. import grid, grid_views
from ..base import Json, Option, Seat
from ..turns import TurnGame
from .board import (
    HAND_KINDS,
    NAMES,
    SEAT_LETTERS,
    SEAT_NAMES,
    N,
    parse_layout,
    parse_square,
    square_name,
    start_board,
)
from .notation import written_moves
from .rules import apply, end, generate, king_attacked
from .values import EMPTY_HAND, YoninMove, YoninState, hand_text, parse_hand

#: seat colours and edges in the board description (four distinct colours)
_SEATS = grid_views.seats(
    ("South", "#c0392b", "south"),
    ("West", "#2e6fb7", "west"),
    ("North", "#2e8b57", "north"),
    ("East", "#b8860b", "east"),
)
#: the glyphs of the kinds: kanji, promoted ones in their usual forms
GLYPHS = {"K": "王", "G": "金", "S": "銀", "R": "飛", "P": "歩", "+S": "全", "+R": "龍", "+P": "と"}
#: material, in Pawns (bot hooks); a King is priceless: taking it ends the game
VALUES = {"K": 0.0, "G": 6.0, "S": 5.0, "R": 9.0, "P": 1.0, "+S": 6.0, "+R": 12.0, "+P": 6.0}
HAND_VALUES = (1.0, 5.0, 6.0, 9.0)  # P S G R
#: a seat whose King another seat's piece reaches (and that is not to move) loses this much
KING_DANGER = 15.0
KING_CAPTURE = 100.0  # move_heuristic of taking a King


def _pieces() -> dict[tuple[int, str], Json]:
    out = {}
    for seat in range(4):
        for kind, name in NAMES.items():
            out[seat, kind] = grid.piece(
                seat,
                name.lower().replace(" ", "_"),
                f"{SEAT_NAMES[seat]} {name}",
                GLYPHS[kind],
                shape="point",
                promoted=kind.startswith("+"),
            )
    return out


_PIECES = _pieces()


class YoninShogi(TurnGame[YoninState, YoninMove]):
    name = "yonin_shogi"
    title = "Yonin Shogi"
    description = (
        "Four-player shogi on a 9x9 board: King, two Golds, two Silvers, a Rook and three "
        "Pawns each; captured pieces change sides as drops; there is no check, and the first "
        "King taken ends the game: its taker wins, its owner is last."
    )
    how_to_play = (
        "Four players, one on each side of a 9x9 board, in turn: South, West, North, East. "
        "Each has a King (王), two Golds (金), two Silvers (銀), a Rook (飛) and three Pawns (歩), "
        "pointing away from their owner.",
        "Pieces move as in shogi, seen from their owner's side: the King one square any way, "
        "a Gold one square except diagonally back, a Silver one square diagonally or straight "
        "ahead, a Rook any distance straight, a Pawn one square ahead.",
        "A Silver, Rook or Pawn that moves into, out of or within the three rows farthest from "
        "its owner may promote (a Pawn on the last row must): Silver and Pawn then move like a "
        "Gold, the Rook also one square diagonally.",
        "A piece you take joins your hand, unpromoted; on a later turn you may drop it on any "
        "empty square instead of moving. No Pawn on your last row, and no two of your "
        "unpromoted Pawns on one line ahead.",
        "There is no check. The first King taken ends the game: its taker wins, its owner comes "
        "last, the other two share second place. A very long game is a draw.",
    )
    min_seats = max_seats = 4
    seat_names = SEAT_NAMES
    play_draws = False
    eval_scales = (6.0, 3.0)
    options = {
        "ply_limit": Option(
            "int",
            800,
            "Draw (all four share first place) after this many plies",
            minimum=40,
            maximum=4000,
        ),
    }

    state_type, move_type = YoninState, YoninMove
    snapshot_first = ("board", "hands", "to_move", "ply", "ply_limit")
    #: the board as ``{square: "<seat letter><kind>"}``, the hands as letters, the taken
    #: King as ``[taker, loser]``
    codecs = {
        "board": (lambda cells: _board_json(cells), lambda data: _board_of(data)),
        "hands": (
            lambda hands: [hand_text(h) for h in hands],
            lambda texts: tuple(parse_hand(str(h)) for h in texts),
        ),
        "king_taken": (
            lambda taken: None if taken is None else list(taken),
            lambda taken: None if taken is None else (int(taken[0]), int(taken[1])),
        ),
    }
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(end)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> YoninState:
        opts = self.check_options(options)
        self.check_seats(n_seats)
        return YoninState(start_board(), ply_limit=opts["ply_limit"])

    # resign: the base class's default, which is our rule (docs/GAMES.md 5.5): the seat that
    # resigns (or loses on time) ranks last, the other three share first place; the game ends.

    def view(self, state: YoninState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        last = state.last_move
        return {
            "board": _board_json(state.board),
            "hands": [hand_text(h) for h in state.hands],
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "ply": state.ply,
            "ply_limit": state.ply_limit,
            "last_move": None if last is None else str(last),
            "king_taken": None if state.king_taken is None else list(state.king_taken),
            "grid": self._grid(state),
        }

    def _grid(self, state: YoninState) -> Json:
        pieces = {
            square_name(sq): dict(_PIECES[int(c[0]), c[1:]])
            for sq, c in enumerate(state.board)
            if c
        }
        hands = {
            seat: [
                {
                    "kind": NAMES[k].lower(),
                    "label": NAMES[k],
                    "glyph": GLYPHS[k],
                    "letter": k,
                    "count": n,
                }
                for k, n in zip(HAND_KINDS, hand, strict=True)
                if n
            ]
            for seat, hand in enumerate(state.hands)
        }
        last = state.last_move
        if last is None or last.is_pass:
            marked: tuple[str, ...] = ()
        elif last.src is None:
            marked = (square_name(last.dst),)
        else:
            marked = (square_name(last.src), square_name(last.dst))
        outcome = end(state)
        if outcome is None:
            status = f"{SEAT_NAMES[state.to_move]} to move"
        elif state.king_taken is not None:
            taker, loser = state.king_taken
            status = f"{SEAT_NAMES[taker]} takes {SEAT_NAMES[loser]}'s King and wins"
        else:
            status = f"Draw: {state.ply} plies played"
        return grid.describe(
            files=N,
            ranks=N,
            seats=_SEATS,
            pieces=pieces,
            hands=hands,
            last=marked,
            status=status,
        )

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: YoninState, seat: Seat) -> list[float]:
        """Per seat: its material on the board and in hand (in Pawns), less
        :data:`KING_DANGER` when another seat's piece reaches its King and it is not the
        seat to move (which may still step away)."""
        out = [
            sum(v * n for v, n in zip(HAND_VALUES, state.hands[s], strict=True)) for s in range(4)
        ]
        for c in state.board:
            if c:
                out[int(c[0])] += VALUES[c[1:]]
        for s in range(4):
            if s != state.to_move and king_attacked(state.board, s):
                out[s] -= KING_DANGER
        return out

    def move_heuristic(self, state: YoninState, seat: Seat, move: YoninMove) -> float:
        """Taking a King 100; else the value taken plus the promotion's gain; a drop 0.5."""
        if move.src is None:
            return 0.0 if move.is_pass else 0.5
        taken = state.board[move.dst]
        if taken[1:] == "K":
            return KING_CAPTURE
        value = VALUES[taken[1:]] if taken else 0.0
        if move.promote:
            kind = state.board[move.src][1:]
            value += VALUES["+" + kind] - VALUES[kind]
        return value

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        """The moves as shogi players write them (:mod:`.notation`), space-separated."""
        start = self.new(record["options"], 4, random.Random(0))
        moves = [YoninMove.from_text(m) for t in record["moves"] for m in t["moves"].values()]
        return {"shogi": " ".join(written_moves(start, moves))}


def _board_json(cells: tuple[str, ...]) -> Json:
    """The occupied squares, each with its piece: ``{"e1": "SK"}`` (``"2+R" -> "N+R"``: the
    owner's letter, S W N E, and the kind)."""
    return {square_name(sq): SEAT_LETTERS[int(c[0])] + c[1:] for sq, c in enumerate(cells) if c}


def _board_of(data: Mapping[str, str]) -> tuple[str, ...]:
    """The inverse of :func:`_board_json`."""
    cells = [""] * (N * N)
    for name, text in data.items():
        cells[parse_square(str(name))] = f"{SEAT_LETTERS.index(text[0])}{text[1:]}"
    return tuple(cells)


def position(
    layout: str,
    *,
    to_move: Seat = 0,
    hands: Mapping[int, str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> YoninState:
    """A state from a layout (for tests and analysis): ``"SK e1, W+R d5, NP e7"`` (seat
    letter S W N E, kind K G S R P +S +R +P, square), hands as letters per seat."""
    opts = YoninShogi().check_options(options)
    h = [parse_hand((hands or {}).get(s, "")) if hands else EMPTY_HAND for s in range(4)]
    return YoninState(
        parse_layout(layout),
        (h[0], h[1], h[2], h[3]),
        to_move,
        ply_limit=opts["ply_limit"],
    )

"""The XiangQi game: options, views with the board description, bot hooks, exports (the turns
and snapshots: :class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .. import draws, grid, grid_views
from ..base import InvalidOptions, Json, Option, Seat
from ..grid import EMPTY
from ..turns import TurnGame
from .board import KINDS, N_FILES, N_RANKS, PALACES, RED, SEAT_NAMES, SQUARES, seat_of
from .fen import START_FEN, board_of, from_fen, read_fen, write_fen
from .rules import apply, generate, in_check, outcome
from .values import XiangqiMove, XiangqiState, position_key, rows
from .wxf import wxf_moves

SEATS = grid_views.seats(("Red", "#c0392b", "south"), ("Black", "#222222", "north"))
TERRAIN = {"palace": {"label": "Palace", "fill": "#f3dfb3"}}
CELLS = {SQUARES.name(sq): ["palace"] for palace in PALACES for sq in sorted(palace)}
#: the river: the grid's vertical segments between ranks 5 and 6 not drawn, files b-h
BREAKS = tuple((f"{f}5", f"{f}6") for f in "bcdefgh")
#: the palace diagonals
LINKS = (("d1", "f3"), ("f1", "d3"), ("d8", "f10"), ("f8", "d10"))
#: the Chinese characters players expect, Red's then Black's
GLYPHS = (
    {"k": "帥", "a": "仕", "b": "相", "n": "傌", "r": "俥", "c": "炮", "p": "兵"},
    {"k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒"},
)
#: the Western letters (those of WXF), a choice beside the characters
WESTERN = {
    "general": "K",
    "advisor": "A",
    "elephant": "E",
    "horse": "H",
    "chariot": "R",
    "cannon": "C",
    "soldier": "P",
}
REASONS = {
    "checkmate": "checkmate",
    "stalemate": "no legal move (stalemate)",
    "perpetual_check": "perpetual check",
    "repetition": "threefold repetition",
    "no_progress": "no capture for too long",
}
#: material, in soldiers (5.6.7)
WORTH = {"k": 0.0, "a": 2.0, "b": 2.0, "n": 4.0, "r": 9.0, "c": 4.5, "p": 1.0}


class Xiangqi(TurnGame[XiangqiState, XiangqiMove]):
    name = "xiangqi"
    title = "XiangQi"
    piece_sets = (("Chinese", {}), ("Western", WESTERN))
    description = (
        "Chinese chess: generals in their palaces, elephants that stay home, horses that can "
        "be hobbled, cannons that leap to capture; checkmate or stalemate the enemy general."
    )
    how_to_play = (
        "Red moves first; players take turns moving one piece along the lines, pieces standing "
        "on the points. A piece takes an enemy by moving onto it.",
        "The General steps one point straight and the Advisors one point diagonally, both "
        "inside their palace (the 3x3 square with the diagonals). The Elephant moves exactly "
        "two points diagonally, never across the river, and not if the point between is "
        "occupied.",
        "The Horse moves one point straight then one diagonally outwards, unless the point "
        "next to it in that direction is occupied. The Chariot moves any distance straight. "
        "The Cannon moves like the Chariot but takes by jumping over exactly one piece.",
        "A Soldier steps one point forward; once across the river it may also step sideways. "
        "The two Generals may never face each other on a file with nothing between them.",
        "Checkmate or stalemate the enemy General to win: a side with no legal move loses. "
        "Giving check with every move of a repeated cycle loses; other repetitions, and too "
        "long without a capture, draw.",
    )
    seat_names = SEAT_NAMES
    #: a chariot is worth 9, a capture's heuristic 10 x the victim's worth (bots' squash)
    eval_scales = (4.0, 10.0)
    play_draws = False
    public_moves = True
    options = {
        "draw_plies": draws.progress_option(120, minimum=20),
        "fen": Option(
            "str", START_FEN, "Starting position (Fairy-Stockfish's FEN)", max_length=120
        ),
    }

    state_type, move_type = XiangqiState, XiangqiMove
    codecs = {"board": (rows, lambda text: board_of(str(text)))}
    generate, apply, outcome = staticmethod(generate), staticmethod(apply), staticmethod(outcome)

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().check_options(raw)
        try:
            read_fen(opts["fen"])
        except ValueError as exc:
            raise InvalidOptions(f"option 'fen' is not a XiangQi position: {exc}") from None
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> XiangqiState:
        opts = self.check_options(options)
        return from_fen(opts["fen"], draw_plies=opts["draw_plies"])

    def view(self, state: XiangqiState, seat: Seat | None) -> Json:
        """The whole position: the same for every seat and spectators."""
        last = state.last_move
        return {
            "draw_plies": state.draw_plies,
            "board": rows(state.board),
            "fen": write_fen(state),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "check": state.in_check,
            "counters": draws.counters(state),
            "last_move": None if last is None else str(last),
            "history": list(state.history),
            "grid": self._grid(state),
        }

    def _grid(self, state: XiangqiState) -> Json:
        pieces = {}
        for sq, ch in enumerate(state.board):
            if ch != EMPTY:
                owner, kind = seat_of(ch), ch.lower()
                label = f"{SEAT_NAMES[owner]} {KINDS[kind].capitalize()}"
                pieces[SQUARES.name(sq)] = grid.piece(
                    owner, KINDS[kind], label, GLYPHS[owner][kind]
                )
        end = outcome(state)
        status = grid_views.status(SEAT_NAMES, state.to_move, end, REASONS)
        if end is None and state.in_check:
            status += " — check!"
        return grid_views.describe_board(
            SQUARES,
            SEATS,
            pieces,
            move=state.last_move,
            status=status,
            style="points",
            links=LINKS,
            breaks=BREAKS,
            terrain=TERRAIN,
            cells=CELLS,
        )

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: XiangqiState, seat: Seat) -> list[float]:
        """Per seat: material (5.6.7) and a few positional terms (:func:`_placement`)."""
        scores = [0.0, 0.0]
        for sq, ch in enumerate(state.board):
            if ch != EMPTY:
                owner = seat_of(ch)
                scores[owner] += WORTH[ch.lower()] + _placement(ch.lower(), sq, owner)
        return scores

    def move_heuristic(self, state: XiangqiState, seat: Seat, move: XiangqiMove) -> float:
        """Captures by the victim's worth, the cheaper taker first (MVV-LVA); quiet 0."""
        if not move.capture:
            return 0.0
        victim, taker = state.board[move.dst].lower(), state.board[move.src].lower()
        return 10.0 * WORTH[victim] + 1.0 - WORTH[taker] / 10.0

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> XiangqiState:
        """The last view read as a snapshot (:class:`TurnGame`), with the plies before the
        game's first position taken from its FEN's move number."""
        view = views[-1]
        plies = read_fen(str(view["fen"]))[3]  # before this position, by its move number
        return self.decode_state({**view, "first_ply": plies - int(view["ply"])})

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        """The moves as players write them: WXF (:mod:`.wxf`), space-separated, in order."""
        start = self.new(record["options"], 2, random.Random(0))
        moves = [XiangqiMove.from_text(m) for t in record["moves"] for m in t["moves"].values()]
        return {"wxf": " ".join(wxf_moves(start.board, moves))}


def _placement(kind: str, sq: int, owner: int) -> float:
    """Positional terms, in soldiers: a soldier across the river is worth double, more
    near the enemy palace and less on the last rank; horses and cannons like the centre and
    horses the far side; the cannon on the central file; a chariot still at home idles."""
    file, rank = sq % N_FILES, sq // N_FILES
    advance = rank if owner == RED else N_RANKS - 1 - rank  # 0 = own back rank
    central = 4 - abs(file - 4)  # 0 (edge) .. 4 (file e)
    if kind == "p":
        if advance < 5:
            return 0.0
        if advance == 9:
            return 0.6
        return 1.0 + (0.15 * central if advance >= 6 else 0.0) + (0.2 if advance in (6, 7) else 0)
    if kind == "n":
        return 0.06 * central + (0.3 if 5 <= advance <= 8 else 0.0) - (0.3 if advance == 0 else 0)
    if kind == "c":
        return (0.3 if file == 4 else 0.0) + (0.1 if advance >= 5 else 0.0)
    if kind == "r":
        return -0.3 if advance == 0 and file in (0, 8) else 0.02 * central
    return 0.0


def position(layout: str, *, to_move: Seat = 0, draw_plies: int = 120) -> XiangqiState:
    """A state from a layout (for tests and analysis): rows rank 10 .. rank 1 separated by
    ``/``, 9 chars each, ``.`` empty, Red's pieces in upper case, Black's in lower case; the
    first move of the game (Black's first: ``first_ply`` 1 when Black is to move)."""
    opts = Xiangqi().check_options({"draw_plies": draw_plies})
    board = board_of(layout)
    key = position_key(board, to_move, in_check(board, to_move))
    return XiangqiState(
        board, to_move, history=(key,), draw_plies=opts["draw_plies"], first_ply=to_move
    )

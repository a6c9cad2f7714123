"""The Kamisado game: views and bot hooks for the rooms (the turns and snapshots:
:class:`~server.engine.turns.TurnGame`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .. import grid, grid_views
from ..base import Json, Outcome, Seat
from ..grid import EMPTY
from ..turns import TurnGame
from .board import (
    BLACK,
    COLOURS,
    GOLD,
    LETTERS,
    N_FILES,
    SEAT_NAMES,
    SQUARE_COLOUR,
    SQUARES,
    colour_of,
    goal_rank,
    owner,
    start_board,
    tower,
)
from .rules import (
    apply,
    deadlocked,
    destinations,
    generate,
    home_row_winner,
    open_path,
    tower_square,
)
from .values import KamisadoMove, KamisadoState, rows

#: the fills of the squares and towers, one per colour
FILLS = {
    "orange": "#f28c28",
    "blue": "#2f6fd0",
    "purple": "#7d4ea8",
    "pink": "#f4a6c6",
    "yellow": "#f5d33d",
    "red": "#d1352b",
    "green": "#3c9a4b",
    "brown": "#8b5a2b",
}
#: a tower's glyph: two letters, so pink and purple, blue and brown read apart
GLYPHS = {
    "orange": "Or",
    "blue": "Bl",
    "purple": "Pu",
    "pink": "Pi",
    "yellow": "Ye",
    "red": "Re",
    "green": "Gr",
    "brown": "Br",
}
_SEATS = grid_views.seats(
    (SEAT_NAMES[BLACK], "#1b1b1b", "south"), (SEAT_NAMES[GOLD], "#d4a514", "north")
)
_TERRAIN = {c: {"label": c.capitalize(), "fill": FILLS[c]} for c in COLOURS}
_CELLS = {SQUARES.name(sq): (COLOURS[SQUARE_COLOUR[sq]],) for sq in range(SQUARES.size)}
#: the evaluation's units: a tower with an open path to the goal, and a won position
THREAT, DECIDED = 1.0, 10.0


def _colour_name(colour: int | None) -> str | None:
    return None if colour is None else COLOURS[colour]


class Kamisado(TurnGame[KamisadoState, KamisadoMove]):
    name = "kamisado"
    title = "Kamisado"
    description = (
        "Race a dragon tower to the far row; the colour of the square you stop on "
        "chooses which tower your opponent must move next."
    )
    how_to_play = (
        "Each side has eight towers, one of each colour, on its home row; every square of the "
        "board has a colour too. Black moves first, any tower.",
        "A tower moves any distance straight ahead or diagonally forward over empty squares: no "
        "jumping, no captures, never sideways or back.",
        "After the first move you must move your tower of the colour of the square your opponent "
        "just stopped on. If that tower cannot move you pass, and your opponent must move their "
        "tower of the colour under yours.",
        "Reach the opponent's home row to win. A player whose move blocks both sides for good (a "
        "loop of passes) loses.",
    )
    seat_names = SEAT_NAMES
    play_draws = False
    public_moves = True

    state_type, move_type = KamisadoState, KamisadoMove
    #: the colour the seat to move must move, by its name
    codecs = {
        "board": (rows, lambda text: SQUARES.board(str(text))),
        "must": (_colour_name, lambda name: None if name is None else COLOURS.index(name)),
    }
    generate, apply = staticmethod(generate), staticmethod(apply)

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> KamisadoState:
        self.check_options(options)
        return KamisadoState(start_board())

    def outcome(self, state: KamisadoState) -> Outcome | None:
        winner = home_row_winner(state.board)
        if winner is not None:
            return Outcome.win(winner, 2, "home_row")
        if deadlocked(state):  # the seat that moved last caused it
            return Outcome.win(state.to_move, 2, "deadlock")
        return None

    def view(self, state: KamisadoState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        over = self.outcome(state)
        next_sq = None
        if over is None and state.must is not None:
            next_sq = SQUARES.name(tower_square(state.board, state.to_move, state.must))
        last = state.last_move
        return {
            "board": rows(state.board),
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": [] if over else [state.to_move],
            "must": _colour_name(state.must),
            "tower": next_sq,
            "last_move": None if last is None else str(last),
            "grid": grid_views.describe_board(
                SQUARES,
                _SEATS,
                _pieces(state.board),
                move=last,
                status=_status(state, over),
                terrain=_TERRAIN,
                cells=_CELLS,
                marks={} if next_sq is None else {next_sq: "next"},
            ),
        }

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: KamisadoState, seat: Seat) -> list[float]:
        """A race and threat count: per seat, ``THREAT`` for each tower with an open path
        to its goal row, a little for advance and mobility; ``DECIDED`` to the side to move
        when it wins at once, or to its opponent when every move of its tower hands over a
        tower with an open path (so a one-ply search already sees two)."""
        board, mover = state.board, state.to_move
        score = [0.0, 0.0]
        for sq, ch in enumerate(board):
            if ch == EMPTY:
                continue
            s = owner(ch)
            advance = abs(sq // N_FILES - goal_rank(1 - s))
            score[s] += 0.05 * advance + 0.01 * len(destinations(board, s, sq))
            if open_path(board, s, sq):
                score[s] += THREAT
        if self.outcome(state) is not None:
            return score
        moves = generate(state)
        if any(not m.is_pass and m.dst // N_FILES == goal_rank(mover) for m in moves):
            score[mover] += DECIDED
        elif not moves[0].is_pass and all(_hands_over(board, mover, m) for m in moves):
            score[1 - mover] += DECIDED
        return score

    def move_heuristic(self, state: KamisadoState, seat: Seat, move: KamisadoMove) -> float:
        """Reaching the goal row 100; a move after which the opponent must move a tower
        with an open path -50; otherwise small: forward progress, less the mobility it
        leaves the tower the opponent must move."""
        if move.is_pass:
            return 0.0
        if move.dst // N_FILES == goal_rank(seat):
            return 100.0
        board = state.board
        if _hands_over(board, seat, move):
            return -50.0
        after = apply(state, move)
        reply = tower_square(after.board, 1 - seat, SQUARE_COLOUR[move.dst])
        progress = abs(move.dst // N_FILES - move.src // N_FILES)
        return 0.03 * progress - 0.01 * len(destinations(after.board, 1 - seat, reply))


def _hands_over(board: str, seat: Seat, move: KamisadoMove) -> bool:
    """Whether after ``move`` the opponent must move a tower with an open path."""
    cells = list(board)
    cells[move.dst], cells[move.src] = cells[move.src], EMPTY
    after = "".join(cells)
    reply = tower_square(after, 1 - seat, SQUARE_COLOUR[move.dst])
    return open_path(after, 1 - seat, reply)


def _pieces(board: str) -> Json:
    out: Json = {}
    for sq, ch in enumerate(board):
        if ch == EMPTY:
            continue
        s, colour = owner(ch), COLOURS[colour_of(ch)]
        out[SQUARES.name(sq)] = grid.piece(
            s,
            f"{colour}-tower",
            f"{SEAT_NAMES[s]}'s {colour} tower",
            GLYPHS[colour],
            fill=FILLS[colour],
        )
    return out


def _status(state: KamisadoState, over: Outcome | None) -> str:
    name = SEAT_NAMES[state.to_move]
    if over is not None and over.winner is not None:
        winner, loser = SEAT_NAMES[over.winner], SEAT_NAMES[1 - over.winner]
        if over.reason == "deadlock":
            return f"{winner} wins: {loser} caused a deadlock"
        return f"{winner} wins: a tower reached {loser}'s home row"
    if state.must is None:
        return f"{name} to move: any tower"
    colour = COLOURS[state.must]
    sq = tower_square(state.board, state.to_move, state.must)
    if generate(state)[0].is_pass:
        return f"{name}'s {colour} tower is blocked: {name} must pass"
    return f"{name} must move the {colour} tower ({SQUARES.name(sq)})"


def position(
    layout: str,
    *,
    to_move: Seat = 0,
    must: str | None = None,
    ply: int = 1,
) -> KamisadoState:
    """A state from a layout (for tests and analysis).

    ``layout``: rows rank 8 .. rank 1 separated by ``/``, 8 chars each, ``.`` empty, tower
    letters ``obpiyrgw`` (orange, blue, purple, pink, yellow, red, green, brown), upper case
    Black's, lower case Gold's; each of the 16 towers exactly once. ``must``: the colour
    name of the tower ``to_move`` must move (``None``: any, as on the first move).
    """
    board = SQUARES.board(layout)
    towers = sorted(ch for ch in board if ch != EMPTY)
    if towers != sorted(LETTERS + LETTERS.upper()):
        raise ValueError(f"{layout!r} must hold each of the 16 towers once")
    if must is not None and must not in COLOURS:
        raise ValueError(f"{must!r} is not a colour")
    colour = None if must is None else COLOURS.index(must)
    assert colour is None or tower(to_move, colour) in board
    return KamisadoState(board, to_move, colour, ply)

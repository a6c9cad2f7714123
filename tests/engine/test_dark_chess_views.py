"""Dark Chess views (docs/GAMES.md 2.2): a seat sees its own squares and what they reach, a
spectator nothing, and the board description drawn from them (fog over every unseen square)
shows no more — until the game is over, when the fog lifts."""

from __future__ import annotations

import json
import random

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import grid
from server.engine.dark_chess import DarkBoard, DarkChessState, visible_squares

from .test_dark_chess import GAME, new, play, seat_to_move

VIEW_KEYS = {
    "fen",
    "visible",
    "turn",
    "ply",
    "last_move",
    "last_san",
    "captured",
    "visibility",
    "grid",
}


def _check_grid(view: dict, seat: int | None, state: DarkChessState) -> None:
    """The description shows the view's pieces on the squares it sees, fog on the rest, the
    seat's own last move apart and premoves for the seat's own figures only (kept while it
    moves too: the client takes them only while it waits, and an update then carries only
    the moved figures')."""
    desc = view["grid"]
    grid.check(desc, 2)
    if state.result is not None:
        return  # the fog has lifted (test_the_fog_lifts_at_the_end)
    every = {grid.square_name(f, r) for f in range(8) for r in range(8)}
    assert set(desc.get("fog", [])) == every - set(view["visible"])
    assert set(desc["pieces"]) <= set(view["visible"])
    assert desc["last"] == []
    assert desc.get("own_last", []) == (
        [view["last_move"][:2], view["last_move"][2:4]] if view["last_move"] else []
    )
    premoves = desc.get("premoves", {})
    own = {sq for sq, p in desc["pieces"].items() if p["seat"] == seat}
    assert set(premoves) == (own if seat is not None else set())
    if seat is None:
        assert desc["pieces"] == {}


# -- views never leak ------------------------------------------------------------------------


def _placement(dark_fen: str) -> list[str]:
    """The 64 squares a1..h8 of a dark FEN: a piece symbol, '.' (seen empty) or '?'."""
    rows = dark_fen.split(" ")[0].split("/")
    squares: list[str] = []
    for row in reversed(rows):
        cells: list[str] = []
        for ch in row:
            cells.extend("." * int(ch) if ch.isdigit() else ch)
        assert len(cells) == 8, dark_fen
        squares.extend(cells)
    return squares


def _replayed(state: DarkChessState, plies: int | None) -> DarkBoard:
    """``state``'s board after its first ``plies`` moves, replayed from its start by ``push``."""
    board = DarkBoard(state.start_fen)
    for move in state.moves[:plies]:
        board.push(move)
    return board


def _check_views(state: DarkChessState) -> None:
    board = state.board
    # the board carries no stack: the history is the state's, and leads to the board
    assert board.move_stack == [] and GAME.ply(state) == len(state.moves)
    assert _replayed(state, None).fen() == board.fen()
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert set(view) == VIEW_KEYS
        _check_grid(view, seat, state)
        assert json.loads(json.dumps(view)) == view
        assert GAME.view(state, seat) == view
        cells = _placement(view["fen"])
        visible = {chess.parse_square(name) for name in view["visible"]}
        for square, cell in enumerate(cells):
            if square in visible:
                piece = board.piece_at(square)
                assert cell == (piece.symbol() if piece else "."), (seat, board.fen())
            else:
                assert cell == "?", (seat, chess.square_name(square), board.fen())
        fields = view["fen"].split(" ")
        last = state.moves[-1].uci() if state.moves else None
        if seat is None:
            assert visible == set()
            assert fields[2:4] == ["-", "-"]
            assert view["last_move"] is None and view["last_san"] is None
        else:
            color = seat == 0
            assert visible == set(chess.SquareSet(visible_squares(board, color, state.visibility)))
            assert board.occupied_co[color] & ~chess.SquareSet(visible).mask == 0
            mine = state.moves and board.turn != color
            assert view["last_move"] == (last if mine else None)
            if mine:  # the own move in SAN, as its mover knew it: never a check mark
                before = _replayed(state, -1)
                assert view["last_san"] == before.san(state.moves[-1]).rstrip("+#")
                assert "+" not in view["last_san"] and "#" not in view["last_san"]
            else:
                assert view["last_san"] is None
            assert set(fields[2]) <= (set("KQ") if color else set("kq")) | {"-"}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=80),
    visibility=st.sampled_from(["openspiel", "dagaz"]),
)
def test_views_show_only_visible_squares(picks: list[int], visibility: str) -> None:
    state = new(visibility=visibility)
    _check_views(state)
    for pick in picks:
        seat = seat_to_move(state)
        moves = GAME.legal_moves(state, seat)
        if not moves:
            break
        state = GAME.play(state, {seat: moves[pick % len(moves)]}, random.Random(0))
        _check_views(state)


def test_captures_are_public_and_promotions_are_not() -> None:
    fen = "4k3/P7/8/8/8/8/7K/7r w - - 0 1"
    state = play(new(fen=fen), "a7a8q")
    for seat in (1, None):
        view = GAME.view(state, seat)
        assert "Q" not in view["fen"].split(" ")[0]
        assert view["captured"]["white"] == dict.fromkeys("pnbrqk", 0)
    state = play(state, "h1a1", "a8a1")  # the queen is unseen and takes the rook
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["captured"]["black"]["r"] == 1
    assert GAME.view(state, 1)["last_move"] is None
    assert GAME.view(state, 0)["last_move"] == "a8a1"
    # the log's notation: standard (issue 34, item 11), and only for the seat that moved
    assert GAME.view(state, 0)["last_san"] == "Qxa1"
    assert GAME.view(state, 1)["last_san"] is None and GAME.view(state, None)["last_san"] is None
    assert GAME.view(play(new(), "g1f3"), 0)["last_san"] == "Nf3"


def test_the_fog_lifts_at_the_end() -> None:
    """Once the king is taken every view describes the whole board, the last move marked."""
    state = play(new(), "e2e4", "f7f5", "d1h5", "a7a6", "h5e8")
    assert state.result is not None
    for seat in (0, 1, None):
        desc = GAME.view(state, seat)["grid"]
        assert "fog" not in desc and len(desc["pieces"]) == 31
        assert desc["last"] == ["h5", "e8"]
        assert desc["pieces"]["e8"]["label"] == "white queen"
        assert any("fog has lifted" in f["text"] for f in desc["facts"])


def test_premoves_follow_how_a_figure_moves() -> None:
    """Black waits at the start: its e-pawn may be premoved one or two squares or aside."""
    desc = GAME.view(new(), 1)["grid"]
    assert sorted(desc["premoves"]["e7"]) == ["d6", "e5", "e6", "f6"]
    assert sorted(desc["premoves"]["g8"]) == ["e7", "f6", "h6"]

"""The SAN a chess state spells from the legal moves it already has (the compiled core) is
python-chess's own, which spells it without the core."""

from __future__ import annotations

import random

import chess
import pytest

from server.engine import REGISTRY, compiled, turn_rng
from server.engine.chess_moves import compiled_san, legal_codes

CHESS = REGISTRY.get("chess")

#: starting positions where disambiguation, promotions, en passant and castling are common
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
    "1k6/3P1P2/8/2N1N3/8/2N1N3/1r1P1Pq1/4K3 w - - 0 1",  # four knights, pawns to promote
    "4k3/1Q3Q2/8/3Q4/8/1Q3Q2/8/4K3 w - - 0 1",  # five queens
    "r3k2r/8/8/2R1R3/8/8/8/R3K2R w KQkq - 0 1",  # rooks on ranks and files
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",  # promotions with captures
]


@pytest.fixture(params=["compiled", "python"])
def spelled_by(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the compiled core (its SAN) and without it (python-chess's)."""
    if request.param == "python":
        for name in compiled.NAMES:
            monkeypatch.setattr(compiled, name, None)
    else:
        assert compiled.COMPILED
    return str(request.param)


def played(fen: str, seed: int, plies: int, kind: str) -> list[tuple[chess.Board, chess.Move, str]]:
    """Random games through the engine: (board before, move, the state's SAN) per ply."""
    rng = random.Random(seed)
    state = CHESS.new({"fen": fen}, 2, turn_rng("s", 0))
    out = []
    for ply in range(1, plies + 1):
        if CHESS.outcome(state) is not None:
            break
        (seat,) = CHESS.to_act(state)
        move = rng.choice(CHESS.legal_moves(state, seat))
        before = state.board.copy(stack=False)
        CHESS.outcome(state)
        state = CHESS.play(state, {seat: move}, turn_rng("s", ply))
        CHESS.outcome(state)  # as a room does: the new position's outcome, then its view
        if kind == "compiled":
            assert state.prev_codes is not None  # the SAN below is the compiled one
        else:
            assert state.prev_codes is None  # the SAN below is python-chess's
        out.append((before, move, CHESS.view(state, None)["last_san"]))
    return out


@pytest.mark.parametrize("fen", STARTS)
def test_san_of_every_move_matches_python_chess(fen: str, spelled_by: str) -> None:
    checked = 0
    # without the core python-chess spells it: a few games show the state hands it the board
    for seed in range(40 if spelled_by == "compiled" else 4):
        for before, move, san in played(fen, seed, 120, spelled_by):
            assert san == before.san(move), (before.fen(), move.uci())
            checked += 1
    assert checked >= (40 if spelled_by == "compiled" else 4)


def test_disambiguation_and_suffixes_are_exercised_by_the_compiled_comparison() -> None:
    """The comparison above meets the cases that matter (so it can fail where they differ)."""
    seen = [
        san
        for fen in STARTS
        for seed in range(40)
        for _b, _m, san in played(fen, seed, 120, "compiled")
    ]
    assert any(
        len(s.rstrip("+#")) >= 4 and s[0] in "NRQ" and s[1] in "abcdefgh12345678" and s[2] != "x"
        for s in seen
    )
    assert any(s.endswith("#") for s in seen)
    assert any(s.endswith("+") for s in seen)
    assert any("=" in s for s in seen)
    assert any(s.startswith("O-O-O") for s in seen) and any(s.startswith("O-O") for s in seen)


def test_a_broken_compiled_spelling_is_caught() -> None:
    """The compiled SAN handed no legal moves (so no rivals) drops the disambiguation."""
    board = chess.Board("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1")
    move = chess.Move.from_uci("a1b3")
    assert compiled_san(board, move, legal_codes(board), False, True) == "Nab3"
    assert compiled_san(board, move, [], False, True) == "Nb3" != board.san(move)

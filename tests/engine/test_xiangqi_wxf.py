"""XiangQi's WXF notation (server/engine/xiangqi/wxf.py) against Fairy-Stockfish's
(pyffish, ``NOTATION_XIANGQI_WXF``): moves of many random games, the tandem pieces and
crowded soldier files built on purpose, and a broken twin (files counted from the left for
both sides) that the comparison catches."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pyffish as sf
import pytest

from server.engine import get_game
from server.engine.xiangqi import Xiangqi, XiangqiState, from_fen, write_fen
from server.engine.xiangqi import wxf as notation
from server.engine.xiangqi.board import SQUARES
from server.engine.xiangqi.values import XiangqiMove

GAME = cast(Xiangqi, get_game("xiangqi"))
N_GAMES = 30
EVERY = 5
#: positions where like pieces share a file: tandem chariots, cannons and soldiers
CROWDED = [
    "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",  # three soldiers on file 5
    "3k5/9/2P1P4/2P1P4/9/9/9/9/9/4K4 w - - 0 1",  # two files of two soldiers
    "4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1",  # Black's three
    "3k5/9/9/9/9/9/9/9/4R4/4RK3 w - - 0 1",  # tandem chariots
    "4k4/4r4/9/4r4/9/9/9/9/9/3K5 b - - 0 1",  # Black's tandem chariots
    "2rak1b2/c2n3r1/1C3a1cn/P5p2/2b5p/2p1p4/RCP1N1P1P/N3B3R/9/2BAKA3 w - - 10 26",
    "3a2bn1/c1r1ak1r1/Pn7/1C4p2/8p/1Cp3B1P/1Rp3P1R/N3c4/N8/2BAKA3 b - - 0 38",
]


def uci(move: XiangqiMove) -> str:
    return f"{SQUARES.name(move.src)}{SQUARES.name(move.dst)}"


def theirs(state: XiangqiState, move: XiangqiMove) -> str:
    return sf.get_san("xiangqi", write_fen(state), uci(move), False, sf.NOTATION_XIANGQI_WXF)


Sample = list[tuple[XiangqiState, XiangqiMove]]


def differences(wxf: Callable[[str, XiangqiMove], str], sample: Sample) -> list:
    out = []
    for state, move in sample:
        ours, fsf = wxf(state.board, move), theirs(state, move)
        if ours != fsf:
            out.append((write_fen(state), uci(move), ours, fsf))
    return out


def random_sample(seed: int) -> Sample:
    """Moves of random games: at every ``EVERY``-th position, three of its moves."""
    rng, out = random.Random(seed), []
    for _ in range(N_GAMES):
        state = GAME.new({}, 2, rng)
        for ply in range(rng.randrange(20, 160)):
            if GAME.outcome(state) is not None:
                break
            legal = GAME.legal_moves(state, state.to_move)
            if ply % EVERY == 0:
                out += [(state, m) for m in rng.sample(legal, min(3, len(legal)))]
            state = GAME.apply(state, rng.choice(legal))
    return out


@pytest.fixture(scope="module")
def sample() -> Sample:
    crowded = [from_fen(fen) for fen in CROWDED]
    return random_sample(1) + [(s, m) for s in crowded for m in GAME.legal_moves(s, s.to_move)]


def test_every_move_is_written_as_fairy_stockfish_writes_it(sample: Sample) -> None:
    assert len(sample) > 600
    assert differences(notation.wxf, sample) == []


def test_the_opening_moves_players_know() -> None:
    start = GAME.new({}, 2, random.Random(0))
    moves = [XiangqiMove.from_text(t) for t in ("h3-e3", "h10-g8", "h1-g3", "i10-h10")]
    assert notation.wxf_moves(start.board, moves) == ["C2=5", "H8+7", "H2+3", "R9=8"]


def test_a_twin_counting_files_from_the_left_is_caught(sample: Sample) -> None:
    def left(file: int, seat: int) -> int:
        return file + 1

    real = notation.file_number
    notation.file_number = left  # the broken twin: Red's files counted from Black's right
    try:
        assert differences(notation.wxf, sample[:50])
    finally:
        notation.file_number = real

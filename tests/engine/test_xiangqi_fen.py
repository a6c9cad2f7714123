"""XiangQi from a position (docs/GAMES.md 5.6.6): the ``fen`` option in Fairy-Stockfish's FEN,
refused whole with a reason when it is no position, written back the same, and checked
against pyffish — its FEN after the same moves, and perft against its legal moves."""

from __future__ import annotations

import random
from typing import cast

import pyffish as sf
import pytest

from server.engine import InvalidOptions, get_game
from server.engine.perft import perft
from server.engine.xiangqi import (
    START,
    START_FEN,
    Xiangqi,
    XiangqiState,
    from_fen,
    read_fen,
    rows,
    write_fen,
)

from . import xiangqi_fsf as fsf

GAME = cast(Xiangqi, get_game("xiangqi"))
RNG = random.Random(0)

#: positions with the side to move in check, or a general held by the flying-general rule
CHECKS = {
    # Black in check by a cannon over its own soldier; Red's general off the file
    "cannon check": "4k4/9/4p4/9/9/9/9/4C4/9/3K5 b - - 0 1",
    # Red in check by a horse (leg d2 free) and a soldier at once
    "double check": "3k5/9/9/9/9/9/9/9/2n1p4/4K4 w - - 4 31",
    # the generals on files d and e: neither may step onto the other's file
    "flying general": "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 60",
    # Black's horse, alone between the generals, may not move at all
    "pinned between generals": "4k4/4n4/9/9/9/9/9/9/9/4K4 b - - 12 40",
    # Red's chariot between the generals, pinned by a chariot: along the file only
    "pinned by a chariot": "4k4/4r4/9/9/2n6/9/9/9/4R4/4K4 w - - 0 9",
    # a cannon checks over Black's own horse: the horse steps off, or the chariot takes
    "cannon screen": "4k4/4n4/9/9/9/9/9/r3C4/9/3K5 b - - 0 20",
}


def start(**options: object) -> XiangqiState:
    return GAME.new(GAME.check_options(options), 2, RNG)


def play_random(state: XiangqiState, plies: int, seed: int) -> tuple[XiangqiState, list[str]]:
    """``plies`` random moves (half the time a capture when there is one), fewer if the game
    ends; the state then and the moves in UCI."""
    rng, ucis = random.Random(seed), []
    for _ in range(plies):
        if GAME.outcome(state) is not None:
            break
        moves = GAME.generate(state)
        captures = [m for m in moves if m.capture]
        move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        ucis.append(fsf.to_uci(move))
        state = GAME.apply(state, move)
    return state, ucis


# -- the option ----------------------------------------------------------------------------


def test_the_start_is_the_default_and_reads_back() -> None:
    assert GAME.check_options(None)["fen"] == START_FEN == sf.start_fen("xiangqi")
    state = start()
    assert rows(state.board) == START and state.to_move == 0 and state.ply == 0
    assert write_fen(state) == START_FEN and GAME.view(state, None)["fen"] == START_FEN
    assert GAME.options["fen"].to_json()["type"] == "str"


@pytest.mark.parametrize("fen", [*CHECKS.values(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 99 1"])
def test_a_position_reads_back_as_the_same_fen(fen: str) -> None:
    state = start(fen=fen)
    assert write_fen(state) == fen and GAME.view(state, None)["fen"] == fen
    assert GAME.ply(state) == 0 and state.quiet == int(fen.split()[4])
    assert state.in_check == sf.gives_check("xiangqi", fen, [])  # pyffish: side to move in check


def test_short_fens_take_the_usual_counters() -> None:
    assert write_fen(start(fen="4k4/9/9/9/9/9/9/9/9/3K5 b")) == "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1"
    assert write_fen(start(fen="4k4/9/9/9/9/9/9/9/9/3K5  w  - -")).endswith(" w - - 0 1")


@pytest.mark.parametrize(
    ("fen", "says"),
    [
        ("", "expected 'placement side"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "expected 'placement"),
        (START_FEN + " 7", "expected 'placement side"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "expected 10 ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "expected 10 ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w", "10 points, expected 9"),
        ("rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "8 points, expected 9"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/45/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "one digit, 1 to 9"),
        ("rnbakabnr/0/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "one digit"),
        ("rnbqkbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "'q' is no piece"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR.. w", "'.' is no piece"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "exactly one general"),
        ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "exactly one general"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "outside its palace"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r", "side to move 'r'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR W", "side to move 'W'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1", "no castling"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - e3 0 1", "no castling"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1", "0 or more"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "1 or more"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "0 or more"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "faces the other"),  # the generals face
        ("4k4/9/4p4/9/9/9/9/4C4/9/3K5 w - - 0 1", "Black, not to move, is in check"),
        ("rnbakabnr/" * 9 + "RNBAKABNR w - - 0 1" + " " * 100, "longer than 120"),
        (7, "must be of type str"),
    ],
)
def test_a_bad_fen_is_refused_with_the_reason(fen: object, says: str) -> None:
    with pytest.raises(InvalidOptions, match=says) as err:
        GAME.check_options({"fen": fen})
    if isinstance(fen, str) and len(fen) <= 120:
        assert str(err.value).startswith("option 'fen' is not a XiangQi position: ")
        with pytest.raises(ValueError, match=says):
            read_fen(fen)


# -- against Fairy-Stockfish ---------------------------------------------------------------


def test_fens_after_random_games_equal_fairy_stockfishs() -> None:
    """Our FEN of positions of random games (every fifth: a pyffish call is slow) is
    pyffish's after the same moves, from the start and from a midgame FEN with Black to move
    (move numbers, quiet plies); every one reads back as the same position."""
    roots = [START_FEN, "2bak4/4a4/4b1n2/p3p1C1p/2p6/6P2/P3P3P/2N1B4/4A4/2BAK1R2 b - - 3 17"]
    positions = compared = 0
    for root in roots:
        for seed in range(3):
            state, ucis = start(fen=root), []
            for _ in range(150):
                fen = write_fen(state)
                if len(ucis) % 5 == 0:
                    assert fen == sf.get_fen("xiangqi", root, ucis), (root, seed, ucis)
                    compared += 1
                again = from_fen(fen)
                assert (again.board, again.to_move, again.quiet, again.in_check) == (
                    state.board,
                    state.to_move,
                    state.quiet,
                    state.in_check,
                )
                assert write_fen(again) == fen
                positions += 1
                if GAME.outcome(state) is not None:
                    break
                state, more = play_random(state, 1, seed * 1000 + state.ply)
                ucis += more
    assert positions > 400 and compared > 80


def midgame_fens() -> list[str]:
    """FENs pyffish writes after random play from the start: middle games, either side to
    move, and an end game with chariots and a cannon."""
    out = []
    for seed, plies in ((5, 20), (3, 41), (5, 61)):
        _, ucis = play_random(start(), plies, seed)
        out.append(sf.get_fen("xiangqi", START_FEN, ucis))
    return out


def test_perft_from_fens_equals_fairy_stockfishs_legal_moves() -> None:
    """Perft 2 (3 where that is small: pyffish answers a position in milliseconds) from the
    start, midgame positions of random play and the checks and flying generals of
    ``CHECKS``, each read from its FEN, equals the leaves of pyffish's tree of
    ``legal_moves("xiangqi", fen, moves)``."""
    fens = [START_FEN, *midgame_fens(), *CHECKS.values()]
    for fen in fens:
        state = start(fen=fen)
        assert fsf.ours(state) == fsf.fsf_legal(state), fen
        depth = 3 if perft(GAME, state, 2) <= 50 else 2
        assert perft(GAME, state, depth) == fsf.fsf_perft(state, depth), fen
    assert perft(GAME, start(fen=CHECKS["double check"]), 1) == 2  # Ke1 takes e2 or steps aside


def test_views_and_snapshots_keep_the_move_number() -> None:
    state = start(fen=CHECKS["pinned between generals"])
    state, _ = play_random(state, 3, 7)
    assert write_fen(state).endswith(" 15 42") and state.ply == 3
    view = GAME.view(state, 0)
    assert GAME.determinize([view], 0, RNG) == state
    assert GAME.decode_state(GAME.encode_state(state)) == state
    old = {k: v for k, v in GAME.encode_state(state).items() if k != "first_ply"}
    assert write_fen(GAME.decode_state(old)).endswith(" 15 2")  # a snapshot from before

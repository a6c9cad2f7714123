"""Chess (docs/GAMES.md "Decisions": FIDE rules via python-chess)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import chess
import chess.pgn
import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, get_game
from server.engine.chess_game import ChessState
from server.engine.perft import divide, perft

GAME = get_game("chess")
PERFT = json.loads((Path(__file__).parent / "perft_chess.json").read_text())["positions"]
KIWIPETE = next(p["fen"] for p in PERFT if p["name"] == "kiwipete")


def new(fen: str | None = None) -> ChessState:
    options = GAME.check_options({"fen": fen} if fen else {})
    return GAME.new(options, 2, random.Random(0))


def seat_to_move(state: ChessState) -> int:
    return 0 if state.board.turn == chess.WHITE else 1


def play(state: ChessState, *texts: str) -> ChessState:
    for text in texts:
        seat = seat_to_move(state)
        state = GAME.play(state, {seat: GAME.parse_move(state, seat, text)}, random.Random(0))
    return state


# -- perft ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "depth", "expected"),
    [
        pytest.param(p["fen"], depth, count, id=f"{p['name']}-{depth}")
        for p in PERFT
        for depth, count in enumerate(p["counts"], start=1)
    ],
)
def test_perft(fen: str, depth: int, expected: int) -> None:
    state = new(fen)
    count = perft(GAME, state, depth)
    if count != expected:
        split = divide(GAME, state, depth)
        lines = "\n".join(f"{move}: {n}" for move, n in sorted(split.items()))
        pytest.fail(f"perft({depth}) of {fen} is {count}, expected {expected}:\n{lines}")


# -- moves ------------------------------------------------------------------------------------


def test_moves_round_trip() -> None:
    for state in (new(), new(KIWIPETE), play(new(), "e4", "d5", "e5", "f5")):
        seat = seat_to_move(state)
        moves = GAME.legal_moves(state, seat)
        assert moves
        for move in moves:
            assert GAME.parse_move(state, seat, str(move)) == move
            assert eval(repr(move), {"Move": chess.Move}) == move
    en_passant = play(new(), "e4", "d5", "e5", "f5")
    assert chess.Move.from_uci("e5f6") in GAME.legal_moves(en_passant, 0)


def test_san_input() -> None:
    state = new()
    assert GAME.parse_move(state, 0, "Nf3") == chess.Move.from_uci("g1f3")
    assert GAME.parse_move(state, 0, "e4") == chess.Move.from_uci("e2e4")
    assert GAME.parse_move(new(KIWIPETE), 0, "O-O") == chess.Move.from_uci("e1g1")
    with pytest.raises(IllegalMove):
        GAME.parse_move(state, 0, "Ke2")
    with pytest.raises(InvalidMove):
        GAME.parse_move(state, 0, "xyz")


def test_illegal_move_raises_and_changes_nothing() -> None:
    state = play(new(), "e4")
    fen, stack = state.board.fen(), state.moves
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: chess.Move.from_uci("e7e4")}, random.Random(0))
    with pytest.raises(IllegalMove):  # not White's turn
        GAME.play(state, {0: chess.Move.from_uci("d2d4")}, random.Random(0))
    with pytest.raises(IllegalMove):  # a move for each acting seat, no more
        GAME.play(
            state,
            {1: chess.Move.from_uci("e7e5"), 0: chess.Move.from_uci("d2d4")},
            random.Random(0),
        )
    assert state.board.fen() == fen
    assert state.moves == stack
    assert GAME.ply(state) == 1


# -- the end of the game ------------------------------------------------------------------------


def test_fools_mate() -> None:
    state = play(new(), "f3", "e5", "g4", "Qh4")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.scores) == ("checkmate", 1, (0.0, 1.0))
    assert GAME.to_act(state) == frozenset()
    assert GAME.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: chess.Move.from_uci("a2a3")}, random.Random(0))


def test_stalemate() -> None:
    state = play(new("7k/8/6K1/5Q2/8/8/8/8 w - - 0 1"), "Qf7")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.scores) == ("stalemate", None, (0.5, 0.5))


KNIGHT_SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2


def test_threefold_repetition_ends_the_game() -> None:
    state = new()
    for uci in KNIGHT_SHUFFLE:
        if GAME.outcome(state) is not None:
            break
        state = play(state, uci)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.reason, outcome.winner) == ("repetition", None)


def test_repetition_ends_the_game_at_the_third_occurrence() -> None:
    state = play(new(), *KNIGHT_SHUFFLE[:7])
    assert GAME.outcome(state) is None  # Black may still avoid ...Ng8
    state = play(state, KNIGHT_SHUFFLE[7])
    assert GAME.outcome(state) is not None


def test_fifty_moves_end_the_game_at_the_hundredth_half_move() -> None:
    state = new("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert GAME.outcome(state) is None
    state = play(state, "a1a2")
    assert GAME.outcome(state) is not None


# -- options and snapshots ----------------------------------------------------------------------


def test_fen_option() -> None:
    assert GAME.check_options({}) == {"fen": chess.STARTING_FEN}
    state = new(KIWIPETE)
    assert state.board.fen() == KIWIPETE
    assert len(GAME.legal_moves(state, 0)) == 48
    for bad in ("not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/R3K2r b Q - 0 1"):
        with pytest.raises(InvalidOptions):
            GAME.check_options({"fen": bad})
    with pytest.raises(InvalidOptions):
        GAME.check_options({"fen": 42})
    with pytest.raises(InvalidOptions):
        GAME.check_options({"colour": "white"})


def test_encode_decode_round_trip() -> None:
    for state in (play(new(), "e4", "e5", "Nf3", "Nc6", "Bb5"), play(new(KIWIPETE), "O-O")):
        data = GAME.encode_state(state)
        assert json.loads(json.dumps(data)) == data
        again = GAME.decode_state(data)
        assert again.board.fen() == state.board.fen()
        assert again.moves == state.moves and not again.board.move_stack
        assert GAME.view(again, 0) == GAME.view(state, 0)


def test_pgn_export_parses_back() -> None:
    for fen, line in ((None, ["f3", "e5", "g4", "Qh4"]), (KIWIPETE, ["O-O", "Bxe2", "Qxe2"])):
        state = play(new(fen), *line)
        outcome = GAME.outcome(state)
        record = {
            "game": "chess",
            "room": "r1",
            "options": {"fen": fen} if fen else {},
            "players": ["ann", None],
            "moves": [{"moves": {str(i % 2): m.uci()}} for i, m in enumerate(state.moves)],
            "outcome": outcome.to_json() if outcome else None,
        }
        pgn = GAME.export(record)["pgn"]
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert game is not None and not game.errors
        assert tuple(game.mainline_moves()) == state.moves
        assert game.end().board().fen() == state.board.fen()
        assert game.headers["White"] == "ann" and game.headers["Black"] == "?"
        assert game.headers["Result"] == ("0-1" if outcome else "*")
        assert ("FEN" in game.headers) == (fen is not None)


def test_fast_fen_matches_python_chess_on_random_games() -> None:
    """The view's FEN is built from bitboards; python-chess is the oracle (castling rights,
    legal-only en passant squares, promotions, clocks)."""
    from server.engine.chess_fen import fen

    rng = random.Random(7)
    checked = 0
    for start in (chess.STARTING_FEN, KIWIPETE, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1"):
        for _ in range(20):
            board = chess.Board(start)
            for _ in range(rng.randrange(1, 120)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
                assert fen(board) == board.fen()
                checked += 1
    assert checked > 1000


def test_the_history_is_the_state_s_and_the_board_a_plain_python_chess_board() -> None:
    """The state's board is built through python-chess's public API and carries no history
    (an empty, consistent stack); the moves from the start are the state's. Replayed by
    python-chess from the start FEN they give the same position — en passant square,
    castling rights, clocks — and the same draws by repetition, in random games from the
    standard start and from Kiwipete (castling both ways, en passant)."""
    for seed in range(30):
        rng = random.Random(seed)
        state = new(KIWIPETE if seed % 2 else None)
        reference = chess.Board(state.start_fen)
        for _ in range(rng.randrange(20, 140)):
            if GAME.outcome(state) is not None:
                break
            move = rng.choice(GAME.legal_moves(state, min(GAME.to_act(state))))
            state = GAME.play(state, {min(GAME.to_act(state)): move}, random.Random(0))
            reference.push(move)
            board = state.board
            assert type(board) is chess.Board and board.move_stack == []
            assert state.moves == tuple(reference.move_stack)
            assert board.fen(en_passant="fen") == reference.fen(en_passant="fen")
            assert board.castling_rights == reference.clean_castling_rights()
            assert board.has_legal_en_passant() == reference.has_legal_en_passant()
            repeated = reference.is_repetition(3)
            outcome = GAME.outcome(state)
            assert (outcome is not None and outcome.reason == "repetition") == (
                repeated
                and not reference.is_checkmate()
                and not reference.is_stalemate()
                and not reference.is_insufficient_material()
                and reference.halfmove_clock < 150
            ), reference.fen()
        # the board is a usable python-chess board: a copy pushes and pops
        copy = state.board.copy()
        for move in list(copy.legal_moves)[:3]:
            copy.push(move)
            copy.pop()
        assert copy.fen() == state.board.fen()

"""Dark Chess (docs/GAMES.md 2): the 2.4 vectors, and OpenSpiel's ``dark_chess`` as the oracle.

OpenSpiel numbers its players the other way round: player 0 is Black, player 1 is White.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable

import chess
import pyspiel
import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, get_game
from server.engine.dark_chess import (
    DarkBoard,
    DarkChessState,
    ep_square,
    read_pgn,
)
from server.engine.perft import perft

GAME = get_game("dark_chess")
CASTLE_FEN = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"
OPENSPIEL_PLAYER = {0: 1, 1: 0}  # our seat -> OpenSpiel player
SAN_FORMAT = re.compile(r"^(O-O|O-O-O|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?)$")


def new(**options: str) -> DarkChessState:
    return GAME.new(GAME.check_options(options), 2, random.Random(0))


def seat_to_move(state: DarkChessState) -> int:
    return 0 if state.board.turn == chess.WHITE else 1


def play(state: DarkChessState, *texts: str) -> DarkChessState:
    for text in texts:
        seat = seat_to_move(state)
        move = GAME.parse_move(state, seat, text)
        state = GAME.play(state, {seat: move}, random.Random(0))
    return state


def fen_of(state: DarkChessState, seat: int | None) -> str:
    return GAME.view(state, seat)["fen"]


def uci_set(moves: Iterable[chess.Move]) -> set[str]:
    return {m.uci() for m in moves}


def uci_line(*sans: str, fen: str | None = None) -> list[str]:
    board = DarkBoard(fen) if fen else DarkBoard()
    out = []
    for san in sans:
        move = board.parse_san(san)
        board.push(move)
        out.append(move.uci())
    return out


def openspiel_state(fen: str | None = None) -> pyspiel.State:
    params = {"fen": fen} if fen else {}
    return pyspiel.load_game("dark_chess", params).new_initial_state()


def openspiel_moves(os_state: pyspiel.State, board: DarkBoard) -> dict[int, chess.Move]:
    """OpenSpiel's legal actions as our moves. Its action strings are SAN without check
    marks, disambiguated among the pseudo-legal moves, which DarkBoard reads."""
    player = os_state.current_player()
    out = {}
    for action in os_state.legal_actions():
        san = os_state.action_to_string(player, action)
        assert SAN_FORMAT.match(san), san
        out[action] = board.parse_san(san)
    return out


def openspiel_obs(board: chess.Board, ours: str, color: chess.Color) -> str:
    """Our dark FEN with its e.p. field as OpenSpiel writes it.

    OpenSpiel (chess_board.cc ToDarkFEN) looks for the observer's pawn at file +-1 of the
    e.p. square without a bounds check, so for an e.p. square on the a- or h-file it reads
    the h- or a-file square of the neighbouring rank. We keep the bounds; this reproduces
    the wrap-around so the comparison stays exact.
    """
    ep = ep_square(board)
    field = "-"
    if ep is not None:
        rank = chess.square_rank(ep) + (-1 if color == chess.WHITE else 1)
        for file in (chess.square_file(ep) + 1, chess.square_file(ep) - 1):
            index = rank * 8 + file  # OpenSpiel's SquareToIndex, unchecked
            if 0 <= index < 64 and board.piece_at(index) == chess.Piece(chess.PAWN, color):
                field = chess.square_name(ep)
                break
    parts = ours.split(" ")
    parts[3] = field
    return " ".join(parts)


def assert_same_as_openspiel(state: DarkChessState, os_state: pyspiel.State) -> None:
    for seat in (0, 1):
        color = seat == 0
        expected = openspiel_obs(state.board, fen_of(state, seat), color)
        assert os_state.observation_string(OPENSPIEL_PLAYER[seat]) == expected, (
            seat,
            state.board.fen(),
        )


def _play_both(fen: str | None, line: list[str]) -> tuple[DarkChessState, pyspiel.State]:
    state = new(fen=fen) if fen else new()
    os_state = openspiel_state(fen)
    for uci in line:
        assert not os_state.is_terminal()
        assert GAME.outcome(state) is None
        actions = openspiel_moves(os_state, state.board)
        os_state.apply_action(next(a for a, m in actions.items() if m.uci() == uci))
        state = play(state, uci)
    return state, os_state


# -- docs/GAMES.md 2.4 vectors ---------------------------------------------------------------------


def test_start_views_and_moves() -> None:
    state = new()
    assert len(GAME.legal_moves(state, 0)) == 20
    assert GAME.legal_moves(state, 1) == []
    assert (
        fen_of(state, 0) == "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
    )
    assert (
        fen_of(state, 1) == "rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? w kq - 0 1"
    )


def test_after_e4_e5() -> None:
    state = play(new(), "e2e4", "e7e5")
    assert len(GAME.legal_moves(state, 0)) == 29
    assert fen_of(state, 0) == (
        "????????/????????/1???????/?1?????1/4P3/4?3/PPPP1PPP/RNBQKBNR w KQ - 0 2"
    )
    assert fen_of(state, 1) == (
        "rnbqkbnr/pppp1ppp/4?3/4p3/?1?????1/1???????/????????/???????? w kq - 0 2"
    )
    visible = set(GAME.view(state, 0)["visible"])
    assert not visible & {"e5", "d5", "f5", "e3"}


def test_dagaz_visibility_after_e4_e5() -> None:
    """2.1: the blocked pawn sees its blocker and both diagonals; e3 is seen too."""
    state = play(new(visibility="dagaz"), "e2e4", "e7e5")
    assert fen_of(state, 0) == (
        "????????/????????/1???????/?1?1p1?1/4P3/8/PPPP1PPP/RNBQKBNR w KQ - 0 2"
    )
    assert {"d5", "e5", "f5", "e3"} <= set(GAME.view(state, 0)["visible"])
    # the moves are the same, only the fog differs
    assert len(GAME.legal_moves(state, 0)) == 29


def test_check_does_not_restrict_moves() -> None:
    state = play(new(), "e4", "f5", "Qh5")
    moves = uci_set(GAME.legal_moves(state, 1))
    assert len(moves) == 20
    assert {"a7a6", "e8f7", "g7g6"} <= moves


def test_king_capture_wins() -> None:
    state, os_state = _play_both(None, uci_line("f3", "e5", "g4", "Qh4", "a3", "Qxe1"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.reason == "king_captured"
    assert outcome.winner == 1
    assert outcome.scores == (0.0, 1.0)
    assert GAME.to_act(state) == frozenset()
    assert os_state.is_terminal()
    assert os_state.returns() == [1.0, -1.0]  # [Black, White]
    assert_same_as_openspiel(state, os_state)


def test_castling_through_check() -> None:
    state = new(fen=CASTLE_FEN)
    moves = uci_set(GAME.legal_moves(state, 0))
    expected = {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "e1c1"}
    expected |= {f"a1a{r}" for r in range(2, 9)} | {"a1b1", "a1c1", "a1d1"}
    expected |= {"h1f1", "h1g1"} | {f"h1h{r}" for r in range(2, 9)}
    assert len(expected) == 26
    assert moves == expected
    assert fen_of(state, 0) == (
        "1??????1/1??????1/1??????1/1??????1/1??????1/1??????1/1??2r?1/R3K2R w KQ - 0 1"
    )
    after = play(state, "O-O")
    assert after.board.piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)
    assert after.board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)


def test_vectors_agree_with_openspiel() -> None:
    for fen, line in ((None, ["e4", "e5"]), (CASTLE_FEN, []), (None, ["e4", "f5", "Qh5"])):
        state = new(fen=fen) if fen else new()
        os_state = openspiel_state(fen)
        for san in line:
            move = state.board.parse_san(san)
            actions = openspiel_moves(os_state, state.board)
            os_state.apply_action(next(a for a, m in actions.items() if m == move))
            state = GAME.play(state, {seat_to_move(state): move}, random.Random(0))
        actions = openspiel_moves(os_state, state.board)
        assert set(actions.values()) == set(GAME.legal_moves(state, seat_to_move(state)))
        assert_same_as_openspiel(state, os_state)


# -- draws, compared with OpenSpiel -------------------------------------------------------------


def test_threefold_repetition() -> None:
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    state, os_state = _play_both(None, shuffle * 2)
    assert os_state.is_terminal()
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state).reason == "repetition"


def test_repetition_ignores_an_en_passant_square_nobody_can_use() -> None:
    """After 1.e4 no black pawn can take e3, so the position repeats with the knights."""
    line = ["e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"]
    state, os_state = _play_both(None, line)
    assert os_state.is_terminal()
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state).reason == "repetition"


def test_fifty_moves() -> None:
    state, os_state = _play_both("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ["a1a2"])
    assert os_state.is_terminal()
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state).reason == "fifty_moves"
    assert GAME.outcome(state).winner is None


def test_no_moves_is_a_draw() -> None:
    fen = "KRBRBRBR/PP1P1P1P/8/8/8/8/8/k7 w - - 0 1"
    state = new(fen=fen)
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state).reason == "stalemate"
    assert GAME.to_act(state) == frozenset()
    os_state = openspiel_state(fen)
    assert os_state.is_terminal()
    assert os_state.returns() == [0.0, 0.0]


# -- OpenSpiel on random games ----------------------------------------------------------------

N_GAMES = 100  # about 7,000 positions in the suite; raise it for a longer trial
PLY_CAP = 150


def test_random_games_match_openspiel() -> None:
    """Legal moves and both observations at every ply, and the result, of seeded random
    games (random legal moves until the end or PLY_CAP plies)."""
    reasons: dict[str | None, int] = {}
    for seed in range(N_GAMES):
        rng = random.Random(seed)
        state = new()
        os_state = openspiel_state()
        for _ply in range(PLY_CAP):
            assert_same_as_openspiel(state, os_state)
            if os_state.is_terminal():
                break
            assert GAME.outcome(state) is None, (seed, state.board.fen())
            actions = openspiel_moves(os_state, state.board)
            ours = GAME.legal_moves(state, seat_to_move(state))
            assert len(ours) == len(actions), (seed, state.board.fen())
            assert set(ours) == set(actions.values()), (seed, state.board.fen())
            action = rng.choice(sorted(actions))
            os_state.apply_action(action)
            state = GAME.play(state, {seat_to_move(state): actions[action]}, rng)
        outcome = GAME.outcome(state)
        assert (outcome is None) == (not os_state.is_terminal()), (seed, state.board.fen())
        if outcome is not None:
            returns = os_state.returns()
            assert [2 * outcome.scores[1] - 1, 2 * outcome.scores[0] - 1] == returns
        reason = outcome.reason if outcome else None
        reasons[reason] = reasons.get(reason, 0) + 1
    assert reasons.get("king_captured", 0) > N_GAMES // 2


# -- contract ---------------------------------------------------------------------------------


def test_options() -> None:
    assert GAME.check_options({}) == {"fen": chess.STARTING_FEN, "visibility": "openspiel"}
    with pytest.raises(InvalidOptions):
        GAME.check_options({"visibility": "bright"})
    with pytest.raises(InvalidOptions):
        GAME.check_options({"fen": "not a fen"})
    with pytest.raises(InvalidOptions):
        GAME.check_options({"fen": "8/8/8/8/8/8/8/4K3 w - - 0 1"})  # no black king
    # a king standing in check on the side not to move is fine in dark chess
    GAME.check_options({"fen": "4k3/8/8/8/8/8/8/R3K2r b Q - 0 1"})


def test_moves_round_trip_and_san_input() -> None:
    state = play(new(), "e4", "d5")
    for move in GAME.legal_moves(state, 0):
        assert GAME.parse_move(state, 0, str(move)) == move
    assert GAME.parse_move(state, 0, "exd5") == chess.Move.from_uci("e4d5")
    with pytest.raises(InvalidMove):
        GAME.parse_move(state, 0, "hello")


def test_illegal_move_changes_nothing_and_hides_the_board() -> None:
    state = play(new(), "e4", "e5")
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, {0: chess.Move.from_uci("e4e5")}, random.Random(0))
    assert "/" not in str(err.value)
    with pytest.raises(IllegalMove) as err:
        GAME.parse_move(state, 0, "Nd5")
    assert "/" not in str(err.value)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: chess.Move.from_uci("d7d5")}, random.Random(0))
    lost_right = play(new(fen=CASTLE_FEN), "a1b1", "e8d8", "b1a1", "d8e8")
    with pytest.raises(IllegalMove):  # castling needs the rook's right, not just a free path
        GAME.play(lost_right, {0: chess.Move.from_uci("e1c1")}, random.Random(0))
    assert GAME.encode_state(state) == before


def test_encode_decode_round_trip() -> None:
    state = play(new(visibility="dagaz"), "e4", "d5", "exd5", "Qxd5", "Nc3")
    data = GAME.encode_state(state)
    assert json.loads(json.dumps(data)) == data
    again = GAME.decode_state(data)
    assert again.board.fen() == state.board.fen()
    assert again.keys == state.keys and again.captured == state.captured
    for seat in (0, 1, None):
        assert GAME.view(again, seat) == GAME.view(state, seat)
    assert GAME.ply(again) == 5


def test_perft_fast_path_matches_play() -> None:
    """The fast perft hook against the generic one driven through play(); numbers are
    OpenSpiel's dark_chess perft (pseudo-legal, so 197742 at depth 4, not chess's 197281)."""

    class Slow:
        def __getattr__(self, name: str) -> object:
            if name == "perft":
                raise AttributeError(name)
            return getattr(GAME, name)

    state = new()
    assert [GAME.perft(state, d) for d in (1, 2, 3, 4)] == [20, 400, 8902, 197742]
    assert perft(Slow(), state, 3) == 8902
    kiwipete = new(fen="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert [GAME.perft(kiwipete, d) for d in (1, 2)] == [48, 2049]
    assert perft(Slow(), kiwipete, 2) == 2049
    ended = play(new(), "f3", "e5", "g4", "Qh4", "a3", "Qxe1")
    assert GAME.perft(ended, 1) == 0 == perft(Slow(), ended, 1)


def _record(state: DarkChessState) -> dict[str, object]:
    outcome = GAME.outcome(state)
    return {
        "game": "dark_chess",
        "room": "r1",
        "options": {"fen": state.start_fen, "visibility": state.visibility},
        "players": ["ann", "bob"],
        "moves": [{"moves": {str(i % 2): m.uci()}} for i, m in enumerate(state.moves)],
        "outcome": outcome.to_json() if outcome else None,
    }


def test_pgn_export_reads_back() -> None:
    running = play(new(), "e4", "f5", "Qh5", "Kf7", "Qxf5", "Ke8", "Qxf8", "Kxf8")
    pgn = GAME.export(_record(running))["pgn"]
    assert '[Variant "Dark Chess"]' in pgn and '[Result "*"]' in pgn
    assert "Kf7" in pgn  # a move into check, illegal in chess
    game = read_pgn(pgn)
    assert game is not None and not game.errors
    assert tuple(game.mainline_moves()) == running.moves

    ended = play(new(), "f3", "e5", "g4", "Qh4", "a3", "Qxe1")
    pgn = GAME.export(_record(ended))["pgn"]
    assert '[Result "0-1"]' in pgn and '[Termination "Normal"]' in pgn  # as lichess writes it
    game = read_pgn(pgn)
    assert game is not None and not game.errors
    assert game.end().board().board_fen() == ended.board.board_fen()

    castled = play(new(fen=CASTLE_FEN), "O-O-O", "e8d8", "Rh2")
    pgn = GAME.export(_record(castled))["pgn"]
    assert f'[FEN "{CASTLE_FEN}"]' in pgn and "1. O-O-O Kd8 2. Rh2+ *" in pgn
    game = read_pgn(pgn)
    assert game is not None and not game.errors
    assert tuple(game.mainline_moves()) == castled.moves

"""The compiled chess core (``_chess_moves.c``) gives python-chess's legal moves, list for
list (same order), as codes; and python-chess answers for it where it cannot (no compiler,
``KIBITZ_PURE_PYTHON=1``, a board of another class).

Tests that need the core say ``compiled`` in their name (or parameter): CI's run without it
(``KIBITZ_PURE_PYTHON=1``, ``.ci/run``) leaves them out with ``-k "not compiled"``."""

from __future__ import annotations

import random
from collections.abc import Callable

import chess
import pytest

from server.engine import _chess_moves as core
from server.engine import chess_moves
from server.engine.chess_moves import legal_codes, pseudo_codes, to_move

# positions that exercise pins, en passant (also the horizontal skewer), castling through
# and out of check, promotions with and without capture, double check
TRICKY = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # kiwipete
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",  # e.p. would expose the king along the rank
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # e.p. out of check by the pushed pawn
    "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1",  # in check: no castling
    "4k3/8/4r3/8/8/8/3PPP2/R3K2R w KQ - 0 1",  # castle through an attacked square? no
    "3k4/8/8/8/8/8/5n2/4K2R w K - 0 1",  # knight check
    "4k3/8/8/1b6/8/8/4r3/4K3 w - - 0 1",  # double-check-like lines
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",  # promotion and capture-promotion
    "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1",
    "2b1k3/8/8/3Pp3/6K1/8/8/8 w - e6 0 1",  # (set up) e.p. blocks a bishop's check
]


def _compiled(mode: int) -> Callable[..., list[int]]:
    """The core's generator (mode 0: legal moves onto ``to_mask``, 1: legal captures, as the
    compiled search's quiescence makes them, 2: pseudo-legal captures), called on the core
    itself whether or not ``KIBITZ_PURE_PYTHON`` switched it off for the rest."""

    def gen(board: chess.Board, to_mask: int = -1) -> list[int]:
        fields = _fields_of(board)
        out = core.gen(mode, *fields, to_mask & chess.BB_ALL)
        assert out is not None, "the compiled generator did not answer"
        return out

    return gen


def _fields_of(board: chess.Board) -> tuple[object, ...]:
    """``standard_fields`` of ``board``, whether or not the core is switched on."""
    ep = board.ep_square
    black, white = board.occupied_co
    return (
        board.turn,
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.promoted,
        -1 if ep is None else ep,
        board.castling_rights,
    )


#: the legal moves' codes by each generator: the compiled core's, and the one
#: ``legal_codes`` uses in this run (the core, or python-chess without it)
GENERATORS: dict[str, Callable[..., list[int]]] = {"compiled": _compiled(0), "in_use": legal_codes}


def test_the_compiled_generator_is_built_and_in_use() -> None:
    """``pip install -e .`` compiles it (a C compiler is part of the test set-up); without
    it the server still runs, on python-chess, but this suite says so."""
    assert chess_moves.COMPILED
    board = chess.Board()
    assert chess_moves.standard_fields(board) == _fields_of(board)
    assert _compiled(0)(board) == legal_codes(board)


def reference(board: chess.Board, to_mask: int = chess.BB_ALL) -> list[int]:
    """python-chess's legal moves as codes, spelled out here (not by the code under test)."""
    return [
        (m.promotion or 0) << 12 | m.from_square << 6 | m.to_square
        for m in board.generate_legal_moves(to_mask=to_mask)
    ]


@pytest.mark.parametrize("kind", GENERATORS)
@pytest.mark.parametrize("fen", TRICKY)
def test_tricky_positions(fen: str, kind: str) -> None:
    legal = GENERATORS[kind]
    board = chess.Board(fen)
    assert legal(board) == reference(board)
    assert [to_move(c) for c in legal(board)] == list(board.generate_legal_moves())
    for to_mask in (board.occupied_co[not board.turn], chess.BB_RANK_4, chess.BB_FILE_G):
        assert legal(board, to_mask) == reference(board, to_mask)


@pytest.mark.parametrize("fen", TRICKY)
def test_tricky_positions_compiled_captures(fen: str) -> None:
    """The core's captures (the compiled search's quiescence moves)."""
    board = chess.Board(fen)
    assert _compiled(1)(board) == _codes(board.generate_legal_captures())
    assert _compiled(2)(board) == _codes(board.generate_pseudo_legal_captures())


def test_every_position_of_many_random_games_compiled() -> None:
    """Random games (from the start and from the tricky positions), a bias to captures,
    checks and promotions so that endgames, pins and under-promotions come up."""
    legal = GENERATORS["compiled"]
    rng = random.Random(2024)
    seen = 0
    for game in range(150):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        for _ in range(160):
            expected = reference(board)
            assert legal(board) == expected, board.fen()
            seen += 1
            if not expected:
                break
            moves = list(board.generate_legal_moves())
            sharp = [m for m in moves if board.is_capture(m) or m.promotion or board.gives_check(m)]
            board.push(rng.choice(sharp if sharp and rng.random() < 0.5 else moves))
    assert seen > 10_000


class _NoPins(chess.Board):
    """A board of another class (whose pin finder is deliberately broken)."""

    def _slider_blockers(self, king: chess.Square) -> int:
        return 0


def test_a_board_of_another_class_is_left_to_python_chess() -> None:
    """The core reads standard boards only: another class's moves are its own (here, a
    broken pin finder lets a pinned knight move), Chess960's python-chess's."""
    fen = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"  # the knight on e2 is pinned
    assert legal_codes(chess.Board(fen)) == reference(chess.Board(fen))
    broken = legal_codes(_NoPins(fen))
    assert broken != reference(chess.Board(fen))
    assert any(c >> 6 & 63 == chess.E2 for c in broken)
    board960 = chess.Board.from_chess960_pos(100)
    assert chess_moves.standard_fields(board960) is None
    assert legal_codes(board960) == reference(board960)


def test_a_compiled_generator_fed_wrong_facts_is_caught() -> None:
    """The compiled generator's comparison can fail: handed no en passant square, or no
    castling rights, its lists differ from python-chess's."""
    for fen, ep, castling in (
        ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", -1, 0),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None, 0),
    ):
        board = chess.Board(fen)
        args = _fields_of(board)[:10]
        true_ep = -1 if board.ep_square is None else board.ep_square
        right = core.gen(0, *args, true_ep, board.castling_rights, chess.BB_ALL)
        assert right == reference(board)
        wrong = core.gen(0, *args, true_ep if ep is None else ep, castling, chess.BB_ALL)
        assert wrong != reference(board)


@pytest.mark.parametrize("fen", TRICKY)
def test_is_legal_from_the_codes_agrees_with_python_chess(fen: str) -> None:
    # Chess.is_legal answers from the position's codes once a view has computed them:
    # every from-to pair (with and without each promotion), legal or not, both ways
    from server.engine.chess_game import Chess, ChessState

    game, board = Chess(), chess.Board(fen)
    seat = 0 if board.turn else 1
    for computed in (False, True):
        state = ChessState(board.copy(), fen)
        if computed:
            state.codes()
        for frm in chess.SQUARES:
            for to in chess.SQUARES:
                for promotion in (None, chess.QUEEN, chess.KNIGHT):
                    move = chess.Move(frm, to, promotion)
                    assert game.is_legal(state, seat, move) == board.is_legal(move), move
        assert not game.is_legal(state, 1 - seat, next(iter(board.legal_moves)))


def pseudo_of(board: chess.Board) -> list[int]:
    return [
        (m.promotion or 0) << 12 | m.from_square << 6 | m.to_square
        for m in board.generate_pseudo_legal_moves()
    ]


def test_pseudo_codes_are_dark_chess_s_moves() -> None:
    """Dark Chess's moves are the board's pseudo-legal ones: the king steps into attack,
    castling is ``DarkBoard``'s (OpenSpiel's way, through attacked squares)."""
    from server.engine.dark_chess.rules import DarkBoard

    board = DarkBoard("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    step = chess.E1 << 6 | chess.D1  # into the rook's file
    assert step in pseudo_codes(board) and pseudo_codes(board) == pseudo_of(board)
    assert step not in legal_codes(chess.Board(board.fen()))
    board = DarkBoard("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1")  # f1 attacked: castle anyway
    assert chess.E1 << 6 | chess.G1 in pseudo_codes(board)
    assert chess.E1 << 6 | chess.G1 not in legal_codes(chess.Board(board.fen()))


def _codes(moves: object) -> list[int]:
    return [(m.promotion or 0) << 12 | m.from_square << 6 | m.to_square for m in moves]  # type: ignore[attr-defined]


def test_compiled_capture_codes_are_python_chess_captures_in_order() -> None:
    """The compiled search's quiescence moves: legal captures (evasions in check, en passant
    last, as python-chess chains them) and pseudo-legal ones, on random sharp games."""
    legal_captures, pseudo_captures = _compiled(1), _compiled(2)
    rng = random.Random(31)
    seen = 0
    for game in range(150):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        for _ in range(120):
            legal = _codes(board.generate_legal_captures())
            assert legal_captures(board) == legal, board.fen()
            expected = _codes(board.generate_pseudo_legal_captures())
            assert pseudo_captures(board) == expected, board.fen()
            seen += 1
            moves = list(board.generate_legal_moves())
            if not moves:
                break
            sharp = [m for m in moves if board.is_capture(m) or m.promotion or board.gives_check(m)]
            board.push(rng.choice(sharp if sharp and rng.random() < 0.6 else moves))
    assert seen > 7_500
    # the comparison can fail: an en passant capture left out is missed
    board = chess.Board("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1")
    assert chess.Move(chess.E4, chess.D3) in board.generate_legal_captures()
    onto_pieces = legal_codes(board, board.occupied_co[chess.WHITE])
    assert onto_pieces != _codes(board.generate_legal_captures())


def _fields(board: chess.Board) -> dict[str, object]:
    """Every attribute of a board but its move list and stack, types included."""
    return {k: (type(v), v) for k, v in vars(board).items() if k not in ("move_stack", "_stack")}


def test_the_compiled_push_is_python_chess_s() -> None:
    """``compiled_play`` gives the board python-chess's push gives (every attribute, with
    its type), ``is_irreversible`` of the move and the transposition key after: random sharp
    games from the tricky positions (castling both ways, en passant, promotions)."""
    rng = random.Random(41)
    seen = 0
    for game in range(250):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        for _ in range(120):
            moves = list(board.generate_legal_moves())
            if not moves:
                break
            sharp = [m for m in moves if board.is_capture(m) or m.promotion or board.is_castling(m)]
            move = rng.choice(sharp if sharp and rng.random() < 0.5 else moves)
            played = chess_moves.compiled_play(board, move)
            assert played is not None
            after, irreversible, key, fields = played
            expected = board.copy(stack=False)
            expected.push(move)
            assert fields == chess_moves.standard_fields(expected)
            assert _fields(after) == _fields(expected), (board.fen(), move)
            assert sorted(vars(after)) == sorted(vars(expected))
            assert irreversible == board.is_irreversible(move), (board.fen(), move)
            assert key == chess_moves.position_key(expected), (board.fen(), move)
            board.push(move)
            seen += 1
    assert seen > 7_500
    # and it can fail: a push handed a board without its en passant square differs
    board = chess.Board("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1")
    move = chess.Move.from_uci("e4d3")
    expected = board.copy(stack=False)
    expected.push(move)
    board.ep_square = None
    wrong = chess_moves.compiled_play(board, move)
    assert wrong is not None and _fields(wrong[0]) != _fields(expected)


def test_the_position_key_is_python_chess_s_repetition_criterion() -> None:
    """``position_key`` (public API only) is what python-chess compares for repetitions, its
    private ``Board._transposition_key()``: if a python-chess release changes that, this test
    names it (the rooms count repetitions on ``position_key``; compare the two and adapt)."""
    rng = random.Random(43)
    for game in range(60):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        for _ in range(80):
            assert chess_moves.position_key(board) == board._transposition_key(), (
                "python-chess's Board._transposition_key() changed: "
                f"position_key no longer matches it on {board.fen()}"
            )
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))


def test_a_board_of_another_class_is_pushed_by_python_chess() -> None:
    assert chess_moves.compiled_play(_NoPins(), chess.Move.from_uci("e2e4")) is None
    board960 = chess.Board.from_chess960_pos(100)
    assert chess_moves.compiled_play(board960, next(iter(board960.legal_moves))) is None


def test_the_compiled_status_is_python_chess_s() -> None:
    """Check and insufficient material on sparse random boards (bishops of one colour or
    both, lone knights, kings missing) and along random games."""
    rng = random.Random(17)
    kinds = [chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.PAWN]
    seen = set()
    for _ in range(4000):
        board = chess.Board(None)
        for color in chess.COLORS:
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, color))
        for sq in rng.sample(range(64), rng.randrange(0, 4)):
            board.set_piece_at(sq, chess.Piece(rng.choice(kinds), rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        expected = board.is_check() | board.is_insufficient_material() << 1
        assert chess_moves.compiled_status(board) == expected, board.fen()
        seen.add(expected)
    assert seen == {0, 1, 2, 3}
    # and it can fail: the other side to move is another answer somewhere
    board = chess.Board("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1")
    assert chess_moves.compiled_status(board) == 1
    board.turn = chess.WHITE
    assert chess_moves.compiled_status(board) == 0


def test_the_compiled_texts_are_the_python_ones() -> None:
    """Every from-to pair and every promotion, the same interned strings both ways."""
    from server.engine import compiled
    from server.engine.chess_moves import python_uci_texts, uci_texts

    assert compiled.texts is not None
    promotions = [p << 12 | c for p in (2, 3, 4, 5) for c in (52 << 6 | 60, 9 << 6 | 0)]
    codes = list(range(4096)) + promotions
    texts = uci_texts(codes)
    assert texts == python_uci_texts(codes)
    assert texts[-8:] == [to_move(c).uci() for c in promotions] and texts[1] == "a1b1"
    assert all(a is b for a, b in zip(texts, python_uci_texts(codes), strict=True))  # interned
    with pytest.raises(ValueError):
        compiled.texts([-1])
    # and the comparison can fail: a promotion's text is not its plain move's
    assert uci_texts([5 << 12 | 52 << 6 | 60]) != python_uci_texts([52 << 6 | 60])


def test_the_compiled_core_refuses_bad_arguments() -> None:
    from server.engine import _chess_moves as core

    fields = chess_moves.standard_fields(chess.Board())
    assert fields is not None
    for call in (
        lambda: core.gen(),  # type: ignore[call-arg]
        lambda: core.gen(0, *fields),  # type: ignore[call-arg]
        lambda: core.status(*fields[:-1]),  # type: ignore[call-arg]
        lambda: core.fen(*fields, 0),  # type: ignore[call-arg]
        lambda: core.play(*fields, 0, 1),  # type: ignore[call-arg]
        lambda: core.san(*fields, 12, [], False),  # type: ignore[call-arg]
    ):
        with pytest.raises(TypeError, match="takes"):
            call()
    with pytest.raises(ValueError):
        core.gen(0, *fields[:-2], 64, fields[-1], chess.BB_ALL)  # no square 64
    with pytest.raises(OverflowError):
        core.status(*fields[:1], -1, *fields[2:])  # a negative bitboard


def test_the_compiled_dark_chess_moves_and_push_are_python_chess_s() -> None:
    """Dark Chess on the core (mode 3, and ``compiled_play`` handed a ``DarkBoard``'s
    fields): its moves list for list with python-chess's pseudo-legal moves on a
    ``DarkBoard`` (the king steps into attack, castling through attacked squares), and every
    push attribute for attribute, the board's class kept; random games until a king falls."""
    from server.engine.dark_chess.rules import DarkBoard

    dark = _compiled(3)
    rng = random.Random(47)
    seen = kings_taken = 0
    for game in range(250):
        board = DarkBoard(TRICKY[game % len(TRICKY)])
        for _ in range(150):
            if board.is_variant_end():
                kings_taken += 1
                break
            expected_codes = pseudo_of(board)
            assert dark(board) == expected_codes, board.fen()
            moves = list(board.generate_legal_moves())
            if not moves:
                break
            sharp = [m for m in moves if board.is_capture(m) or m.promotion or board.is_castling(m)]
            move = rng.choice(sharp if sharp and rng.random() < 0.5 else moves)
            played = chess_moves.compiled_play(board, move, chess_moves.board_fields(board))
            assert played is not None
            expected = board.copy(stack=False)
            expected.push(move)
            assert type(played[0]) is DarkBoard
            assert _fields(played[0]) == _fields(expected), (board.fen(), move)
            board.push(move)
            seen += 1
    assert seen > 5_000 and kings_taken > 50
    # and it can fail: castling through an attacked square is Dark Chess's, not chess's
    board = DarkBoard("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1")
    assert dark(board) == pseudo_of(board) != _compiled(0)(chess.Board(board.fen()))

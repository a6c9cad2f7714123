"""PeSTO's tapered evaluation (``server/bots/pesto.py``): the packed pair survives sums and
negation, the tables read as the published ones do, the search's incremental score equals a
fresh count after every move of random games (promotions, castling and en passant included),
the two colours mirror, the quiescence's losing-capture test matches an exchange count, and
the search with every pruning option still finds the tactics the full-width search finds."""

from __future__ import annotations

import random
from typing import Any

import chess

from server.bots import make_bot
from server.bots.alphabeta import AlphaBeta, Pruning
from server.bots.bot import Deadline
from server.bots.chess_eval import material_pst
from server.bots.pesto import EG_VALUE, MG_VALUE, PESTO, pack, taper, unpack

from .chess_reference import DOUBLED, ISOLATED, PASSED, ChessPosition, pawn_structure


def test_packed_halves_add_and_negate() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        pairs = [(rng.randint(-9000, 9000), rng.randint(-9000, 9000)) for _ in range(6)]
        total = sum(pack(mg, eg) for mg, eg in pairs)
        assert unpack(total) == (sum(p[0] for p in pairs), sum(p[1] for p in pairs))
        assert unpack(-total) == (-sum(p[0] for p in pairs), -sum(p[1] for p in pairs))


def test_tables_read_from_whites_side() -> None:
    # published rows start at rank 8: White's e2 pawn is row 7's fifth entry (mg -15, eg 13)
    assert unpack(PESTO[chess.WHITE][chess.PAWN][chess.E2]) == (82 - 15, 94 + 13)
    assert unpack(PESTO[chess.BLACK][chess.PAWN][chess.E7]) == (82 - 15, 94 + 13)
    assert unpack(PESTO[chess.WHITE][chess.KING][chess.G1]) == (24, -24)
    assert unpack(PESTO[chess.WHITE][chess.QUEEN][chess.D1]) == (
        MG_VALUE[chess.QUEEN] + 10,
        EG_VALUE[chess.QUEEN] - 43,
    )


def test_taper_blends_by_phase() -> None:
    score = pack(240, -120)
    assert taper(score, 24) == 240 and taper(score, 30) == 240
    assert taper(score, 0) == -120
    assert taper(score, 12) == 60


def test_start_position_is_level_and_colours_mirror() -> None:
    assert material_pst(chess.Board(), PESTO) == (0, 24)
    rng = random.Random(9)
    board = chess.Board()
    for _ in range(400):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        mirrored = board.mirror()
        here = ChessPosition(board.copy(stack=False), pesto=True).evaluate()
        there = ChessPosition(mirrored, pesto=True).evaluate()
        assert here == there  # the side to move sees the same position


def test_incremental_score_matches_a_fresh_count() -> None:
    rng = random.Random(21)
    seen = set()
    for _game in range(30):
        board = chess.Board()
        pos = ChessPosition(board.copy(stack=False), pesto=True)
        for _ply in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer the rare kinds of move so that the game shows them
            special = [m for m in moves if m.promotion or board.is_castling(m)]
            special += [m for m in moves if board.is_en_passant(m)]
            move = rng.choice(special) if special and rng.random() < 0.7 else rng.choice(moves)
            for kind, test in (
                ("promotion", move.promotion),
                ("castle", board.is_castling(move)),
                ("ep", board.is_en_passant(move)),
                ("capture", board.is_capture(move)),
            ):
                if test:
                    seen.add(kind)
            pos.push(move)
            board.push(move)
            assert (pos.scores[-1], pos.phases[-1]) == material_pst(board, PESTO)
            fresh = ChessPosition(board.copy(stack=False), pesto=True)
            assert pos.evaluate() == fresh.evaluate()
    assert seen == {"promotion", "castle", "ep", "capture"}


def _exchange_loses(board: chess.Board, move: chess.Move) -> bool:
    """The same question asked another way: after the capture, can the opponent take back
    on that square?"""
    after = board.copy(stack=False)
    after.push(move)
    return any(m.to_square == move.to_square for m in after.generate_pseudo_legal_captures())


def test_losing_captures_are_dear_pieces_taking_defended_cheap_ones() -> None:
    rng = random.Random(3)
    board, counted = chess.Board(), {True: 0, False: 0}
    for _ in range(3000):
        moves = list(board.legal_moves)
        if not moves:
            board = chess.Board()
            continue
        pos = ChessPosition(board.copy(stack=False))
        for move in board.generate_legal_captures():
            attacker = board.piece_type_at(move.from_square)
            victim = board.piece_type_at(move.to_square) or chess.PAWN
            dearer = attacker is not None and attacker > victim and not move.promotion
            dearer = dearer and not (attacker == chess.BISHOP and victim == chess.KNIGHT)
            expected = dearer and _exchange_loses(board, move)
            assert pos.losing(move) == expected, (board.fen(), move)
            counted[expected] += 1
        board.push(rng.choice(moves))
    assert counted[True] > 50 and counted[False] > 500


def test_options_reach_the_search() -> None:
    def options(bot: Any) -> tuple[Any, ...]:
        p = bot.pruning
        return (p.prune, p.futility, p.lmp, p.next_depth, p.deep_lmr, bot.remember)

    bot = make_bot(
        "kono", "alphabeta", prune=1, futility=1, lmp=1, next_depth=0.6, deep_lmr=0, remember=0
    )
    assert options(bot) == (1, 1, 1, 0.6, 0, 0)
    # and they reach the search (the reference's, on chess): the same depth-4 search visits
    # fewer nodes with them
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"
    board = chess.Board(fen)
    nodes = []
    for on in (False, True):
        pos = ChessPosition(board.copy(stack=False), pesto=on)
        pruning = Pruning(prune=on, futility=on, lmp=on)
        search = AlphaBeta(pos, null_move=True, pruning=pruning)
        nodes.append(search.search(list(board.legal_moves), Deadline(30), max_depth=4).nodes)
    assert nodes[1] < nodes[0] * 0.8, nodes
    # the defaults are the measured best: every option on (the compiled chess search's own)
    default = make_bot("chess", "alphabeta")
    assert options(default) == (True, True, True, 0.95, True, True)


# positions of the classic "Win at Chess" suite (Reinfeld) that the full-width search solves at
# depth 4; the pruning options (futility, late moves, losing captures, deeper late move
# reductions) must not lose them
WAC = (
    '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";',
    '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";',
    'r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id "WAC.004";',
    'r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - bm Rf7; id "WAC.008";',
    '2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - bm Rxh7; id "WAC.010";',
    '5rk1/pp4p1/2n1p2p/2Npq3/2p5/6P1/P3P1BP/R4Q1K w - - bm Qxf8+; id "WAC.013";',
    '1k5r/pppbn1pp/4q1r1/1P3p2/2NPp3/1QP5/P4PPP/R1B1R1K1 w - - bm Ne5; id "WAC.017";',
    'r1b2rk1/ppbn1ppp/4p3/1QP4q/3P4/N4N2/5PPP/R1B2RK1 w - - bm c6; id "WAC.019";',
    '3r2k1/1p1b1pp1/pq5p/8/3NR3/2PQ3P/PP3PP1/6K1 b - - bm Bf5; id "WAC.026";',
)


def test_pruned_search_keeps_the_tactics() -> None:
    for line in WAC:
        board, ops = chess.Board.from_epd(line)
        best = ops["bm"]
        assert isinstance(best, list)
        for pruned in (False, True):
            pos = ChessPosition(board.copy(stack=False), pesto=pruned)
            pruning = Pruning(prune=pruned, futility=pruned, lmp=pruned, deep_lmr=pruned)
            search = AlphaBeta(pos, null_move=True, pruning=pruning)
            result = search.search(list(board.legal_moves), Deadline(60.0), max_depth=4)
            assert result.move in best, (ops["id"], pruned, result.move)


def _pawns(board: chess.Board) -> int:
    return pawn_structure(board.pieces_mask(chess.PAWN, True), board.pieces_mask(chess.PAWN, False))


def _pawns_by_the_book(board: chess.Board) -> int:
    """The same terms square by square from python-chess's square sets (slow and plain)."""
    score = 0
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        own = board.pieces(chess.PAWN, color)
        other = board.pieces(chess.PAWN, not color)
        for f in range(8):
            on_file = [sq for sq in own if chess.square_file(sq) == f]
            beside = [sq for sq in own if abs(chess.square_file(sq) - f) == 1]
            if on_file:
                score += sign * (len(on_file) - 1) * DOUBLED
                if not beside:
                    score += sign * len(on_file) * ISOLATED
        for sq in own:
            rank, file = chess.square_rank(sq), chess.square_file(sq)
            step = 1 if color == chess.WHITE else -1
            blockers = [
                o
                for o in other
                if abs(chess.square_file(o) - file) <= 1
                and (chess.square_rank(o) - rank) * step > 0
            ]
            if not blockers:
                score += sign * PASSED[rank if color == chess.WHITE else 7 - rank]
    return score


def test_pawn_structure_counts_passed_isolated_and_doubled_pawns() -> None:
    # White: a2, b2 and d5 passed, d5 isolated; Black: none
    board = chess.Board("8/5k2/8/3P4/8/8/PP3K2/8 w - - 0 1")
    assert _pawns(board) == 2 * PASSED[1] + PASSED[4] + ISOLATED
    # White doubled and isolated on the c-file, Black's b7 isolated, and none of them
    # passed: b7 watches the c-file's squares ahead and is watched by c3 and c4
    board = chess.Board("8/1p3k2/8/8/2P5/2P5/5K2/8 w - - 0 1")
    assert _pawns(board) == DOUBLED + 2 * ISOLATED - ISOLATED
    assert unpack(_pawns(board.mirror())) == tuple(-x for x in unpack(_pawns(board)))
    # the middle-game and end-game halves weigh differently: a far-advanced passer counts
    # most in the end game
    mg, eg = unpack(PASSED[6])
    assert eg > mg > 0


def test_pawn_structure_agrees_with_the_book_on_random_boards() -> None:
    rng = random.Random(7)
    for _ in range(300):
        board = chess.Board(None)
        for color in (chess.WHITE, chess.BLACK):
            for sq in rng.sample(range(8, 56), rng.randint(0, 8)):
                if board.piece_at(sq) is None:
                    board.set_piece_at(sq, chess.Piece(chess.PAWN, color))
        assert _pawns(board) == _pawns_by_the_book(board), board.fen()
        mirrored = board.mirror()
        assert unpack(_pawns(mirrored)) == tuple(-x for x in unpack(_pawns(board)))


def test_the_pawn_term_reaches_the_search_evaluation() -> None:
    board = chess.Board("8/5k2/8/3P4/8/8/PP3K2/8 w - - 0 1")
    plain = ChessPosition(board.copy(), pesto=True).evaluate()
    with_pawns = ChessPosition(board.copy(), pesto=True, pawns=True)
    phase = with_pawns.phases[-1]
    assert with_pawns.evaluate() == taper(with_pawns.scores[-1] + _pawns(board), phase)
    assert with_pawns.evaluate() != plain
    with_pawns.board.turn = chess.BLACK  # the side to move's score
    assert with_pawns.evaluate() == -taper(with_pawns.scores[-1] + _pawns(board), phase)

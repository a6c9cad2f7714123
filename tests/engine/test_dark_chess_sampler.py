"""The history sampler's fast tests against the slow truth they stand for.

``Sightings.reachable`` keeps what it worked out per view and kind of piece (the worlds the
search tries differ by one moved piece); it must answer what the plain computation does.

``Observation.matches`` compares the pieces on the seen squares before it computes what the
board sees, and the rest of the FEN instead of all of it (the placement is drawn from those
squares and pieces alone); ``_may_match`` refuses a move from the bitboards without playing
it. Each must agree with the plain comparison of a seat's whole view — FEN, visible squares,
capture counts — on real candidates: every pseudo-legal move from positions of seeded games,
the move really played among them.
"""

from __future__ import annotations

import random

import chess
import pytest

from server.engine import get_game, turn_rng
from server.engine.dark_chess.history import THREAT, _may_match, _Replay, menace
from server.engine.dark_chess.observations import (
    DIST,
    PIECE_TYPES,
    Observation,
    Sightings,
    captured_counts,
    observations,
)
from server.engine.dark_chess.views import dark_fen, visible_squares

GAME = get_game("dark_chess")


def whole_view_matches(o: Observation, replay: _Replay, color: chess.Color, vis: str) -> bool:
    """The slow truth: the seat's view of this board is the observed one, field by field."""
    board = replay.board
    seen = visible_squares(board, color, vis)
    return (
        seen == o.seen
        and dark_fen(board, color, seen) == o.fen
        and captured_counts(replay.captured) == o.captured
    )


def seeded_game(seed: int, plies: int, vis: str) -> tuple[list[chess.Move], list[list[dict]]]:
    """A capture-happy random game: its moves and each seat's views after every ply."""
    rng = random.Random(seed)
    state = GAME.new(GAME.check_options({"visibility": vis}), 2, turn_rng("s", 0))
    views = [[GAME.view(state, 0)], [GAME.view(state, 1)]]
    moves: list[chess.Move] = []
    for ply in range(1, plies + 1):
        if GAME.outcome(state) is not None:
            break
        seat = 0 if state.board.turn == chess.WHITE else 1
        legal = GAME.legal_moves(state, seat)
        captures = [m for m in legal if state.board.is_capture(m)]
        move = rng.choice(captures if captures and rng.random() < 0.7 else legal)
        moves.append(move)
        state = GAME.play(state, {seat: move}, turn_rng("s", ply))
        for s in (0, 1):
            views[s].append(GAME.view(state, s))
    return moves, views


@pytest.mark.parametrize("vis", ["openspiel", "dagaz"])
def test_the_fast_checks_agree_with_the_whole_view(vis: str) -> None:
    tried = refused_early = matched = 0
    for seed in range(12):
        moves, views = seeded_game(seed, 70, vis)
        replay = _Replay(chess.STARTING_FEN)
        for ply, played in enumerate(moves):
            for seat in (0, 1):
                color = seat == 0
                o = Observation.parse(views[seat][ply + 1])
                for move in list(replay.board.generate_pseudo_legal_moves()):
                    early = _may_match(replay, move, o)
                    replay.push(move)
                    truth = whole_view_matches(o, replay, color, vis)
                    fast = o.matches(replay.board, color, vis, replay.counts[-1])
                    replay.pop()
                    assert fast == truth, (seed, ply, seat, move)
                    assert early or not truth, (seed, ply, seat, move)  # a filter only
                    assert replay.counts[-1] == captured_counts(replay.captured)
                    tried += 1
                    refused_early += not early
                    matched += truth
                    if move == played:
                        assert truth  # the move really played gives the views really shown
            replay.push(played)
    # the comparisons were real: many candidates, refused and matched, most refusals early
    assert tried > 20_000 and matched > 1_000 and refused_early > tried // 3


def reachable_reference(s: Sightings, board: chess.Board, ply: int, lost_now: int) -> bool:
    """``Sightings.reachable`` computed afresh every time, as it was before it kept memos."""
    enemy = s.enemy
    mine = {t: list(chess.scan_forward(board.pieces_mask(t, enemy))) for t in PIECE_TYPES}
    castle = board.has_castling_rights(enemy)
    for i, t_ply in enumerate(s.plies):
        if t_ply <= ply:
            continue
        k_pawn = s.cum_pawn[t_ply] - s.cum_pawn[ply]
        k_piece = s.cum_piece[t_ply] - s.cum_piece[ply]
        total_pawn = total_piece = 0
        for kind, squares in s.seen[i]:
            have = mine[kind]
            if kind == chess.PAWN:
                need = s._pawns(have, squares, k_pawn, s.lost[i] - lost_now)
                if need is None:
                    return False
                total_pawn += need
                continue
            if len(squares) > len(have):
                continue
            for sq in squares:
                best = min(DIST[kind][w][sq] for w in have)
                total_piece += 1 if kind == chess.KING and best == 2 and castle else best
            if total_piece > k_piece:
                return False
        if total_pawn > k_pawn:
            return False
    return True


def test_reachable_with_its_memos_answers_as_computed_afresh() -> None:
    answers = {True: 0, False: 0}
    for seed in range(6):
        moves, views = seeded_game(seed, 60, "openspiel")
        for seat in (0, 1):
            color = seat == 0
            sightings = Sightings(observations(views[seat]), color, len(moves))
            replay = _Replay(chess.STARTING_FEN)
            for ply, played in enumerate(moves):
                if replay.board.turn != color:  # the opponent's move: what the search tries
                    for move in list(replay.board.generate_pseudo_legal_moves()):
                        replay.push(move)
                        lost = replay.lost(color)
                        got = sightings.reachable(replay.board, ply + 1, lost)
                        assert got == reachable_reference(sightings, replay.board, ply + 1, lost)
                        answers[got] += 1
                        replay.pop()
                replay.push(played)
    assert answers[True] > 1000 and answers[False] > 1000  # both answers, many times


@pytest.mark.parametrize(
    ("fen", "move", "expected"),
    [
        # Black's knight has just come to d6 (the board after its move; White is the seat)
        ("4k3/8/3n4/8/2B5/8/8/4K1NR w - - 0 1", "b7d6", THREAT),  # strikes a lone bishop
        ("4k3/8/3n4/8/2B5/1P6/8/4K1NR w - - 0 1", "b7d6", 0.0),  # the bishop is guarded
        ("4k3/8/3n4/8/2R5/1P6/8/4K1N1 w - - 0 1", "b7d6", THREAT),  # a rook, guarded or not
        ("4k3/8/8/2n5/8/1P6/8/4K1NR w - - 0 1", "b7c5", 0.0),  # a pawn is not counted
        ("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", "b4d3", 3.0),  # strikes the king
    ],
)
def test_menace_puts_threats_first(fen: str, move: str, expected: float) -> None:
    """The opponent's move that strikes our king, or a piece of ours it could take with
    profit, is sampled before a quiet one (an ordering of worlds, never a filter)."""
    board = chess.Board(fen)
    assert menace(board, chess.Move.from_uci(move), chess.WHITE, took=False) == expected

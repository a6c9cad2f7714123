"""Apocalypse (docs/GAMES.md 1): move generation, the join rule, ko, promotion, end of game."""

from __future__ import annotations

import json
import random

import pytest

from server.engine import IllegalMove, InvalidMove, get_game
from server.engine.apocalypse import (
    START_BOARD,
    Apocalypse,
    ApocalypseMove,
    ApocalypseState,
    board_to_text,
    generate,
    position,
)
from server.engine.perft import divide, perft

GAME = get_game("apocalypse")
RNG = random.Random(0)

WHITE_OPENING = ["a1b3", "a1c2", "a2a3", "b1b2", "c1c2", "d1d2", "e1c2", "e1d3", "e2e3"]
BLACK_OPENING = ["a4a3", "a5b3", "a5c4", "b5b4", "c5c4", "d5d4", "e4e3", "e5c4", "e5d3"]


def start() -> ApocalypseState:
    return GAME.new(GAME.check_options({}), 2, RNG)


def mv(text: str) -> ApocalypseMove:
    return ApocalypseMove.from_text(text)


def turn(state: ApocalypseState, white: str | None, black: str | None) -> ApocalypseState:
    """Play one checked joint turn (``None``: that seat does not move)."""
    moves = {}
    if white is not None:
        moves[0] = mv(white)
    if black is not None:
        moves[1] = mv(black)
    return GAME.play(state, moves, RNG)


def texts(moves: list[ApocalypseMove]) -> set[str]:
    return {str(m) for m in moves}


def board(state: ApocalypseState) -> str:
    return board_to_text(state.board)


def events(state: ApocalypseState) -> list[dict[str, object]]:
    return GAME.view(state, None)["last_events"]


# -- 1.7: the opening ----------------------------------------------------------------------


def test_start_position_and_opening_moves() -> None:
    state = start()
    assert board(state) == START_BOARD == "npppn/p3p/5/P3P/NPPPN"
    assert GAME.to_act(state) == {0, 1}
    assert texts(GAME.legal_moves(state, 0)) == set(WHITE_OPENING)
    assert texts(GAME.legal_moves(state, 1)) == set(BLACK_OPENING)
    assert len(GAME.legal_moves(state, 0)) == len(GAME.legal_moves(state, 1)) == 9


def test_perft_depth_one_is_81_joint_pairs() -> None:
    state = start()
    assert perft(GAME, state, 1) == 81
    assert len(divide(GAME, state, 1)) == 81


# Every one of the 81 opening pairs, with the board after it. At the start every target
# square is empty (pawns step forward to empty squares, knights land on empty squares), so
# nothing can be captured: each side's move lands as if played alone, unless both moves
# share a target. Shared targets happen only on a3 (pawn/pawn), b3 (knight/knight),
# d3 (knight/knight) and e3 (pawn/pawn); equal types remove both pieces (1.3).
INDEPENDENT = [
    ("a1b3", "a4a3", "npppn/4p/pN3/P3P/1PPPN"),
    ("a1b3", "a5c4", "1pppn/p1n1p/1N3/P3P/1PPPN"),
    ("a1b3", "b5b4", "n1ppn/pp2p/1N3/P3P/1PPPN"),
    ("a1b3", "c5c4", "np1pn/p1p1p/1N3/P3P/1PPPN"),
    ("a1b3", "d5d4", "npp1n/p2pp/1N3/P3P/1PPPN"),
    ("a1b3", "e4e3", "npppn/p4/1N2p/P3P/1PPPN"),
    ("a1b3", "e5c4", "nppp1/p1n1p/1N3/P3P/1PPPN"),
    ("a1b3", "e5d3", "nppp1/p3p/1N1n1/P3P/1PPPN"),
    ("a1c2", "a4a3", "npppn/4p/p4/P1N1P/1PPPN"),
    ("a1c2", "a5b3", "1pppn/p3p/1n3/P1N1P/1PPPN"),
    ("a1c2", "a5c4", "1pppn/p1n1p/5/P1N1P/1PPPN"),
    ("a1c2", "b5b4", "n1ppn/pp2p/5/P1N1P/1PPPN"),
    ("a1c2", "c5c4", "np1pn/p1p1p/5/P1N1P/1PPPN"),
    ("a1c2", "d5d4", "npp1n/p2pp/5/P1N1P/1PPPN"),
    ("a1c2", "e4e3", "npppn/p4/4p/P1N1P/1PPPN"),
    ("a1c2", "e5c4", "nppp1/p1n1p/5/P1N1P/1PPPN"),
    ("a1c2", "e5d3", "nppp1/p3p/3n1/P1N1P/1PPPN"),
    ("a2a3", "a5b3", "1pppn/p3p/Pn3/4P/NPPPN"),
    ("a2a3", "a5c4", "1pppn/p1n1p/P4/4P/NPPPN"),
    ("a2a3", "b5b4", "n1ppn/pp2p/P4/4P/NPPPN"),
    ("a2a3", "c5c4", "np1pn/p1p1p/P4/4P/NPPPN"),
    ("a2a3", "d5d4", "npp1n/p2pp/P4/4P/NPPPN"),
    ("a2a3", "e4e3", "npppn/p4/P3p/4P/NPPPN"),
    ("a2a3", "e5c4", "nppp1/p1n1p/P4/4P/NPPPN"),
    ("a2a3", "e5d3", "nppp1/p3p/P2n1/4P/NPPPN"),
    ("b1b2", "a4a3", "npppn/4p/p4/PP2P/N1PPN"),
    ("b1b2", "a5b3", "1pppn/p3p/1n3/PP2P/N1PPN"),
    ("b1b2", "a5c4", "1pppn/p1n1p/5/PP2P/N1PPN"),
    ("b1b2", "b5b4", "n1ppn/pp2p/5/PP2P/N1PPN"),
    ("b1b2", "c5c4", "np1pn/p1p1p/5/PP2P/N1PPN"),
    ("b1b2", "d5d4", "npp1n/p2pp/5/PP2P/N1PPN"),
    ("b1b2", "e4e3", "npppn/p4/4p/PP2P/N1PPN"),
    ("b1b2", "e5c4", "nppp1/p1n1p/5/PP2P/N1PPN"),
    ("b1b2", "e5d3", "nppp1/p3p/3n1/PP2P/N1PPN"),
    ("c1c2", "a4a3", "npppn/4p/p4/P1P1P/NP1PN"),
    ("c1c2", "a5b3", "1pppn/p3p/1n3/P1P1P/NP1PN"),
    ("c1c2", "a5c4", "1pppn/p1n1p/5/P1P1P/NP1PN"),
    ("c1c2", "b5b4", "n1ppn/pp2p/5/P1P1P/NP1PN"),
    ("c1c2", "c5c4", "np1pn/p1p1p/5/P1P1P/NP1PN"),
    ("c1c2", "d5d4", "npp1n/p2pp/5/P1P1P/NP1PN"),
    ("c1c2", "e4e3", "npppn/p4/4p/P1P1P/NP1PN"),
    ("c1c2", "e5c4", "nppp1/p1n1p/5/P1P1P/NP1PN"),
    ("c1c2", "e5d3", "nppp1/p3p/3n1/P1P1P/NP1PN"),
    ("d1d2", "a4a3", "npppn/4p/p4/P2PP/NPP1N"),
    ("d1d2", "a5b3", "1pppn/p3p/1n3/P2PP/NPP1N"),
    ("d1d2", "a5c4", "1pppn/p1n1p/5/P2PP/NPP1N"),
    ("d1d2", "b5b4", "n1ppn/pp2p/5/P2PP/NPP1N"),
    ("d1d2", "c5c4", "np1pn/p1p1p/5/P2PP/NPP1N"),
    ("d1d2", "d5d4", "npp1n/p2pp/5/P2PP/NPP1N"),
    ("d1d2", "e4e3", "npppn/p4/4p/P2PP/NPP1N"),
    ("d1d2", "e5c4", "nppp1/p1n1p/5/P2PP/NPP1N"),
    ("d1d2", "e5d3", "nppp1/p3p/3n1/P2PP/NPP1N"),
    ("e1c2", "a4a3", "npppn/4p/p4/P1N1P/NPPP1"),
    ("e1c2", "a5b3", "1pppn/p3p/1n3/P1N1P/NPPP1"),
    ("e1c2", "a5c4", "1pppn/p1n1p/5/P1N1P/NPPP1"),
    ("e1c2", "b5b4", "n1ppn/pp2p/5/P1N1P/NPPP1"),
    ("e1c2", "c5c4", "np1pn/p1p1p/5/P1N1P/NPPP1"),
    ("e1c2", "d5d4", "npp1n/p2pp/5/P1N1P/NPPP1"),
    ("e1c2", "e4e3", "npppn/p4/4p/P1N1P/NPPP1"),
    ("e1c2", "e5c4", "nppp1/p1n1p/5/P1N1P/NPPP1"),
    ("e1c2", "e5d3", "nppp1/p3p/3n1/P1N1P/NPPP1"),
    ("e1d3", "a4a3", "npppn/4p/p2N1/P3P/NPPP1"),
    ("e1d3", "a5b3", "1pppn/p3p/1n1N1/P3P/NPPP1"),
    ("e1d3", "a5c4", "1pppn/p1n1p/3N1/P3P/NPPP1"),
    ("e1d3", "b5b4", "n1ppn/pp2p/3N1/P3P/NPPP1"),
    ("e1d3", "c5c4", "np1pn/p1p1p/3N1/P3P/NPPP1"),
    ("e1d3", "d5d4", "npp1n/p2pp/3N1/P3P/NPPP1"),
    ("e1d3", "e4e3", "npppn/p4/3Np/P3P/NPPP1"),
    ("e1d3", "e5c4", "nppp1/p1n1p/3N1/P3P/NPPP1"),
    ("e2e3", "a4a3", "npppn/4p/p3P/P4/NPPPN"),
    ("e2e3", "a5b3", "1pppn/p3p/1n2P/P4/NPPPN"),
    ("e2e3", "a5c4", "1pppn/p1n1p/4P/P4/NPPPN"),
    ("e2e3", "b5b4", "n1ppn/pp2p/4P/P4/NPPPN"),
    ("e2e3", "c5c4", "np1pn/p1p1p/4P/P4/NPPPN"),
    ("e2e3", "d5d4", "npp1n/p2pp/4P/P4/NPPPN"),
    ("e2e3", "e5c4", "nppp1/p1n1p/4P/P4/NPPPN"),
    ("e2e3", "e5d3", "nppp1/p3p/3nP/P4/NPPPN"),
]

# (white, black, board after, collision square, pieces removed)
COLLISIONS = [
    ("a1b3", "a5b3", "1pppn/p3p/5/P3P/1PPPN", "b3", ["N", "n"]),
    ("a2a3", "a4a3", "npppn/4p/5/4P/NPPPN", "a3", ["P", "p"]),
    ("e1d3", "e5d3", "nppp1/p3p/5/P3P/NPPP1", "d3", ["N", "n"]),
    ("e2e3", "e4e3", "npppn/p4/5/P4/NPPPN", "e3", ["P", "p"]),
]


def test_the_table_covers_all_81_pairs() -> None:
    pairs = {(w, b) for w, b, _ in INDEPENDENT} | {(w, b) for w, b, *_ in COLLISIONS}
    assert pairs == {(w, b) for w in WHITE_OPENING for b in BLACK_OPENING}
    assert len(INDEPENDENT) + len(COLLISIONS) == 81


@pytest.mark.parametrize(("white", "black", "after"), INDEPENDENT)
def test_opening_pair_independent(white: str, black: str, after: str) -> None:
    state = turn(start(), white, black)
    assert board(state) == after
    assert events(state) == []
    assert state.ply == 1
    assert GAME.outcome(state) is None
    assert GAME.view(state, None)["last_moves"] == {"0": white, "1": black}


@pytest.mark.parametrize(("white", "black", "after", "square", "removed"), COLLISIONS)
def test_opening_pair_collision(
    white: str, black: str, after: str, square: str, removed: list[str]
) -> None:
    state = turn(start(), white, black)
    assert board(state) == after
    assert events(state) == [{"type": "collision", "square": square, "removed": removed}]
    assert GAME.outcome(state) is None


# -- 1.7: the other vectors ----------------------------------------------------------------


def test_collision_knight_knight_leaves_one_knight_each() -> None:
    state = turn(start(), "a1b3", "a5b3")
    assert GAME.view(state, None)["horsemen"] == [1, 1]
    assert state.board.count("N") == state.board.count("n") == 1


def test_collision_pawn_pawn_removes_both() -> None:
    state = turn(start(), "a2a3", "a4a3")
    assert board(state) == "npppn/4p/5/4P/NPPPN"
    assert state.board.count("P") == state.board.count("p") == 4


def test_swap_vchess_diagram_and_ko() -> None:
    state = turn(start(), "d1d2", "e4e3")
    assert board(state) == "npppn/p4/4p/P2PP/NPP1N"
    assert "d2e3" in texts(GAME.legal_moves(state, 0))
    assert "e3d2" in texts(GAME.legal_moves(state, 1))
    state = turn(state, "d2e3", "e3d2")
    assert board(state) == "npppn/p4/4P/P2pP/NPP1N"  # both pawns survive, exchanged
    assert events(state) == [
        {"type": "evaded", "square": "e3", "piece": "p"},
        {"type": "evaded", "square": "d2", "piece": "P"},
    ]
    for seat in (0, 1):
        assert not texts(generate(state, seat)) & {"d2e3", "e3d2"}


def test_knight_swap_is_banned_next_turn_by_ko() -> None:
    # White N b3 and Black n c5 attack each other; a1/e1 and a5/e5 keep the game going.
    state = position("n1n1n/5/1N3/5/N3N")
    assert "b3c5" in texts(GAME.legal_moves(state, 0))
    assert "c5b3" in texts(GAME.legal_moves(state, 1))
    state = turn(state, "b3c5", "c5b3")
    assert board(state) == "n1N1n/5/1n3/5/N3N"
    # 1.2.6: every square of last turn's moves lies in {b3, c5}: moves between them are out
    white, black = texts(GAME.legal_moves(state, 0)), texts(GAME.legal_moves(state, 1))
    assert "c5b3" not in white and "b3c5" not in black
    assert {"c5d3", "c5e4", "c5a4"} <= white
    assert {"b3d4", "b3d2", "b3c1"} <= black
    # and the ban lasts one turn only
    state = turn(state, "a1c2", "a5c4")
    state = turn(state, "c2a1", "c4a5")
    assert board(state) == "n1N1n/5/1n3/5/N3N"
    assert "c5b3" in texts(GAME.legal_moves(state, 0))
    assert "b3c5" in texts(GAME.legal_moves(state, 1))


def test_moved_away_target_is_not_captured() -> None:
    # White N a1 lands on b3 while the Black knight there leaves for d4.
    state = position("4n/5/1n3/5/N3N")
    state = turn(state, "a1b3", "b3d4")
    assert board(state) == "4n/3n1/1N3/5/4N"
    assert events(state) == [{"type": "evaded", "square": "b3", "piece": "n"}]


def test_target_that_stays_is_captured() -> None:
    state = position("4n/5/1n3/5/N3N")
    state = turn(state, "a1b3", "e5c4")
    assert board(state) == "5/2n2/1N3/5/4N"
    assert events(state) == [{"type": "capture", "square": "b3", "piece": "n"}]


def test_pawn_diagonal_move_stands_when_target_left() -> None:
    # White P c2 takes toward d3; the Black knight on d3 moves to b4 the same turn.
    state = position("n3n/5/3n1/2P2/N3N")
    assert "c2d3" in texts(GAME.legal_moves(state, 0))
    state = turn(state, "c2d3", "d3b4")
    assert board(state) == "n3n/1n3/3P1/5/N3N"


def test_knight_beats_pawn_in_a_collision_either_colour() -> None:
    state = turn(position("n3n/1p3/5/5/N3N"), "a1b3", "b4b3")
    assert board(state) == "n3n/5/1N3/5/4N"
    assert events(state) == [{"type": "collision", "square": "b3", "removed": ["p"]}]
    state = turn(position("n3n/5/5/1P3/N3N"), "b2b3", "a5b3")
    assert board(state) == "4n/5/1n3/5/N3N"
    assert events(state) == [{"type": "collision", "square": "b3", "removed": ["P"]}]


def test_a_promoting_pawn_meets_a_knight_as_a_pawn() -> None:
    # White has one knight, so c4-c5 would promote; Black's knight e4-c5 still wins.
    state = turn(position("n4/2P1n/5/5/N4"), "c4c5", "e4c5")
    assert board(state) == "n1n2/5/5/5/N4"


def test_promotion_within_limit() -> None:
    state = turn(position("n3n/2P2/5/5/N4"), "c4c5", "a5b3")
    assert board(state) == "2N1n/5/1n3/5/N4"
    assert events(state) == [{"type": "promotion", "square": "c5", "seat": 0}]
    state = turn(position("n4/5/5/2p2/N3N"), "a1b3", "c2c1")
    assert board(state) == "n4/5/1N3/5/2n1N"


def test_promotion_refused_then_forced_relocation() -> None:
    state = position("n3n/2P2/5/5/N3N")  # White already has 2 horsemen
    state = turn(state, "c4c5", "a5b3")
    assert board(state) == "2P1n/5/1n3/5/N3N"
    assert events(state) == [{"type": "promotion_refused", "square": "c5", "seat": 0}]
    # next turn: only relocations of that pawn, to every empty square off rank 5
    empty_off_last_rank = {f + str(r) for f in "abcde" for r in range(1, 5)} - {"a1", "e1", "b3"}
    assert texts(GAME.legal_moves(state, 0)) == {"c5" + sq for sq in empty_off_last_rank}
    assert len(empty_off_last_rank) == 17
    assert "c5a5" not in texts(GAME.legal_moves(state, 0))
    assert "c5b3" not in texts(GAME.legal_moves(state, 0))  # not empty
    assert texts(GAME.legal_moves(state, 1)) == texts(generate(state, 1)) != set()
    state = turn(state, "c5c3", "e5d3")
    assert board(state) == "5/5/1nPn1/5/N3N"
    assert texts(GAME.legal_moves(state, 0)) >= {"c3c4", "a1c2", "e1c2"}


def test_promotion_allowed_when_the_opponent_takes_a_horseman_that_turn() -> None:
    # limit = 2 - 2 + 1: Black's knight lands on White's a1 knight the same turn.
    state = position("4n/2P2/1n3/5/N3N")
    state = turn(state, "c4c5", "b3a1")
    assert board(state) == "2N1n/5/5/5/n3N"
    assert events(state) == [
        {"type": "capture", "square": "a1", "piece": "N"},
        {"type": "promotion", "square": "c5", "seat": 0},
    ]
    assert GAME.view(state, None)["horsemen"] == [2, 2]


def test_relocation_collides_like_any_move() -> None:
    # Black's refused pawn on c1 relocates to c5 while White's pawn steps c4-c5.
    state = position("n3n/2P2/5/5/N1p1N")
    assert "c1c5" in texts(GAME.legal_moves(state, 1))
    assert all(str(m).startswith("c1") for m in GAME.legal_moves(state, 1))
    state = turn(state, "c4c5", "c1c5")
    assert board(state) == "n3n/5/5/5/N3N"
    assert events(state) == [{"type": "collision", "square": "c5", "removed": ["P", "p"]}]


# -- 1.4: end of game ----------------------------------------------------------------------


def test_capturing_the_last_horseman_wins() -> None:
    state = turn(position("5/5/1n3/5/N3N"), "a1b3", "b3c5")
    assert board(state) == "2n2/5/1N3/5/4N"  # evaded
    state = turn(position("5/5/1n3/5/N3N"), "a1b3", "b3d2")
    assert board(state) == "5/5/1N3/3n1/4N"
    state = turn(position("n4/5/1N3/5/4N"), "b3a5", "a5c4")
    assert board(state) == "N4/2n2/5/5/4N"
    state = turn(position("n4/p4/2N2/5/4N"), "c3a4", "a5b3")
    assert board(state) == "5/N4/1n3/5/4N"  # White took the pawn; no end yet
    assert GAME.outcome(state) is None
    state = turn(position("n4/p4/1N3/5/4N"), "b3a5", "a4a3")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "horsemen_lost"
    assert GAME.to_act(state) == frozenset()
    assert GAME.legal_moves(state, 0) == GAME.legal_moves(state, 1) == []


def test_losing_both_last_horsemen_at_once_is_a_draw() -> None:
    state = turn(position("n4/5/5/5/N4"), "a1b3", "a5b3")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner is None and outcome.reason == "horsemen_lost"
    assert outcome.scores == (0.5, 0.5)


def test_black_without_moves_lets_white_move_alone() -> None:
    # Black's knight a5 is boxed in by its own blocked pawns b3 and c4.
    state = position("n4/2p2/1pP2/1P3/4N")
    assert generate(state, 1) == []
    assert GAME.to_act(state) == {0}
    assert GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: mv("e1c2"), 1: mv("a5c4")}, RNG)
    state = turn(state, "e1c2", None)
    assert board(state) == "n4/2p2/1pP2/1PN2/5"
    assert GAME.view(state, None)["last_moves"] == {"0": "e1c2", "1": None}
    # the ko of a single move: c2-e1 (back) is banned next turn
    assert "c2e1" not in texts(GAME.legal_moves(state, 0))
    assert {"c2a1", "c2a3", "c2d4", "c2e3"} <= texts(GAME.legal_moves(state, 0))


def test_white_without_moves_loses() -> None:
    # White's knight a1 is boxed in by its own blocked pawns b3 and c2.
    state = position("4n/1p3/1Pp2/2P2/N4")
    assert generate(state, 0) == []
    assert generate(state, 1) != []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "no_moves"
    assert GAME.to_act(state) == frozenset()


# -- the contract --------------------------------------------------------------------------


def test_move_text_round_trips() -> None:
    state = start()
    for move in GAME.legal_moves(state, 0) + GAME.legal_moves(state, 1):
        assert GAME.parse_move(state, 0, str(move)) == move
        assert eval(repr(move)) == move
    assert GAME.parse_move(state, 0, "A1-B3") == mv("a1b3") == GAME.parse_move(state, 0, "a1xb3")
    assert repr(mv("a1b3")) == "ApocalypseMove.from_text('a1b3')"


@pytest.mark.parametrize("text", ["", "a1", "a1b", "a1b6", "f1a1", "a1a1", "a1=b3", "a1b3c"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(InvalidMove):
        GAME.parse_move(start(), 0, text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: mv("a1b3")}, RNG)  # Black's move is missing
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: mv("a1a3"), 1: mv("a4a3")}, RNG)
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: mv("a4a3"), 1: mv("a1b3")}, RNG)  # each other's moves
    assert GAME.encode_state(state) == before


def test_views_are_public_json_and_equal_for_everyone() -> None:
    state = turn(turn(start(), "a1b3", "a5c4"), "b3c5", "c4b2")
    view = GAME.view(state, None)
    assert view == GAME.view(state, 0) == GAME.view(state, 1)
    assert json.loads(json.dumps(view)) == view
    assert view["ply"] == 2
    assert view["to_act"] == [0, 1]
    assert view["last_moves"] == {"0": "b3c5", "1": "c4b2"}
    assert view["last_events"] == [{"type": "capture", "square": "c5", "piece": "p"}]
    assert view["board"] == "1pNpn/p3p/5/Pn2P/1PPPN"
    assert view["pieces"]["c5"] == "N"


def test_encode_decode_round_trip() -> None:
    rng = random.Random(7)
    state = start()
    for _ in range(30):
        if not GAME.to_act(state):
            break
        moves = {s: rng.choice(GAME.legal_moves(state, s)) for s in GAME.to_act(state)}
        state = GAME.play(state, moves, rng)
        data = json.loads(json.dumps(GAME.encode_state(state)))
        assert GAME.decode_state(data) == state


def test_play_returns_a_new_state() -> None:
    state = start()
    after = turn(state, "a1b3", "a5c4")
    assert board(state) == START_BOARD and state.ply == 0
    assert after is not state and after.ply == 1


def test_bot_hooks() -> None:
    state = start()
    assert GAME.evaluate(state, 0) == [11.0, 11.0]
    state = position("n3n/2P2/1n3/5/N4")
    assert GAME.move_heuristic(state, 0, mv("a1b3")) == 3.0
    assert GAME.move_heuristic(state, 0, mv("c4c5")) == 2.0
    assert GAME.move_heuristic(state, 0, mv("a1c2")) == 0.0


def test_registry_entry() -> None:
    info = GAME.info()
    assert info["simultaneous"] is True and info["hidden_information"] is True
    assert info["options"]["ruleset"]["choices"] == ["dagaz"]


def test_a_game_is_drawn_after_max_turns() -> None:
    """Our addition [Decide]: Dagaz has no draw rule, so a game is bounded (default 200)."""
    game = Apocalypse()
    opts = game.check_options({"max_turns": 2})
    assert game.check_options({})["max_turns"] == 200
    state = game.new(opts, 2, random.Random(0))
    for moves in ({0: "b1b2", 1: "b5b4"}, {0: "d1d2", 1: "d5d4"}):
        state = game.play(
            state, {s: game.parse_move(state, s, m) for s, m in moves.items()}, random.Random(0)
        )
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == "turn_limit" and outcome.winner is None
    assert game.to_act(state) == frozenset()
    assert game.decode_state(game.encode_state(state)) == state
    assert game.view(state, None)["max_turns"] == 2

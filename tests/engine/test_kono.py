"""Four-field Kono (docs/GAMES.md 5.2): steps, jump captures, the end, our draw rules, and
Dagaz's own model as the oracle (tests/engine/oracle/kono_dagaz.json, scripts/dagaz/kono.js)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, Outcome, grid
from server.engine.kono import Kono, KonoMove, KonoState, generate, position, rules
from server.engine.perft import perft

from . import helpers

T = helpers.Tester[KonoState]("kono")
GAME = cast(Kono, T.game)
ORACLE = Path(__file__).parent / "oracle" / "kono_dagaz.json"
SEATS = {"Black": 0, "White": 1}
RNG = T.rng
start, act, legal, random_game = T.start, T.act, T.legal, T.random_game


# -- 5.2: the start --------------------------------------------------------------------------


def test_start_board_full_black_has_exactly_four_captures() -> None:
    state = start()
    assert GAME.view(state, None)["board"] == "wwww/wwww/bbbb/bbbb"
    assert GAME.to_act(state) == {0}
    assert legal(state) == {"a1xa3", "b1xb3", "c1xc3", "d1xd3"}


def test_perft_matches_dagaz() -> None:
    # the same counts from Dagaz's model (scripts/dagaz/harness.js), depths 1-6:
    # 4, 16, 100, 576, 3642, 21474
    assert [perft(GAME, start(), d) for d in range(1, 6)] == [4, 16, 100, 576, 3642]


# -- 5.2: moves ------------------------------------------------------------------------------


def test_step_is_one_orthogonal_square_to_an_empty_one() -> None:
    state = position("w..b/..w./.b../w...")  # Black b2: a2, c2, b1, b3 empty, no diagonals
    assert {m for m in legal(state) if m.startswith("b2")} == {"b2-a2", "b2-c2", "b2-b1", "b2-b3"}
    state = position("w..b/.w../.b../w...")  # b3 White: no step onto it, no capture either
    assert {m for m in legal(state) if m.startswith("b2")} == {"b2-a2", "b2-c2", "b2-b1"}


def test_capture_jumps_an_own_stone_onto_the_enemy_behind() -> None:
    state = position("ww../w.../b.../b...")  # a1 over a2 onto a3
    assert "a1xa3" in legal(state)
    after = act(state, "a1xa3")
    assert GAME.view(after, None)["board"] == "ww../b.../b.../...."
    assert after.quiet == 0


def test_no_capture_over_an_enemy_an_empty_square_or_onto_an_empty_square() -> None:
    over_enemy = position("w.../w.../b.../....")  # b a2 next to w a3: no jump over it
    assert not any("x" in m for m in legal(over_enemy))
    over_empty = position("w.../..../b.../....")  # a2 over empty a3 onto a4: no
    assert not any("x" in m for m in legal(over_empty))
    onto_empty = position("w.w./..../b.../b...")  # a1 over a2 onto empty a3: a step only
    assert not any("x" in m for m in legal(onto_empty))
    onto_own = position("ww../b.../b.../b...")
    assert "a1xa3" not in legal(onto_own) and "a2xa4" in legal(onto_own)


def test_capture_is_not_compulsory() -> None:
    state = position("ww../w.../b.../b...")
    moves = legal(state)
    assert "a1xa3" in moves and {"a1-b1", "a2-b2"} <= moves


def test_capture_in_every_direction() -> None:
    # White c3 takes leftwards over b3 onto a3, down over c2 onto c1; Black is the target
    state = position("..../bww./..w./..b.", to_move=1)
    assert {"c3xa3", "c3xc1"} <= legal(state)


# -- 5.2 and our draw rules: the end -----------------------------------------------------------


def test_leaving_the_opponent_one_stone_wins() -> None:
    state = position("..../w.../b.../b.b.")  # White has 1 stone left
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "too_few_stones"
    state = position("w.../w.../b.../b.b.")
    assert GAME.outcome(state) is None
    after = act(state, "a1xa3")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "too_few_stones"
    assert GAME.to_act(after) == frozenset() and GAME.legal_moves(after, 1) == []


def test_no_legal_move_loses() -> None:
    # White's row 4 is stuck: Black below every stone, only own stones beside
    state = position("wwww/bbbb/..../....", to_move=1)
    assert generate(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "no_moves"
    assert GAME.outcome(position("wwww/bbbb/..../....", to_move=0)) is None


def test_threefold_repetition_draws() -> None:
    state = position("w..w/..../..../b..b")
    cycle = ["a1-a2", "a4-a3", "a2-a1", "a3-a4"]
    for text in cycle * 2:
        assert GAME.outcome(state) is None
        state = act(state, text)
    assert GAME.view(state, None)["counters"]["repetitions"] == 3
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "repetition" and outcome.winner is None


def test_quiet_plies_draw_after_draw_plies_and_a_capture_resets() -> None:
    state = position("w.../w.../b.../b..b", options={"draw_plies": 3})
    state = act(state, "d1-d2")
    state = act(state, "a4-b4")
    assert state.quiet == 2 and GAME.outcome(state) is None
    state = act(state, "d2-d3")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "no_progress" and outcome.winner is None
    state = position("ww../w.../b.../b..b", options={"draw_plies": 3})
    state = act(state, "d1-d2")
    state = act(state, "b4-c4")
    state = act(state, "a1xa3")
    assert state.quiet == 0 and GAME.outcome(state) is None
    unlimited = position("w.../w.../b.../b..b", options={"draw_plies": 0})
    assert rules.end(unlimited) is None


# -- the Dagaz oracle ----------------------------------------------------------------------


def compare_with_dagaz(doc: dict[str, Any]) -> int:
    """Replay every game of the fixture; at each position our legal set must be Dagaz's, and
    where Dagaz's game ended ours must end with the same winner. Returns positions compared.
    Our draw rules (which Dagaz lacks) are set aside: ``generate`` gives the moves even after
    a draw, and a draw may end our game where Dagaz's went on."""

    def ended(outcome: Outcome | None, result: dict[str, Any], where: str) -> None:
        assert outcome is not None and outcome.winner is not None, where
        assert outcome.winner == SEATS[result["winner"]], where

    return helpers.replay_oracle(
        doc["games"],
        lambda: position("wwww/wwww/bbbb/bbbb", options={"draw_plies": 0}),
        generate,
        lambda state, text: rules.apply(state, KonoMove.from_text(text)),
        lambda state: rules.end(state),
        ended,
        draws_go_on=True,
    )


def oracle() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ORACLE.read_text())
    return doc


def test_legal_moves_and_ends_match_dagaz() -> None:
    doc = oracle()
    assert doc["game"] == "kono" and len(doc["games"]) >= 30
    assert compare_with_dagaz(doc) > 3000
    assert any(g["result"] for g in doc["games"])


def test_a_broken_rule_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules.moves_of

    def jumps_over_enemies_too(board: str, seat: int) -> list[KonoMove]:
        out, mine, theirs = real(board, seat), "bw"[seat], "bw"[1 - seat]
        for src in (sq for sq, stone in enumerate(board) if stone == mine):
            for near, far in rules.LINES[src]:
                if board[near] == theirs and far is not None and board[far] == theirs:
                    out.append(KonoMove(src, far, True))
        return out

    monkeypatch.setattr(rules, "moves_of", jumps_over_enemies_too)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


def test_a_broken_end_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "MIN_STONES", 1)  # "lose when no stone is left"
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


# -- notation, options, views, snapshots, bot hooks ----------------------------------------------


def test_move_text_round_trips() -> None:
    state = position("ww../w.../b.../b...")
    moves = GAME.legal_moves(state, 0)
    assert {"a1xa3", "a1-b1"} <= {str(m) for m in moves}
    for move in moves:
        assert GAME.parse_move(state, 0, str(move)) == move
        assert eval(repr(move)) == move
    assert repr(KonoMove.from_text("a1xa3")) == "KonoMove.from_text('a1xa3')"
    for text in legal(state):
        assert grid.gesture(text) is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a Kono move"),
        ("a1a2", "not a Kono move"),
        ("a1-a2 ", "not a Kono move"),
        (" a1-a2", "not a Kono move"),
        ("A1-A2", "not a Kono move"),
        ("a1-a2=Q", "not a Kono move"),
        ("a1-e1", "not a square"),
        ("a1-a5", "not a square"),
        ("a1-a3", "a step goes one square"),
        ("a1-b2", "a step goes one square"),
        ("a1-a1", "does not move"),
        ("a1xa2", "a capture jumps two squares"),
        ("a1xc3", "a capture jumps two squares"),
        ("a1xa4", "a capture jumps two squares"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        GAME.parse_move(start(), 0, text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: KonoMove.from_text("a4xa2")}, RNG)  # not White's turn
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: KonoMove.from_text("a2-a3")}, RNG)  # a3 is occupied
    assert GAME.encode_state(state) == before
    assert GAME.legal_moves(state, 1) == []


def test_options() -> None:
    assert GAME.check_options({}) == {"draw_plies": 50}
    for bad in ({"draw_plies": -1}, {"draw_plies": "50"}, {"draw_plies": True}, {"other": 1}):
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad)
    assert start(draw_plies=10).draw_plies == 10
    assert GAME.info()["board"] == "grid" and GAME.info()["title"] == "Four-field Kono"


@pytest.mark.parametrize("seed", range(4))
def test_views_are_public_json_and_describe_the_board(seed: int) -> None:
    for state in random_game(seed):
        view = GAME.view(state, None)
        assert view == GAME.view(state, 0) == GAME.view(state, 1)
        assert json.loads(json.dumps(view)) == view
        grid.check(view["grid"], 2)
        grid.check_gestures(view["grid"], legal(state))
        assert len(view["grid"]["pieces"]) == sum(view["stones"])


def test_view_last_move_and_status() -> None:
    state = act(start(), "b1xb3")
    g = GAME.view(state, None)["grid"]
    assert g["last"] == ["b1", "b3"] and g["status"] == "White to move"
    assert g["pieces"]["b3"]["seat"] == 0 and "b1" not in g["pieces"]
    assert GAME.view(state, None)["last_move"] == "b1xb3"
    over = GAME.view(position("..../w.../b.../b.b."), None)["grid"]
    assert over["status"] == "Black wins: White has fewer than 2 stones left"


def test_encode_decode_round_trip_and_every_game_ends() -> None:
    for seed in range(3):
        states = random_game(seed, 3000)
        assert GAME.outcome(states[-1]) is not None
        for state in states:
            data = json.loads(json.dumps(GAME.encode_state(state)))
            assert GAME.decode_state(data) == state


def test_bot_hooks() -> None:
    state = position("ww../w.../b.../b...")
    # Black: 2 stones, 3 moves (a1xa3 a1-b1 a2-b2); White: 3 stones, 4 moves (a4xa2 over
    # its own a3, b4-b3, b4-c4, a3-b3)
    assert GAME.evaluate(state, 0) == pytest.approx([2.3, 3.4])
    assert GAME.move_heuristic(state, 0, KonoMove.from_text("a1xa3")) == 1.0
    assert GAME.move_heuristic(state, 0, KonoMove.from_text("a1-b1")) == 0.0

"""XiangQi (docs/GAMES.md 5.6): the board, each piece's moves, the flying general, check,
the ends, perpetual check and our draw rules, notation, views, and Fairy-Stockfish (pyffish)
as the oracle (tests/engine/xiangqi_fsf.py; scripts/xiangqi_fsf.py runs it at length)."""

from __future__ import annotations

import json
from typing import cast

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, grid
from server.engine.perft import perft
from server.engine.xiangqi import (
    START,
    Xiangqi,
    XiangqiMove,
    XiangqiState,
    position,
    rows,
    rules,
)

from . import helpers
from . import xiangqi_fsf as fsf

T = helpers.Tester[XiangqiState]("xiangqi")
GAME = cast(Xiangqi, T.game)
RNG = T.rng
FILES = "abcdefghi"


start, act, legal, random_game = T.start, T.act, T.legal, T.random_game


def at(pieces: str, *, to_move: int = 0, draw_plies: int = 120) -> XiangqiState:
    """A position from ``"Ke1 kd10 Ra9"``: a piece letter (upper case Red, lower case Black)
    and its point, for each piece."""
    cells = {(f, r): "." for f in FILES for r in range(1, 11)}
    for word in pieces.split():
        cells[(word[1], int(word[2:]))] = word[0]
    layout = "/".join("".join(cells[(f, r)] for f in FILES) for r in range(10, 0, -1))
    return position(layout, to_move=to_move, draw_plies=draw_plies)


def moves_from(state: XiangqiState, square: str) -> set[str]:
    return {m for m in legal(state) if m[: len(square)] == square and not m[len(square)].isdigit()}


# -- 5.6.1: the start ------------------------------------------------------------------------


def test_start_array_perft_and_red_first() -> None:
    state = start()
    assert rows(state.board) == START
    assert GAME.to_act(state) == {0}
    assert [perft(GAME, state, d) for d in (1, 2, 3)] == [44, 1920, 79666]


# -- 5.6.3: the pieces -----------------------------------------------------------------------


def test_general_steps_orthogonally_inside_its_palace() -> None:
    assert moves_from(at("Ke2 Pe5 ke10"), "e2") == {"e2-e1", "e2-e3", "e2-d2", "e2-f2"}
    assert moves_from(at("Kd3 kf10"), "d3") == {"d3-d2", "d3-e3"}  # not d4: outside


def test_advisor_steps_diagonally_inside_its_palace() -> None:
    assert moves_from(at("Ke1 Ae2 kf10"), "e2") == {"e2-d1", "e2-d3", "e2-f3", "e2-f1"}
    assert moves_from(at("Ke1 Ad3 kf10"), "d3") == {"d3-e2"}
    assert moves_from(at("Kd1 kf10 ae9", to_move=1), "e9") == {"e9-d8", "e9-d10", "e9-f8"}


def test_elephant_two_diagonal_steps_blocked_at_the_eye_never_across_the_river() -> None:
    assert moves_from(at("Ke1 Be3 kf10"), "e3") == {"e3-c1", "e3-c5", "e3-g1", "e3-g5"}
    assert moves_from(at("Ke1 Be3 Pd4 kf10"), "e3") == {"e3-c1", "e3-g1", "e3-g5"}
    assert moves_from(at("Ke1 Bc5 kf10"), "c5") == {"c5-a3", "c5-e3"}  # not a7 or e7
    assert moves_from(at("Ke1 kf10 bc6", to_move=1), "c6") == {"c6-a8", "c6-e8"}


def test_horse_blocked_at_the_leg() -> None:
    free = moves_from(at("Ke1 Ne5 kf10"), "e5")
    assert free == {f"e5-{t}" for t in ("d7", "f7", "d3", "f3", "c6", "c4", "g6", "g4")}
    hobbled = moves_from(at("Ke1 Ne5 Pe6 pd5 kf10"), "e5")  # legs e6 (own) and d5 (enemy)
    assert hobbled == {f"e5-{t}" for t in ("d3", "f3", "g6", "g4")}
    assert "e5xf7" in legal(at("Ke1 Ne5 pf7 kd10"))
    assert moves_from(at("Ke1 Na1 kf10"), "a1") == {"a1-b3", "a1-c2"}


def test_chariot_slides_and_takes_the_first_enemy() -> None:
    state = at("Kd1 Re5 pe8 Pc5 kf10")
    assert moves_from(state, "e5") == {
        "e5-e6",
        "e5-e7",
        "e5xe8",
        "e5-e4",
        "e5-e3",
        "e5-e2",
        "e5-e1",
        "e5-d5",
        "e5-f5",
        "e5-g5",
        "e5-h5",
        "e5-i5",
    }


def test_cannon_slides_and_takes_over_exactly_one_screen() -> None:
    state = at("Kd1 Ce3 Pe5 pe7 pe9 Cb3 pa3 kf10")
    from_e3 = moves_from(state, "e3")
    assert "e3xe7" in from_e3  # one screen (e5)
    assert "e3xe9" not in from_e3 and "e3-e6" not in from_e3 and "e3-e5" not in from_e3
    assert "e3-e4" in from_e3 and "e3-e1" in from_e3
    assert "b3xa3" not in legal(state)  # no screen: a cannon never takes next to it
    assert "e3-c3" in from_e3 and "e3xb3" not in from_e3
    assert "e3xa3" in from_e3  # over its own cannon on b3: a screen of either side serves


def test_soldier_forward_then_sideways_across_the_river_never_back() -> None:
    assert moves_from(at("Kd1 Pc4 kf10"), "c4") == {"c4-c5"}
    assert moves_from(at("Kd1 Pc5 kf10"), "c5") == {"c5-c6"}
    assert moves_from(at("Kd1 Pc6 kf10"), "c6") == {"c6-c7", "c6-b6", "c6-d6"}
    assert moves_from(at("Kd1 Pc10 kf10"), "c10") == {"c10-b10", "c10-d10"}
    assert moves_from(at("Kd1 kf10 pc5", to_move=1), "c5") == {"c5-c4", "c5-b5", "c5-d5"}
    assert moves_from(at("Kd1 kf10 pc7", to_move=1), "c7") == {"c7-c6"}


# -- 5.6.4: the flying general and check -------------------------------------------------------


def test_the_generals_may_not_face_each_other_on_an_open_file() -> None:
    assert "d1-e1" not in legal(at("Kd1 ke10"))  # stepping onto the open file
    assert "e2-d2" not in legal(at("Ke1 Re2 ke10"))  # the one piece between may not leave
    assert "e2-e3" in legal(at("Ke1 Re2 ke10"))  # along the file it still stands between
    assert "d1-e1" in legal(at("Kd1 Pe5 ke10"))


def test_no_move_may_leave_ones_general_attacked() -> None:
    pinned = at("Ke1 Re3 re8 kd10")
    assert moves_from(pinned, "e3") == {f"e3-e{r}" for r in (2, 4, 5, 6, 7)} | {"e3xe8"}
    # a piece stepping in front of an enemy cannon on the general's file becomes its screen
    assert "c1-e3" not in legal(at("Ke1 Bc1 ce8 kd10"))
    screen = at("Ke1 Nd5 ce8 kd10")
    assert "d5-e3" not in legal(screen) and "d5-e7" not in legal(screen)
    assert "d5-c3" in legal(screen)
    check = at("Ke1 Ra2 re8 kd10")
    assert check.in_check and legal(check) == {"a2-e2", "e1-f1"}  # d1 faces the other general


# -- 5.6.5: the end ----------------------------------------------------------------------------


def test_checkmate_loses() -> None:
    state = act(at("Ke1 Ra9 Rb1 kd10"), "b1-b10")  # d9 covered, e10 faces the Red general
    end = GAME.outcome(state)
    assert end is not None and end.winner == 0 and end.reason == "checkmate"
    assert GAME.to_act(state) == frozenset()
    assert GAME.view(state, None)["grid"]["status"] == "Red wins: checkmate"


def test_stalemate_loses_for_the_side_without_a_move() -> None:
    state = at("Ke1 Ra9 kd10", to_move=1)
    assert not state.in_check
    end = GAME.outcome(state)
    assert end is not None and end.winner == 0 and end.reason == "stalemate"


def test_perpetual_check_loses() -> None:
    state = at("Kf1 Ra9 kd10")
    # the start position comes back for the third time after eight plies: Red gave check
    # with each of its four moves since the first time, Black with none
    for text in ["a9-a10", "d10-d9", "a10-a9", "d9-d10"] * 2:
        assert GAME.outcome(state) is None
        state = act(state, text)
    end = GAME.outcome(state)
    assert end is not None and end.winner == 1 and end.reason == "perpetual_check"


def test_repetition_without_perpetual_check_draws() -> None:
    state = at("Kd1 Ra1 ri10 kf10")
    for text in ["a1-a2", "i10-i9", "a2-a1", "i9-i10"] * 2:
        assert GAME.outcome(state) is None
        state = act(state, text)
    end = GAME.outcome(state)
    assert end is not None and end.winner is None and end.reason == "repetition"


def test_both_sides_checking_in_every_move_draws() -> None:
    # keys end with the side to move and "+" when it is in check; w is there three times
    cycle = ["w0+", "x1+", "y0+", "z1+"]
    both = (*cycle, *cycle, "w0+")
    assert rules.perpetual_checker(both) == -1  # both sides check every move: a draw
    red_only = tuple(k.replace("y0+", "y0-") for k in both)
    assert rules.perpetual_checker(red_only) == 0  # Red alone checks every move: Red loses
    assert rules.perpetual_checker(("w0-", "x1-", "w0-")) is None  # only twice


def test_quiet_plies_draw_and_a_capture_resets_them() -> None:
    state = at("Kd1 Ra1 ri10 kf10", draw_plies=20)
    shuffle = ["a1-a2", "i10-i9", "a2-a3", "i9-i8", "a3-a4", "i8-i7", "a4-a5", "i7-i6"]
    shuffle += ["a5-a6", "i6-i5", "a6-a7", "i5-i4", "a7-a8", "i4-i3", "a8-a9", "i3-i2"]
    shuffle += ["d1-e1", "i2-h2", "e1-d1", "h2-g2"]
    for text in shuffle:
        assert GAME.outcome(state) is None, text
        state = act(state, text)
    end = GAME.outcome(state)
    assert state.quiet == 20 and end is not None and end.reason == "no_progress"
    took = act(act(at("Kd1 Ra1 ra10 kf10", draw_plies=20), "a1-a2"), "a10xa2")
    assert took.quiet == 0 and took.history == took.history[-1:]


# -- the Fairy-Stockfish oracle ------------------------------------------------------------------

TRICKY = {
    "flying general": "Ke1 Ne5 ke10 Rd3 rf8 pc4 Pg6",
    "cannon screens": "Ke1 Ce3 Pe5 ce7 pe9 Cb3 pb7 Cb9 kf10 cf5",
    "horse legs": "Kf1 Ne5 Pe6 pd5 Ng7 nc3 Be3 ke10 nh8 pd4 Ad3 ag9 Pg8",
    "elephant eyes": "Ke1 Be3 Pd4 Bc5 bc6 be8 pf7 Pf4 kf10",
    "cannon pins": "Ke1 Nd5 Bc1 ce8 re9 kd10 Ch10 pd3 Af2",
}


def test_perft_matches_fairy_stockfish_on_tricky_positions() -> None:
    for name, pieces in TRICKY.items():
        for to_move in (0, 1):
            state = at(pieces, to_move=to_move)
            assert fsf.ours(state) == fsf.fsf_legal(state), name
            assert perft(GAME, state, 2) == fsf.fsf_perft(state, 2), (name, to_move)


def test_legal_moves_and_checks_match_fairy_stockfish() -> None:
    positions, games = fsf.compare_random_games(start, range(10), max_plies=150, check_every=5)
    assert games == 10 and positions > 1000


def test_a_missing_flying_general_rule_is_caught_by_the_oracle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = rules.attacked

    def generals_fly_freely(board: str, sq: int, seat: int) -> bool:
        other = "k" if seat == 0 else "K"  # the enemy general blocks but attacks no more
        return real(board.replace(other, "a" if seat == 0 else "A"), sq, seat)

    monkeypatch.setattr(rules, "attacked", generals_fly_freely)
    with pytest.raises(AssertionError, match="we alone"):
        fsf.compare_random_games(lambda: at("Kd1 Pe5 ke10 Re3 rd8"), range(3), max_plies=20)


# -- notation, options, views, snapshots, bot hooks ----------------------------------------


def test_move_text_round_trips() -> None:
    for text in ("h3-e3", "h3xh10", "a10-a9", "i1xi10"):
        move = XiangqiMove.from_text(text)
        assert str(move) == text
        assert eval(repr(move)) == move  # repr pastes back
        assert GAME.parse_move(start(), 0, text) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a XiangQi move"),
        ("h3e3", "not a XiangQi move"),
        (" h3-e3", "not a XiangQi move"),
        ("h3-e3 ", "not a XiangQi move"),
        ("H3-E3", "not a XiangQi move"),
        ("h3-e3+", "not a XiangQi move"),
        ("j1-j2", "not a square"),
        ("a0-a1", "not a square"),
        ("a10-a11", "not a square"),
        ("a01-a2", "not a square"),
        ("e1-e1", "does not move"),
        ("炮二平五", "not a XiangQi move"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        XiangqiMove.from_text(text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    for text in ("h3xh8", "h3-h10", "b1-b2", "e1-e2x", "a4-b4"):
        with pytest.raises((IllegalMove, InvalidMove)):
            act(state, text)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: XiangqiMove.from_text("a7-a6")}, RNG)
    assert GAME.encode_state(state) == before


def test_options() -> None:
    assert GAME.check_options(None)["draw_plies"] == 120  # fen: test_xiangqi_fen.py
    assert start(draw_plies=200).draw_plies == 200
    for bad in ({"draw_plies": 0}, {"draw_plies": 5000}, {"draw_plies": "9"}, {"variant": "x"}):
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad)


def test_views_are_public_json_and_describe_the_board() -> None:
    for state in random_game(3, 150)[::7]:
        view = GAME.view(state, None)
        assert view == GAME.view(state, 0) == GAME.view(state, 1)
        assert json.loads(json.dumps(view)) == view
        grid.check(view["grid"], 2)
        grid.check_gestures(view["grid"], GAME.legal_texts(state, state.to_move))


def test_view_points_river_palace_pieces_and_status() -> None:
    desc = GAME.view(start(), None)["grid"]
    assert desc["style"] == "points" and (desc["files"], desc["ranks"]) == (9, 10)
    assert desc["breaks"] == [[f"{f}5", f"{f}6"] for f in "bcdefgh"]
    assert desc["links"] == [["d1", "f3"], ["f1", "d3"], ["d8", "f10"], ["f8", "d10"]]
    palace = [f + r for f in "def" for r in ("1", "2", "3", "8", "9", "10")]
    assert sorted(desc["cells"]) == sorted(palace)
    horse = desc["pieces"]["b1"]
    assert (horse["label"], horse["glyph"], horse["seat"]) == ("Red Horse", "傌", 0)
    general = desc["pieces"]["e10"]
    assert (general["label"], general["glyph"], general["seat"]) == ("Black General", "將", 1)
    assert [s["name"] for s in desc["seats"]] == ["Red", "Black"]
    assert desc["status"] == "Red to move" and desc["last"] == []
    check = act(at("Kd1 Ra2 kf10"), "a2-f2")
    assert GAME.view(check, None)["grid"]["status"] == "Black to move — check!"
    assert GAME.view(check, None)["check"] is True
    assert GAME.view(check, None)["grid"]["last"] == ["a2", "f2"]


def test_encode_decode_round_trip_determinize_and_every_game_ends() -> None:
    for seed in range(3):
        states = random_game(seed, 3000)
        assert GAME.outcome(states[-1]) is not None
        for state in states[::40] + states[-1:]:
            assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(state)))) == state
            views = [GAME.view(state, 0)]
            assert GAME.determinize(views, 0, RNG) == state


def test_bot_hooks() -> None:
    state = start()
    assert GAME.evaluate(state, 0) == pytest.approx(list(reversed(GAME.evaluate(state, 1))))
    before = GAME.evaluate(at("Kd1 Ra1 kf10 ra10"), 0)
    after = GAME.evaluate(act(at("Kd1 Ra1 kf10 ra10"), "a1xa10"), 1)
    assert (after[0] - after[1]) - (before[0] - before[1]) > 8
    crossed, home = at("Kd1 Pe6 kf10"), at("Kd1 Pe4 kf10")
    assert GAME.evaluate(crossed, 0)[0] > GAME.evaluate(home, 0)[0]
    captures = at("Kd1 Pe6 Ce3 re7 kf10")
    soldier, cannon = (
        GAME.move_heuristic(captures, 0, XiangqiMove.from_text(t)) for t in ("e6xe7", "e3xe7")
    )
    assert soldier > cannon > 0.5
    assert GAME.move_heuristic(start(), 0, XiangqiMove.from_text("h3-e3")) == 0.0

"""BanQi (docs/GAMES.md 3): flips, colours, Taiwanese and Chinese captures, end and draw rules."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, get_game
from server.engine.banqi import (
    BLACK,
    FULL_SET,
    RED,
    SQUARES,
    BanqiMove,
    BanqiState,
    position,
    public_board,
)
from server.engine.perft import perft

parse_square = SQUARES.parse
GAME = get_game("banqi")
RNG = random.Random(0)
EMPTY_ROW = "........"


def start(seed: int = 1, **options: object) -> BanqiState:
    return GAME.new(GAME.check_options(options), 2, random.Random(seed))


def act(state: BanqiState, text: str) -> BanqiState:
    """Play one checked action for the seat to move."""
    return GAME.play(state, {state.to_move: BanqiMove.from_text(text)}, RNG)


def legal(state: BanqiState) -> set[str]:
    return {str(m) for m in GAME.legal_moves(state, state.to_move)}


def rows(rank4: str, rank3: str, rank2: str, rank1: str) -> str:
    return "/".join((rank4, rank3, rank2, rank1))


# -- 3.5: the start ------------------------------------------------------------------------


def test_start_is_32_flips_then_31_flips_and_no_moves() -> None:
    state = start()
    assert state.hidden == frozenset(range(32))
    assert sorted(state.board) == sorted(FULL_SET)
    assert GAME.to_act(state) == {0}
    assert legal(state) == {f"flip {f}{r}" for f in "abcdefgh" for r in "1234"}
    state = act(state, "flip c3")
    assert GAME.to_act(state) == {1}
    second = legal(state)
    assert len(second) == 31 and all(m.startswith("flip ") for m in second)
    assert "flip c3" not in second


def test_perft_one_is_32_for_a_fixed_seed() -> None:
    state = start(seed=42)
    assert perft(GAME, state, 1) == 32
    assert perft(GAME, state, 2) == 32 * 31


def test_layout_comes_from_the_rng() -> None:
    assert start(seed=3).board == start(seed=3).board
    assert len({start(seed=s).board for s in range(5)}) == 5


# -- 3.1.5: colours ------------------------------------------------------------------------


@pytest.mark.parametrize("flipper_gets", [RED, BLACK])
def test_first_flip_assigns_colours(flipper_gets: int) -> None:
    state = start(seed=9)
    square = next(
        sq
        for sq, ch in enumerate(state.board)
        if (ch.isupper() if flipper_gets == RED else ch.islower())
    )
    name = "abcdefgh"[square % 8] + str(square // 8 + 1)
    assert state.colours is None
    state = act(state, f"flip {name}")
    assert state.colours == (flipper_gets, 1 - flipper_gets)
    colour_names = ("red", "black")
    assert GAME.view(state, None)["colours"] == {
        "0": colour_names[flipper_gets],
        "1": colour_names[1 - flipper_gets],
    }
    # the second seat's flip, whatever it shows, changes nothing
    state = act(state, sorted(legal(state))[0])
    assert state.colours == (flipper_gets, 1 - flipper_gets)


def test_second_seat_colour_when_seat_one_flips_first_piece() -> None:
    # a layout where nothing is face-up yet but seat 1 is to move
    layout = rows("gaaeerrh", "hccsssss", "GAAEERRH", "HCCSSSSS")
    every = [f"{f}{r}" for f in "abcdefgh" for r in "1234"]
    state = position(layout, hidden=every, to_move=1, colours=None)
    state = act(state, "flip a1")  # rank 1 is HCCSSSSS: a Red horse
    assert state.board[parse_square("a1")] == "H"
    assert state.colours == (BLACK, RED)


# -- 3.5: Taiwanese captures ---------------------------------------------------------------


def test_taiwanese_cannon_jumps_a_face_down_screen() -> None:
    layout = rows("h" + "." * 7, EMPTY_ROW, "s" + "." * 7, "C" + "." * 7)
    state = position(layout, hidden=["a2"])
    assert "a1xa4" in legal(state)
    after = act(state, "a1xa4")
    assert public_board(after) == rows("C" + "." * 7, EMPTY_ROW, "?" + "." * 7, EMPTY_ROW)
    assert after.captured.endswith("h")


def test_taiwanese_cannon_cannot_take_a_face_down_piece() -> None:
    layout = rows("h" + "." * 7, EMPTY_ROW, "s" + "." * 7, "C" + "." * 7)
    state = position(layout, hidden=["a2", "a4"])
    assert "a1xa4" not in legal(state)
    with pytest.raises(IllegalMove):
        act(state, "a1xa4")


def test_taiwanese_cannon_never_takes_an_adjacent_piece() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, "s" + "." * 7, "C" + "." * 7)
    moves = legal(position(layout))
    assert "a1xa2" not in moves
    assert "a1-a2" not in moves
    assert not any("x" in m for m in moves)


def test_taiwanese_cannon_takes_any_rank_over_one_screen() -> None:
    # screen a2 (Black soldier, face-up), a3 empty, Black general on a4
    layout = rows("g" + "." * 7, EMPTY_ROW, "s" + "." * 7, "C" + "." * 7)
    state = position(layout)
    assert "a1xa4" in legal(state)
    # own piece behind the screen: no capture; two screens: no capture
    layout = rows("G" + "." * 7, EMPTY_ROW, "s" + "." * 7, "C" + "." * 7)
    assert "a1xa4" not in legal(position(layout))
    layout = rows("g" + "." * 7, "s" + "." * 7, "s" + "." * 7, "C" + "." * 7)
    assert "a1xa4" not in legal(position(layout))
    assert "a1xa3" in legal(position(layout))


def test_taiwanese_cannon_quiet_move_slides_or_steps() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, "g" + "." * 7, "C" + "." * 7)
    slide = {m for m in legal(position(layout)) if m.startswith("a1-")}
    assert slide == {f"a1-{f}1" for f in "bcdefgh"}
    step = position(layout, options={"cannon_quiet": "step"})
    assert {m for m in legal(step) if m.startswith("a1-")} == {"a1-b1"}


def test_taiwanese_general_and_soldier() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, ".Gs.....", EMPTY_ROW)
    red_to_move = position(layout, to_move=0)
    assert "b2xc2" not in legal(red_to_move)
    black_to_move = position(layout, to_move=1)
    assert "c2xb2" in legal(black_to_move)
    after = act(black_to_move, "c2xb2")
    assert public_board(after) == rows(EMPTY_ROW, EMPTY_ROW, ".s......", EMPTY_ROW)


def test_taiwanese_cannon_has_no_step_capture() -> None:
    layout = rows(EMPTY_ROW, "....c...", "....H...", EMPTY_ROW)
    state = position(layout, to_move=1)
    assert "e3xe2" not in legal(state)
    # ... while the horse may take the cannon (rank >= cannon)
    assert "e2xe3" in legal(position(layout, to_move=0))


def test_taiwanese_rank_order() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, ".Rh.e...", EMPTY_ROW)
    state = position(layout, to_move=0)
    assert "b2xc2" in legal(state)  # chariot takes horse
    black = position(layout, to_move=1)
    assert "c2xb2" not in legal(black)  # horse cannot take chariot
    equal = position(rows(EMPTY_ROW, EMPTY_ROW, ".Rr.....", EMPTY_ROW), to_move=0)
    assert "b2xc2" in legal(equal)
    assert "c2xb2" in legal(position(rows(EMPTY_ROW, EMPTY_ROW, ".Rr.....", EMPTY_ROW), to_move=1))


def test_no_capture_of_own_or_face_down_pieces() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, ".GAs....", "..s.....")
    state = position(layout, hidden=["c1"])
    moves = legal(state)
    assert "b2xc2" not in moves and "c2xd2" in moves
    assert "c2xc1" not in moves and "c2-c1" not in moves
    assert "flip c1" in moves


# -- 3.5: Chinese captures -----------------------------------------------------------------


def test_chinese_general_and_soldier_take_each_other() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, ".Gs.....", EMPTY_ROW)
    options = {"variant": "chinese"}
    assert "b2xc2" in legal(position(layout, to_move=0, options=options))
    assert "c2xb2" in legal(position(layout, to_move=1, options=options))


def test_chinese_cannon_steps_and_takes_only_cannons_and_soldiers() -> None:
    layout = rows("....S...", "....cC..", "....H...", EMPTY_ROW)
    state = position(layout, to_move=1, options={"variant": "chinese"})
    moves = legal(state)
    assert "e3xe2" not in moves
    assert {"e3xe4", "e3xf3", "e3-d3"} <= moves
    assert not any(m.startswith("e3-") and m != "e3-d3" for m in moves)  # no slide/jump


# -- 3.1.8, 3.4: end and draws -------------------------------------------------------------


@pytest.mark.parametrize(("colours", "loser"), [((RED, BLACK), 0), ((BLACK, RED), 1)])
def test_no_legal_action_loses_by_seat_colour(colours: tuple[int, int], loser: int) -> None:
    # Red's only piece, a soldier on a1, is boxed in by Black advisors; nothing is face-down.
    layout = rows(EMPTY_ROW, EMPTY_ROW, "a.......", "Sa......")
    red_seat = colours.index(RED)
    state = position(layout, to_move=red_seat, colours=colours)
    assert GAME.legal_moves(state, red_seat) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "no_moves"
    assert outcome.winner == 1 - loser and loser == red_seat
    assert GAME.to_act(state) == frozenset()
    # the same board with Black to act is not over
    assert GAME.outcome(position(layout, to_move=1 - red_seat, colours=colours)) is None


def test_capturing_the_last_piece_of_a_colour_wins() -> None:
    # Red R a1 takes Black's last piece; the one face-down piece left is Red.
    layout = rows(".......R", EMPTY_ROW, "s.......", "R.......")
    state = position(layout, hidden=["h4"], colours=(BLACK, RED), to_move=1)
    assert GAME.outcome(state) is None
    state = act(state, "a1xa2")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "all_captured"
    assert GAME.to_act(state) == frozenset()


def test_quiet_actions_draw_after_draw_plies() -> None:
    layout = rows("r.......", EMPTY_ROW, EMPTY_ROW, ".......R")
    state = position(layout, options={"draw_plies": 4})
    for text in ["h1-h2", "a4-a3", "h2-h1"]:
        state = act(state, text)
        assert GAME.outcome(state) is None
    assert state.quiet == 3
    state = act(state, "a3-a2")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "no_progress" and outcome.winner is None


def test_flips_and_captures_reset_the_quiet_counter() -> None:
    layout = rows("r......s", EMPTY_ROW, "......S.", ".......R")
    state = position(layout, hidden=["h4"], options={"draw_plies": 3})
    state = act(state, "h1-h2")
    state = act(state, "a4-a3")
    assert state.quiet == 2
    state = act(state, "flip h4")
    assert state.quiet == 0
    state = act(state, "a3-a2")
    state = act(state, "g2-g1")
    assert state.quiet == 2 and GAME.outcome(state) is None
    assert GAME.view(state, None)["counters"]["quiet"] == 2
    state = act(state, "a2-a1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "no_progress"


def test_capture_resets_the_quiet_counter() -> None:
    layout = rows("r.......", EMPTY_ROW, "......S.", "......Rh")
    state = position(layout, options={"draw_plies": 3})
    state = act(state, "g2-f2")
    state = act(state, "a4-a3")
    state = act(state, "g1xh1")
    assert state.quiet == 0 and state.captured.endswith("h")


def test_threefold_repetition_draws() -> None:
    layout = rows("r.......", EMPTY_ROW, EMPTY_ROW, ".......R")
    state = position(layout)
    cycle = ["h1-h2", "a4-a3", "h2-h1", "a3-a4"]
    for text in cycle:
        state = act(state, text)
    assert GAME.view(state, None)["counters"]["repetitions"] == 2
    assert GAME.outcome(state) is None
    for text in cycle[:3]:
        state = act(state, text)
        assert GAME.outcome(state) is None
    state = act(state, cycle[3])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "repetition" and outcome.winner is None
    assert state.quiet == 8 < state.draw_plies


# -- views, determinize, snapshots ---------------------------------------------------------


def test_view_hides_face_down_identity_and_is_the_same_for_all() -> None:
    state = act(start(seed=5), "flip d2")
    view = GAME.view(state, None)
    assert view == GAME.view(state, 0) == GAME.view(state, 1)
    assert json.loads(json.dumps(view)) == view
    assert view["squares"]["a1"] == {"hidden": True}
    flipped = state.board[parse_square("d2")]
    assert view["squares"]["d2"]["piece"] == flipped
    assert view["board"].count("?") == 31
    assert view["last_move"] == "flip d2"
    assert view["last_event"]["type"] == "flip"
    assert view["counters"] == {"hidden": 31, "quiet": 0, "repetitions": 1}
    # another layout with the same face-up piece gives the same view
    other = list(state.board)
    down = sorted(state.hidden)
    pieces = [other[sq] for sq in down]
    pieces = pieces[1:] + pieces[:1]
    for sq, piece in zip(down, pieces, strict=True):
        other[sq] = piece
    twin = BanqiState(
        "".join(other),
        state.hidden,
        state.to_move,
        state.colours,
        state.captured,
        state.quiet,
        state.history,
        state.ply,
        state.last_move,
    )
    assert twin.board != state.board
    assert GAME.view(twin, 1) == view


def random_game(seed: int, plies: int) -> list[BanqiState]:
    rng = random.Random(seed)
    states = [start(seed=seed)]
    for _ in range(plies):
        state = states[-1]
        if not GAME.to_act(state):
            break
        move = rng.choice(GAME.legal_moves(state, state.to_move))
        states.append(GAME.play(state, {state.to_move: move}, rng))
    return states


@pytest.mark.parametrize("seed", range(6))
def test_determinize_is_consistent_with_the_view(seed: int) -> None:
    states = random_game(seed, 120)
    views: list[dict[str, object]] = []
    for i, state in enumerate(states):
        views.append(GAME.view(state, i % 2))
        if i % 7:
            continue
        world = GAME.determinize(views, i % 2, random.Random(i))
        assert GAME.view(world, i % 2) == views[-1]
        assert world.hidden == state.hidden
        assert Counter(world.board) == Counter(state.board)
        assert all(world.board[sq] == state.board[sq] for sq in range(32) if sq not in state.hidden)
        assert {str(m) for m in GAME.legal_moves(world, world.to_move)} == {
            str(m) for m in GAME.legal_moves(state, state.to_move)
        }


def test_determinize_samples_the_unseen_pieces() -> None:
    state = act(start(seed=8), "flip a1")
    view = GAME.view(state, 1)
    layouts = {GAME.determinize([view], 1, random.Random(i)).board for i in range(10)}
    assert len(layouts) > 1


def test_encode_decode_round_trip() -> None:
    for state in random_game(11, 80):
        data = json.loads(json.dumps(GAME.encode_state(state)))
        assert GAME.decode_state(data) == state


def test_a_random_game_ends() -> None:
    states = random_game(3, 2000)
    assert GAME.outcome(states[-1]) is not None


# -- the contract --------------------------------------------------------------------------


def test_move_text_round_trips() -> None:
    state = position(rows("h.......", EMPTY_ROW, "s.......", "C......."), hidden=["a2"])
    moves = GAME.legal_moves(state, 0)
    assert {"flip a2", "a1-b1", "a1xa4"} <= {str(m) for m in moves}
    for move in moves:
        assert GAME.parse_move(state, 0, str(move)) == move
        assert eval(repr(move)) == move
    assert repr(BanqiMove.from_text("flip c3")) == "BanqiMove.from_text('flip c3')"
    for loose in ("  FLIP  C3 ", "flip c3 ", "A1-B1", "a1-b1\n"):  # whole strings only
        with pytest.raises(InvalidMove):
            BanqiMove.from_text(loose)


@pytest.mark.parametrize("text", ["", "flip", "flip i1", "c3", "a1a2", "a1-a5", "a1-a1", "x a1"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(InvalidMove):
        GAME.parse_move(start(), 0, text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: BanqiMove.from_text("flip a1")}, RNG)  # not seat 1's turn
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: BanqiMove.from_text("a1-a2")}, RNG)
    assert GAME.encode_state(state) == before
    assert GAME.legal_moves(state, 1) == []


def test_options() -> None:
    assert GAME.check_options({}) == {
        "variant": "taiwanese",
        "cannon_quiet": "slide",
        "draw_plies": 50,
    }
    with pytest.raises(InvalidOptions):
        GAME.check_options({"variant": "xiangqi"})
    with pytest.raises(InvalidOptions):
        GAME.check_options({"draw_plies": -1})
    assert start(variant="chinese").variant == "chinese"
    assert GAME.info()["hidden_information"] is True


def test_bot_hooks() -> None:
    layout = rows(EMPTY_ROW, EMPTY_ROW, ".Rh.....", EMPTY_ROW)
    state = position(layout)
    assert GAME.evaluate(state, 0) == [4.0, 3.0]
    assert GAME.move_heuristic(state, 0, BanqiMove.from_text("b2xc2")) == 3.0
    assert GAME.move_heuristic(state, 0, BanqiMove.from_text("b2-b1")) == 0.0
    assert GAME.evaluate(start(), 0) == [0.0, 0.0]

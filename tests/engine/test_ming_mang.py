"""Ming-Mang (docs/GAMES.md 5.4): slides, the lines a move closes and turns, the ko rule, the
end and our draw rules, and Dagaz's own models as the oracle
(tests/engine/oracle/ming_mang_dagaz.json, scripts/dagaz/ming_mang.js)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, cast

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, grid
from server.engine.ming_mang import MingMang, MingMangMove, MingMangState, position, rules
from server.engine.ming_mang.board import FILES, geometry, square_name
from server.engine.perft import perft

from . import helpers

T = helpers.Tester[MingMangState]("ming_mang")
GAME = cast(MingMang, T.game)
RNG = T.rng
ORACLE = Path(__file__).parent / "oracle" / "ming_mang_dagaz.json"
SEATS = {"Black": 0, "White": 1}
OFF = {"draw_plies": 0, "max_plies": 0}


start, act, legal = T.start, T.act, T.legal


def place(
    b: str = "", w: str = "", *, size: int = 9, to_move: int = 0, **options: Any
) -> MingMangState:
    """A position with Black's stones ``b`` and White's ``w`` (point names, spaces between)."""
    rows = [["."] * size for _ in range(size)]
    for stone, points in (("b", b), ("w", w)):
        for name in points.split():
            rows[size - int(name[1:])][FILES.index(name[0])] = stone
    return position("/".join("".join(r) for r in rows), to_move=to_move, options=options)


def stones(state: MingMangState, seat: int) -> set[str]:
    return {square_name(sq, state.size) for sq, ch in enumerate(state.board) if ch == "bw"[seat]}


# -- 5.4.1: the boards and the start ---------------------------------------------------------


def test_start_on_two_edges_each_black_first() -> None:
    state = start()
    assert state.size == 9 and GAME.to_act(state) == {0}
    assert stones(state, 0) == {f"{f}1" for f in "abcdefghi"} | {f"i{r}" for r in range(2, 9)}
    assert stones(state, 1) == {f"a{r}" for r in range(2, 10)} | {f"{f}9" for f in "bcdefghi"}
    for size, n in ((8, 14), (17, 32)):
        s = start(size=size)
        assert [len(stones(s, seat)) for seat in (0, 1)] == [n, n]
        assert {"a1", f"{FILES[size - 1]}1"} <= stones(s, 0)
        assert {"a2", f"a{size}", f"{FILES[size - 1]}{size}"} <= stones(s, 1)


def test_perft_matches_dagaz() -> None:
    # Dagaz's 9x9 model (ming-mang-small.js with ko.js) counts 98 and 8827 too; its 17x17
    # model 450 at depth 1 (the oracle fixture's first positions)
    assert [perft(GAME, start(), d) for d in (1, 2)] == [98, 8827]
    assert [perft(GAME, start(size=8), d) for d in (1, 2)] == [72, 4686]
    assert perft(GAME, start(size=17), 1) == 450


# -- 5.4.2: slides ---------------------------------------------------------------------------


def test_a_stone_slides_like_a_rook_over_empty_points() -> None:
    state = place(b="c3 a1", w="c6 f3 i9")
    from_c3 = {m for m in legal(state) if m.startswith("c3")}
    assert from_c3 == {"c3-c4", "c3-c5", "c3-c2", "c3-c1", "c3-d3", "c3-e3", "c3-b3", "c3-a3"}


# -- 5.4.3: conversions ------------------------------------------------------------------------


def test_a_closed_line_turns_to_the_mover() -> None:
    state = act(place(b="c1 f3", w="d3 e3 i9"), "c1-c3")
    assert stones(state, 0) == {"c3", "d3", "e3", "f3"} and stones(state, 1) == {"i9"}
    assert state.converted == ("d3", "e3") and state.quiet == 0


def test_every_line_the_moved_stone_closes_turns_at_once() -> None:
    state = act(place(b="a5 e8 e3 h5", w="e6 e7 e4 f5 g5 i9"), "a5-e5")
    assert stones(state, 1) == {"i9"}
    assert state.converted == ("e4", "e6", "e7", "f5", "g5")


def test_a_line_open_at_its_end_or_at_the_edge_does_not_turn() -> None:
    state = act(place(b="c1 g3", w="d3 e3 i9"), "c1-c3")  # f3 empty
    assert stones(state, 1) == {"d3", "e3", "i9"}
    state = act(place(b="c1", w="a3 b3 i9"), "c1-c3")  # the edge behind a3
    assert stones(state, 1) == {"a3", "b3", "i9"} and state.converted == ()


def test_moving_between_two_enemies_is_safe() -> None:
    state = act(place(b="d1 a9", w="c3 e3 i9"), "d1-d3")
    assert stones(state, 0) == {"d3", "a9"} and stones(state, 1) == {"c3", "e3", "i9"}


def test_only_lines_from_the_moved_stone_turn_no_chain() -> None:
    # b5 and f5 already enclose c5-e5 (never turned: they did not move); the move to e6
    # turns e7 only, and e7 turned does not go on to turn anything
    state = act(place(b="b5 f5 h6 e8 a7", w="c5 d5 e5 e7 f7 i9"), "h6-e6")
    assert stones(state, 1) == {"c5", "d5", "e5", "f7", "i9"} and state.converted == ("e7",)


def test_no_capture_around_a_corner() -> None:
    # Dagaz turns d3, e3 and e4 here (two enemies to the east, then north to e5): not us
    state = act(place(b="c1 e5", w="d3 e3 e4 i9"), "c1-c3")
    assert state.converted == () and stones(state, 1) == {"d3", "e3", "e4", "i9"}


# -- 5.4.4: the ko rule ----------------------------------------------------------------------


def test_a_move_may_not_recreate_an_earlier_position() -> None:
    state = place(b="a1", w="i9")
    state = act(act(state, "a1-a2"), "i9-i8")
    assert "a2-a1" in legal(state)  # a1 + i8 with White to move: new
    state = act(state, "a2-a1")
    assert "i8-i9" not in legal(state)  # back to the start with Black to move: forbidden
    assert not GAME.is_legal(state, 1, MingMangMove.from_text("i8-i9"))
    with pytest.raises(IllegalMove, match="not legal"):
        act(state, "i8-i9")
    assert "i8-i7" in legal(state)


# -- 5.4.5: the end ----------------------------------------------------------------------------


def test_turning_the_last_stones_wins() -> None:
    state = act(place(b="c1 f3", w="d3 e3"), "c1-c3")
    assert GAME.outcome(state) is not None
    out = GAME.outcome(state)
    assert out is not None and out.winner == 0 and out.reason == "all_converted"
    assert GAME.to_act(state) == frozenset()


def test_no_legal_move_loses() -> None:
    state = place(b="a1 b2", w="a2 b1 i9", to_move=1)  # i9 moves; a2 and b1 are stuck
    assert GAME.outcome(state) is None
    state = act(place(b="a1 c1 a3 b4", w="a2 b1"), "b4-b2")  # White boxed in, none turned
    assert stones(state, 1) == {"a2", "b1"}
    out = GAME.outcome(state)
    assert out is not None and out.winner == 0 and out.reason == "no_moves"


def test_quiet_plies_and_the_move_limit_draw() -> None:
    state = place(b="a1", w="i9", draw_plies=4, max_plies=0)
    for text in ("a1-a2", "i9-i8", "a2-a3", "i8-i7"):
        assert GAME.outcome(state) is None
        state = act(state, text)
    out = GAME.outcome(state)
    assert out is not None and out.winner is None and out.reason == "no_progress"
    state = place(b="a1", w="i9", draw_plies=0, max_plies=2)
    state = act(act(state, "a1-a2"), "i9-i8")
    out = GAME.outcome(state)
    assert out is not None and out.winner is None and out.reason == "move_limit"


def test_a_conversion_resets_the_quiet_count() -> None:
    state = place(b="c1 f3 a9", w="d3 e3 i9", draw_plies=3)
    state = act(act(state, "a9-a8"), "i9-i8")
    assert state.quiet == 2
    assert act(state, "c1-c3").quiet == 0


# -- the Dagaz oracle ----------------------------------------------------------------------


def digest(texts: list[str]) -> str:
    return hashlib.sha1(" ".join(sorted(texts)).encode()).hexdigest()[:16]


def compare_with_dagaz(doc: dict[str, Any]) -> tuple[int, int]:
    """Replay every game of the fixture; at each position our legal set must be Dagaz's
    (count and digest) and the stones each move turns Dagaz's, except where Dagaz turns
    stones around a corner (its moves marked ``corner``): there ours must be fewer. Where a
    game ended in Dagaz, ours must end with the same winner. Our draw rules are set aside
    (off); Dagaz's 17x17 model has no ko, so there we compare every slide. Returns the
    positions compared and the corner moves seen."""
    compared = corners = 0
    for game in doc["games"]:
        size = game["size"]
        state = start(size=size, **OFF)
        geo = geometry(size)
        for i, pos in enumerate(game["positions"]):
            where = f"game seed {game['seed']} ({size}x{size}), ply {i}, {state!r}"
            if size == 17:
                ours = [
                    f"{geo.names[s]}-{geo.names[d]}"
                    for s, d in rules.slides(state.board, geo, state.to_move)
                ]
            else:
                ours = [str(m) for m in rules.generate(state)]
            assert (len(ours), digest(ours)) == (pos["n"], pos["sha"]), where
            if "legal" in pos:
                assert sorted(ours) == pos["legal"], where
            conv = {}
            for text in ours:
                turned = rules.converted_by(
                    state.board, geo, geo.index[text[text.index("-") + 1 :]], state.to_move
                )
                if turned:
                    conv[text] = sorted(geo.names[sq] for sq in turned)
            for text in pos["corner"]:
                assert set(conv.get(text, ())) < set(pos["conv"][text]), f"{where}: {text}"
                corners += 1
            plain = {t: c for t, c in pos["conv"].items() if t not in pos["corner"]}
            assert {t: c for t, c in conv.items() if t not in pos["corner"]} == plain, where
            final = i == len(game["moves"])
            if final and game["result"] is not None:
                out = rules.end(state)
                assert out is not None and out.winner == SEATS[game["result"]["winner"]], where
            compared += 1
            if not final:
                state = rules.apply(state, MingMangMove.from_text(game["moves"][i]))
    return compared, corners


def oracle() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ORACLE.read_text())
    return doc


def test_legal_moves_and_conversions_match_dagaz() -> None:
    doc = oracle()
    assert doc["game"] == "ming_mang" and {g["size"] for g in doc["games"]} == {9, 17}
    compared, corners = compare_with_dagaz(doc)
    assert compared > 1000 and corners > 50


def test_a_broken_rule_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules.converted_by

    def edge_closes_too(board: str, geo: Any, dst: int, seat: int) -> list[int]:
        """Wrong: a line of enemy stones running to the edge turns as well."""
        out = real(board, geo, dst, seat)
        for ray in geo.rays[dst]:
            k = 0
            while k < len(ray) and board[ray[k]] == "bw"[1 - seat]:
                k += 1
            if k and k == len(ray):
                out.extend(ray)
        return out

    monkeypatch.setattr(rules, "converted_by", edge_closes_too)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


def test_a_broken_ko_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "frozenset", lambda keys: frozenset(), raising=False)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


# -- notation, options, views, snapshots, bot hooks ----------------------------------------------


def test_move_text_round_trips() -> None:
    state = start(size=17)
    moves = GAME.legal_moves(state, 0)
    assert "q16-b16" in {str(m) for m in moves}
    for move in moves:
        assert GAME.parse_move(state, 0, str(move)) == move
        assert eval(repr(move)) == move
        assert grid.gesture(str(move)) == grid.Gesture("move", move.src, move.dst)
    assert repr(MingMangMove.from_text("a1-a5")) == "MingMangMove.from_text('a1-a5')"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a Ming-Mang move"),
        ("a1a5", "not a Ming-Mang move"),
        ("a1-a5 ", "not a Ming-Mang move"),
        (" a1-a5", "not a Ming-Mang move"),
        ("A1-A5", "not a Ming-Mang move"),
        ("a1xa5", "not a Ming-Mang move"),
        ("a1-a05", "not a Ming-Mang move"),
        ("a1-a18", "not a Ming-Mang move"),
        ("a1-b2", "along a file or a rank"),
        ("a1-a1", "along a file or a rank"),
        ("a1-a10", "not a point"),
        ("j1-a1", "not a point"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        GAME.parse_move(start(), 0, text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: MingMangMove.from_text("a2-b2")}, RNG)  # not White's turn
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: MingMangMove.from_text("b1-b9")}, RNG)  # b9 is occupied
    with pytest.raises(IllegalMove):
        GAME.play(state, {0: MingMangMove.from_text("a2-b2")}, RNG)  # not Black's stone
    assert GAME.encode_state(state) == before
    assert GAME.legal_moves(state, 1) == []


def test_options() -> None:
    assert GAME.check_options({}) == {"size": 9, "draw_plies": 100, "max_plies": 400}
    for bad in ({"size": 10}, {"size": "9"}, {"draw_plies": -1}, {"max_plies": True}, {"x": 1}):
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad)
    assert start(size=8, draw_plies=10).draw_plies == 10
    assert GAME.info()["board"] == "grid" and GAME.info()["title"] == "Ming-Mang"


@pytest.mark.parametrize("size", [8, 9, 17])
def test_views_are_public_json_and_describe_the_board(size: int) -> None:
    states = T.random_game(size, 10_000, size=size)
    assert GAME.outcome(states[-1]) is not None
    for state in states[::6]:
        view = GAME.view(state, None)
        assert view == GAME.view(state, 0) == GAME.view(state, 1)
        assert json.loads(json.dumps(view)) == view
        grid.check(view["grid"], 2)
        grid.check_gestures(view["grid"], legal(state))
        assert view["grid"]["style"] == "points" and view["grid"]["files"] == size
        assert len(view["grid"]["pieces"]) == sum(view["stones"]) == 4 * size - 4
        data = json.loads(json.dumps(GAME.encode_state(state)))
        assert GAME.decode_state(data) == state
        assert GAME.determinize([view], 0, RNG) == state


def test_view_last_move_converted_marks_and_status() -> None:
    state = act(place(b="c1 f3 a9", w="d3 e3 i9"), "c1-c3")
    view = GAME.view(state, None)
    g = view["grid"]
    assert g["last"] == ["c1", "c3"] and g["marks"] == {"d3": "converted", "e3": "converted"}
    assert g["pieces"]["d3"]["seat"] == 0 and g["pieces"]["d3"]["shape"] == "disc"
    assert g["status"] == "White to move (Black 5 White 1)"
    assert view["last_move"] == "c1-c3" and view["converted"] == ["d3", "e3"]
    over = GAME.view(act(place(b="c1 f3", w="d3 e3"), "c1-c3"), None)["grid"]
    assert over["status"] == "Black wins: White has every stone turned"


def test_bot_hooks() -> None:
    state = place(b="c1 f3", w="d3 e3 i9")
    # stones + 0.5 a corner stone (i9) + 0.02 a slide: Black 27 slides, White 35; after
    # c1-c3 turns d3 and e3, 37 and 16
    assert GAME.evaluate(state, 0) == pytest.approx([2 + 0.54, 3.5 + 0.7])
    assert GAME.evaluate(act(state, "c1-c3"), 0) == pytest.approx([4 + 0.74, 1.5 + 0.32])
    big = start(size=17)  # no mobility on 17 lines: 32 stones, two corners each
    assert GAME.evaluate(big, 0) == [33.0, 33.0]
    assert GAME.move_heuristic(state, 0, MingMangMove.from_text("c1-c3")) == pytest.approx(0.2)
    assert GAME.move_heuristic(state, 0, MingMangMove.from_text("c1-c2")) == 0.0

"""Yonin Shogi (docs/GAMES.md 5.5): the start, the moves in each seat's frame, promotion,
captures to the hand, drops and their limits, the end, and Dagaz's own model as the oracle
(tests/engine/oracle/yonin_shogi_dagaz.json, scripts/dagaz/yonin_shogi.js)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, Outcome, grid
from server.engine.perft import perft
from server.engine.yonin_shogi import (
    PASS,
    YoninMove,
    YoninShogi,
    YoninState,
    generate,
    position,
    rules,
    start_board,
)

from . import helpers

T = helpers.Tester[YoninState]("yonin_shogi")
GAME = cast(YoninShogi, T.game)
RNG = T.rng
ORACLE = Path(__file__).parent / "oracle" / "yonin_shogi_dagaz.json"
SEATS = {"South": 0, "West": 1, "North": 2, "East": 3}
KINGS = "SK e1, WK a5, NK e9, EK i5"  # the four Kings on their start squares


start, act, legal, random_game = T.start, T.act, T.legal, T.random_game


def from_square(state: YoninState, sq: str) -> set[str]:
    return {m for m in legal(state) if m[:2] == sq}


# -- 5.5: the start --------------------------------------------------------------------------


def test_start_each_seat_has_its_army_rotated_and_south_has_nine_moves() -> None:
    board = GAME.view(start(), None)["board"]
    assert {sq: board[sq] for sq in ("e1", "d1", "f1", "c1", "g1", "e2", "d2", "e3", "f2")} == {
        "e1": "SK",
        "d1": "SG",
        "f1": "SG",
        "c1": "SS",
        "g1": "SS",
        "e2": "SR",
        "d2": "SP",
        "e3": "SP",
        "f2": "SP",
    }
    assert board["a5"] == "WK" and board["b5"] == "WR" and board["c5"] == "WP"
    assert board["e9"] == "NK" and board["e8"] == "NR" and board["e7"] == "NP"
    assert board["i5"] == "EK" and board["h5"] == "ER" and board["g5"] == "EP"
    assert len(board) == 36
    assert legal(start()) == {
        "c1-b2",
        "c1-c2",
        "d1-c2",
        "d2-d3",
        "e3-e4",
        "f1-g2",
        "f2-f3",
        "g1-g2",
        "g1-h2",
    }
    assert GAME.to_act(start()) == {0}


def test_turn_order_is_south_west_north_east() -> None:
    state = start()
    for seat, text in ((0, "e3-e4"), (1, "c5-d5"), (2, "e7-e6"), (3, "g5-f5")):
        assert state.to_move == seat
        state = act(state, text)
    assert state.to_move == 0 and state.ply == 4


def test_perft() -> None:
    # Dagaz's model agrees position by position (the oracle below); these are ours
    assert [perft(GAME, start(), d) for d in range(1, 4)] == [9, 81, 729]


# -- 5.5: moves in the owner's frame ----------------------------------------------------------


def test_pieces_move_forward_away_from_their_owner() -> None:
    # a Pawn of each seat in the middle of the board: one step away from its own edge
    state = position(KINGS + ", SP e4, WP c6, NP e6, EP g4")
    assert from_square(state, "e4") == {"e4-e5"}
    assert from_square(position(KINGS + ", WP c6", to_move=1), "c6") == {"c6-d6"}
    assert from_square(position(KINGS + ", NP e6", to_move=2), "e6") == {"e6-e5"}
    assert from_square(position(KINGS + ", EP g4", to_move=3), "g4") == {"g4-f4"}


def test_gold_and_silver_in_the_west_frame() -> None:
    # West's forward is towards file i: its Gold has no diagonal back (towards file a)
    state = position(KINGS + ", WG e5", to_move=1)
    assert from_square(state, "e5") == {f"e5-{t}" for t in ("f5", "f6", "f4", "e6", "e4", "d5")}
    state = position(KINGS + ", WS e5", to_move=1)
    assert from_square(state, "e5") == {f"e5-{t}" for t in ("f5", "f6", "f4", "d6", "d4")}


def test_rook_slides_and_stops_on_the_first_piece_taking_an_enemy() -> None:
    state = position(KINGS + ", SR c3, SP c5, NP f3")
    moves = from_square(state, "c3")
    assert {"c3-c4", "c3xf3", "c3-c1", "c3-a3"} <= moves
    assert not {"c3-c5", "c3-c6", "c3-g3"} & moves


def test_promoted_pieces() -> None:
    dragon = from_square(position(KINGS + ", N+R e5", to_move=2), "e5")
    assert {"e5-d4", "e5-f6", "e5-e2", "e5xa5", "e5xe1"} <= dragon and len(dragon) == 4 + 15
    tokin = from_square(position(KINGS + ", E+P e5", to_move=3), "e5")  # a Gold facing a
    assert tokin == {f"e5-{t}" for t in ("d5", "d6", "d4", "e6", "e4", "f5")}


# -- 5.5: promotion ------------------------------------------------------------------------------


def test_promotion_is_a_choice_entering_leaving_or_inside_the_zone() -> None:
    state = position(KINGS + ", SS d6, SG b6")
    assert {"d6-d7", "d6-d7=+", "d6-c7=+", "d6-c5"} <= from_square(state, "d6")
    assert "d6-c5=+" not in legal(state)  # d6 and c5 are both outside South's zone
    assert not any("=+" in m for m in from_square(state, "b6"))  # a Gold never promotes
    leaving = position(KINGS + ", SS d8")
    assert {"d8-c7=+", "d8-c7", "d8-d9=+"} <= legal(leaving)
    # West's zone is files g..i
    west = position(KINGS + ", WS f3", to_move=1)
    assert {"f3-g3", "f3-g3=+", "f3-e2"} <= from_square(west, "f3")
    after = act(west, "f3-g3=+")
    assert GAME.view(after, None)["board"]["g3"] == "W+S"


def test_a_pawn_must_promote_on_its_last_line() -> None:
    state = position(KINGS + ", SP c8")
    assert from_square(state, "c8") == {"c8-c9=+"}
    east = position(KINGS + ", EP b3, EP c7", to_move=3)
    assert from_square(east, "b3") == {"b3-a3=+"}
    assert from_square(east, "c7") == {"c7-b7", "c7-b7=+"}


# -- 5.5: captures and drops -----------------------------------------------------------------------


def test_a_taken_piece_goes_demoted_to_the_takers_hand() -> None:
    state = position(KINGS + ", SR c3, N+R c7")
    after = act(state, "c3xc7")
    view = GAME.view(after, None)
    assert view["hands"] == ["R", "", "", ""] and view["board"]["c7"] == "SR"
    assert view["grid"]["hands"]["0"][0]["letter"] == "R"


def test_drops_on_any_empty_square_from_the_hand() -> None:
    state = position(KINGS, hands={0: "G"})
    drops = {m for m in legal(state) if "*" in m}
    assert len(drops) == 81 - 4 and "G*e9" not in drops and "G*e8" in drops
    after = act(state, "G*e5")
    assert after.hands[0] == (0, 0, 0, 0) and GAME.view(after, None)["board"]["e5"] == "SG"


def test_no_pawn_drop_on_the_last_line_nor_beside_an_own_unpromoted_pawn() -> None:
    state = position(KINGS + ", SP c4, S+P d4, WP f6", hands={0: "P"})
    drops = {m for m in legal(state) if m.startswith("P*")}
    assert not any(m.endswith("9") for m in drops)  # South's last line
    assert not any(m[2] == "c" for m in drops)  # c4 holds a South Pawn
    assert "P*d5" in drops and "P*f5" in drops  # a Tokin or another seat's Pawn: no bar
    west = position(KINGS + ", WP c6", hands={1: "P"}, to_move=1)
    wdrops = {m for m in legal(west) if m.startswith("P*")}
    assert not any(m[0] == "i" for m in wdrops)  # West's last line is file i
    assert not any(m[1] == "6" for m in wdrops)  # West's forward lines are the ranks
    assert "P*c7" in wdrops


# -- 5.5 and our rules: the end -----------------------------------------------------------------


def test_taking_a_king_ends_the_game_taker_first_owner_last() -> None:
    state = position(KINGS + ", WR a9, NG e2", to_move=1)
    after = act(state, "a9-a8")
    assert GAME.outcome(after) is None
    state = position(KINGS + ", NG e2", to_move=2)  # North's Gold takes South's King
    after = act(state, "e2xe1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.reason == "king_captured"
    assert outcome.ranks == (4, 2, 1, 2) and outcome.winner == 2
    assert outcome.scores == (0.0, 0.5, 1.0, 0.5)
    assert GAME.to_act(after) == frozenset() and GAME.legal_moves(after, 3) == []
    assert GAME.view(after, None)["grid"]["status"] == "North takes South's King and wins"


def test_no_check_a_move_may_leave_the_king_attacked() -> None:
    state = position(KINGS + ", WR d3")  # West's Rook on d3 reaches d1 and d2
    assert "e1-d1" in legal(state) and "e1-d2" in legal(state)


def test_ply_limit_draws_for_all_four() -> None:
    state = position(KINGS, options={"ply_limit": 40})
    for _ in range(10):
        for text in ("e1-e2", "a5-b5", "e9-e8", "i5-h5", "e2-e1", "b5-a5", "e8-e9", "h5-i5"):
            if GAME.outcome(state) is None:
                state = act(state, text)
    outcome = GAME.outcome(state)
    assert state.ply == 40 and outcome is not None and outcome.reason == "ply_limit"
    assert outcome.ranks == (1, 1, 1, 1)


def test_a_seat_without_a_move_passes() -> None:
    # (Dagaz: "pass-turn forced") a seat with no piece that can move and an empty hand;
    # never seen in play before a King falls, but the rule keeps every turn playable
    nothing = position("WK a5, NK e9, EK i5")  # South has no piece at all
    assert legal(nothing) == {"pass"} and generate(nothing) == [PASS]
    after = act(nothing, "pass")
    assert after.to_move == 1 and GAME.view(after, None)["last_move"] == "pass"


def test_resigning_ends_the_game_with_the_resigner_last() -> None:
    outcome = GAME.resign(start(), 2, 4)
    assert outcome.ranks == (1, 1, 2, 1) and outcome.reason == "resignation"
    assert outcome.scores[2] == 0.0


# -- the Dagaz oracle ---------------------------------------------------------------------------


def compare_with_dagaz(doc: dict[str, Any]) -> int:
    """Replay every game of the fixture; at each position our legal set must be Dagaz's, and
    where the fixture's game ended (the first King taken: the script stops there, as our rule
    does; Dagaz itself plays on) ours must end with the same taker. Returns positions
    compared."""

    def ended(outcome: Outcome | None, result: dict[str, Any], where: str) -> None:
        assert outcome is not None and outcome.reason == "king_captured", where
        assert outcome.winner == SEATS[result["winner"]], where
        assert outcome.ranks.index(4) == SEATS[result["lost"][0]], where

    return helpers.replay_oracle(
        doc["games"],
        lambda: YoninState(start_board()),
        generate,
        lambda state, text: rules.apply(state, YoninMove.from_text(text)),
        lambda state: rules.end(state),
        ended,
    )


def oracle() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ORACLE.read_text())
    return doc


def test_legal_moves_and_ends_match_dagaz() -> None:
    doc = oracle()
    assert doc["game"] == "yonin_shogi" and len(doc["games"]) >= 8
    assert compare_with_dagaz(doc) > 800
    assert all(g["result"] for g in doc["games"])
    played = [m for g in doc["games"] for m in g["moves"]]
    assert any("=+" in m for m in played) and any(m.startswith("P*") for m in played)


def test_a_broken_drop_rule_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    def pawns_anywhere(
        board: tuple[str, ...], seat: int, kind: str, dst: int, lines: frozenset[int]
    ) -> bool:
        return not board[dst]

    monkeypatch.setattr(rules, "drop_ok", pawns_anywhere)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


def test_a_broken_promotion_zone_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    def arrival_only(seat: int, kind: str, src: int, dst: int) -> bool:
        return kind in ("S", "R", "P") and rules.in_zone(seat, dst)  # "leaving" forgotten

    monkeypatch.setattr(rules, "may_promote", arrival_only)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


# -- notation, options, views, snapshots, bot hooks ------------------------------------------------


def test_move_text_round_trips() -> None:
    state = position(KINGS + ", SS d6, SR c3, NP c7", hands={0: "PG"})
    moves = GAME.legal_moves(state, 0)
    texts = {str(m) for m in moves}
    assert {"d6-d7=+", "d6-d7", "c3xc7", "c3xc7=+", "P*e5", "G*e5"} <= texts
    for move in moves:
        assert GAME.parse_move(state, 0, str(move)) == move
        assert eval(repr(move)) == move
        assert grid.gesture(str(move)) is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a Yonin Shogi move"),
        ("c1b2", "not a Yonin Shogi move"),
        ("c1-b2 ", "not a Yonin Shogi move"),
        ("C1-B2", "not a Yonin Shogi move"),
        ("d7-d8=Q", "not a Yonin Shogi move"),
        ("d7-d8+", "not a Yonin Shogi move"),
        ("K*e5", "not a Yonin Shogi move"),
        ("p*e5", "not a Yonin Shogi move"),
        ("Pass", "not a Yonin Shogi move"),
        ("c1-j2", "not a square"),
        ("c1-c10", "not a square"),
        ("P*e0", "not a square"),
        ("c1-c1", "another square"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        GAME.parse_move(start(), 0, text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    for seat, text in ((1, "c5-d5"), (0, "e2-e3"), (0, "e3-e4=+"), (0, "P*e5")):
        with pytest.raises(IllegalMove):
            GAME.play(state, {seat: YoninMove.from_text(text)}, RNG)
    assert GAME.encode_state(state) == before
    assert GAME.legal_moves(state, 1) == []


def test_options_and_seats() -> None:
    assert GAME.check_options({}) == {"ply_limit": 800}
    for bad in ({"ply_limit": 39}, {"ply_limit": "800"}, {"ply_limit": True}, {"other": 1}):
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad)
    assert start(ply_limit=100).ply_limit == 100
    with pytest.raises(InvalidOptions):
        GAME.new({"ply_limit": 800}, 2, RNG)
    info = GAME.info()
    assert info["min_seats"] == info["max_seats"] == 4 and info["title"] == "Yonin Shogi"
    assert info["seat_names"] == ["South", "West", "North", "East"]


@pytest.mark.parametrize("seed", range(3))
def test_views_are_public_json_and_describe_the_board(seed: int) -> None:
    states = random_game(seed, 2000)
    assert GAME.outcome(states[-1]) is not None
    for state in states:
        view = GAME.view(state, None)
        assert all(view == GAME.view(state, s) for s in range(4))
        assert json.loads(json.dumps(view)) == view
        g = view["grid"]
        grid.check(g, 4)
        grid.check_gestures(g, legal(state))
        assert len(g["pieces"]) == len(view["board"])
        assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(state)))) == state
        assert GAME.determinize([view], 0, RNG) == state


def test_view_seats_pieces_hands_last_move_and_status() -> None:
    g = GAME.view(start(), None)["grid"]
    assert [s["edge"] for s in g["seats"]] == ["south", "west", "north", "east"]
    assert len({s["colour"] for s in g["seats"]}) == 4
    king = g["pieces"]["a5"]
    assert king["seat"] == 1 and king["shape"] == "point" and king["glyph"] == "王"
    assert g["status"] == "South to move" and g["hands"] == {"0": [], "1": [], "2": [], "3": []}
    state = position(KINGS + ", SP c8, NR c3", hands={2: "PP"})
    after = act(state, "c8-c9=+")
    g = GAME.view(after, None)["grid"]
    assert g["last"] == ["c8", "c9"] and g["status"] == "West to move"
    assert g["pieces"]["c9"]["promoted"] is True and g["pieces"]["c9"]["glyph"] == "と"
    assert g["hands"]["2"] == [
        {"kind": "pawn", "label": "Pawn", "glyph": "歩", "letter": "P", "count": 2}
    ]


def test_bot_hooks() -> None:
    state = position(KINGS + ", SR c3, NG c7, WR d1", hands={1: "S"})
    # South: a Rook 9; West: a Rook 9 and a Silver in hand 5; North a Gold 6. West's Rook
    # reaches South's King, but South is to move (it may step away): no penalty yet
    assert GAME.evaluate(state, 0) == pytest.approx([9.0, 14.0, 6.0, 0.0])
    after = act(state, "c3-c4")  # West to move: South's King is still attacked
    assert GAME.evaluate(after, 0) == pytest.approx([9.0 - 15.0, 14.0, 6.0, 0.0])
    assert GAME.move_heuristic(state, 0, YoninMove.from_text("c3xc7")) == 6.0
    assert GAME.move_heuristic(state, 0, YoninMove.from_text("c3-c4")) == 0.0
    take_king = position(KINGS + ", SR e8")
    assert GAME.move_heuristic(take_king, 0, YoninMove.from_text("e8xe9")) == 100.0

"""Jungle (docs/GAMES.md 5.1): terrain, steps, leaps, who takes whom, traps, the ends, our draw
rules, Dagaz's variant with its ko, and Dagaz's own model as the oracle
(tests/engine/oracle/jungle_dagaz.json, scripts/dagaz/jungle.js)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, Outcome, grid
from server.engine.jungle import Jungle, JungleMove, JungleState, outcome, position, rows, rules
from server.engine.perft import perft

from . import helpers

T = helpers.Tester[JungleState]("jungle")
GAME = cast(Jungle, T.game)
RNG = T.rng
ORACLE = Path(__file__).parent / "oracle" / "jungle_dagaz.json"
SEATS = {"Red": 0, "Green": 1}  # Dagaz's players, our seats
FILES = "abcdefg"


def at(
    pieces: str, *, to_move: int = 0, variant: str = "standard", draw_plies: int = 100
) -> JungleState:
    """A position from ``"La5 td5"``: a piece letter (upper case Red, lower case Blue) and
    its square, for each piece."""
    cells = {(f, r): "." for f in FILES for r in range(1, 10)}
    for word in pieces.split():
        cells[(word[1], int(word[2]))] = word[0]
    layout = "/".join("".join(cells[(f, r)] for f in FILES) for r in range(9, 0, -1))
    return position(layout, to_move=to_move, variant=variant, draw_plies=draw_plies)


start, act, legal, random_game = T.start, T.act, T.legal, T.random_game


def moves_from(state: JungleState, square: str) -> set[str]:
    return {m for m in legal(state) if m.startswith(square)}


# -- 5.1.1: the start ------------------------------------------------------------------------


def test_start_array_and_24_first_moves() -> None:
    state = start()
    assert (
        rows(state.board)
        == "l.....t/.w...c./r.p.d.e/......./......./......./E.D.P.R/.C...W./T.....L"
    )
    assert GAME.to_act(state) == {0}
    assert len(legal(state)) == 24
    assert start(variant="dagaz").board == state.board  # the same array, one rank apart
    assert len(legal(start(variant="dagaz"))) == 24  # Dagaz's own count (GAMES.md 5.1)


def test_perft_matches_dagaz() -> None:
    # Dagaz's model (scripts/dagaz/harness.js), depths 1-4: 24, 576, 12240, 259523; our
    # standard rules count 260099 at depth 4, where Dagaz's ko forbids going back and forth
    assert [perft(GAME, start(variant="dagaz"), d) for d in (1, 2, 3)] == [24, 576, 12240]
    assert [perft(GAME, start(), d) for d in (1, 2, 3)] == [24, 576, 12240]


# -- 5.1.3: moving ---------------------------------------------------------------------------


def test_one_orthogonal_step_inside_the_board() -> None:
    state = at("Ta1 Dd3 ra9")
    assert moves_from(state, "d3") == {"d3-d4", "d3-d2", "d3-c3", "d3-e3"}
    assert moves_from(state, "a1") == {"a1-a2", "a1-b1"}


def test_no_piece_enters_its_own_den() -> None:
    red = at("Dd2 Cc1 ra9")
    assert "d2-d1" not in legal(red) and "c1-d1" not in legal(red)
    blue = at("dd8 Ca1", to_move=1)
    assert "d8-d9" not in legal(blue) and "d8-d7" in legal(blue)


def test_only_the_rat_enters_the_water() -> None:
    state = at("Rb3 Dc3 Pa4 ra9")
    assert "b3-b4" in legal(state)
    assert moves_from(state, "c3") == {"c3-c2", "c3-d3"}
    assert "a4-b4" not in legal(state)  # the Leopard does not leap in the standard rules
    swimming = at("Rc5 ra9")
    assert moves_from(swimming, "c5") == {"c5-c4", "c5-c6", "c5-b5", "c5-d5"}


def test_lion_and_tiger_leap_the_river_both_ways() -> None:
    state = at("La5 Td5 Pb3 ra9", variant="dagaz")  # the Leopard leaps sideways only
    assert "a5-d5" not in legal(state)  # own Tiger on the landing square
    assert "d5-g5" in legal(state) and "d5-a5" not in legal(state)
    assert "b3-b7" not in legal(state)
    up = at("Lb3 Tc7 ra9")
    assert "b3-b7" in legal(up)  # across three water squares
    assert "c7-c3" in legal(up)


def test_a_rat_of_either_side_in_the_water_blocks_a_leap() -> None:
    assert "b3-b7" in legal(at("Lb3 ra9"))
    assert "b3-b7" not in legal(at("Lb3 Rb5 ra9"))
    assert "b3-b7" not in legal(at("Lb3 rb6 ea9"))
    assert "a5-d5" not in legal(at("La5 rc5 ea9"))
    assert "a5-d5" in legal(at("La5 rc4 ea9"))  # not on the way


def test_a_leap_may_take_what_it_may_take() -> None:
    assert "a5xd5" in legal(at("La5 td5 ra9"))
    assert "a5xd5" not in legal(at("Ta5 ld5 ra9"))  # a Tiger (6) does not take a Lion (7)
    assert "a5xd5" not in legal(at("La5 ed5 ra9"))


def test_dagaz_leopard_leaps_sideways_only() -> None:
    assert "a5-d5" in legal(at("Pa5 ra9", variant="dagaz"))
    assert "b3-b7" not in legal(at("Pb3 ra9", variant="dagaz"))
    assert "a5-d5" not in legal(at("Pa5 ra9"))


# -- 5.1.4: capturing ------------------------------------------------------------------------


def test_capture_equal_or_lower_rank() -> None:
    state = at("Ld5 ld6 td4 ee9")
    assert {"d5xd6", "d5xd4"} <= legal(state)
    assert "d5xd6" not in legal(at("Ld5 ed6 ra9"))
    tiger = at("Td5 ld6 ra9")
    assert "d5xd6" not in legal(tiger)
    assert "d5xd6" in legal(at("Td5 ld6 ra9", variant="dagaz"))  # Tiger 7 = Lion 7 in Dagaz


def test_rat_takes_elephant_and_elephant_never_takes_rat() -> None:
    assert "d5xd6" in legal(at("Rd5 ed6 la9"))
    assert "d5xd6" not in legal(at("Ed5 rd6 la9"))
    assert "d5xd6" in legal(at("Ed5 cd6 la9"))


def test_no_capture_between_water_and_land() -> None:
    assert "c5xd5" not in legal(at("Rc5 ed5 la9"))  # from the water onto the land
    assert "d5xc5" not in legal(at("Rd5 rc5 la9"))  # from the land into the water
    assert "c5xb5" in legal(at("Rc5 rb5 la9"))  # both in the water


def test_a_piece_in_its_opponents_trap_is_taken_by_anything() -> None:
    state = at("Cd3 ld2 Db1 ec1 ra9")  # Blue Lion and Elephant in Red's traps
    assert "d3xd2" in legal(state)
    assert "b1xc1" in legal(state)
    elephant = at("Eb1 rc1 la9")
    assert "b1xc1" in legal(elephant)  # even the Elephant takes a trapped Rat
    own = at("Ld2 cd3 ra9", to_move=1)
    assert "d3xd2" not in legal(own)  # a Lion in its own trap keeps its rank


# -- 5.1.6: the end --------------------------------------------------------------------------


def test_entering_the_enemy_den_wins() -> None:
    state = at("Cd8 lg2 ra9")
    after = act(state, "d8-d9")
    end = GAME.outcome(after)
    assert end is not None and end.winner == 0 and end.reason == "den"
    assert GAME.to_act(after) == frozenset()
    blue = act(at("Ca9 rd2", to_move=1), "d2-d1")
    end = GAME.outcome(blue)
    assert end is not None and end.winner == 1 and end.reason == "den"


def test_taking_the_last_piece_wins() -> None:
    after = act(at("Ld5 cd6"), "d5xd6")
    end = GAME.outcome(after)
    assert end is not None and end.winner == 0 and end.reason == "all_captured"


def test_no_legal_move_loses() -> None:
    # Blue's Cat in the a9 corner, boxed in by Red's Lions it may not take
    state = at("ca9 Lb9 Ta8 Eg1", to_move=1)
    end = GAME.outcome(state)
    assert end is not None and end.winner == 0 and end.reason == "no_moves"


def test_threefold_repetition_draws_in_the_standard_rules() -> None:
    state = at("La1 lg9")
    for text in ["a1-a2", "g9-g8", "a2-a1", "g8-g9"] * 2:
        assert GAME.outcome(state) is None
        state = act(state, text)
    end = GAME.outcome(state)
    assert end is not None and end.winner is None and end.reason == "repetition"


def test_quiet_plies_draw_and_a_capture_resets_them() -> None:
    state = at("La1 lg9 cg5", draw_plies=4)
    for text in ["a1-a2", "g9-g8", "a2-a3", "g8-g7"]:
        state = act(state, text)
    end = GAME.outcome(state)
    assert end is not None and end.reason == "no_progress"
    state = at("La1 lg9 Cg4 cg5", draw_plies=4)
    for text in ["a1-a2", "g5xg4", "a2-a3", "g9-g8"]:
        state = act(state, text)
    assert state.quiet == 2 and GAME.outcome(state) is None
    assert outcome(at("La1 lg9", draw_plies=0)) is None


def test_dagaz_ko_forbids_recreating_a_position() -> None:
    state = at("La1 lg9", variant="dagaz")
    for text in ["a1-a2", "g9-g8", "a2-a1"]:
        state = act(state, text)
    assert "g8-g9" not in legal(state)  # the start position, Red to move, again
    with pytest.raises(IllegalMove):
        act(state, "g8-g9")
    standard = at("La1 lg9")
    for text in ["a1-a2", "g9-g8", "a2-a1"]:
        standard = act(standard, text)
    assert "g8-g9" in legal(standard)


def test_dagaz_ko_leaves_a_side_without_moves_lost() -> None:
    # Blue's Rat can only go between g1 and f1 (a Tiger, a Lion and a Dog hem it in)
    state = at("rg1 Tg2 Lf2 De1 Ea5", variant="dagaz")
    for text in ["a5-a6", "g1-f1", "a6-a5"]:  # new positions, all three
        state = act(state, text)
    assert rules.pseudo_moves(state) == [JungleMove.from_text("f1-g1")]
    assert rules.generate(state) == []  # f1-g1 would bring back the first position
    end = GAME.outcome(state)
    assert end is not None and end.winner == 0 and end.reason == "no_moves"


# -- the Dagaz oracle ----------------------------------------------------------------------


def compare_with_dagaz(doc: dict[str, Any]) -> int:
    """Replay every game of the fixture in our ``dagaz`` variant (no draw rule: Dagaz has
    none); at each position our legal set must be Dagaz's, and where Dagaz's game ended ours
    must end with the same winner. Returns the number of positions compared."""

    def ended(end: Outcome | None, result: dict[str, Any], where: str) -> None:
        assert end is not None and end.winner == SEATS[result["winner"]], where

    return helpers.replay_oracle(
        doc["games"],
        lambda: start(variant="dagaz", draw_plies=0),
        lambda state: rules.generate(state),
        lambda state, text: rules.apply(state, JungleMove.from_text(text)),
        lambda state: rules.outcome(state),
        ended,
    )


def oracle() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ORACLE.read_text())
    return doc


def test_legal_moves_and_ends_match_dagaz() -> None:
    doc = oracle()
    assert doc["game"] == "jungle"
    assert compare_with_dagaz(doc) > 1500
    assert any(g["result"] for g in doc["games"])


def test_a_broken_capture_rule_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules.can_capture

    def elephant_takes_rat(piece: str, src: int, target: str, dst: int, variant: str) -> bool:
        if piece in "Ee" and target in "Rr" and rules.WATER.isdisjoint({src, dst}):
            return True
        return real(piece, src, target, dst, variant)

    monkeypatch.setattr(rules, "can_capture", elephant_takes_rat)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


def test_a_missing_ko_is_caught_by_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "generate", rules.pseudo_moves)
    with pytest.raises(AssertionError):
        compare_with_dagaz(oracle())


# -- notation, options, views, snapshots, bot hooks ----------------------------------------


def test_move_text_round_trips() -> None:
    for text in ("a1-a2", "b3xb7", "g9-f9"):
        move = JungleMove.from_text(text)
        assert str(move) == text
        assert eval(repr(move)) == move  # repr pastes back
        assert GAME.parse_move(start(), 0, text) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a Jungle move"),
        ("a1a2", "not a Jungle move"),
        (" a1-a2", "not a Jungle move"),
        ("a1-a2 ", "not a Jungle move"),
        ("A1-A2", "not a Jungle move"),
        ("a1-h2", "not a square"),
        ("a0-a1", "not a square"),
        ("a9-a10", "not a square"),
        ("a1-a1", "does not move"),
        ("flip a1", "not a Jungle move"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        JungleMove.from_text(text)


def test_checked_play_refuses_and_changes_nothing() -> None:
    state = start()
    before = GAME.encode_state(state)
    for text in ("a1-a3", "a3-b4", "a1xa2", "a7-a6"):
        with pytest.raises(IllegalMove):
            act(state, text)
    with pytest.raises(IllegalMove):
        GAME.play(state, {1: JungleMove.from_text("a7-a6")}, RNG)
    assert GAME.encode_state(state) == before


def test_options() -> None:
    assert GAME.check_options(None) == {"variant": "standard", "draw_plies": 100}
    assert start(variant="dagaz", draw_plies=0).variant == "dagaz"
    for bad in ({"variant": "chinese"}, {"draw_plies": -1}, {"draw_plies": "9"}, {"ko": True}):
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad)


@pytest.mark.parametrize("variant", ["standard", "dagaz"])
def test_views_are_public_json_and_describe_the_board(variant: str) -> None:
    for state in random_game(3, 120, variant=variant)[::7]:
        view = GAME.view(state, None)
        assert view == GAME.view(state, 0) == GAME.view(state, 1)
        assert json.loads(json.dumps(view)) == view
        grid.check(view["grid"], 2)
        grid.check_gestures(view["grid"], GAME.legal_texts(state, state.to_move))


def test_view_terrain_pieces_last_move_and_status() -> None:
    desc = GAME.view(start(), None)["grid"]
    assert desc["cells"]["d1"] == ["den", "den-0"] and desc["cells"]["d9"] == ["den", "den-1"]
    assert desc["cells"]["c1"] == ["trap", "trap-0"] and desc["cells"]["d8"] == ["trap", "trap-1"]
    assert sorted(sq for sq, t in desc["cells"].items() if t == ["water"]) == sorted(
        f + r for f in "bcef" for r in "456"
    )
    assert len({t["fill"] for t in desc["terrain"].values()}) == 3
    assert desc["pieces"]["g1"]["label"] == "Lion (7)" and desc["pieces"]["g1"]["glyph"] == "L7"
    assert desc["pieces"]["a9"]["seat"] == 1
    assert desc["status"] == "Red to move" and desc["last"] == []
    after = act(start(), "g3-g4")
    assert GAME.view(after, None)["grid"]["last"] == ["g3", "g4"]
    assert GAME.view(after, None)["last_move"] == "g3-g4"
    won = act(at("Cd8 lg2 ra9"), "d8-d9")
    assert GAME.view(won, None)["grid"]["status"] == "Red wins: a piece entered the den"
    tiger = GAME.view(start(variant="dagaz"), None)["grid"]["pieces"]["a1"]
    assert tiger["label"] == "Tiger (7)"


@pytest.mark.parametrize("variant", ["standard", "dagaz"])
def test_encode_decode_round_trip_and_every_game_ends(variant: str) -> None:
    for seed in range(3):
        states = random_game(seed, 2000, variant=variant)
        assert GAME.outcome(states[-1]) is not None
        for state in states[::25] + states[-1:]:
            assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(state)))) == state


def test_bot_hooks() -> None:
    state = start()
    assert GAME.evaluate(state, 0) == pytest.approx(list(reversed(GAME.evaluate(state, 1))))
    near = at("Cd8 lg2 ra9")
    assert GAME.evaluate(near, 0)[0] > GAME.evaluate(at("Cd6 lg2 ra9"), 0)[0] + 4
    den = JungleMove.from_text("d8-d9")
    assert GAME.move_heuristic(near, 0, den) == 1000.0
    captures = at("Ld5 ld6 td4 ra9")
    values = [
        GAME.move_heuristic(captures, 0, JungleMove.from_text(t))
        for t in ("d5xd6", "d5xd4", "d5-g5")
    ]
    assert values == [90.0, 80.0, 0.0]  # the Lion's worth, the Tiger's, a step away from the den
    step = GAME.move_heuristic(start(), 0, JungleMove.from_text("g3-g4"))  # toward the den
    assert 0 < step < 0.5  # a little, under the tactical bar: quiescence leaves it alone

"""Hase und Igel: the rules of docs/GAMES.md 4 as executable vectors (4.7 first): the board,
moves, position fields, salads, a stuck runner and the end of the race. The hare cards (4.5)
are in ``test_hase_und_igel_cards.py``, the game contract in ``test_hase_und_igel_contract.py``."""

from __future__ import annotations

import random

import pytest

from server.engine.base import IllegalMove
from server.engine.hase_und_igel import BOARD_1978, TURN_CAP, cost, layout, max_distance, position

from .hase import G, R, act, begin, kinds, moves

# -- 4.2 board, 4.7 vectors ------------------------------------------------------------------


def test_board_1978_field_counts() -> None:
    lay = layout(BOARD_1978)
    assert len(BOARD_1978) == 65 and lay.goal == 64
    where = {c: [i for i, x in enumerate(BOARD_1978) if x == c] for c in "HKIL234F"}
    assert where["H"] == [1, 3, 6, 14, 25, 31, 34, 39, 46, 51, 58, 61, 63]
    assert where["K"] == [2, 5, 13, 21, 26, 33, 38, 40, 49, 55, 59]
    assert where["I"] == [8, 11, 15, 19, 24, 30, 37, 43, 50, 56]
    assert where["L"] == [7, 22, 42, 57, 62]
    assert where["2"] == [10, 17, 23, 29, 35, 41, 47, 53, 60]
    assert where["3"] == [4, 12, 20, 28, 36, 44, 52]
    assert where["4"] == [9, 18, 27, 45, 54]
    assert where["F"] == [16, 32, 48]


def test_cost_table() -> None:
    assert [cost(n) for n in range(1, 13)] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    assert cost(44) == 990


def test_max_distance() -> None:
    assert max_distance(68) == 11 and max_distance(98) == 13
    assert max_distance(66) == 11 and max_distance(65) == 10 and max_distance(0) == 0


@pytest.mark.parametrize("n_seats", [2, 3, 4])
def test_first_player_moves_68_carrots(n_seats: int) -> None:
    state = G.new({}, n_seats, random.Random(1))
    assert state.runners[0].carrots == 68 and state.runners[0].salads == 3
    assert G.to_act(state) == {0}
    assert moves(state) == [f"advance {n}" for n in (1, 2, 3, 4, 5, 6, 7, 9, 10)]


@pytest.mark.parametrize("n_seats", [5, 6])
def test_first_player_moves_98_carrots(n_seats: int) -> None:
    state = G.new({}, n_seats, random.Random(1))
    assert state.runners[0].carrots == 98
    assert moves(state) == [f"advance {n}" for n in (1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13)]


def test_fallback_targets() -> None:
    s = act(position([R(10, 20), R(0, 68)]), "back")
    assert s.runners[0].field == 8 and s.runners[0].carrots == 40
    s = act(position([R(12, 20), R(0, 68)]), "back")
    assert s.runners[0].field == 11 and s.runners[0].carrots == 30
    blocked = position([R(12, 20), R(11, 68)])
    assert "back" not in moves(blocked)  # the nearest hedgehog is taken: no skipping to 8
    assert "back" not in moves(position([R(7, 20), R(0, 68)]))  # no hedgehog behind


@pytest.mark.parametrize(
    ("n_finished", "carrots", "legal"),
    [(0, 38, True), (0, 39, False), (1, 48, True), (1, 49, False), (2, 58, True), (2, 59, False)],
)
def test_goal_entry_limit(n_finished: int, carrots: int, legal: bool) -> None:
    runners = [R(57, carrots, 0), R(30, 50, 0), R(20, 50, 0), R(10, 50, 0)]
    s = position(runners, finished=tuple(range(1, 1 + n_finished)))
    assert ("advance 7" in moves(s)) is legal
    if legal:
        after = act(s, "advance 7")
        assert after.runners[0].carrots == carrots - 28
        assert after.finished[-1] == 0 and (0, "finish") in kinds(after)
    else:
        with pytest.raises(IllegalMove):
            act(s, "advance 7")


def test_goal_needs_all_salads_eaten() -> None:
    assert "advance 7" not in moves(position([R(57, 30, 1), R(0, 68)]))


# -- 4.4 moves -----------------------------------------------------------------------------


def test_occupied_fields_are_jumped_not_entered() -> None:
    s = position([R(0, 68), R(1, 68), R(2, 68)])
    assert "advance 1" not in moves(s) and "advance 2" not in moves(s)
    assert "advance 3" in moves(s)


def test_no_salad_field_without_salads() -> None:
    assert "advance 7" in moves(position([R(0, 68, 1), R(0, 68)]))
    assert "advance 7" not in moves(position([R(0, 68, 0), R(0, 68)]))


def test_carrot_field_take_and_give() -> None:
    s = position([R(2, 5), R(0, 68)])
    assert "carrots +10" in moves(s) and "carrots -10" not in moves(s)
    s = position([R(2, 25), R(0, 68)])
    assert moves(s)[-2:] == ["carrots +10", "carrots -10"]
    assert act(s, "carrots +10").runners[0].carrots == 35
    assert act(s, "carrots -10").runners[0].carrots == 15
    assert "carrots +10" not in moves(position([R(4, 25), R(0, 68)]))  # not a carrot field


def test_turn_order_skips_finished_runners() -> None:
    s = position([R(10, 50), R(20, 50), R(30, 50)], finished=(1,))
    s = act(s, "advance 2")
    assert s.current == 2


# -- 4.4.2 position fields -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "others", "gain"),
    [
        (10, [20, 5], 20),  # "2", 2nd place
        (10, [20, 30], 0),  # "2", 3rd place
        (4, [20, 30], 30),  # "3", 3rd place
        (9, [20, 30, 40], 40),  # "4", 4th of four
        (9, [20, 30], 0),  # "4" but only three players: never pays
        (9, [20, 5, 6], 0),  # "4" at 2nd place
        (16, [5, 6], 10),  # flag, 1st
        (16, [20, 30, 40, 50], 50),  # flag, 5th
        (16, [20, 30, 40, 50, 51], 60),  # flag, 6th
        (16, [20, 5], 0),  # flag, 2nd
    ],
)
def test_position_field_payout(field: int, others: list[int], gain: int) -> None:
    runners = [R(field, 30, arrived=True)] + [R(f, 30) for f in others]
    s = begin(runners)
    assert s.runners[0].carrots == 30 + gain
    assert ((0, "payout") in kinds(s)) is bool(gain)
    assert not s.runners[0].arrived


def test_position_field_counts_finished_runners() -> None:
    s = begin([R(10, 30, arrived=True), R(0, 30), R(5, 30)], finished=(1,))
    assert s.runners[0].carrots == 50  # leader on the track, but 2nd in the race


def test_position_field_pays_only_after_arrival() -> None:
    assert begin([R(10, 30), R(20, 30), R(5, 30)]).runners[0].carrots == 30


def test_position_field_payout_in_play() -> None:
    s = position([R(0, 68), R(20, 30), R(5, 30)])
    s = act(s, "advance 10")  # onto a "2"; seat 1 and 2 move on, seat 0 still 2nd
    s = act(s, "advance 1")
    s = act(s, "advance 1")
    assert s.current == 0 and s.runners[0].carrots == 68 - 55 + 20
    assert s.events[-1].kind == "payout" and s.events[-1].place == 2


# -- 4.4.3 salad ---------------------------------------------------------------------------


def test_salad_eaten_for_ten_times_race_position() -> None:
    s = position([R(0, 68), R(20, 30), R(30, 30)])
    s = act(s, "advance 7")  # salad field; 3rd place
    assert s.runners[0].pending == "eat"
    s = act(s, "advance 1")  # seat 1
    s = act(s, "advance 1")  # seat 2; seat 0's eating turn is spent automatically
    assert (0, "eat") in kinds(s) and s.current == 1
    assert s.runners[0].salads == 2 and s.runners[0].carrots == 68 - 28 + 30
    s = act(act(s, "advance 1"), "advance 1")
    assert s.current == 0 and s.runners[0].field == 7  # now it must leave
    assert all(m.startswith("advance") or m == "back" for m in moves(s))
    assert all(
        G.play(s, {0: m}, random.Random(0)).runners[0].field != 7 for m in G.legal_moves(s, 0)
    )


# -- 4.4.7 stuck ---------------------------------------------------------------------------


def test_stuck_runner_returns_to_start_with_initial_carrots() -> None:
    # on 63 with too many carrots for the goal, the hedgehog at 56 taken: no legal move
    s = begin([R(63, 100, 0), R(56, 30), R(20, 30)])
    assert s.runners[0] == R(0, 68, 0) and (0, "stuck") in kinds(s)
    assert s.current == 1
    s6 = begin([R(63, 100, 1), R(56, 30), R(20, 30), R(1, 9), R(2, 9)])
    assert s6.runners[0] == R(0, 98, 1)  # initial carrots by seat count; salads kept


# -- the end -------------------------------------------------------------------------------


def test_two_seat_race_ends_at_first_finish() -> None:
    s = act(position([R(57, 38, 0), R(20, 50)]), "advance 7")
    assert G.to_act(s) == frozenset() and G.legal_moves(s, 1) == []
    out = G.outcome(s)
    assert out is not None and out.ranks == (1, 2) and out.reason == "goal" and out.winner == 0


def test_full_ranking_and_until_first() -> None:
    runners = [R(57, 38, 0), R(20, 50), R(10, 50)]
    s = act(position(runners), "advance 7")
    assert G.outcome(s) is None and s.current == 1
    s = act(position(runners, until="first"), "advance 7")
    out = G.outcome(s)
    assert out is not None and out.ranks == (1, 2, 3)
    s = act(position([R(57, 48, 0), R(20, 50), R(10, 50)], finished=(1,), current=0), "advance 7")
    out = G.outcome(s)
    assert out is not None and out.ranks == (2, 1, 3) and out.reason == "goal"


def test_turn_cap_ranks_by_race_position() -> None:
    s = position([R(10, 50), R(20, 50), R(0, 50)], current=1, turns=(0, TURN_CAP - 1, TURN_CAP))
    s = act(s, "advance 1")
    out = G.outcome(s)
    assert out is not None and out.reason == "turn_cap" and out.ranks == (2, 1, 3)
    assert G.to_act(s) == frozenset()


def test_resign_ranks_resigner_last() -> None:
    s = position([R(10, 50), R(20, 50), R(0, 50), R(0, 50)])
    out = G.resign(s, 1, 4)
    assert out.ranks == (1, 4, 2, 2) and out.reason == "resignation"
    assert G.resign(s, 0, 4, "timeout").ranks == (4, 1, 2, 2)

"""Hase und Igel: the lone runner's turns-to-finish table and the search evaluation on it."""

from __future__ import annotations

from server.engine import get_game
from server.engine.hase_und_igel import BOARD_1978, DECK_1978, HaseUndIgel, position
from server.engine.hase_und_igel import Runner as R
from server.engine.hase_und_igel.evaluation import finish_turn, turns_left
from server.engine.hase_und_igel.race import deck_cards, turns_table

G: HaseUndIgel = get_game("hase_und_igel")  # type: ignore[assignment]


def table(finished: int = 0) -> tuple[tuple[tuple[float, ...], ...], ...]:
    return turns_table(BOARD_1978, deck_cards(DECK_1978), 68, finished, 3)


def test_one_move_from_the_goal() -> None:
    t = table()
    assert t[60][0][10] == 1.0  # advance 4 costs 10 and leaves 0 <= 10
    assert t[60][0][20] == 1.0  # ... leaves 10
    assert t[60][0][21] > 1.0  # 11 left: not yet
    assert t[60][0][5] > 1.0  # cannot pay the move
    assert t[60][1][10] > 2.0  # a salad still to eat
    assert table(finished=1)[60][0][30] == 1.0  # after a finisher 20 may be left


def test_the_table_is_plausible() -> None:
    t = table()
    assert 12.0 < t[0][3][68] < 25.0  # the start: about the length of a real race
    assert t[30][0][60] < t[30][3][60]  # salads still to eat cost turns
    assert t[50][0][40] < t[20][0][40] < t[0][0][40]  # nearer the goal is nearer
    assert deck_cards(reversed(DECK_1978)) == deck_cards(DECK_1978)


def test_search_evaluate_ranks_the_race() -> None:
    s = position([R(60, 10, 0), R(10, 68, 3), R(30, 40, 1), R(0, 0, 0)], finished=(3,))
    v = G.search_evaluate(s, 0)
    assert v[3] == max(v)  # finished
    assert v[0] > v[2] > v[1]
    assert G.search_evaluate(s, 1) == v  # open information: the same for every seat


def test_forced_turns_count_the_same_before_and_after() -> None:
    # seat 0 entered a salad field: its next turn eats (10 x its race position, 1st: +10)
    due = position(
        [R(7, 40, 3, pending="eat", arrived=True), R(2, 60), R(3, 60)], current=1, turns=(1, 1, 1)
    )
    eaten = position([R(7, 50, 2), R(2, 60), R(3, 60)], current=1, turns=(2, 1, 1))
    assert turns_left(due, 0) == turns_left(eaten, 0) + 1
    assert finish_turn(due, 0) == finish_turn(eaten, 0)
    # the seat deciding now: its current turn is counted once
    deciding = position([R(7, 50, 2), R(2, 60), R(3, 60)], current=0, turns=(3, 1, 1))
    assert finish_turn(deciding, 0) == finish_turn(eaten, 0)

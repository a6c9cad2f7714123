"""Hase und Igel: a runner who resigns (or loses on time) leaves the race, and the race goes
on for the others (it used to end for everyone)."""

from __future__ import annotations

import random

from server.engine import get_game
from server.engine.hase_und_igel import (
    OUT,
    HaseState,
    HaseUndIgel,
    Leave,
    Runner,
    position,
    standings,
)

G: HaseUndIgel = get_game("hase_und_igel")  # type: ignore[assignment]
R = Runner


def leave(state: HaseState, seat: int, reason: str = "resignation") -> HaseState:
    move = G.leave(state, seat, reason)
    assert isinstance(move, Leave)
    return G.play(state, {seat: move}, random.Random(0), check=False)


def test_the_race_goes_on_without_a_runner_who_left() -> None:
    s = position([R(10, 50), R(20, 50), R(5, 50)], current=0)
    s = leave(s, 1)  # not its turn: seat 0 still decides
    assert G.outcome(s) is None and G.to_act(s) == {0}
    assert s.runners[1].field == OUT and s.out == (1,)
    view = G.view(s, 0)
    assert view["out"] == [1] and view["runners"][1]["out"] is True
    s = G.play(s, {0: G.legal_moves(s, 0)[0]}, random.Random(0))
    assert G.to_act(s) == {2}  # seat 1 is skipped
    s = G.play(s, {2: G.legal_moves(s, 2)[0]}, random.Random(0))
    assert G.to_act(s) == {0}


def test_leaving_on_ones_turn_passes_it_on() -> None:
    s = position([R(10, 50), R(20, 50), R(5, 50)], current=1)
    s = leave(s, 1)
    assert G.to_act(s) == {2} and G.outcome(s) is None
    assert G.leave(s, 1, "resignation") is None  # once out, out


def test_the_field_is_free_and_others_rank_above() -> None:
    board = position([R(0, 50)] * 2).board
    f = next(i for i in range(10, 40) if board[i] in "K234" and board[i + 1] in "K234")
    s = position([R(f, 50), R(f + 1, 50), R(5, 50)], current=0)
    assert "advance 1" not in [str(m) for m in G.legal_moves(s, 0)]  # the next field is taken
    s = leave(s, 1)
    assert "advance 1" in [str(m) for m in G.legal_moves(s, 0)]
    assert standings(s) == [1, 3, 2]


def test_one_runner_left_ends_the_race_with_the_leavers_last() -> None:
    s = position([R(10, 50), R(20, 50), R(5, 50), R(7, 50)], current=0)
    s = leave(s, 3)
    s = leave(s, 1, "timeout")
    assert G.outcome(s) is None
    s = leave(s, 0)
    out = G.outcome(s)
    # seat 2 alone on the track wins; the last to leave ranks best among the leavers
    assert out is not None and out.ranks == (2, 3, 1, 4) and out.reason == "resignation"
    assert G.to_act(s) == frozenset()


def test_cards_pass_over_runners_who_left() -> None:
    # give_behind: 10 carrots to each runner behind; the one who left gets none
    s = position([R(20, 60), R(5, 50), R(3, 50)], current=0, deck=("give_behind",), until="all")
    s = leave(s, 2)
    legal = {str(m) for m in G.legal_moves(s, 0)}
    field = next(i for i in range(21, 30) if s.board[i] == "H" and f"advance {i - 20}" in legal)
    s = G.play(s, {0: G.parse_move(s, 0, f"advance {field - 20}")}, random.Random(0))
    assert s.runners[2].carrots == 50 and s.runners[1].carrots == 60


def test_snapshot_and_determinize_keep_who_left() -> None:
    s = leave(position([R(10, 50), R(20, 50), R(5, 50)], current=0), 2)
    assert G.decode_state(G.encode_state(s)) == s
    world = G.determinize([G.view(s, 0)], 0, random.Random(1))
    assert world.out == (2,) and world.runners[2].field == OUT
    assert str(G.parse_move(s, 0, "leave timeout")) == "leave timeout"
    assert G.parse_move(s, 0, "leave") not in G.legal_moves(s, 0)

"""Hase und Igel: the hare cards of docs/GAMES.md 4.5 as executable vectors."""

from __future__ import annotations

from server.engine.hase_und_igel import DECK_1978, position

from .hase import G, R, act, deck, kinds, moves


def test_card_refund() -> None:
    s = act(position([R(2, 50), R(0, 68)], deck=deck("refund")), "advance 4")
    assert s.runners[0].field == 6 and s.runners[0].carrots == 50
    assert [e.card for e in s.events if e.kind == "card"] == ["refund"]
    assert s.deck == (*DECK_1978, "refund")  # drawn card goes under the deck


def test_card_take_give_is_a_follow_up_decision() -> None:
    s = act(position([R(2, 50), R(0, 68)], deck=deck("take_give")), "advance 4")
    assert G.to_act(s) == {0} and s.decision == "take_give"
    assert moves(s) == ["card take", "card give", "card none"]
    assert G.view(s, 1)["decision"] == "card"
    assert act(s, "card take").runners[0].carrots == 50
    assert act(s, "card give").runners[0].carrots == 30
    after = act(s, "card none")
    assert after.runners[0].carrots == 40 and after.current == 1
    poor = act(position([R(2, 11), R(0, 68)], deck=deck("take_give")), "advance 4")
    assert moves(poor) == ["card take", "card none"]


def test_card_fall_back() -> None:
    s = act(position([R(2, 50), R(5, 50), R(4, 50)], deck=deck("fall_back")), "advance 4")
    assert s.runners[0].field == 3  # behind the runner on 5; 4 taken -> 3; no carrots
    assert s.runners[0].carrots == 40
    last = act(position([R(2, 50), R(10, 50), R(12, 50)], deck=deck("fall_back")), "advance 1")
    assert last.runners[0].field == 3 and (0, "no_effect") in kinds(last)
    # behind the runner on 8: field 7 is a salad field, skipped without salads
    s = act(position([R(10, 50, 0), R(8, 50)], deck=deck("fall_back")), "advance 4")
    assert s.runners[0].field == 6
    s = act(position([R(10, 50, 2), R(8, 50)], deck=deck("fall_back")), "advance 4")
    assert s.runners[0].field == 7 and s.runners[0].pending == "eat"
    s = act(position([R(2, 50), R(0, 50)], deck=deck("fall_back")), "advance 1")
    assert s.runners[0].field == 0  # behind a runner on Start: Start


def test_card_move_up() -> None:
    s = act(position([R(2, 50), R(9, 50), R(10, 50)], deck=deck("move_up")), "advance 1")
    assert s.runners[0].field == 12  # in front of 9: 10 taken, 11 hedgehog
    lead = act(position([R(2, 50), R(0, 50)], deck=deck("move_up")), "advance 1")
    assert lead.runners[0].field == 3 and (0, "no_effect") in kinds(lead)
    home = act(position([R(59, 13, 0), R(63, 50), R(0, 50)], deck=deck("move_up")), "advance 2")
    assert home.finished == (0,) and home.runners[0].field == 64
    over = act(position([R(59, 14, 0), R(63, 50), R(0, 50)], deck=deck("move_up")), "advance 2")
    assert over.runners[0].field == 61 and over.finished == ()


def test_card_miss_turn() -> None:
    s = act(position([R(2, 50), R(20, 50)], deck=deck("miss_turn")), "advance 1")
    assert s.runners[0].pending == "miss" and s.current == 1
    s = act(s, "advance 1")
    assert s.current == 1 and (0, "miss") in kinds(s)
    assert s.runners[0].field == 3 and s.turns == (1, 2)  # a built position's turn is uncounted


def test_card_eat_salad() -> None:
    s = act(position([R(2, 50, 2), R(20, 50)], deck=deck("eat_salad")), "advance 1")
    s = act(s, "advance 1")
    assert (0, "eat") in kinds(s) and s.runners[0].salads == 1
    assert s.runners[0].carrots == 49 + 20 and s.current == 1
    s = act(position([R(2, 50, 0), R(20, 50)], deck=deck("eat_salad")), "advance 1")
    s = act(s, "advance 1")
    assert (0, "miss") in kinds(s) and s.runners[0].carrots == 49


def test_card_next_and_previous_carrot() -> None:
    s = act(position([R(2, 50), R(20, 50)], deck=deck("next_carrot")), "advance 1")
    assert s.runners[0].field == 5 and s.runners[0].carrots == 49
    s = act(position([R(2, 50), R(5, 50)], deck=deck("next_carrot")), "advance 1")
    assert s.runners[0].field == 3 and (0, "no_effect") in kinds(s)
    s = act(position([R(2, 50), R(20, 50)], deck=deck("prev_carrot")), "advance 4")
    assert s.runners[0].field == 5
    s = act(position([R(2, 50), R(5, 50)], deck=deck("prev_carrot")), "advance 4")
    assert s.runners[0].field == 6 and (0, "no_effect") in kinds(s)


def test_card_move_again() -> None:
    s = act(position([R(2, 50), R(20, 50)], deck=deck("move_again")), "advance 1")
    assert s.current == 0 and s.turns == (1, 0)  # the extra turn counts
    s = act(s, "advance 1")
    assert s.runners[0].field == 4 and s.current == 1
    # an extra turn without a legal move lapses (no stuck rule)
    s = act(position([R(2, 10), R(20, 50)], deck=deck("move_again")), "advance 4")
    assert s.runners[0] == R(6, 0) and (0, "lapse") in kinds(s) and s.current == 1


def test_cards_2008() -> None:
    s = act(
        position([R(2, 50), R(0, 50), R(1, 50), R(30, 50)], deck=deck("give_behind")), "advance 4"
    )
    assert [r.carrots for r in s.runners] == [20, 60, 60, 50]
    s = act(position([R(2, 15), R(0, 50), R(1, 50)], deck=deck("give_behind")), "advance 1")
    assert [r.carrots for r in s.runners] == [14, 50, 50]  # cannot pay both: pays none
    s = act(position([R(2, 50), R(0, 50), R(1, 50)], deck=deck("behind_ahead")), "advance 1")
    assert s.runners[0].pending == "miss"
    s = act(position([R(2, 50), R(20, 50)], deck=deck("behind_ahead")), "advance 1")
    assert s.current == 0
    assert (
        act(position([R(2, 50), R(0, 9)], deck=deck("set_65")), "advance 1").runners[0].carrots
        == 65
    )
    s = act(position([R(2, 50, 2), R(0, 9)], deck=deck("salad_carrots")), "advance 1")
    assert s.runners[0].carrots == 69
    s = act(position([R(2, 16), R(0, 9)], deck=deck("halve")), "advance 1")
    assert s.runners[0].carrots == 8  # 15: lose 7
    s = act(position([R(2, 50), R(0, 9)], deck=deck("show")), "advance 1")
    assert s.runners[0].carrots == 49
    s = act(position([R(2, 50), R(0, 9), R(20, 0)], deck=deck("shuffle")), "advance 1", seed=5)
    assert [r.carrots for r in s.runners] == [50, 8, 0]
    assert sorted(s.deck) == sorted(deck("shuffle")) and s.deck != (*DECK_1978, "shuffle")

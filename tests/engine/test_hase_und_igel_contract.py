"""Hase und Igel as a game of the registry: options, move texts and their errors, encoding,
replay, views that never show the deck order, perft, and the bots' hooks."""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.base import IllegalMove, InvalidMove, InvalidOptions, Json, turn_rng
from server.engine.hase_und_igel import (
    BOARD_1978,
    Advance,
    Back,
    CardChoice,
    Carrots,
    HaseState,
    layout,
    position,
)
from server.engine.perft import divide, perft

from .hase import G, R, act, deck, random_race


def test_options() -> None:
    assert G.check_options(None)["board"] == BOARD_1978
    for bad in (
        {"board": "SHKX"},
        {"board": "HKZ"},
        {"deck": "refund,joker"},
        {"deck": ""},
        {"until": "last"},
        {"carrots": -1},
        {"colour": 1},
    ):
        with pytest.raises(InvalidOptions):
            G.check_options(bad)
    s = G.new(G.check_options({"deck": "refund*3,move_up", "carrots": 50}), 3, random.Random(0))
    assert sorted(s.deck) == ["move_up", "refund", "refund", "refund"]
    assert s.runners[0].carrots == 50 == s.start_carrots
    with pytest.raises(InvalidOptions):
        G.new({}, 7, random.Random(0))


def test_parse_and_errors() -> None:
    s = G.new({}, 2, random.Random(0))
    assert G.parse_move(s, 0, " Advance  5 ") == Advance(5)
    assert G.parse_move(s, 0, "carrots 10") == Carrots(10)
    for text in ("jump 3", "advance 0", "advance x", "carrots +5", "card maybe", ""):
        with pytest.raises(InvalidMove):
            G.parse_move(s, 0, text)
    before = G.encode_state(s)
    with pytest.raises(IllegalMove):
        act(s, "advance 8")  # hedgehog
    with pytest.raises(IllegalMove):
        G.play(s, {1: Advance(1)}, random.Random(0))  # not seat 1's turn
    with pytest.raises(IllegalMove):
        act(s, "back")
    assert G.encode_state(s) == before
    assert G.legal_moves(s, 1) == []


def test_move_text_and_repr_round_trip() -> None:
    seen = {Back(), Carrots(10), Carrots(-10), *(CardChoice(c) for c in ("take", "give", "none"))}
    for state in random_race(4, 3):
        seen.update(G.legal_moves(state, state.current) if G.to_act(state) else [])
    names = {"Advance": Advance, "Back": Back, "Carrots": Carrots, "CardChoice": CardChoice}
    for move in seen:
        assert G.parse_move(HaseState("SZ", (), (), 0), 0, str(move)) == move
        assert eval(repr(move), names) == move


def test_encode_decode_round_trip() -> None:
    for state in random_race(5, 11)[::7]:
        data = G.encode_state(state)
        assert G.decode_state(json.loads(json.dumps(data))) == state


def test_replay_is_deterministic() -> None:
    a, b = random_race(4, 21), random_race(4, 21)
    assert a[-1] == b[-1] and len(a) == len(b)
    assert [G.view(x, None) for x in a] == [G.view(y, None) for y in b]


def test_views_never_show_the_deck_order() -> None:
    for state in random_race(3, 8)[::5]:
        other = replace(state, deck=tuple(reversed(state.deck)))
        assert other.deck != state.deck or len(set(state.deck)) == 1
        for seat in (None, 0, 1, 2):
            view = G.view(state, seat)
            assert view == G.view(other, seat)
            json.dumps(view)
            assert "deck" not in view


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_property_views_and_replay(seed: int, n_seats: int) -> None:
    rng = random.Random(seed)
    s = G.new({}, n_seats, turn_rng(str(seed), 0))
    for _ in range(40):
        if not G.to_act(s):
            break
        move = rng.choice(G.legal_moves(s, s.current))
        shuffled = replace(s, deck=tuple(sorted(s.deck)))
        assert G.view(s, s.current) == G.view(shuffled, s.current)
        s = G.play(s, {s.current: move}, turn_rng(str(seed), s.ply + 1))
    assert G.decode_state(G.encode_state(s)) == s


def test_view_contents() -> None:
    s = act(position([R(2, 50), R(0, 68)], deck=deck("refund")), "advance 4")
    v = G.view(s, None)
    assert v["last_move"] == "advance 4" and v["last_seat"] == 0 and v["ply"] == 1
    assert v["events"][:3] == [
        {"seat": 0, "kind": "advance", "field": 6, "carrots": -10},
        {"seat": 0, "kind": "card", "card": "refund"},
        {"seat": 0, "kind": "card_carrots", "carrots": 10, "card": "refund"},
    ]
    assert v["to_act"] == [1] and v["deck_size"] == 13 and v["cards"]["refund"] == 3
    assert v["runners"][0]["place"] == 1 and v["runners"][1]["place"] == 2


def test_six_seat_random_race_ends_quickly() -> None:
    start = time.process_time()
    states = random_race(6, 2024)
    cpu = time.process_time() - start
    final = states[-1]
    out = G.outcome(final)
    assert out is not None and G.to_act(final) == frozenset()
    assert sorted(out.ranks)[0] == 1 and len(out.ranks) == 6
    print(f"6-seat random race: {final.ply} plies, {out.reason}, {cpu * 1000:.1f} ms CPU")
    assert cpu < 2.0


#: perft from ``new`` with the room rng of seed "perft", as ``kibitz perft hase_und_igel D
#: --seats K`` prints it. Depth 2 for two seats by hand: 8 replies to each first move but
#: 9 after "advance 6", whose top card (next_carrot) carries seat 0 on to field 13
PERFT = {2: (9, 73, 574, 4133), 4: (9, 73, 532, 3455), 6: (11, 110, 996, 8107)}


@pytest.mark.parametrize("n_seats", sorted(PERFT))
def test_perft_table(n_seats: int) -> None:
    s = G.new(G.check_options({}), n_seats, turn_rng("perft", 0))
    assert [perft(G, s, d) for d in range(1, 5)] == list(PERFT[n_seats])


def test_perft() -> None:
    assert perft(G, G.new({}, 4, random.Random(0)), 1) == 9
    assert perft(G, G.new({}, 6, random.Random(0)), 1) == 11
    s = G.new({}, 3, turn_rng("perft", 0))
    assert perft(G, s, 3) == sum(divide(G, s, 3).values()) == perft(G, s, 3)
    card = act(position([R(2, 50), R(0, 68)], deck=deck("take_give")), "advance 4")
    assert perft(G, card, 1) == 3


# -- bot hooks -------------------------------------------------------------------------------


def test_evaluate() -> None:
    s = position([R(30, 40, 1), R(30 - 1, 40, 3), R(10, 40, 1), R(0, 0, 0)], finished=(3,))
    scores = G.evaluate(s, 0)
    assert len(scores) == 4 and scores[3] == max(scores)
    assert scores[0] > scores[1] > scores[2]
    lay = layout(BOARD_1978)
    near = position([R(60, 10, 0), R(0, 68)])
    heavy = position([R(60, 90, 0), R(0, 68)])
    assert G.evaluate(near, 0)[0] > G.evaluate(heavy, 0)[0]  # excess carrots at the end hurt
    assert lay.salads_ahead[0] == 5


def test_move_heuristic_prefers_finishing() -> None:
    s = position([R(57, 38, 0), R(20, 50)])
    ranked = sorted(G.legal_moves(s, 0), key=lambda m: G.move_heuristic(s, 0, m), reverse=True)
    assert ranked[0] == Advance(7)
    start = G.new({}, 2, random.Random(0))
    assert all(isinstance(G.move_heuristic(start, 0, m), float) for m in G.legal_moves(start, 0))


def test_determinize_rebuilds_all_but_the_deck_order() -> None:
    states = random_race(4, 5)
    views: list[Json] = []
    for state in states[:120]:
        views.append(G.view(state, 1))
        guess = G.determinize(views, 1, random.Random(len(views)))
        assert replace(guess, deck=state.deck) == state
        assert sorted(guess.deck) == sorted(state.deck)
        draws = sum(1 for v in views for e in v["events"] if e["kind"] == "card")
        known = min(draws, len(state.deck))
        assert guess.deck[len(state.deck) - known :] == state.deck[len(state.deck) - known :]

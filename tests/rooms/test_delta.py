"""Deltas reproduce snapshots: for every game and every recipient, applying each delta to the
last snapshot held gives exactly the new snapshot (compared as JSON with sorted keys: the
order of an object's keys carries no meaning)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import REGISTRY
from server.rooms import delta, render
from server.rooms.room import BOT, Event, Room
from server.sdk import apply_delta

NOW = 1_700_000_000.0
GAMES = [("chess", 2), ("dark_chess", 2), ("banqi", 2), ("apocalypse", 2), ("hase_und_igel", 3)]


def encode(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()


def state_of(update: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in update.items() if k not in ("type", "events")}


def play(game: str, seats: int, seed: int, turns: int, delay: int) -> None:
    """A random game with take-backs off; checks every change for every recipient."""
    settings_ = {"spectator_delay": delay} if delay else None
    event = Room.create("r", game, None, seats, f"seed{seed}", NOW, settings_, REGISTRY)
    room = Room.from_created(event)
    rng = random.Random(seed)
    # what a client holds after joining: the full update of the room as it was created
    held = {r: state_of(room.update(r, None)) for r in room.recipients()}
    now = NOW

    def check(events: list[Event]) -> None:
        for r, step, full in room.apply_all(events):
            assert step is not None  # every change after the first is a delta
            assert step["base"] == held[r]["version"]
            assert step["you"] == r and step["version"] == room.version
            assert step["events"] == full["events"]
            # rendered once for all only where that is what each recipient would be told
            assert step["events"] == [room.render_event(e, r) for e in events]
            # over the wire: the delta as JSON, applied as the Python client applies it
            wire = json.loads(encode(step))
            before = encode(held[r])
            after = apply_delta(held[r], wire["set"], wire["del"])
            assert encode(held[r]) == before  # copy-on-write: the state held is untouched
            held[r] = after
            assert encode(held[r]) == encode(state_of(full)), (game, r)

    for seat in range(seats):
        now += 1
        check(room.add_bot(seat, "random", f"bot{seat}", now))
    while room.status == "playing" and len(room.turns) < turns:
        now += rng.random()
        seat = rng.choice([s for s in room.to_act() if s not in room.pending])
        if rng.random() < 0.02:
            check(room.resign(seat, BOT, now))
            break
        legal = room.game.legal_moves(room.state, seat)
        check(room.move(seat, BOT, str(rng.choice(legal)), now))


@pytest.mark.parametrize(("game", "seats"), GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 120), delay=st.sampled_from([0, 0, 2]))
def test_deltas_rebuild_every_snapshot(
    game: str, seats: int, seed: int, turns: int, delay: int
) -> None:
    play(game, seats, seed, turns, delay)


def test_diff_and_apply_by_hand() -> None:
    old = {"a": 1, "b": [1, 2, 3], "board": list(range(10)), "gone": True, "t": 1}
    new = {"a": 2, "b": [1, 2], "board": [*range(9), 99], "new": {"x": None}, "t": True}
    sets, dels = delta.diff(old, new)
    assert dels == [["gone"]]
    assert [["board", 9], 99] in sets  # a long list: patched by index
    assert [["b"], [1, 2]] in sets  # a short or resized list: set whole
    assert [["t"], True] in sets  # true is not 1 in JSON
    assert apply_delta(old, sets, dels) == new
    assert delta.diff(new, new) == ([], [])


def test_a_broken_diff_is_caught() -> None:
    """The check above fails for a diff that forgets deleted keys (it can fail)."""
    old = {"legal": ["e2e4"], "version": 3}
    new = {"version": 4}
    sets, _dels = delta.diff(old, new)
    assert apply_delta(old, sets, []) != new


def test_a_shared_part_is_compared_once_and_gives_every_recipient_its_delta() -> None:
    """With a memo, a part whose old and new objects two recipients share is diffed once;
    each recipient's other parts are still its own."""
    view_old, view_new = {"board": list(range(10)), "ply": 1}, {"board": [*range(9), 7], "ply": 2}
    a_old, a_new = {"view": view_old, "legal": ["x"]}, {"view": view_new}
    b_old, b_new = {"view": view_old, "you": None}, {"view": view_new, "you": None, "n": 1}
    memo: delta.Memo = {}
    for old, new in ((a_old, a_new), (b_old, b_new)):
        keys = [*new, *(k for k in old if k not in new)]
        sets, dels = delta.diff_keys(old, new, keys, memo)
        assert (sets, dels) == delta.diff(old, new)
        assert apply_delta(old, sets, dels) == new
    assert list(memo) == [("view", id(view_old), id(view_new))]


def test_a_diff_over_some_keys_is_that_part_of_the_whole_diff() -> None:
    old = {"a": 1, "b": {"x": 1, "y": 2}, "gone": 0, "same": [1]}
    new = {"a": 2, "b": {"x": 1, "y": 3}, "new": 5, "same": [1]}
    whole = delta.diff(old, new)
    part = delta.diff_keys(old, new, ["b", "gone", "nowhere"])
    assert part == ([[["b", "y"], 3]], [["gone"]])
    rest = delta.diff_keys(old, new, ["a", "new", "same"])
    assert sorted(map(repr, part[0] + rest[0])) == sorted(map(repr, whole[0]))
    assert part[1] + rest[1] == whole[1]


def test_a_rematch_tells_each_seat_its_own_token_in_its_delta() -> None:
    """The rematch event reads differently for each recipient (its seat and token there):
    the delta's events are that recipient's own rendering, never one shared by all."""
    event = Room.create("r", "chess", None, 2, "seed-rematch", NOW, None, REGISTRY)
    room = Room.from_created(event)
    now = NOW
    for seat, token in ((0, "tok-a"), (1, "tok-b")):
        now += 1
        room.apply_all(room.take_seat(seat, token, f"P{seat}", now))
    room.apply_all(room.resign(0, "tok-a", now + 1))
    for seat, token in ((0, "tok-a"), (1, "tok-b")):
        room.apply_all(room.offer_rematch(seat, token, now + 2))
    assert room.rematch_agreed()
    settled = [room.settle_rematch("r2", {0: "new-a", 1: "new-b"}, now + 3)]
    deltas = {r: step for r, step, _full in room.apply_all(settled) if step is not None}
    assert deltas[0]["events"] == [
        {"kind": "rematch", "new_room": "r2", "seat": 1, "token": "new-a"}
    ]
    assert deltas[1]["events"][0]["token"] == "new-b"
    assert "token" not in deltas[None]["events"][0]


# -- the compiled comparison (_delta.c) against the Python one ---------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.0, 1.0, 1.5]),
    st.sampled_from(["", "a", "b"]),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=12),  # lists of 8 and more are patched by index
        st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]), inner, max_size=5),
    ),
    max_leaves=40,
)
_docs = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e", "f"]), _json, max_size=6)


def _mutated(doc: Any, rng: random.Random) -> Any:
    """A copy of ``doc`` with some values changed, dropped, added or kept as the very same
    objects (what the memo and the identity checks see)."""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            roll = rng.random()
            if roll < 0.15:
                continue
            out[k] = v if roll < 0.5 else _mutated(v, rng)
        if rng.random() < 0.3:
            out[rng.choice("abcdefz")] = rng.choice([1, True, [1] * 9, {"x": None}])
        return out
    if isinstance(doc, list):
        if rng.random() < 0.2:
            return [*doc, 0]
        return [v if rng.random() < 0.6 else _mutated(v, rng) for v in doc]
    return rng.choice([doc, doc, 1, True, 1.0, "a", None])


@settings(max_examples=400, deadline=None)
@given(old=_docs, seed=st.integers(0, 10**6))
def test_the_compiled_comparison_is_the_python_one(old: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    new = _mutated(old, rng)
    keys = [*new, *(k for k in old if k not in new), "nowhere"]
    some = [k for k in keys if rng.random() < 0.5]
    for ks in (keys, some, tuple(some), new):
        assert delta.diff_keys(old, new, ks) == delta.python_diff_keys(old, new, ks)
    c_memo: delta.Memo = {}
    py_memo: delta.Memo = {}
    for _ in range(2):  # the second round answers from the memo
        assert delta.diff_keys(old, new, keys, c_memo) == delta.python_diff_keys(
            old, new, keys, py_memo
        )
    assert c_memo == py_memo
    sets, dels = delta.diff_keys(old, new, keys)
    before = encode(old)
    assert apply_delta(old, sets, dels) == new
    assert encode(old) == before  # the state applied to is never changed


def test_the_comparison_of_the_two_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python comparison with another list threshold gives another delta than the
    compiled one: the test above would see a compiled comparison that strayed."""
    assert delta.COMPILED
    old, new = {"board": [0] * 8}, {"board": [0] * 7 + [1]}
    assert delta.diff_keys(old, new, ["board"]) == delta.python_diff_keys(old, new, ["board"])
    monkeypatch.setattr(delta, "MIN_LIST", 9)
    assert delta.diff_keys(old, new, ["board"]) != delta.python_diff_keys(old, new, ["board"])


def test_bad_arguments_to_the_compiled_comparison_are_refused() -> None:
    from server.rooms import _delta

    with pytest.raises(TypeError):
        _delta.diff_keys({}, {}, [], [], [], [])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _delta.diff_keys([], {}, [], [], [], [], None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _delta.diff_keys({}, {}, 5, [], [], [], None)  # keys not iterable


def test_the_common_keys_the_deltas_compare_are_the_common_parts_keys() -> None:
    """The deltas compare the common part over a fixed list of keys: a key added to the
    common part but not to that list would never reach a live client."""
    for game, seats in GAMES:
        event = Room.create("r", game, None, seats, "seed", NOW, None, REGISTRY)
        room = Room.from_created(event)
        assert tuple(room.common()) == render._COMMON, game
        assert set(render._SHARED) | set(render._OWN) >= set(room.snapshot(0))

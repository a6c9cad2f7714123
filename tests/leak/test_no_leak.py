"""No seat and no spectator ever learns what it may not: the no-leak proof, per hidden game.

Each test plays a random prefix (hypothesis draws the seed and length), builds a second
true state the observed seat cannot tell apart, and lets the harness compare every byte
sent to that seat and to a spectator over the real protocol. The last test shows that the
harness can fail: a view that leaks one hidden bit is caught.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from server.engine import Game, Registry, get_game, turn_rng
from server.engine.banqi import Banqi
from server.rooms.room import Room

from .harness import Script, assert_no_leak

EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def random_prefix(game: Game[Any, Any], seed: int, length: int, n_seats: int = 2) -> list[Any]:
    """States along a random legal game of at most ``length`` turns (the first is new)."""
    rng = random.Random(seed)
    state = game.new(game.check_options({}), n_seats, turn_rng(str(seed), 0))
    states = [state]
    for ply in range(length):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        moves = {s: rng.choice(game.legal_moves(state, s)) for s in acting}
        state = game.play(state, moves, turn_rng(str(seed), ply + 1))
        states.append(state)
    return states


def delayed(delay: int) -> dict[str, Any] | None:
    """Room settings with a spectator delay: spectators — any second connection of a player
    included — get the public view late, never the truth (every read path)."""
    return {"spectator_delay": delay} if delay else None


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def indistinguishable(game: Game[Any, Any], a: Any, b: Any, seat: int) -> bool:
    return (
        game.view(a, seat) == game.view(b, seat)
        and game.view(a, None) == game.view(b, None)
        and [str(m) for m in game.legal_moves(a, seat)]
        == [str(m) for m in game.legal_moves(b, seat)]
        and game.to_act(a) == game.to_act(b)
    )


# -- BanQi: face-down pieces re-dealt -----------------------------------------------------------


@EXAMPLES
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(0, 40),
    seat=st.sampled_from([0, 1]),
    delay=st.sampled_from([0, 1, 3]),
)
def test_banqi_redealt_face_down_pieces(
    redis_url: str, registry: Registry, seed: int, length: int, seat: int, delay: int
) -> None:
    game = get_game("banqi")
    states = random_prefix(game, seed, length)
    truth = states[-1]
    assume(game.outcome(truth) is None)
    views = [game.view(s, seat) for s in states]
    other = game.determinize(views, seat, random.Random(seed + 1))
    assume(other.board != truth.board)  # at least two different hidden pieces swapped
    assert indistinguishable(game, truth, other, seat)
    script = Script(seat, 2, settings=delayed(delay))
    run(assert_no_leak(game, truth, other, script, redis_url, registry))


# -- Dark Chess: unseen squares changed consistently --------------------------------------------


def move_an_unseen_piece(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
    """The same position but one enemy piece the seat cannot see stands on another unseen
    empty square (so the seat's view, legal moves and the public view are unchanged)."""
    board = state.board
    enemy = chess.BLACK if seat == 0 else chess.WHITE
    visible = set(game.view(state, seat)["visible"])
    unseen = [sq for sq in chess.SQUARES if chess.square_name(sq) not in visible]
    pieces = [
        sq
        for sq in unseen
        if (p := board.piece_at(sq))
        and p.color == enemy
        and p.piece_type not in (chess.KING, chess.PAWN)
    ]
    empty = [sq for sq in unseen if board.piece_at(sq) is None]
    rng.shuffle(pieces)
    rng.shuffle(empty)
    for src in pieces[:6]:
        for dst in empty[:12]:
            b = board.copy()  # no move stack: the history is the state's
            piece = b.remove_piece_at(src)
            assert piece is not None
            b.set_piece_at(dst, piece)
            if not b.is_valid() and b.status() & ~(
                chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS
            ):
                continue
            # the same history (moves, the board before the last move), the piece moved (the
            # caches of the legal moves, as codes and texts, are the board's: made anew)
            candidate = dataclasses.replace(state, board=b, texts=None, legal=None)
            if indistinguishable(game, state, candidate, seat) and game.outcome(candidate) is None:
                return candidate
    return None


@EXAMPLES
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(2, 30),
    seat=st.sampled_from([0, 1]),
    delay=st.sampled_from([0, 1, 3]),
)
def test_dark_chess_unseen_squares_changed(
    redis_url: str, registry: Registry, seed: int, length: int, seat: int, delay: int
) -> None:
    game = get_game("dark_chess")
    truth = random_prefix(game, seed, length)[-1]
    assume(game.outcome(truth) is None)
    other = move_an_unseen_piece(game, truth, seat, random.Random(seed))
    assume(other is not None)
    assert other.board.board_fen() != truth.board.board_fen()
    script = Script(
        seat,
        2,
        probe_moves=("zz", "e2e4", "e7e5", "e1g1", "a7a8q", "Nf3", "Qxh7"),
        settings=delayed(delay),
    )
    run(assert_no_leak(game, truth, other, script, redis_url, registry))


# -- Apocalypse: the other seat's sealed move ---------------------------------------------------


@EXAMPLES
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(0, 12),
    seat=st.sampled_from([0, 1]),
    delay=st.sampled_from([0, 1, 3]),
)
def test_apocalypse_sealed_move_of_the_other_seat(
    redis_url: str, registry: Registry, seed: int, length: int, seat: int, delay: int
) -> None:
    game = get_game("apocalypse")
    truth = random_prefix(game, seed, length)[-1]
    other_seat = 1 - seat
    assume(game.to_act(truth) == {0, 1})
    legal = [str(m) for m in game.legal_moves(truth, other_seat)]
    assume(len(legal) >= 3)
    rng = random.Random(seed)
    a1, a2, b1, b2 = (rng.choice(legal) for _ in range(4))
    assume(a2 != b2)
    # the other seat seals a move and changes it; both differ between the worlds
    run(
        assert_no_leak(
            game,
            truth,
            truth,
            Script(seat, 2, settings=delayed(delay)),
            redis_url,
            registry,
            other_moves_a=[(other_seat, a1), (other_seat, a2)],
            other_moves_b=[(other_seat, b1), (other_seat, b2)],
        )
    )


# -- Hase und Igel: the deck order --------------------------------------------------------------


@EXAMPLES
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(0, 30),
    seat=st.sampled_from([0, 1, 2]),
    delay=st.sampled_from([0, 1, 3]),
)
def test_hase_und_igel_deck_order(
    redis_url: str, registry: Registry, seed: int, length: int, seat: int, delay: int
) -> None:
    game = get_game("hase_und_igel")
    states = random_prefix(game, seed, length, n_seats=3)
    truth = states[-1]
    assume(game.outcome(truth) is None)
    views = [game.view(s, seat) for s in states]
    other = game.determinize(views, seat, random.Random(seed + 7))
    assume(game.encode_state(other) != game.encode_state(truth))  # the deck differs
    assert indistinguishable(game, truth, other, seat)
    script = Script(seat, 3, settings=delayed(delay))
    run(assert_no_leak(game, truth, other, script, redis_url, registry))


# -- the harness can fail -----------------------------------------------------------------------


class LeakyBanqi(Banqi):
    """A deliberately broken BanQi whose view carries one hidden bit: whether the first
    face-down square holds a red piece."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if state.hidden:
            out["peek"] = state.board[min(state.hidden)].isupper()
        return out


def swap_first_face_down(state: Any) -> Any:
    """``state`` with its first face-down piece swapped with a face-down piece of the other
    colour: a world no seat can tell from ``state`` by its view."""
    square = min(state.hidden)
    partner = next(
        sq
        for sq in sorted(state.hidden)
        if state.board[sq].isupper() != state.board[square].isupper()
    )
    cells = list(state.board)
    cells[square], cells[partner] = cells[partner], cells[square]
    return type(state)(
        **{**{f: getattr(state, f) for f in state.__dataclass_fields__}, "board": "".join(cells)}
    )


def test_the_harness_catches_a_leaky_view(redis_url: str, registry: Registry) -> None:
    leaky = LeakyBanqi()
    state = leaky.new(leaky.check_options({}), 2, turn_rng("leak", 0))
    other = swap_first_face_down(state)
    honest = get_game("banqi")
    assert honest.view(state, 0) == honest.view(other, 0)  # honest views agree...
    assert leaky.view(state, 0) != leaky.view(other, 0)  # ...the leaky ones do not
    leaky_registry = Registry()
    for g in registry:
        leaky_registry.add(leaky if g.name == "banqi" else g)
    with pytest.raises(AssertionError, match="can tell the worlds apart"):
        run(assert_no_leak(leaky, state, other, Script(0, 2), redis_url, leaky_registry))
    # and the same two worlds pass through the honest game
    run(assert_no_leak(honest, state, other, Script(0, 2), redis_url, registry))


def test_the_harness_catches_a_leaky_delta(
    redis_url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A renderer whose deltas (only) carry a hidden bit is caught with protocol 2 — so the
    deltas are compared byte for byte — and slips through with protocol 1, which has none."""
    game = get_game("banqi")
    state = game.new(game.check_options({}), 2, turn_rng("leak", 0))
    other = swap_first_face_down(state)
    honest_changes = Room.changes

    def leaky_changes(self: Any, events: Any) -> Any:
        out = honest_changes(self, events)
        hidden = getattr(self.state, "hidden", None)
        for _r, step, _full in out:
            if step is not None and hidden:
                step["hint"] = self.state.board[min(hidden)].isupper()
        return out

    monkeypatch.setattr(Room, "changes", leaky_changes)
    with pytest.raises(AssertionError, match="can tell the worlds apart"):
        run(assert_no_leak(game, state, other, Script(0, 2), redis_url, registry))
    run(assert_no_leak(game, state, other, Script(0, 2, protocol=1), redis_url, registry))


def test_the_harness_catches_a_leaked_seed(
    redis_url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running BanQi game's record shows its moves but not its seed (the seed tells the
    face-down layout). A record that kept the seed is caught, though both worlds of the
    harness share it (their difference is injected): the seed may appear in no frame."""
    game = get_game("banqi")
    state = game.new(game.check_options({}), 2, turn_rng("leak", 0))
    honest_record = Room.record

    def leaky_record(self: Any, *, seated: bool = False) -> Any:
        return {**honest_record(self, seated=seated), "seed": self.seed}

    monkeypatch.setattr(Room, "record", leaky_record)
    with pytest.raises(AssertionError, match="the seed left the server"):
        run(assert_no_leak(game, state, state, Script(0, 2), redis_url, registry))


def test_delayed_truth_is_an_explicit_opt_in_the_harness_sees(
    redis_url: str, registry: Registry
) -> None:
    """With ``spectators_see_all`` (delay >= 2) spectators do get every seat's view, late:
    the harness tells the worlds apart through the spectator — which is why it is off unless
    the room's creator asks for it. The same worlds pass with the delay alone."""
    game = get_game("dark_chess")
    for seed in range(50):
        truth = random_prefix(game, seed, 6)[-1]
        other = move_an_unseen_piece(game, truth, 0, random.Random(seed))
        if game.outcome(truth) is None and other is not None:
            break
    else:
        raise AssertionError("no suitable position")
    see_all = Script(0, 2, settings={"spectator_delay": 2, "spectators_see_all": True})
    with pytest.raises(AssertionError, match="the spectator can tell the worlds apart"):
        run(assert_no_leak(game, truth, other, see_all, redis_url, registry))
    delay_only = Script(0, 2, settings={"spectator_delay": 2})
    run(assert_no_leak(game, truth, other, delay_only, redis_url, registry))

"""Dark Chess worlds (``DarkChess.determinize``): every world a bot searches agrees with what
its seat has seen — the current view exactly, and for history worlds every earlier view too."""

from __future__ import annotations

import random

import chess
import pytest

from server.engine import get_game, turn_rng
from server.engine.dark_chess.worlds import (
    NoWorld,
    determinize,
    sample_history,
    sample_placement,
)

from .play import Played, capture_policy, random_game, random_policy

GAME = get_game("dark_chess")


def replayed_views(world: object, seat: int) -> list[dict]:
    """The seat's view after every ply of a history world, replayed from its start."""
    state = GAME.new(GAME.check_options({}), 2, turn_rng("w", 0))
    out = [GAME.view(state, seat)]
    for move in world.moves:  # type: ignore[attr-defined]
        mover = 0 if state.board.turn == chess.WHITE else 1
        state = GAME.play(state, {mover: move}, turn_rng("w", 0))
        out.append(GAME.view(state, seat))
    return out


def to_move(p: Played) -> int:
    return 0 if p.state.board.turn == chess.WHITE else 1


@pytest.mark.parametrize("plies", [1, 8, 24])
def test_history_worlds_reproduce_every_view(plies: int) -> None:
    found = 0
    for seed in range(8):
        p = random_game("dark_chess", seed, plies, policy=capture_policy)
        if GAME.outcome(p.state) is not None:
            continue
        for seat in (0, 1):
            views = p.views[seat]
            try:
                world = sample_history(views, seat, random.Random(seed), max_seconds=1.0)
            except NoWorld:
                continue
            found += 1
            assert replayed_views(world, seat) == views
            assert GAME.view(world, seat) == views[-1]
    assert found >= 10


def test_every_world_shows_the_current_view() -> None:
    """Many seeded games, both seats, early and late: view(world, seat) == the last view,
    and the seat's legal moves in the world are its real legal moves."""
    checked = 0
    for seed in range(16):
        policy = capture_policy if seed % 2 else random_policy
        p = random_game("dark_chess", 100 + seed, 6 + 5 * seed, policy=policy)
        if GAME.outcome(p.state) is not None:
            continue
        for seat in (0, 1):
            rng = random.Random(seed * 2 + seat)
            world = GAME.determinize(p.views[seat], seat, rng, max_seconds=0.2)
            assert GAME.view(world, seat) == p.views[seat][-1]
            if seat == to_move(p):
                assert sorted(map(str, GAME.legal_moves(world, seat))) == sorted(p.legal(seat))
            checked += 1
    assert checked >= 20


def test_placement_worlds_show_the_current_view() -> None:
    for seed in range(40):
        p = random_game("dark_chess", 200 + seed, 10 + 2 * seed, policy=capture_policy)
        if GAME.outcome(p.state) is not None:
            continue
        for seat in (0, 1):
            world = sample_placement(p.views[seat], seat, random.Random(seed))
            assert GAME.view(world, seat) == p.views[seat][-1]
            assert len(world.moves) == GAME.ply(p.state) == GAME.ply(world)


def test_placement_keeps_material_and_prefers_last_sightings() -> None:
    p = random_game("dark_chess", 7, 30, policy=capture_policy)
    seat = to_move(p)
    world = sample_placement(p.views[seat], seat, random.Random(1))
    enemy = seat != 0
    captured = p.views[seat][-1]["captured"]["white" if enemy else "black"]
    # one king, and no more pieces than the set minus what was captured
    assert chess.popcount(world.board.kings & world.board.occupied_co[enemy]) == 1
    assert chess.popcount(world.board.occupied_co[enemy]) == 16 - sum(captured.values())


def test_worlds_vary_with_the_rng() -> None:
    p = random_game("dark_chess", 3, 12)
    seat = to_move(p)
    boards = {
        GAME.determinize(p.views[seat], seat, random.Random(i)).board.board_fen() for i in range(8)
    }
    assert len(boards) > 1
    assert p.state.board.board_fen() not in boards or len(boards) > 1


def test_a_hint_is_extended() -> None:
    """The world of two plies ago, handed back as a hint, is kept where it still fits."""
    p = random_game("dark_chess", 11, 16, policy=capture_policy)
    seat = to_move(p)
    views = p.views[seat]
    earlier = determinize(views[:-2], seat, random.Random(0), max_seconds=1.0)
    world = determinize(views, seat, random.Random(1), hint=earlier, max_seconds=1.0)
    assert GAME.view(world, seat) == views[-1]
    if all(earlier.moves):  # a history world
        assert len(world.moves) == len(views) - 1


def test_a_custom_start_falls_back_to_placement() -> None:
    fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
    rng = random.Random(5)
    p = random_game("dark_chess", 5, 6, options={"fen": fen})
    for seat in (0, 1):
        world = GAME.determinize(p.views[seat], seat, rng)
        assert GAME.view(world, seat) == p.views[seat][-1]


def test_the_dagaz_fog_too() -> None:
    for seed in range(6):
        p = random_game("dark_chess", 300 + seed, 14, options={"visibility": "dagaz"})
        if GAME.outcome(p.state) is not None:
            continue
        for seat in (0, 1):
            world = GAME.determinize(p.views[seat], seat, random.Random(seed), max_seconds=0.3)
            assert GAME.view(world, seat) == p.views[seat][-1]

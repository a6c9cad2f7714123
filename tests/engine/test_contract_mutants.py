"""Each check of the contract suite catches a game broken on purpose (a guard that cannot
fail proves nothing). Every mutant is a real game with one method made wrong."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from server.engine import REGISTRY, Game, InvalidMove, get_game

from . import contract


def mutant(name: str, **methods: Callable[..., Any]) -> Game[Any, Any]:
    """The registered game ``name`` with ``methods`` replaced (same name, same rules else)."""
    base = type(get_game(name))
    return type(f"Broken{base.__name__}", (base,), methods)()


def first_grid_game() -> str:
    return next(g.name for g in REGISTRY if g.board == "grid")


def test_a_snapshot_that_forgets_is_caught() -> None:
    game = get_game("banqi")

    def decode_state(self: Any, data: Mapping[str, Any]) -> Any:
        return game.decode_state({**data, "quiet": 0})  # loses the no-progress count

    broken = mutant("banqi", decode_state=decode_state)
    contract.check_snapshots(contract.playout(game, "m"))  # the real one passes
    with pytest.raises(AssertionError):
        contract.check_snapshots(contract.playout(broken, "m"))


def test_chance_outside_the_seed_is_caught() -> None:
    game = get_game("banqi")

    def new(self: Any, options: Any, n_seats: int, rng: random.Random) -> Any:
        return game.new(options, n_seats, random.Random())  # not the room's rng

    with pytest.raises(AssertionError):
        contract.check_deterministic(contract.playout(mutant("banqi", new=new), "m"))


def test_a_view_that_leaks_a_face_down_piece_is_caught() -> None:
    game = get_game("banqi")

    def view(self: Any, state: Any, seat: int | None) -> Any:
        return {**game.view(state, seat), "layout": state.board}  # the truth, face-down too

    contract.check_no_hidden_leak(contract.playout(game, "m"))
    with pytest.raises(AssertionError):
        contract.check_no_hidden_leak(contract.playout(mutant("banqi", view=view), "m"))


def test_a_public_game_showing_a_seat_more_is_caught() -> None:
    game = get_game("chess")

    def view(self: Any, state: Any, seat: int | None) -> Any:
        return {**game.view(state, seat), "you": seat}

    with pytest.raises(AssertionError):
        contract.check_views(contract.playout(mutant("chess", view=view), "m"), 10)


def test_a_grid_game_without_its_board_description_is_caught() -> None:
    name = first_grid_game()
    game = get_game(name)

    def view(self: Any, state: Any, seat: int | None) -> Any:
        return {k: v for k, v in game.view(state, seat).items() if k != "grid"}

    contract.check_views(contract.playout(game, "m"))
    with pytest.raises(AssertionError, match="no board description"):
        contract.check_views(contract.playout(mutant(name, view=view), "m"))


def test_a_malformed_board_description_is_caught() -> None:
    name = first_grid_game()
    game = get_game(name)

    def view(self: Any, state: Any, seat: int | None) -> Any:
        out = game.view(state, seat)
        return {**out, "grid": {**out["grid"], "files": 0}}

    with pytest.raises(AssertionError, match="files"):
        contract.check_views(contract.playout(mutant(name, view=view), "m"))


def test_a_parser_that_trims_is_caught() -> None:
    game = get_game("chess")

    def parse_move(self: Any, state: Any, seat: int, text: str) -> Any:
        return game.parse_move(state, seat, text.strip())  # not the whole string

    with pytest.raises(AssertionError, match="read as a legal move"):
        contract.check_moves(contract.playout(mutant("chess", parse_move=parse_move), "m"), 10)


def test_a_game_that_plays_an_illegal_move_is_caught() -> None:
    name = first_grid_game()
    game = get_game(name)

    def play(self: Any, state: Any, moves: Any, rng: Any, *, check: bool = True) -> Any:
        return game.play(state, moves, rng, check=False)  # never checks

    with pytest.raises(AssertionError):
        contract.check_moves(contract.playout(mutant(name, play=play), "m"))


def test_a_game_that_stops_without_an_outcome_is_caught() -> None:
    game = get_game("banqi")

    def to_act(self: Any, state: Any) -> frozenset[int]:
        return frozenset() if state.ply == 3 else game.to_act(state)  # stalls, no result

    with pytest.raises(AssertionError, match="no outcome"):
        contract.check_ends(contract.playout(mutant("banqi", to_act=to_act), "m"))


def test_garbage_is_refused_as_a_bad_move() -> None:
    for game in REGISTRY:
        state = game.new(game.check_options({}), game.min_seats, random.Random(0))
        seat = sorted(game.to_act(state))[0]
        with pytest.raises(InvalidMove):
            game.parse_move(state, seat, "\x00not a move")


def test_a_bot_rebuilding_another_state_is_caught() -> None:
    game = get_game("kono")

    def determinize(self: Any, views: Any, seat: int, rng: Any) -> Any:
        view = views[-1]  # forgets the positions repetition compares
        return game.decode_state({**view, "quiet": view["counters"]["quiet"], "history": []})

    contract.check_rebuild(contract.playout(game, "m"))
    with pytest.raises(AssertionError, match="rebuilds another state"):
        contract.check_rebuild(contract.playout(mutant("kono", determinize=determinize), "m"))

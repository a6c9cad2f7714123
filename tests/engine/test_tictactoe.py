"""The test-only Tic-tac-toe (tests/engine/tictactoe.py) through the engine contract checks that
every registered game passes, and its rules on the shared helpers: a new small grid game on
the base layer costs that module and this file (docs/ADDING_A_GAME.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from server.engine import REGISTRY, IllegalMove, InvalidMove
from server.engine.perft import perft

from . import contract, helpers
from .tictactoe import TicTacToe, TicTacToeState

T = helpers.Tester[TicTacToeState](TicTacToe())
GAME = T.game
PLAYOUTS = [contract.playout(GAME, f"contract/tictactoe/{i}") for i in range(6)]
CHECKS = [
    contract.check_ends,
    contract.check_deterministic,
    contract.check_snapshots,
    contract.check_views,
    contract.check_no_hidden_leak,
    contract.check_rebuild,
    contract.check_moves,
]


def play(*texts: str) -> TicTacToeState:
    state = T.start()
    for text in texts:
        state = T.act(state, text)
    return state


def test_it_is_not_registered() -> None:
    assert "tictactoe" not in REGISTRY


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_the_contract_checks_pass(check: Callable[[contract.Playout], None]) -> None:
    for p in PLAYOUTS:
        check(p)


def test_three_in_a_row_wins_and_a_full_board_draws() -> None:
    assert perft(GAME, T.start(), 2) == 72
    won = play("a1", "a3", "b2", "b3", "c3")  # X on the diagonal a1-c3
    end = GAME.outcome(won)
    assert end is not None and end.winner == 0 and end.reason == "three_in_a_row"
    assert GAME.view(won, None)["grid"]["status"] == "X wins: three in a row"
    assert GAME.encode_state(won)["board"] == "OOX/.X./X.."
    full = play("a1", "b2", "c3", "a2", "c2", "c1", "a3", "b3", "b1")
    end = GAME.outcome(full)
    assert end is not None and end.winner is None and end.reason == "board_full"
    assert T.legal(full) == set()


def test_moves_are_squares_and_only_empty_ones() -> None:
    assert T.legal(play("b2")) == {"a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"}
    with pytest.raises(IllegalMove):
        play("a1", "a1")
    for text in ("a1-a2", "d1", "pass", ""):
        with pytest.raises(InvalidMove):
            GAME.parse_move(T.start(), 0, text)

"""One contract suite over every registered game (as OpenSpiel does for its games): a game
inherits all of it by being registered in ``server/engine/__init__.py``.

For each game, seeded random playouts to the end, then: an outcome at the end and only
there; seed + move texts rebuild every state; snapshots round-trip; views are JSON,
deterministic, public where nothing is hidden, and hide what ``determinize`` would re-deal;
a grid game describes its board in every view and offers its moves as gestures on it; every
legal move is accepted and bad or illegal input refused with a clear error, changing
nothing; ``kibitz perft GAME 2`` answers.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from server.cli import main as kibitz
from server.engine import REGISTRY, Game

from . import contract

GAMES = [g.name for g in REGISTRY]
#: seeds per game (more for the quick games); checks that cost a move per legal move look at
#: every ``EVERY``-th position of long games
SEEDS = 3
EVERY = {"chess": 7, "dark_chess": 7, "hase_und_igel": 5}
#: positions a seed's views are re-dealt at (Dark Chess's sampler is the slow one)
LEAK_POSITIONS = {"dark_chess": 3}


@functools.cache
def playouts(name: str) -> list[contract.Playout]:
    game = REGISTRY.get(name)
    seats = sorted({game.min_seats, game.max_seats})
    return [
        contract.playout(game, f"contract/{name}/{i}", seats[i % len(seats)]) for i in range(SEEDS)
    ]


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_with_an_outcome(name: str) -> None:
    for p in playouts(name):
        contract.check_ends(p)


@pytest.mark.parametrize("name", GAMES)
def test_seed_and_moves_rebuild_every_state(name: str) -> None:
    for p in playouts(name):
        contract.check_deterministic(p)


@pytest.mark.parametrize("name", GAMES)
def test_snapshots_round_trip(name: str) -> None:
    for p in playouts(name):
        contract.check_snapshots(p, EVERY.get(name, 1))


@pytest.mark.parametrize("name", GAMES)
def test_views_are_well_formed(name: str) -> None:
    for p in playouts(name):
        contract.check_views(p, EVERY.get(name, 1))


@pytest.mark.parametrize("name", GAMES)
def test_views_hide_what_is_hidden(name: str) -> None:
    for p in playouts(name)[:1]:
        contract.check_no_hidden_leak(p, positions=LEAK_POSITIONS.get(name, 6))


@pytest.mark.parametrize("name", GAMES)
def test_bots_rebuild_the_state_from_views(name: str) -> None:
    for p in playouts(name):
        contract.check_rebuild(p, EVERY.get(name, 1))


@pytest.mark.parametrize("name", GAMES)
def test_moves_accepted_and_refused(name: str) -> None:
    for p in playouts(name)[:2]:
        contract.check_moves(p, EVERY.get(name, 1))


@pytest.mark.parametrize("name", GAMES)
def test_perft_from_the_command_line(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert kibitz(["perft", name, "2"]) == 0
    out = capsys.readouterr().out.split()
    assert int(out[-1]) > 0


def test_every_game_says_how_it_is_drawn() -> None:
    for game in REGISTRY:
        info: dict[str, Any] = game.info()
        assert info["board"] == game.board
        assert isinstance(game, Game)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_says_how_to_play(name: str) -> None:
    """A newcomer's "How to play" panel: plain paragraphs, sent in the game's info."""
    info: dict[str, Any] = REGISTRY.get(name).info()
    assert info["how_to_play"], f"{name} has no how_to_play"
    for paragraph in info["how_to_play"]:
        assert isinstance(paragraph, str) and paragraph.strip() == paragraph and paragraph
        assert not any(mark in paragraph for mark in ("**", "`", "\n", "<")), paragraph

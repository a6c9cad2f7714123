"""The analysis's "what you saw" tells a seat nothing it could not see.

- Dark Chess: two games White cannot tell apart (Black's first move hidden in the fog,
  different) give White's moves the same "seen" judgement, while "what was there" (the
  finished game's public record) may differ. The broken twin, whose search of the mover's
  view is handed the true position as its only world, gives the two games different answers.
- BanQi: two layouts that agree on every piece turned up before seat 0's moves give seat 0
  the same "seen"; the broken twin, which seeds that search by the game's secret seed
  instead of the seat's views, gives them different answers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.analysis import banqi_analysis, dark_analysis
from server.bots.bot import Ask
from server.bots.worldsearch import WorldSearchBot
from server.engine import get_game, turn_rng

#: Black's first move differs, unseen by White (the same view of every position White moves
#: from); White's moves are the same
GAMES = (["e2e4", "g7g6", "b1c3", "a7a6"], ["e2e4", "c7c6", "b1c3", "a7a6"])


def record(moves: list[str]) -> dict[str, Any]:
    return {
        "game": "dark_chess",
        "room": "leak",
        "seed": "s",
        "n_seats": 2,
        "options": {},
        "moves": [{"turn": i + 1, "moves": {str(i % 2): m}} for i, m in enumerate(moves)],
        "outcome": {"reason": "resignation"},
    }


def truths(moves: list[str]) -> list[Any]:
    """Every true position of the game, the start first."""
    game = get_game("dark_chess")
    state = game.new({}, 2, None)
    out = [state]
    for i, m in enumerate(moves):
        state = game.play(state, {i % 2: game.parse_move(state, i % 2, m)}, None)
        out.append(state)
    return out


def white_saw(monkeypatch: pytest.MonkeyPatch, broken: bool) -> list[list[Any]]:
    states: list[Any] = []
    if broken:  # the twin's worlds: the truth of the position the views end at

        def cheating_pool(self: WorldSearchBot, ask: Ask) -> list[Any]:
            return [states[len(ask.views) - 1]]

        monkeypatch.setattr(WorldSearchBot, "_pool", cheating_pool)
    out = []
    for moves in GAMES:
        states[:] = truths(moves)
        analysis = dark_analysis.analyse(record(moves), seconds=3.0, max_depth=1)
        out.append([p["seen"] for p in analysis["plies"] if p["seat"] == 0])
    return out


def test_the_games_look_the_same_to_white() -> None:
    game = get_game("dark_chess")
    views = [[game.view(s, 0) for s in truths(moves)[::2]] for moves in GAMES]
    assert views[0] == views[1]
    assert truths(GAMES[0])[2].board != truths(GAMES[1])[2].board


@pytest.mark.parametrize("broken", [False, True])
def test_what_white_saw_does_not_depend_on_what_it_could_not_see(
    monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    a, b = white_saw(monkeypatch, broken)
    assert len(a) == len(b) == 2
    if broken:
        assert a != b  # the twin leaks Black's hidden move into White's "seen"
    else:
        assert a == b


# -- BanQi: two layouts that agree on every piece Red turned up ------------------------------

#: two seeds whose layouts agree at a1 and h4 (the pieces turned up before seat 0's second
#: move) and differ elsewhere: seat 0 cannot tell the games apart when it moves
BANQI_SEEDS = ("k2", "k11")
BANQI_MOVES = ["flip a1", "flip h4", "flip b1"]


def banqi_record(seed: str) -> dict[str, Any]:
    return record(BANQI_MOVES) | {"game": "banqi", "seed": seed}


def banqi_truths(seed: str) -> list[Any]:
    game = get_game("banqi")
    state = game.new({}, 2, turn_rng(seed, 0))
    out = [state]
    for i, m in enumerate(BANQI_MOVES, 1):
        seat = min(game.to_act(state))
        state = game.play(state, {seat: game.parse_move(state, seat, m)}, turn_rng(seed, i))
        out.append(state)
    return out


def test_the_banqi_games_look_the_same_to_seat_0() -> None:
    game = get_game("banqi")
    views = [[game.view(s, 0) for s in banqi_truths(seed)[:3]] for seed in BANQI_SEEDS]
    assert views[0] == views[1]
    encoded = [game.encode_state(banqi_truths(seed)[0]) for seed in BANQI_SEEDS]
    assert encoded[0] != encoded[1]  # the face-down pieces differ


@pytest.mark.parametrize("broken", [False, True])
def test_what_seat_0_saw_in_banqi_does_not_depend_on_the_face_down_pieces(
    monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    out = []
    for seed in BANQI_SEEDS:
        if broken:  # the twin seeds its search by the game's secret seed, not the views
            monkeypatch.setattr(
                banqi_analysis, "views_rng", lambda views, s=seed: random.Random(f"{s}/seen")
            )
        analysis = banqi_analysis.analyse(
            banqi_record(seed), seconds=0.02, iterations=300, sight_seconds=30.0
        )
        out.append([p["seen"] for p in analysis["plies"] if p["seat"] == 0])
    assert all(s is not None for s in out[0])
    if broken:
        assert out[0] != out[1]
    else:
        assert out[0] == out[1]

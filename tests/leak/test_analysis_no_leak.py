"""The analysis's "what you saw" tells a seat nothing it could not see: two Dark Chess games
that White cannot tell apart (Black's first move hidden in the fog, different) give White's
moves the same "seen" judgement, while "what was there" (the finished game's public record)
may differ. The broken twin, whose search of the mover's view is handed the true position
as its only world (as a finished game's record could hand it), is shown giving the two
games different answers."""

from __future__ import annotations

from typing import Any

import pytest

from server.analysis import dark_analysis
from server.bots.bot import Ask
from server.bots.worldsearch import WorldSearchBot
from server.engine import get_game

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

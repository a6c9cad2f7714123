"""Helpers for the bot tests: seeded games that record every seat's views, as a room would."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.engine import Game, get_game, turn_rng


@dataclass
class Played:
    """A game in progress: the true state and each seat's views so far."""

    game: Game[Any, Any]
    state: Any
    views: list[list[dict[str, Any]]] = field(default_factory=list)
    ply: int = 0

    def legal(self, seat: int) -> list[str]:
        return [str(m) for m in self.game.legal_moves(self.state, seat)]

    def play(self, moves: dict[int, str], seed: str = "t") -> None:
        parsed = {s: self.game.parse_move(self.state, s, t) for s, t in moves.items()}
        self.ply += 1
        self.state = self.game.play(self.state, parsed, turn_rng(seed, self.ply))
        for s, v in enumerate(self.views):
            v.append(self.game.view(self.state, s))


def start(
    name: str, seats: int = 2, seed: str = "t", options: dict[str, Any] | None = None
) -> Played:
    game = get_game(name)
    state = game.new(game.check_options(options or {}), seats, turn_rng(seed, 0))
    return Played(game, state, [[game.view(state, s)] for s in range(seats)])


Policy = Callable[[Played, int, random.Random], str]


def random_policy(p: Played, seat: int, rng: random.Random) -> str:
    return rng.choice(p.legal(seat))


def capture_policy(p: Played, seat: int, rng: random.Random) -> str:
    """Random, but captures four times out of five when there is one (chess-like boards):
    games that look more like real play than pure random walks."""
    board = getattr(p.state, "board", None)
    legal = p.game.legal_moves(p.state, seat)
    if board is not None and hasattr(board, "is_capture"):
        captures = [m for m in legal if board.is_capture(m)]
        if captures and rng.random() < 0.8:
            return str(rng.choice(captures))
    return str(rng.choice(legal))


def random_game(
    name: str,
    seed: int,
    plies: int,
    *,
    seats: int = 2,
    policy: Policy = random_policy,
    options: dict[str, Any] | None = None,
) -> Played:
    """``plies`` turns of seeded play (fewer if the game ends)."""
    rng = random.Random(seed)
    p = start(name, seats, f"g{seed}", options)
    for _ in range(plies):
        if p.game.outcome(p.state) is not None:
            break
        p.play({s: policy(p, s, rng) for s in sorted(p.game.to_act(p.state))}, f"g{seed}")
    return p

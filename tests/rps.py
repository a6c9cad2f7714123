"""Rock-paper-scissors: a tiny simultaneous game, defined for the tests only.

Both seats act at once; ``rounds`` rounds (default 1); the seat that wins more rounds wins.
The room seals each throw until both are in, so it proves the sealed-turn path.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine import Game, IllegalMove, InvalidMove, Option, Outcome
from server.engine.base import Json

THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


@dataclass(frozen=True, slots=True)
class Throw:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class RpsState:
    rounds: int
    history: tuple[tuple[str, str], ...] = ()


class RockPaperScissors(Game[RpsState, Throw]):
    name = "rps"
    title = "Rock-paper-scissors"
    min_seats = max_seats = 2
    seat_names = ("Left", "Right")
    simultaneous = True
    hidden_information = True
    options = {"rounds": Option("int", 1, "rounds to play", minimum=1, maximum=99)}

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> RpsState:
        return RpsState(options.get("rounds", 1))

    def to_act(self, state: RpsState) -> frozenset[int]:
        return frozenset() if len(state.history) >= state.rounds else frozenset({0, 1})

    def legal_moves(self, state: RpsState, seat: int) -> list[Throw]:
        return [Throw(t) for t in THROWS] if seat in self.to_act(state) else []

    def parse_move(self, state: RpsState, seat: int, text: str) -> Throw:
        if text not in THROWS:
            raise InvalidMove(f"{text!r} is not one of {THROWS}")
        return Throw(text)

    def play(
        self, state: RpsState, moves: Mapping[int, Throw], rng: random.Random, *, check: bool = True
    ) -> RpsState:
        if check:
            self.check_moves(state, moves)
        return RpsState(state.rounds, (*state.history, (moves[0].name, moves[1].name)))

    def score(self, state: RpsState) -> tuple[int, int]:
        a = sum(1 for x, y in state.history if BEATS[x] == y)
        b = sum(1 for x, y in state.history if BEATS[y] == x)
        return a, b

    def outcome(self, state: RpsState) -> Outcome | None:
        if len(state.history) < state.rounds:
            return None
        a, b = self.score(state)
        if a == b:
            return Outcome.draw(2, "tie")
        return Outcome.win(0 if a > b else 1, 2, "more_rounds")

    def view(self, state: RpsState, seat: int | None) -> Json:
        return {"history": [list(h) for h in state.history], "score": list(self.score(state))}

    def ply(self, state: RpsState) -> int:
        return len(state.history)

    def encode_state(self, state: RpsState) -> Json:
        return {"rounds": state.rounds, "history": [list(h) for h in state.history]}

    def decode_state(self, data: Mapping[str, Any]) -> RpsState:
        return RpsState(data["rounds"], tuple((a, b) for a, b in data["history"]))


__all__ = ["IllegalMove", "RockPaperScissors"]

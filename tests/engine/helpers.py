"""What the rule tests of every game of turns use: start, act, legal moves, a random game, and
the replay of an outside reference's fixture (Dagaz's models: ``scripts/dagaz/``).

A game's test module binds them once::

    T = helpers.Tester[KonoState]("kono")
    start, act, legal, random_game = T.start, T.act, T.legal, T.random_game
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from server.engine import Game, Outcome, get_game
from server.engine.turns import TurnState

S = TypeVar("S", bound=TurnState)


class Tester(Generic[S]):
    """One registered game, seen from its rule tests (every move through the checked path)."""

    def __init__(self, game: str | Game[S, Any]) -> None:
        self.game: Game[S, Any] = get_game(game) if isinstance(game, str) else game
        self.rng = random.Random(0)

    def start(self, **options: object) -> S:
        """The start, with these options (the game's fewest seats)."""
        game = self.game
        return game.new(game.check_options(options), game.min_seats, self.rng)

    def act(self, state: S, text: str) -> S:
        """Play one checked move for the seat to move."""
        seat = state.to_move
        return self.game.play(state, {seat: self.game.parse_move(state, seat, text)}, self.rng)

    def legal(self, state: S) -> set[str]:
        """The legal move texts of the seat to move (none when the game is over)."""
        return {str(m) for m in self.game.legal_moves(state, state.to_move)}

    def random_game(self, seed: int, plies: int = 400, **options: object) -> list[S]:
        """The states of a seeded random game, to its end or ``plies`` moves."""
        game, rng = self.game, random.Random(seed)
        states = [self.start(**options)]
        while game.to_act(states[-1]) and len(states) <= plies:
            state = states[-1]
            move = rng.choice(game.legal_moves(state, state.to_move))
            states.append(game.play(state, {state.to_move: move}, rng))
        return states


def replay_oracle(
    games: Iterable[Mapping[str, Any]],
    start: Callable[[], Any],
    generate: Callable[[Any], Iterable[Any]],
    apply: Callable[[Any, str], Any],
    outcome: Callable[[Any], Outcome | None],
    ended: Callable[[Outcome | None, Mapping[str, Any], str], None],
    *,
    draws_go_on: bool = False,
) -> int:
    """Replay every game of an outside reference's fixture (``{"seed", "moves", "legal",
    "result"}`` each) through our rules; returns how many positions were compared.

    At every position our legal texts (``generate``, sorted) must be the reference's; where
    the reference's game ended with a result, ``ended(our outcome, its result, where)``
    checks ours; before that our game must go on (``draws_go_on``: or be drawn by a rule of
    ours the reference lacks). ``apply(state, text)`` plays one move of the fixture.
    """
    compared = 0
    for game in games:
        state = start()
        for i, expected in enumerate(game["legal"]):
            end = outcome(state)
            final = i == len(game["moves"])
            where = f"game seed {game['seed']}, ply {i}, {state!r}"
            if final and game["result"] is not None:
                ended(end, game["result"], where)
            else:
                assert end is None or (draws_go_on and end.winner is None), where
                assert sorted(str(m) for m in generate(state)) == expected, where
            compared += 1
            if not final:
                state = apply(state, game["moves"][i])
    return compared

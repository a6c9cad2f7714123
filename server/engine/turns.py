"""Games where one seat moves at a time: the seat bookkeeping they all share.

Most board games here (Jungle, Kamisado, Kono, XiangQi, Ming-Mang, BanQi) are played in
turns: the state says whose move it is (``to_move``) and how many turns led to it
(``ply``), the rules are a move generator, a move maker and an end test. A game writes those
three (:meth:`TurnGame.generate`, :meth:`TurnGame.apply`, :meth:`~server.engine.base.Game.outcome`);
:class:`TurnGame` turns them into the engine contract's ``to_act``, ``legal_moves``,
``is_legal``, ``play`` and ``ply``, so each game's file says only what is its own.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from .base import Game, M, Seat


class TurnState(Protocol):
    """What :class:`TurnGame` reads of a state: whose move it is, and the turns played."""

    @property
    def to_move(self) -> Seat: ...

    @property
    def ply(self) -> int: ...


TS = TypeVar("TS", bound=TurnState)


class TurnGame(Game[TS, M]):
    """A game played in turns by ``state.to_move``; subclasses give the rules as
    :meth:`generate`, :meth:`apply` and ``outcome``."""

    # -- the rules: what each game writes ------------------------------------------------

    def generate(self, state: TS) -> Sequence[M]:
        """Every legal move of the seat to move (the game is not over)."""
        raise NotImplementedError

    def apply(self, state: TS, move: M) -> TS:
        """The state after the seat to move plays ``move``, one of :meth:`generate`'s."""
        raise NotImplementedError

    # -- the contract, from the rules ----------------------------------------------------

    def to_act(self, state: TS) -> frozenset[Seat]:
        if self.outcome(state) is not None:
            return frozenset()
        return frozenset({state.to_move})

    def legal_moves(self, state: TS, seat: Seat) -> list[M]:
        if seat not in self.to_act(state):
            return []
        return list(self.generate(state))

    def is_legal(self, state: TS, seat: Seat, move: M) -> bool:
        return seat in self.to_act(state) and move in self.generate(state)

    def play(
        self, state: TS, moves: Mapping[Seat, M], rng: random.Random, *, check: bool = True
    ) -> TS:
        if check:
            self.check_moves(state, moves)
        return self.apply(state, moves[state.to_move])

    def ply(self, state: TS) -> int:
        return state.ply

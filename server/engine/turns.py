"""Games where one seat moves at a time: the seat bookkeeping they all share.

Most board games here (Jungle, Kamisado, Kono, XiangQi, Ming-Mang, BanQi) are played in
turns: the state says whose move it is (``to_move``) and how many turns led to it
(``ply``), the rules are a move generator, a move maker and an end test. A game writes those
three (:meth:`TurnGame.generate`, :meth:`TurnGame.apply`, :meth:`~server.engine.base.Game.outcome`);
:class:`TurnGame` turns them into the engine contract's ``to_act``, ``legal_moves``,
``is_legal``, ``play`` and ``ply``, so each game's file says only what is its own.

Given the state's and the move's classes (:attr:`TurnGame.state_type`,
:attr:`TurnGame.move_type`) it also reads moves (``parse_move``: the move class's
``from_text``), writes and reads snapshots from the state's values (:mod:`.snapshots`, with
the game's :attr:`TurnGame.codecs` for the fields that are not plain) and, for a game with
nothing hidden, gives the bots ``determinize``: the state rebuilt from the last view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar, cast

from . import snapshots
from .base import Game, Json, M, Seat


class TurnState(Protocol):
    """What :class:`TurnGame` reads of a state: whose move it is, and the turns played."""

    @property
    def to_move(self) -> Seat: ...

    @property
    def ply(self) -> int: ...


TS = TypeVar("TS", bound=TurnState)


def after(state: TS, move: Any, **changes: Any) -> TS:
    """The state after ``move`` in a game of two seats: the other seat to move, one more
    ply, ``move`` the last move, and the ``changes`` the move made (the board, ...)."""
    return replace(  # type: ignore[type-var]
        state, to_move=1 - state.to_move, ply=state.ply + 1, last_move=move, **changes
    )


class TurnGame(Game[TS, M]):
    """A game played in turns by ``state.to_move``; subclasses give the rules as
    :meth:`generate`, :meth:`apply` and ``outcome``."""

    #: two seats, as most games of turns (and :func:`after`) have; Yonin Shogi says four
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    #: the state's class (a frozen dataclass) and the move's (``from_text`` and ``str``)
    state_type: ClassVar[Any]
    move_type: ClassVar[Any]
    #: the snapshot of a field that is not plain: ``{name: (encode, decode)}``
    codecs: ClassVar[Mapping[str, snapshots.Codec]] = {}
    #: the fields the snapshot lists first (else the state's order)
    snapshot_first: ClassVar[tuple[str, ...]] = ()

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

    def parse_move(self, state: TS, seat: Seat, text: str) -> M:
        return cast(M, self.move_type.from_text(text))

    # -- snapshots and bots, from the state's values -------------------------------------

    def encode_state(self, state: TS) -> Json:
        return snapshots.encode(state, self.codecs, self.snapshot_first)

    def decode_state(self, data: Mapping[str, Any]) -> TS:
        return cast(TS, snapshots.decode(self.state_type, data, self.codecs, self.move_type))

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> TS:
        """The state itself (a game with nothing hidden): its view holds all of it, so the
        last view read as a snapshot rebuilds it. A game with hidden parts overrides this."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.name} hides something: it deals its own worlds")
        return self.decode_state(views[-1])

"""Helpers of the Hase und Igel tests (``test_hase_und_igel*.py``): the game, moves by their
text on the checked path, and built positions."""

from __future__ import annotations

import random

from server.engine import get_game
from server.engine.base import turn_rng
from server.engine.hase_und_igel import DECK_1978, HaseState, HaseUndIgel, Runner, position

G: HaseUndIgel = get_game("hase_und_igel")  # type: ignore[assignment]
R = Runner


def act(state: HaseState, text: str, seed: int = 0) -> HaseState:
    """The current seat plays ``text`` on the checked path."""
    seat = state.current
    return G.play(state, {seat: G.parse_move(state, seat, text)}, random.Random(seed))


def moves(state: HaseState) -> list[str]:
    return [str(m) for m in G.legal_moves(state, state.current)]


def kinds(state: HaseState) -> list[tuple[int, str]]:
    return [(e.seat, e.kind) for e in state.events]


def deck(card: str) -> tuple[str, ...]:
    """A deck with ``card`` on top, then the default deck."""
    return (card, *DECK_1978)


def random_race(n_seats: int, seed: int, **options: object) -> list[HaseState]:
    rng = random.Random(seed)
    states = [G.new(G.check_options(options), n_seats, turn_rng(str(seed), 0))]
    while G.to_act(states[-1]):
        s = states[-1]
        move = rng.choice(G.legal_moves(s, s.current))
        states.append(G.play(s, {s.current: move}, turn_rng(str(seed), s.ply + 1)))
    return states


def begin(runners: list[Runner], **kw: object) -> HaseState:
    """Start seat 0's turn in a built position (runners that just arrived pay)."""
    return position(runners, current=0, begin=True, **kw)  # type: ignore[arg-type]

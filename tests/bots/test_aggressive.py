"""Seed 000's aggressive Apocalypse bot: run with an attacked horseman, take pieces, never
walk a footman into an attacked empty square when it has a choice."""

from __future__ import annotations

import random

from server.bots.aggressive import BONUS, MAXVALUE, AggressiveBot, score
from server.engine import get_game
from server.engine.apocalypse import ApocalypseMove, board_from_text, position

from .play import Played

GAME = get_game("apocalypse")


def choose(text: str, seat: int = 0) -> str:
    state = position(text)
    p = Played(GAME, state, [[GAME.view(state, s)] for s in range(2)])
    return AggressiveBot().choose(GAME, seat, p.views[seat], p.legal(seat), 0.1, random.Random(0))


def test_an_attacked_horseman_runs() -> None:
    # the Black horseman on b3 attacks White's horseman on a1
    board = "4n/5/1n3/5/N3P"
    move = choose(board)
    assert move.startswith("a1")


def test_scores_follow_the_seed() -> None:
    # a footman stepping onto an empty square the enemy footman on c3 attacks: -MAXVALUE
    b = board_from_text("n3n/5/2p2/5/NP2N")
    assert score(b, 0, ApocalypseMove.from_text("b1b2")) == -MAXVALUE
    # a horseman taking a footman: BONUS
    b = board_from_text("n3n/5/1p3/5/N3N")
    assert score(b, 0, ApocalypseMove.from_text("a1b3")) == BONUS

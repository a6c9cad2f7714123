"""Careful (seed 003): takes an immediate win, never hands the opponent one."""

from __future__ import annotations

import random

import chess

from server.bots import make_bot

from .play import start

#: ample: a busy machine must not cut the search short (on a quiet one each answers in ms)
BUDGET = 5.0


def chess_from(fen: str, name: str = "chess"):
    return start(name, options={"fen": fen})


def test_takes_a_mate_in_one() -> None:
    p = chess_from("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    for seed in range(5):
        move = make_bot("chess", "careful").choose(
            p.game, 0, p.views[0], p.legal(0), BUDGET, random.Random(seed)
        )
        assert move == "d1d8"


def test_does_not_allow_a_mate_in_one() -> None:
    # Black threatens ...Re1# on the back rank; most White moves allow it
    fen = "4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    p = chess_from(fen)
    for seed in range(10):
        move = make_bot("chess", "careful").choose(
            p.game, 0, p.views[0], p.legal(0), BUDGET, random.Random(seed)
        )
        board = chess.Board(fen)
        board.push_uci(move)
        mates = []
        for reply in board.legal_moves:
            board.push(reply)
            if board.is_checkmate():
                mates.append(reply.uci())
            board.pop()
        assert not mates, f"{move} allows {mates}"


def test_takes_the_king_in_dark_chess() -> None:
    p = chess_from("k7/8/8/8/8/8/8/R3K3 w - - 0 1", "dark_chess")
    move = make_bot("dark_chess", "careful").choose(
        p.game, 0, p.views[0], p.legal(0), BUDGET, random.Random(0)
    )
    assert move == "a1a8"


def test_classifies_every_move_when_time_allows() -> None:
    from server.bots.careful import CarefulBot

    p = chess_from("4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    wins, safe, unchecked = CarefulBot().classify(p.game, p.state, 0, p.legal(0), random.Random(0))
    assert not wins and not unchecked
    assert "a1d1" in safe and "h2h3" in safe and "a1a2" not in safe and "a1e1" not in safe

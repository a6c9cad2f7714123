"""Yonin Shogi in shogi notation (server/engine/yonin_shogi/notation.py): the piece's
letter, its square, ``-``/``x``, the square it goes to, ``+`` promoting, ``=`` declining;
drops ``P*e5``. Every move of random games reads back to the move played."""

from __future__ import annotations

import random
import re

from server.engine import get_game
from server.engine.yonin_shogi import position
from server.engine.yonin_shogi.notation import written, written_moves

GAME = get_game("yonin_shogi")
KINGS = "SK e1, WK a5, NK e9, EK i5"
WRITTEN = re.compile(r"pass|[PSGR]\*[a-i][1-9]|(\+?[KGSRP])([a-i][1-9])([-x])([a-i][1-9])([+=]?)")


def move(state: object, text: str) -> object:
    return GAME.parse_move(state, 0, text)


def test_the_start_and_the_forms() -> None:
    state = GAME.new({}, 4, random.Random(0))
    assert written(state, move(state, "c1-c2")) == "Sc1-c2"
    assert written(state, move(state, "d2-d3")) == "Pd2-d3"
    zone = position(KINGS + ", SP d6, SS c6, WG d7", hands={0: "P"})
    assert written(zone, move(zone, "d6xd7=+")) == "Pd6xd7+"  # into the zone, promoting
    assert written(zone, move(zone, "d6xd7")) == "Pd6xd7="  # ... declining
    assert written(zone, move(zone, "c6-c5")) == "Sc6-c5"  # outside the zone: nothing
    assert written(zone, move(zone, "P*e5")) == "P*e5"
    top = position(KINGS + ", SP d8")
    assert written(top, move(top, "d8-d9=+")) == "Pd8-d9+"  # the last line: it must
    promoted = position(KINGS + ", S+R c3")
    assert written(promoted, move(promoted, "c3-c4")) == "+Rc3-c4"


def test_random_games_read_back_move_for_move() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        state = GAME.new({}, 4, rng)
        start, played = state, []
        for _ in range(160):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            m = rng.choice(GAME.legal_moves(state, seat))
            text = written(state, m)
            found = WRITTEN.fullmatch(text)
            assert found, text
            if found[1]:  # a board move: its letter is the piece on its square
                assert state.board[m.src][1:] == found[1]
                plain = f"{found[2]}{found[3]}{found[4]}{'=+' if found[5] == '+' else ''}"
                assert plain == str(m)
            else:
                assert text == str(m)
            played.append(m)
            state = GAME.play(state, {seat: m}, rng)
            checked += 1
        assert written_moves(start, played) == [written(s, m) for s, m in _walk(start, played)]
    assert checked > 500


def _walk(start: object, moves: list[object]) -> list[tuple[object, object]]:
    out, state = [], start
    for m in moves:
        out.append((state, m))
        seat = min(GAME.to_act(state))
        state = GAME.play(state, {seat: m}, random.Random(0))
    return out


def test_the_record_exports_it() -> None:
    record = {
        "options": {},
        "moves": [{"moves": {"0": "d2-d3"}}, {"moves": {"1": "a3-b3"}}],
    }
    assert GAME.export(record) == {"shogi": "Pd2-d3 Sa3-b3"}

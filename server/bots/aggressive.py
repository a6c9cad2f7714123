"""The "aggressive" one-ply bot of seed 000 (Dagaz's Apocalypse AI), as a sparring partner.

It scores each of its moves from the pre-turn board with the seed's rules, read with
horseman = type 1, footman = type 0, and "covered by the enemy" = the square is attacked by an
enemy piece (a horseman's leap or a footman's forward diagonal; seed 000's "cover"):

* a horseman that stands attacked gets MAXVALUE (run); moving it to an empty square attacked
  by an enemy footman gets LARGE_BONUS, to one attacked by an enemy horseman -MAXVALUE unless
  the enemy has one horseman left and we have two (then BONUS); taking a horseman gets
  SMALL_BONUS, taking a footman BONUS;
* a footman that stands attacked gets SMALL_BONUS; moving it to an attacked empty square
  -MAXVALUE; with one horseman left any footman move gets BONUS; a capture SMALL_BONUS; a move
  to the last rank (a promotion) MAXVALUE with one horseman left, else -MAXVALUE;
* plus noise in [0, NOISE]; the highest score is played.

Apocalypse only (it reads the board of :mod:`server.engine.apocalypse`).
"""

from __future__ import annotations

from server.engine.apocalypse import (
    _KNIGHT_TARGETS,
    KNIGHT,
    LAST_RANK,
    PAWN,
    SIZE,
    ApocalypseMove,
    board_from_text,
)

from .bot import Ask, SearchBot

MAXVALUE = 1_000_000
LARGE_BONUS = 100_000
BONUS = 10_000
SMALL_BONUS = 1_000
NOISE = 10


def attacks(board: str, seat: int) -> list[set[str]]:
    """For every square, the kinds of ``seat``'s pieces attacking it (``"N"``/``"P"``)."""
    out: list[set[str]] = [set() for _ in board]
    forward = 1 if seat == 0 else -1
    for sq, ch in enumerate(board):
        if ch == KNIGHT[seat]:
            for t in _KNIGHT_TARGETS[sq]:
                out[t].add("N")
        elif ch == PAWN[seat]:
            r, f = divmod(sq, SIZE)
            nr = r + forward
            if 0 <= nr < SIZE:
                for nf in (f - 1, f + 1):
                    if 0 <= nf < SIZE:
                        out[nr * SIZE + nf].add("P")
    return out


def score(
    board: str, seat: int, move: ApocalypseMove, cover: list[set[str]] | None = None
) -> float:
    """The seed's score of ``move`` for ``seat`` (without the noise); ``cover`` is
    ``attacks(board, 1 - seat)`` when the caller has it already."""
    enemy = 1 - seat
    if cover is None:
        cover = attacks(board, enemy)
    enemies = board.count(KNIGHT[enemy])
    friends = board.count(KNIGHT[seat])
    piece, target = board[move.src], board[move.dst]
    e = 0.0
    if piece == KNIGHT[seat]:
        if cover[move.src]:
            e += MAXVALUE
        if target == ".":
            if "P" in cover[move.dst]:
                e += LARGE_BONUS
            if "N" in cover[move.dst]:
                e += BONUS if (enemies == 1 and friends == 2) else -MAXVALUE
        elif target == KNIGHT[enemy]:
            e += SMALL_BONUS
        else:
            e += BONUS
    elif piece == PAWN[seat]:
        if cover[move.src]:
            e += SMALL_BONUS
        if target == "." and cover[move.dst]:
            e -= MAXVALUE
        if friends == 1:
            e += BONUS
        if target != ".":
            e += SMALL_BONUS
        if move.dst // SIZE == LAST_RANK[seat] and move.src // SIZE != LAST_RANK[seat]:
            e += MAXVALUE if friends == 1 else -MAXVALUE
    return e


class AggressiveBot(SearchBot):
    name = "aggressive"

    def __init__(self, *, think_time: float = 0.0) -> None:
        self.think_time = think_time

    def answer(self, ask: Ask) -> str:
        board = board_from_text(str(ask.views[-1]["board"]))
        cover = attacks(board, 1 - ask.seat)
        best, best_score = ask.legal[0], -float("inf")
        for text in ask.legal:
            move = ApocalypseMove.from_text(text)
            e = score(board, ask.seat, move, cover) + ask.rng.uniform(0, NOISE)
            if e > best_score:
                best, best_score = text, e
        return best

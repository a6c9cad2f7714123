"""Round robin: FIDE's Berger tables (FIDE Handbook C.05, Annex 1).

Players are numbered 1..n by the order given (an odd field gets a dummy, number n + 1:
whoever meets it rests that round). In round r (1-based) of an even field of n, with
m = n - 1: player n meets the player x with 2x ≡ r + 1 (mod m) (numbers taken 1..m), with
black in odd rounds and white in even ones; every other pair sums to r + 1 (mod m), and
of the two the player whose opponent lies an odd number of steps ahead (mod m) has white.
This reproduces the published tables (tests/tournaments/test_roundrobin.py holds those of
4 and 6 players) and their board order: player n's game first, then x + 1 against x - 1,
x + 2 against x - 2, ...
"""

from __future__ import annotations

from collections.abc import Sequence


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table of an even ``n``: rounds of (white, black) numbers, board order."""
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table is for an even number of players, not {n}")
    m = n - 1
    rounds = []
    for r in range(1, n):
        x = next(i for i in range(1, n) if (2 * i - (r + 1)) % m == 0)
        boards = [(n, x) if r % 2 == 0 else (x, n)]
        for k in range(1, n // 2):
            a, b = (x + k - 1) % m + 1, (x - k - 1) % m + 1
            boards.append((a, b) if (b - a) % m % 2 == 1 else (b, a))
        rounds.append(boards)
    return rounds


def berger_rounds(keys: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Rounds of (white, black) for ``keys`` in their order (pairing numbers 1..n); in an
    odd field one pair a round is (player, ``None``): that player rests."""
    n = len(keys) + len(keys) % 2
    named: list[str | None] = [*keys, None][:n]
    rounds = []
    for boards in berger_numbers(n):
        games: list[tuple[str, str | None]] = []
        for w, b in boards:
            white, black = named[w - 1], named[b - 1]
            if white is None:
                white, black = black, None
            assert white is not None
            games.append((white, black))
        rounds.append(games)
    return rounds

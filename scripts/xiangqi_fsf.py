"""Compare our XiangQi with Fairy-Stockfish (pyffish) at length (docs/GAMES.md 5.6.9).

    .venv/bin/python scripts/xiangqi_fsf.py [--games 200] [--plies 300] [--depth 3]

Plays seeded random games with our engine (half the time a capture when there is one) and
compares, at every position, our legal moves with Fairy-Stockfish's and, after every move,
our check flag with its ``gives_check``; then perft from the start and from the test's
tricky positions (flying general, cannon screens, horse legs, elephant eyes, cannon pins),
both sides to move, ours against Fairy-Stockfish's. tests/engine/test_xiangqi.py runs the
same comparison on a smaller sample.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.engine import get_game
from server.engine.perft import perft
from server.engine.xiangqi import START, position
from tests.engine import xiangqi_fsf as fsf
from tests.engine.test_xiangqi import TRICKY, at


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="random games (seeds 0..N-1)")
    p.add_argument("--plies", type=int, default=300, help="plies per game at most")
    p.add_argument("--depth", type=int, default=3, help="perft depth")
    p.add_argument("--check-every", type=int, default=1, help="compare checks every N plies")
    args = p.parse_args()
    started = time.perf_counter()
    positions = games = 0
    for first in range(0, args.games, 10):
        seeds = range(first, min(first + 10, args.games))
        n, g = fsf.compare_random_games(
            lambda: position(START), seeds, max_plies=args.plies, check_every=args.check_every
        )
        positions, games = positions + n, games + g
        print(f"  {games} games, {positions} positions", flush=True)
    print(f"random games: {games} games, {positions} positions, legal moves and checks equal")
    game = get_game("xiangqi")
    start = position(START)
    for depth in range(1, args.depth + 1):
        ours = perft(game, start, depth)
        print(f"perft start {depth}: ours {ours}, Fairy-Stockfish {fsf.fsf_perft(start, depth)}")
    for name, pieces in TRICKY.items():
        for to_move in (0, 1):
            state = at(pieces, to_move=to_move)
            ours, theirs = perft(game, state, args.depth), fsf.fsf_perft(state, args.depth)
            side = "Red" if to_move == 0 else "Black"
            print(f"perft {name} ({side} to move) {args.depth}: ours {ours}, FSF {theirs}")
            assert ours == theirs
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Round robin: FIDE's Berger tables (FIDE Handbook C.05, Annex 1), by the same library as
the Swiss pairings (``caissify-pairings``, its ``round_robin`` system through the public
``generate_pairings``).

Players get the pairing numbers 1..n in the order given (by rating at the start); an odd
field gets a phantom player n + 1, and whoever meets it rests that round. The tables are
fixed before the first round: results change nothing. tests/tournaments/test_roundrobin.py
holds the published tables of 4 and 6 players, and checks every field up to 16 for
everyone meeting everyone once with colours alternating fairly.
"""

from __future__ import annotations

from collections.abc import Sequence

from caissify_pairings import generate_pairings


def berger_rounds(keys: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Rounds of (white, black) for ``keys`` in their order (pairing numbers 1..n); in an
    odd field one pair a round is (player, ``None``): that player rests."""
    if len(keys) < 2 or len(set(keys)) != len(keys):
        raise ValueError("a round robin needs two players or more, each once")
    players = [
        {
            "id": i,
            "name": key,
            "score": 0.0,
            "rating": 0,
            "starting_number": i,
            "color_hist": [],
            "float_history": [],
            "bye_count": 0,
        }
        for i, key in enumerate(keys, 1)
    ]
    total = len(keys) - 1 + len(keys) % 2
    rounds = []
    for r in range(1, total + 1):
        out = generate_pairings(
            system="round_robin",
            players=players,
            previous_pairings=set(),
            round_number=r,
            total_rounds=total,
        )
        games: list[tuple[str, str | None]] = []
        for row in sorted(out, key=lambda row: row.get("black_id") is None):
            black = row.get("black_id")
            games.append((keys[row["white_id"] - 1], None if black is None else keys[black - 1]))
        rounds.append(games)
    return rounds

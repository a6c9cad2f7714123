"""Swiss pairing: the FIDE Dutch system, by the ``caissify-pairings`` library.

FIDE's Dutch rules (C.04.3: score groups, the top half against the bottom half, floaters,
colour preferences, absolute colour criteria, one bye at most) are intricate; we use a
library that states its conformance to them (checked by its authors against bbpPairings, a
FIDE-endorsed program, on thousands of random tournaments) through its public
``generate_pairings`` call, and hand it what the Dutch rules need: every player's score,
starting rank, colour history, float history and byes, and the pairs already played.

What comes back is checked here before anyone is paired (:func:`check_round`): nobody twice,
no pair that met before, at most one bye, a bye only for an odd field and only for a player
who has not had one. A round that breaks any of these is not played: :class:`NoPairing`
(the tournament ends early, as lichess's Swiss does when no round can be paired).

The cost: the library runs many maximum-weight matchings (networkx, pure Python) a round;
measured on this two-core machine under load, about 0.5 s a round for 32 players, 5 s for
64, minutes for 200. A Swiss is therefore capped at 32 players (:data:`spec.MAX_SWISS`), and
its round is paired once, when the last game of the previous one ends. A bigger event is an
arena.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from caissify_pairings import generate_pairings


class NoPairing(Exception):
    """No round can be paired under the rules (too few players left for more rounds)."""


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player to pair: ``rank`` their starting rank (1 = the top rating at the start);
    ``colours`` per round so far (``w``, ``b``, ``-`` for a round without a game);
    ``floats`` per round (``up``, ``down``, ``none``); ``byes`` the byes had."""

    key: str
    rank: int
    rating: float
    points: float
    colours: tuple[str, ...] = ()
    floats: tuple[str, ...] = ()
    byes: int = 0


@dataclass(frozen=True, slots=True)
class SwissRound:
    pairs: tuple[tuple[str, str], ...]  # (white, black)
    bye: str | None


_COLOUR = {"w": "white", "b": "black", "-": "none"}


def swiss_round(
    players: Sequence[SwissPlayer],
    history: Iterable[tuple[str, str]],
    round_no: int,
    total_rounds: int | None = None,
) -> SwissRound:
    """Pair round ``round_no`` of ``players`` (the ones still in), given the pairs already
    played (``history``, either order). Raises :class:`NoPairing`."""
    if len(players) < 2:
        raise NoPairing("fewer than two players left")
    by_id = {i: p for i, p in enumerate(sorted(players, key=lambda p: (p.rank, p.key)), 1)}
    ids = {p.key: i for i, p in by_id.items()}
    played = {frozenset(pair) for pair in history}
    previous = {
        (ids[a], ids[b])
        for pair in played
        if len(pair) == 2
        for a, b in [sorted(pair)]
        if a in ids and b in ids
    }
    out = generate_pairings(
        system="dutch",
        players=[
            {
                "id": i,
                "name": p.key,
                "score": p.points,
                "rating": p.rating,
                "starting_number": i,
                "color_hist": [_COLOUR[c] for c in p.colours],
                "float_history": list(p.floats),
                "bye_count": p.byes,
            }
            for i, p in by_id.items()
        ],
        previous_pairings=previous,
        round_number=round_no,
        total_rounds=max(total_rounds or round_no, round_no),
    )
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for row in out:
        white, black = row.get("white_id"), row.get("black_id")
        if black is None:
            byes.append(by_id[white].key)
        else:
            pairs.append((by_id[white].key, by_id[black].key))
    result = SwissRound(tuple(pairs), byes[0] if len(byes) == 1 else None)
    check_round(players, played, pairs, byes)
    return result


def check_round(
    players: Sequence[SwissPlayer],
    played: set[frozenset[str]],
    pairs: Sequence[tuple[str, str]],
    byes: Sequence[str],
) -> None:
    """The guards on a round (see the module docstring); :class:`NoPairing` if one fails."""
    keys = [k for pair in pairs for k in pair] + list(byes)
    if sorted(keys) != sorted(p.key for p in players):
        raise NoPairing("the round does not seat every player exactly once")
    again = [pair for pair in pairs if frozenset(pair) in played]
    if again:
        raise NoPairing(f"{again[0][0]} and {again[0][1]} have met already")
    if len(byes) != len(players) % 2:
        raise NoPairing("a round has one bye for an odd field, none for an even one")
    had = {p.key for p in players if p.byes}
    if set(byes) & had:
        raise NoPairing("nobody gets a second bye")

"""Swiss pairing: the FIDE Dutch system, by the ``caissify-pairings`` library.

FIDE's Dutch rules (C.04.3: score groups, the top half against the bottom half, floaters,
colour preferences, absolute colour criteria, one bye at most) are intricate; we use a
library that states its conformance to them (checked by its authors against bbpPairings, a
FIDE-endorsed program, on thousands of random tournaments) through its public
``generate_pairings`` call, and hand it what the Dutch rules need: every player's score,
starting rank, colour history, float history and byes, and the pairs already played.

What comes back is checked here before anyone is paired (:func:`check_round`): nobody twice,
no pair that met before, at most one bye, a bye only for an odd field and only for a player
who has not had one. A round that breaks any of these is not played.

The Dutch rules' absolute colour criteria can leave no round at all in a small field with
many rounds (six players, round four: the library then hands two players a bye). Such a
round is paired by :func:`relaxed_round` instead: a maximum matching of the players who
have not met (networkx), close scores preferred, the bye to the lowest score that has had
none, colours by each player's balance — every hard rule kept, only the colour criteria
relaxed (a player may get the same colour three times). Only when even that finds no round
(nobody left to meet: two triangles of six who have all met) is it :class:`NoPairing`: the
tournament ends early, as lichess's Swiss does when no round can be paired.

The cost: the library runs many maximum-weight matchings (networkx, pure Python) a round;
measured on this two-core machine under load, about 0.5 s a round for 32 players, 5 s for
64, minutes for 200. A Swiss is therefore capped at 32 players (:data:`spec.MAX_SWISS`), and
its round is paired once, when the last game of the previous one ends. A bigger event is an
arena.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx
from caissify_pairings import generate_pairings

log = logging.getLogger("kibitz.tournaments")


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
    played (``history``, either order): by the Dutch rules, else :func:`relaxed_round`.
    Raises :class:`NoPairing`."""
    if len(players) < 2:
        raise NoPairing("fewer than two players left")
    history = list(history)
    try:
        return dutch_round(players, history, round_no, total_rounds)
    except NoPairing as exc:
        log.info("round %d: no Dutch pairing (%s): colour criteria relaxed", round_no, exc)
        return relaxed_round(players, history)


def dutch_round(
    players: Sequence[SwissPlayer],
    history: Iterable[tuple[str, str]],
    round_no: int,
    total_rounds: int | None = None,
) -> SwissRound:
    """The round by the library's Dutch rules, checked (:class:`NoPairing` if it has none)."""
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


#: a matching's weights: a pair at all first, then close scores, then close starting ranks
_PAIR, _SCORE, _RANK = 1_000_000, 1_000, 1


def relaxed_round(players: Sequence[SwissPlayer], history: Iterable[tuple[str, str]]) -> SwissRound:
    """A round that keeps every hard rule (nobody twice, no pair that met, one bye for an odd
    field to a player who has had none) by a maximum-weight matching, colours chosen by
    balance. :class:`NoPairing` when no such round exists."""
    played = {frozenset(pair) for pair in history}
    if len(players) % 2 == 0:
        return _matched(players, played, [])
    # the bye to the lowest score (then the lowest rank) for whom the rest can be paired
    for bye in sorted((p for p in players if not p.byes), key=lambda p: (p.points, -p.rank)):
        try:
            return _matched([p for p in players if p is not bye], played, [bye.key], players)
        except NoPairing:
            continue
    raise NoPairing("every pairing left would repeat a game or a bye")


def _matched(
    players: Sequence[SwissPlayer],
    played: set[frozenset[str]],
    byes: list[str],
    everyone: Sequence[SwissPlayer] | None = None,
) -> SwissRound:
    """``players`` (an even field) paired by a maximum-weight matching of those who have not
    met, close scores first, then close ranks; colours by :func:`_wants_white`."""
    g: nx.Graph = nx.Graph()
    g.add_nodes_from(p.key for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if frozenset((a.key, b.key)) not in played:
                gap = int(abs(a.points - b.points) * 2)
                weight = _PAIR - _SCORE * gap**2 - _RANK * abs(a.rank - b.rank)
                g.add_edge(a.key, b.key, weight=weight)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matching) != len(players):
        raise NoPairing("every pairing left would repeat a game")
    by_key = {p.key: p for p in players}
    pairs: list[tuple[str, str]] = []
    for a, b in matching:
        pa, pb = by_key[a], by_key[b]
        pairs.append((pa.key, pb.key) if _wants_white(pa) >= _wants_white(pb) else (pb.key, pa.key))
    pairs.sort(key=lambda pair: min(by_key[pair[0]].rank, by_key[pair[1]].rank))
    check_round(everyone if everyone is not None else players, played, pairs, byes)
    return SwissRound(tuple(pairs), byes[0] if byes else None)


def _wants_white(p: SwissPlayer) -> tuple[int, int, int]:
    """How much a player is owed white: colour balance, then the last colours, then rank."""
    played = [c for c in p.colours if c != "-"]
    last = "".join(played[-2:])
    streak = (
        2
        if last == "bb"
        else 1
        if last.endswith("b")
        else -2
        if last == "ww"
        else -1
        if last
        else 0
    )
    return (played.count("b") - played.count("w"), streak, -p.rank)


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

"""What time and finished games move on: one step of ``Tournament.tick``.

:func:`step` looks at the tournament (it changes nothing) and returns the events of the
next step and whether the tick may stop there: the start (or a cancel when too few joined
by the start time), an arena's end, an arena's pairings, a Swiss or round-robin round when
every game of the last one has ended (or the end after the last round).

A Swiss or round-robin round is announced first — its ``round`` event names its ``pairs``
and when they are seated, ``starts_at``: the spec's ``interlude`` after the last round's
end (at once for the first round) — and seated by a later step once that time has come
(one ``paired`` event a pair; a ``forfeit`` for a pair one of whose players withdrew
meanwhile). The pause is data in the log, so a director that takes over after a crash
seats the round at the same time.

Room ids of ``paired`` events come from the tick's ``rng``: ``t`` and 16 hex digits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .arena import Waiting, arena_pairs
from .roundrobin import berger_rounds
from .state import State
from .swiss import NoPairing, SwissPlayer, swiss_round
from .values import TournamentEvent

Step = tuple[list[TournamentEvent], bool]


def room_id(t: State, taken: set[str], rng: random.Random) -> str:
    while True:
        room = f"t{rng.getrandbits(64):016x}"
        if room not in t.games and room not in taken:
            taken.add(room)
            return room


def step(t: State, now: float, busy: set[str], rng: random.Random) -> Step:
    if t.status == "upcoming":
        return _start(t, now), False
    if t.status != "running":
        return [], True
    if t.arena:
        assert t.ends_at is not None
        if now >= t.ends_at:
            return [TournamentEvent("finished", {"reason": "time"}, now)], True
        return _arena_pairings(t, now, busy, rng), True
    if t.pending:
        assert t.next_round_at is not None
        if now < t.next_round_at:
            return [], True
        return _seat_round(t, now, rng), True
    if any(not g.over for g in t.games.values()):
        return [], True
    if t.rounds is not None and t.round >= t.rounds:
        return [TournamentEvent("finished", {"reason": "rounds"}, now)], True
    if t.spec.system == "swiss":
        return _swiss_round(t, now, rng), False
    return _berger_round(t, now, rng), False


def _start(t: State, now: float) -> list[TournamentEvent]:
    spec = t.spec
    enough = len(t.players) >= max(2, spec.seats)
    if spec.starts_at is not None:
        if now < spec.starts_at:
            return []
        if not enough:
            return [TournamentEvent("cancelled", {"reason": "too_few_players"}, now)]
    elif len(t.players) < spec.max_players:
        return []
    order = sorted(t.players.values(), key=lambda p: (-p.entrant.rating, p.joined_at, p.key))
    data = {} if t.arena else {"order": [p.key for p in order]}
    return [TournamentEvent("started", data, now)]


def seat_two(t: State, a: str, b: str, rng: random.Random) -> tuple[str, str]:
    """Seat 0 (white) to the player who had it less often; a coin when even."""

    def lean(key: str) -> int:
        colours = t.players[key].colours
        return colours.count("w") - colours.count("b")

    if lean(a) != lean(b):
        return (a, b) if lean(a) < lean(b) else (b, a)
    return (a, b) if rng.random() < 0.5 else (b, a)


def _arena_pairings(
    t: State, now: float, busy: set[str], rng: random.Random
) -> list[TournamentEvent]:
    waiting = [
        Waiting(p.key, p.points, p.entrant.rating, p.since, p.last)
        for p in t.active()
        if p.key not in t.current and p.key not in busy
    ]
    events = []
    taken: set[str] = set()
    for table in arena_pairs(waiting, t.spec.seats, rng, now=now):
        if len(table) == 2:
            seats: Sequence[str] = seat_two(t, table[0], table[1], rng)
        else:
            seats = list(table)
            rng.shuffle(seats)
        data = {"room": room_id(t, taken, rng), "players": list(seats), "round": None}
        events.append(TournamentEvent("paired", data, now))
    return events


def _history(t: State) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each player's colour and float per round so far, as the Dutch rules want them:
    colour ``w``/``b``, or ``-`` for a round without a game played (a bye, an aborted game,
    a round away); float ``down`` when they met a player of lower score before that round,
    ``up`` higher, ``none`` equal or no game."""
    before = dict.fromkeys(t.players, 0.0)
    colours: dict[str, list[str]] = {k: [] for k in t.players}
    floats: dict[str, list[str]] = {k: [] for k in t.players}
    for r in range(1, t.round + 1):
        marks = {k: [m for m in p.sheet if m.round == r] for k, p in t.players.items()}
        for key, ms in marks.items():
            game = next((m for m in ms if m.played), None)
            if game is None or game.room is None:
                colours[key].append("-")
                floats[key].append("none")
                continue
            seat = t.games[game.room].players.index(key)
            colours[key].append("wb"[seat])
            mine, theirs = before[key], before[game.opponents[0]]
            floats[key].append("down" if mine > theirs else "up" if mine < theirs else "none")
        for key, ms in marks.items():
            before[key] += sum(m.points for m in ms)
    return {k: (tuple(colours[k]), tuple(floats[k])) for k in t.players}


def _swiss_round(t: State, now: float, rng: random.Random) -> list[TournamentEvent]:
    n = t.round + 1
    history = _history(t)
    rank = {key: i for i, key in enumerate(t.order, 1)}
    players = [
        SwissPlayer(
            p.key,
            rank[p.key],
            p.entrant.rating,
            p.points,
            *history[p.key],
            p.byes,
        )
        for p in t.active()
        if p.key in rank
    ]
    met = [(g.players[0], g.players[1]) for g in t.games.values()]
    try:
        paired = swiss_round(players, met, n, t.rounds)
    except NoPairing:
        return [TournamentEvent("finished", {"reason": "no_pairing"}, now)]
    byes = [paired.bye] if paired.bye else []
    data = {"round": n, "byes": byes} | _announced(t, n, paired.pairs, now)
    return [TournamentEvent("round", data, now)]


def _announced(t: State, n: int, pairs: Sequence[Sequence[str]], now: float) -> dict[str, object]:
    """The ``round`` event's announcement: its pairs in seat order, seated at ``starts_at``
    (the interlude after a round's end; the first round at once)."""
    pause = t.spec.interlude if n > 1 else 0.0
    return {"pairs": [list(pair) for pair in pairs], "starts_at": now + pause}


def _seat_round(t: State, now: float, rng: random.Random) -> list[TournamentEvent]:
    """The announced round's games, its interlude over: a ``paired`` event a pair, or a
    ``forfeit`` when a player of the pair withdrew during the interlude."""
    events = []
    taken: set[str] = set()
    for pair in t.pending:
        absent = [k for k in pair if t.players[k].paused]
        if absent:
            data = {"round": t.round, "players": list(pair), "absent": absent}
            events.append(TournamentEvent("forfeit", data, now))
            continue
        data = {"room": room_id(t, taken, rng), "players": list(pair), "round": t.round}
        events.append(TournamentEvent("paired", data, now))
    return events


def _berger_round(t: State, now: float, rng: random.Random) -> list[TournamentEvent]:
    n = t.round + 1
    rests, forfeits, games = [], [], []
    for white, black in berger_rounds(t.order)[n - 1]:
        if black is None:
            rests.append(white)
            continue
        out = [k for k in (white, black) if t.players[k].paused]
        if len(out) == 1:
            winner = black if out[0] == white else white
            forfeits.append([winner, out[0]])
        elif not out:
            games.append([white, black])
    data = {"round": n, "byes": rests, "forfeits": forfeits} | _announced(t, n, games, now)
    return [TournamentEvent("round", data, now)]

"""The one view of a tournament, for every door: the wire (``tournament`` messages), HTTP,
the web page, bots. Built from the state only; it never holds a guest's key (names only:
a row's ``key`` is there for accounts ``u:...`` and bots ``bot:...``).

Standings are ranked:

* **arena**: by points, then performance (the mean, over games played, of the opponents'
  ratings + 400 for a win, -400 for a loss), as lichess does;
* **swiss / round robin**: by points, then Buchholz, then Sonneborn-Berger
  (:mod:`server.tournaments.tiebreaks`, stated in ``tiebreaks``), then starting rank: once
  it started, no two players share a rank.

Players equal on every count share a rank (arena players of equal points and performance,
everybody before a Swiss or round robin starts). ``games`` lists the games still being played
and the last :data:`RECENT_GAMES` finished (a player's own games are in their ``sheet``).
"""

from __future__ import annotations

from typing import Any

from .records import GameRecord, Mark, Player
from .scoring import DRAW, LOSS, WIN
from .state import State
from .tiebreaks import buchholz, sonneborn_berger
from .values import Json, public_key

RECENT_GAMES = 50
_PERF = {WIN: 400, DRAW: 0, LOSS: -400}
TIEBREAKS = {
    "arena": ["performance"],
    "swiss": ["buchholz", "sonneborn_berger"],
    "round_robin": ["buchholz", "sonneborn_berger"],
}


def performance(p: Player, ratings: dict[str, float]) -> int:
    """The mean over games played of the opponents' rating, +400 a win, -400 a loss."""
    total, n = 0.0, 0
    for m in p.sheet:
        if m.played:
            opp = sum(ratings[k] for k in m.opponents) / len(m.opponents)
            total += opp + _PERF[m.outcome]
            n += 1
    return round(total / n) if n else round(p.entrant.rating)


def crosstable(t: State) -> dict[str, list[tuple[str, float]]]:
    return {
        k: [(m.opponents[0], m.points) for m in p.sheet if m.played and len(m.opponents) == 1]
        for k, p in t.players.items()
    }


def _mark(m: Mark, names: dict[str, str]) -> Json:
    out: Json = {"outcome": m.outcome, "points": m.points}
    if m.room is not None:
        out["room"] = m.room
    if m.round is not None:
        out["round"] = m.round
    if m.opponents:
        out["opponents"] = [names[k] for k in m.opponents]
    if m.fire:
        out["fire"] = True
    if m.berserk:
        out["berserk"] = True
    return out


def standings(t: State) -> list[Json]:
    arena = t.arena
    points = {k: p.points for k, p in t.players.items()}
    table = {} if arena else crosstable(t)
    start = {k: i for i, k in enumerate(t.order)}
    names = {k: p.entrant.name for k, p in t.players.items()}
    ratings = {k: p.entrant.rating for k, p in t.players.items()}
    rows = []
    for k, p in t.players.items():
        if arena:
            breaks: dict[str, Any] = {"performance": performance(p, ratings)}
            order: tuple[Any, ...] = (-p.points, -breaks["performance"])
        else:
            bh = buchholz(k, table, points)
            sb = sonneborn_berger(k, table, points)
            breaks = {"buchholz": bh, "sonneborn_berger": sb}
            order = (-p.points, -bh, -sb, start.get(k, len(start)))
        e = p.entrant
        row: Json = {
            "name": e.name,
            "bot": e.bot,
            "rating": round(e.rating),
            "points": p.points,
            "games": p.games,
            "wins": p.count(WIN),
            "draws": p.count(DRAW),
            "losses": p.count(LOSS),
            "sheet": [_mark(m, names) for m in p.sheet],
            "tiebreaks": breaks,
            "paused": p.paused,
            "withdrawn": p.paused,
            "playing": k in t.current,
        }
        if public_key(k):
            row["key"] = k
        if arena:
            row["streak"] = p.streak
            row["fire"] = p.fire
        rows.append((order, e.name, row))
    rows.sort(key=lambda r: (r[0], r[1]))
    rank = 0
    last: tuple[Any, ...] | None = None
    out = []
    for i, (order, _, row) in enumerate(rows, 1):
        if order != last:
            rank, last = i, order
        out.append({"rank": rank, **row})
    return out


def _game(t: State, g: GameRecord) -> Json:
    return {
        "room": g.room,
        "round": g.round,
        "players": [t.players[k].entrant.name for k in g.players],
        "ongoing": not g.over,
        "result": None if g.ranks is None else list(g.ranks),
        "reason": g.reason,
        "berserk": [t.players[k].entrant.name for k in g.players if k in g.berserk],
        "at": g.at,
    }


def games(t: State) -> list[Json]:
    ongoing = [g for g in t.games.values() if not g.over]
    done = [g for g in t.games.values() if g.over][-RECENT_GAMES:]
    return [_game(t, g) for g in done + ongoing]


def _next_round(t: State) -> Json | None:
    """A Swiss or round-robin round announced and not seated yet (its interlude): its
    number, when it is seated and its pairs by name, seat order; None otherwise."""
    if not t.pending or t.next_round_at is None:
        return None
    names = {k: p.entrant.name for k, p in t.players.items()}
    return {
        "round": t.round,
        "starts_at": t.next_round_at,
        "pairs": [[names[k] for k in pair] for pair in t.pending],
    }


def view(t: State) -> Json:
    spec = t.spec.to_json()
    creator = spec.pop("creator")
    return {
        "id": t.spec.id,
        "spec": spec,
        "creator": creator[2:] if creator.startswith("u:") else None,
        "status": t.status,
        "version": t.version,
        "players": len(t.players),
        "times": {
            "created_at": t.created_at,
            "starts_at": t.spec.starts_at,
            "started_at": t.started_at,
            "ends_at": t.ends_at,
            "finished_at": t.finished_at,
            "next_round_at": t.next_round_at,
        },
        "next_round": _next_round(t),
        "end_reason": t.end_reason,
        "rounds": {"current": t.round, "total": t.rounds} if not t.arena else None,
        "tiebreaks": TIEBREAKS[t.spec.system],
        "standings": standings(t),
        "games": games(t),
        "games_total": len(t.games),
    }

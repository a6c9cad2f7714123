"""What a client may ask of a tournament, run on its director (:class:`Director`).

Each operation takes plain JSON arguments (they may have come over pub/sub from another
node: :mod:`server.net.services.tournaments.service`) and returns plain JSON. Checks that only the
net can make live here: how often one player may join, pause and come back (each is an event in
the log: :data:`~server.net.services.tournaments.director.MAX_ACTS`), who may add bots, and whether
a berserk comes before the player's first move in that room.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from ....bots import strengths
from ....rooms.errors import RoomError
from ....rooms.ratings import category
from ....tournaments import Entrant, TournamentError
from ...transport.errors import ProtocolError
from .director import MAX_ACTS, Directed, Director

Op = Callable[[Director, str, Directed, dict[str, Any]], Awaitable[Any]]


def _acts(d: Directed, key: str) -> None:
    if d.acts.get(key, 0) >= MAX_ACTS:
        raise ProtocolError(
            "rate_limited", f"one player joins, pauses and comes back {MAX_ACTS} times at most"
        )


async def join(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    """A person joins (or comes back to) the tournament, with their rating in its
    category (guests: 1500)."""
    key, user = str(args["key"]), args.get("user")
    _acts(d, key)
    rating = 1500.0
    if user:
        spec = d.t.spec
        cat = category(spec.game, spec.clock)
        (raw,) = await director.accounts.rating_raw([str(user)], cat)
        if raw:
            rating = float(json.loads(raw)["rating"])
    try:
        entrant = Entrant(key, str(args["name"]), rating)
    except TournamentError as exc:
        raise ProtocolError(exc.code, exc.message) from None
    now = director.hub.clock()
    await director.run(tid, d, lambda t: t.join(entrant, now))
    await director.flush(tid, d)  # the reply comes after what every door shows
    return {"key": entrant.key}


async def add_bot(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    if args["by"] != d.t.spec.creator:
        raise ProtocolError("forbidden", "only the tournament's creator adds bots")
    level = str(args["level"])
    try:
        offered = strengths(d.t.spec.game)
    except KeyError:
        offered = []
    if level not in offered:
        raise ProtocolError("bad_request", f"no bot {level!r} for {d.t.spec.game} ({offered})")
    # one more than the highest of its level (a count would repeat a key once a bot left)
    taken = [int(k.rsplit(":", 1)[1]) for k in d.t.players if k.startswith(f"bot:{level}:")]
    n = 1 + max(taken, default=0)
    entrant = Entrant(f"bot:{level}:{n}", f"{level.capitalize()} bot {n}", 1500.0, level)
    now = director.hub.clock()
    await director.run(tid, d, lambda t: t.join(entrant, now))
    await director.flush(tid, d)  # the reply comes after what every door shows
    return {"key": entrant.key}


async def withdraw(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    key = str(args["key"])
    _acts(d, key)
    now = director.hub.clock()
    await director.run(tid, d, lambda t: t.withdraw(key, now))
    await director.flush(tid, d)
    return {}


async def cancel(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    key = str(args["key"])
    now = director.hub.clock()
    await director.run(tid, d, lambda t: t.cancel(key, now))
    await director.flush(tid, d)
    return {}


async def berserk(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    """Berserk: the tournament allows it (checked first, nothing stored), the room halves the
    player's clock (refused after their first move), then the tournament records it (the
    extra point of a berserked win). ``{"repeated": True}``: berserk already, nothing done."""
    key, room = str(args["key"]), str(args["room"])
    game = d.t.current_game(key)
    if game is None or game["room"] != room:
        raise ProtocolError("not_found", "that is not your game in this tournament")
    hub, now = director.hub, director.hub.clock()
    try:
        if not d.t.berserk(key, room, now):
            return {"repeated": True}
        hosted = hub.rooms.get(room) or await hub.hosting.take_over(room)
        if hosted is None:
            raise ProtocolError("unavailable", "the game is changing nodes; try again")
        await hub.run(hosted, lambda r: r.berserk(int(game["seat"]), now))
    except TournamentError as exc:
        raise ProtocolError(exc.code, exc.message) from None
    except RoomError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
    events = await director.run(tid, d, lambda t: t.berserk(key, room, now))
    await director.flush(tid, d)
    return {} if events else {"repeated": True}  # none: a berserk just before recorded it


async def view(director: Director, tid: str, d: Directed, args: dict[str, Any]) -> Any:
    """Store the view now (the first watcher of a tournament just created elsewhere)."""
    await director.flush(tid, d)
    return {}


OPS: dict[str, Op] = {
    "join": join,
    "add_bot": add_bot,
    "withdraw": withdraw,
    "cancel": cancel,
    "berserk": berserk,
    "view": view,
}

"""A tournament's games: the rooms its ``paired`` events name, and their results.

A ``paired`` event is in the tournament's log before its room exists (log-first). The
director then creates the room *with the id the event names* (:func:`ensure_room`:
idempotent — a room that exists already is left as it is, so a director that takes over a
dead one's tournament creates exactly the rooms still missing), seats every player (people
with seat tokens derived from the tournament's secret: the same token whoever seats them,
so a seat taken before a crash is not taken twice and a token sent before it still works;
bots as bot seats), keeps the pairing record the rating service reads (rated only when every
player has an account, as for seeks) and tells each person ``paired`` on every node, as seeks
do, with ``"tournament": id``.

A game's end reaches the tournament through :func:`game_result` (a ``hub.on_over`` hook):
the room's host stores the result in Redis (``tresults:{id}``) and nudges the director, who
folds it once (by room id) — a result stored while no node directed the tournament is
folded by the next director.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ....rooms.offers import ABORTED
from ....rooms.ratings import category
from ....rooms.room import Room
from ....store import Fenced, StoreError, Unreplicated
from ....store.accounts import AccountStore
from ....store.tournaments import TournamentStore
from ...node.hub import Hub
from ...transport.errors import ProtocolError
from ..matchmaking.rating import PAIRING_TTL

log = logging.getLogger("kibitz.tournaments")


def seat_token(secret: str, room: str, seat: int) -> str:
    """The token of ``seat`` in a tournament's ``room``: derived from the tournament's
    secret (kept in Redis, never sent), so any director derives the same one."""
    return hmac.new(secret.encode(), f"{room}\x00{seat}".encode(), hashlib.sha256).hexdigest()[:32]


#: seconds a person has for their first move in a tournament game (None: the room's default
#: by speed, 15 to 35 s); nobody moving in time aborts the game
FIRST_MOVE: float | None = None


def clock_settings(base: int, increment: int) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "clock": {"type": "fischer", "base": base, "increment": increment},
        "rematch": False,  # the tournament pairs the next game
    }
    if FIRST_MOVE is not None:
        settings["first_move"] = FIRST_MOVE
    return settings


async def ensure_room(
    hub: Hub,
    room_id: str,
    game: str,
    seats: int,
    settings: Mapping[str, Any],
    rated: str | None,
) -> bool:
    """Create the room ``room_id`` hosted here, unless it exists (True: created now)."""
    if await hub.store.exists(room_id):
        return False
    seed, now = hub.make_secret(16), hub.clock()
    event = Room.create(
        room_id, game, None, seats, seed, now, dict(settings), hub.registry, rated=rated
    )
    started = time.monotonic()
    if not await hub.store.acquire(room_id, hub.node, hub.lease_ms):
        return False  # another node hosts it: it exists
    try:
        await hub.store.append(room_id, 0, [event.to_record()], status="live", node=hub.node)
    except Fenced:
        return False  # it existed after all (created a moment ago): leave it as it is
    except Unreplicated:
        log.warning("tournament room %s created, not on a replica yet", room_id)
    except StoreError:
        await hub.store.release(room_id, hub.node)
        raise
    room = Room.from_created(event, hub.registry)
    hosted = hub.hosting.host(room, started + hub.lease_ms / 1000)
    await hub.lobby.update(hosted)
    return True


async def start_game(
    hub: Hub,
    tstore: TournamentStore,
    accounts: AccountStore,
    tid: str,
    secret: str,
    spec: Any,
    room_id: str,
    players: Sequence[Mapping[str, Any]],
) -> dict[str, dict[str, Any]]:
    """Create (if missing) and seat the room of a ``paired`` event; publish ``paired`` to
    every person. ``players``: per seat, ``{key, name, user, rating, bot}``. Idempotent:
    seats already taken are left alone. Returns the messages sent, by player key."""
    settings = clock_settings(spec.base, spec.increment)
    cat = category(spec.game, settings["clock"])
    rated = bool(spec.rated) and all(p.get("user") for p in players)
    await tstore.mark_room(room_id, tid)
    created = await ensure_room(
        hub, room_id, spec.game, len(players), settings, cat if rated else None
    )
    if created and rated:
        pairing = {
            "room": room_id,
            "game": spec.game,
            "category": cat,
            "rated": True,
            "clock": f"{spec.base / 60:g}+{spec.increment:g}",
            "tournament": tid,
            "players": [
                {"name": p["name"], "user": p["user"], "rating": p["rating"]}
                | {"provisional": False, "seat": s}
                for s, p in enumerate(players)
            ],
        }
        await accounts.save_pairing(room_id, pairing, PAIRING_TTL)
    info = await hub.read(room_id, "info", {})
    messages: dict[str, dict[str, Any]] = {}
    for seat, p in enumerate(players):
        empty = info["seats"][seat]["kind"] == "empty"
        if p.get("bot"):
            if empty:
                name = str(p["name"])[:32]
                args = {"seat": seat, "bot": p["bot"], "name": name}
                await hub.command(room_id, "add_bot", args)
            continue
        token = seat_token(secret, room_id, seat)
        if empty:
            who: dict[str, Any] = {"name": str(p["name"])[:32], "user": p.get("user") or ""}
            if p.get("user"):
                who["rating"] = {"rating": p["rating"], "provisional": False}
            await hub.command(room_id, "take_seat", {"seat": seat, "token": token, **who})
        messages[p["key"]] = {
            "type": "paired",
            "room": room_id,
            "seat": seat,
            "token": token,
            "game": spec.game,
            "rated": rated,
            "tournament": tid,
        }
    for key, message in messages.items():  # delivered by the seek service of every node
        data = {"key": delivery_key(key), "message": message}
        await hub.store.publish("accounts:paired", json.dumps(data).encode())
    return messages


def delivery_key(key: str) -> str:
    """The seek service's key of a tournament player (``u:Ada`` is ``user:ada`` there)."""
    return f"user:{key[2:].lower()}" if key.startswith("u:") else key


def ranks_of(room: Room) -> list[int] | None:
    """The game's ranks in seat order, 0 for first (None: an aborted game, no result)."""
    outcome = room.outcome
    if outcome is None or outcome.reason == ABORTED:
        return None
    return [r - 1 for r in outcome.ranks]


def absent_seats(room: Room) -> list[int]:
    """The seats of an aborted game whose first move the room was waiting for: people to
    move who had not moved (nor sealed a move) — White alone when nobody moved, Black alone
    once White had. A player who never had the move is not absent: lichess pauses only the
    one who did not move (lila's ``playerWhoDidNotMove``)."""
    moved = room.moved_seats()
    to_move = room.game.to_act(room.state)  # at the abort (``room.to_act()`` is empty once over)
    return sorted(
        s
        for s in to_move
        if room.seats[s].kind == "person" and s not in moved and s not in room.pending
    )


async def game_result(hub: Hub, tstore: TournamentStore, room: Room) -> str | None:
    """The ``on_over`` hook's work: store a tournament game's result; the tournament's id
    (None: not a tournament game). Raises when Redis fails: the hook runs again."""
    tid = await tstore.room_tournament(room.id)
    if tid is None or room.outcome is None:
        return None
    result: dict[str, Any] = {"ranks": ranks_of(room), "reason": room.outcome.reason}
    if room.outcome.reason == ABORTED:  # who owed their first move: an arena pauses them
        result["absent"] = absent_seats(room)
    await tstore.save_result(tid, room.id, result)
    return tid


def check_room(room: Any) -> str:
    if not isinstance(room, str) or not 1 <= len(room) <= 64:
        raise ProtocolError("bad_request", "'room' must be a room id")
    return room


__all__ = ["ensure_room", "game_result", "ranks_of", "seat_token", "start_game"]

"""Rating finished games: once per room, from the pairing record the seek service kept.

Every other finished game with an account at the table (a lobby game, a game against a bot,
an unrated tournament game) is stored the same way, unrated, so that the player's history
(``games:{name}``, the profile) lists every game they finished, not only the paired ones.

Glicko-2 for two seats, OpenSkill for more (:mod:`server.rooms.ratings`, pure). The result
and the new ratings are stored by one Lua script keyed by the room id, so a node that takes
over a room that ended with its dead host rates it again harmlessly; a rating that changed
meanwhile (another game of the same player ended) is read again and recomputed. Once stored,
the changes go into the room's own log (its ``ratings`` event), so the players see them at
the board; and a rematch of a paired game is paired the same way (accounts, category, rated).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from ....rooms.offers import ABORTED
from ....rooms.ratings import Glicko, Skill, category, rate_many, rate_pair, rating_from_json
from ....rooms.room import Room
from ....store.accounts import AccountStore, Stale
from ...node.hub import Hub
from ...transport.errors import ProtocolError

log = logging.getLogger("kibitz.seeks")

#: how long a room's pairing record is kept (its rating, its rematch)
PAIRING_TTL = 90 * 24 * 3600


def clock_label(clock: Any) -> str:
    """A clock as the history shows it: ``5+3``, ``30s/move``, ``untimed``."""
    if not clock:
        return "untimed"
    if clock.get("type") == "per_move":
        return f"{clock.get('seconds')}s/move"
    return f"{clock.get('base', 0) / 60:g}+{clock.get('increment', 0):g}"


def casual_pairing(room: Room) -> dict[str, Any] | None:
    """The pairing record of a game nobody paired (a lobby game, a game against a bot):
    unrated, its players as they sat; None when no account sat at the table (a game of
    guests and bots is nobody's history)."""
    if not any(s.user for s in room.seats):
        return None
    clock = room.policy.clock.to_json() if room.policy.clock else None
    return {
        "room": room.id,
        "game": room.game.name,
        "category": category(room.game.name, clock),
        "rated": False,
        "clock": clock_label(clock),
        "players": [
            {"name": s.name, "user": s.user or None, "seat": i, "bot": s.kind == "bot"}
            for i, s in enumerate(room.seats)
        ],
    }


async def rematch_accounts(
    store: AccountStore, old: Room, new_room: str
) -> dict[int, dict[str, Any]]:
    """A rematch of a paired game keeps its accounts, category and ratedness: save the
    new room's pairing (seats rotated as the room rotates them, each account's rating as
    it is now) and return, per seat of ``old``, the ``user`` and ``rating`` to seat it
    with (the hub's ``rematch_accounts``, given by the server)."""
    pairing = await store.pairing(old.id)
    if pairing is None:
        return {}
    players = sorted(pairing["players"], key=lambda p: int(p["seat"]))
    raw = await store.rating_raw([p["user"] or "" for p in players], pairing["category"])
    out: dict[int, dict[str, Any]] = {}
    moved = []
    for p, stored in zip(players, raw, strict=True):
        now = json.loads(stored) if stored and p["user"] else Glicko().to_json()
        rating = {"rating": now["rating"], "provisional": now["provisional"]}
        moved.append({**p, **rating, "seat": old.rematch_seat(int(p["seat"]))})
        if p["user"]:
            out[int(p["seat"])] = {"user": p["user"], "rating": rating}
    moved.sort(key=lambda p: p["seat"])
    await store.save_pairing(new_room, {**pairing, "room": new_room, "players": moved}, PAIRING_TTL)
    return out


class Rater:
    """Rates a finished paired game exactly once."""

    def __init__(self, store: AccountStore, hub: Hub) -> None:
        self.store = store
        self.hub = hub

    async def rate(self, room: Room) -> None:
        """The ``on_over`` hook: store the game's result and rating changes once per room
        (a game nobody paired: its result, unrated, when an account sat at the table)."""
        if room.outcome is None:
            return
        pairing = await self.store.pairing(room.id) or casual_pairing(room)
        if pairing is None:
            return
        for _ in range(10):
            if await self.store.applied(room.id):
                break
            try:
                await self._apply(room, pairing)
                break
            except Stale:
                continue
        else:
            log.error("room %s: ratings kept changing; not rated", room.id)
            return
        await self.show(room)

    async def show(self, room: Room) -> None:
        """Put the stored rating changes of a rated room into its log, once (the hook runs
        under the room's lock: the command goes in a task of its own, after it)."""
        if room.rated is None or room.rated.changes is not None:
            return
        result = await self.store.result(room.id)
        if result is not None and result.get("rated"):
            self.hub.spawn(self._record(room.id, result["players"]), f"ratings {room.id}")

    async def _record(self, room_id: str, players: list[dict[str, Any]]) -> None:
        try:
            await self.hub.command(room_id, "record_ratings", {"players": players})
        except ProtocolError as exc:  # the next host shows them (on_over runs again)
            log.warning("room %s: rating changes not shown: %s", room_id, exc.message)

    async def _apply(self, room: Room, pairing: dict[str, Any]) -> None:
        assert room.outcome is not None
        players = pairing["players"]
        cat = pairing["category"]
        users = [p["user"] for p in players]
        rated = (
            pairing["rated"]
            and all(users)
            and len(set(users)) == len(users)
            and room.outcome.reason != ABORTED  # an aborted game has no result to rate
        )
        raw = await self.store.rating_raw([u or "" for u in users], cat) if rated else []
        before = [rating_from_json(json.loads(r)) if r else None for r in raw]
        after: list[Glicko | Skill | None] = [None] * len(players)
        if rated and len(players) == 2:
            a = before[0] if isinstance(before[0], Glicko) else Glicko()
            b = before[1] if isinstance(before[1], Glicko) else Glicko()
            after = list(rate_pair(a, b, room.outcome.scores[0]))
            before = [a, b]
        elif rated:
            skills = [b if isinstance(b, Skill) else Skill() for b in before]
            after = list(rate_many(skills, room.outcome.ranks))
            before = list(skills)
        result_players = []
        for i, p in enumerate(players):
            entry = {
                "name": p["name"],
                "user": p["user"],
                "seat": i,
                "score": room.outcome.scores[i],
                "rank": room.outcome.ranks[i],
                "bot": bool(p.get("bot")),
            }
            if rated:
                old, new = before[i], after[i]
                assert old is not None and new is not None
                entry |= {
                    "rating": round(old.to_json()["rating"], 2),
                    "new_rating": new.to_json()["rating"],
                    "change": round(new.to_json()["rating"] - old.to_json()["rating"], 2),
                }
            result_players.append(entry)
        result = {
            "room": room.id,
            "game": pairing["game"],
            "category": cat,
            "clock": pairing.get("clock"),
            "rated": rated,
            "reason": room.outcome.reason,
            "players": result_players,
            "finished": time.time(),
        }
        stored = [
            (u, raw[i] if rated else "", json.dumps(new.to_json()) if new is not None else "")
            for i, (u, new) in enumerate(zip(users, after, strict=True))
            if u
        ]
        await self.store.apply_result(room.id, result, result["finished"], cat, stored)

"""Rating finished games: once per room, from the pairing record the seek service kept.

Glicko-2 for two seats, OpenSkill for more (:mod:`server.rooms.ratings`, pure). The result
and the new ratings are stored by one Lua script keyed by the room id, so a node that takes
over a room that ended with its dead host rates it again harmlessly; a rating that changed
meanwhile (another game of the same player ended) is read again and recomputed.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from ..rooms.offers import ABORTED
from ..rooms.ratings import Glicko, Skill, rate_many, rate_pair, rating_from_json
from ..rooms.room import Room
from ..store.accounts import AccountStore, Stale

log = logging.getLogger("kibitz.seeks")


class Rater:
    """Rates a finished paired game exactly once."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store

    async def rate(self, room: Room) -> None:
        """The ``on_over`` hook: store the game's result and rating changes once per room."""
        pairing = await self.store.pairing(room.id)
        if pairing is None or room.outcome is None:
            return
        for _ in range(10):
            if await self.store.applied(room.id):
                return
            try:
                await self._apply(room, pairing)
                return
            except Stale:
                continue
        log.error("room %s: ratings kept changing; not rated", room.id)

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

"""The lobby: each hosted room's entry in Redis (what ``list_rooms`` shows), the end of a
game (its hooks, then out of the live set) and the expiry of rooms nobody sat down in.

:class:`Lobby` writes entries: at once when a room is created or ends, in pipelined batches
for rooms whose turn count moved (``dirty``). It owns the game-end hooks (``on_over``) and
reads the rooms hosted here (:class:`~server.net.node.hosting.Hosting`) and who listens to them
here (the hub's ``listeners``), which it is handed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

from ...rooms.room import Recipient, Room
from ...store import Store, StoreError, Unreplicated
from ..transport.connection import Client
from ..transport.metrics import Metrics
from .hosting import Hosted, Hosting

log = logging.getLogger("kibitz.hub")


class Lobby:
    """Lobby entries, game ends and expiry of rooms still waiting."""

    def __init__(
        self,
        store: Store,
        hosting: Hosting,
        listeners: dict[str, dict[Recipient, set[Client]]],
        metrics: Metrics,
        *,
        node: str,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.hosting = hosting
        self.listeners = listeners
        self.metrics = metrics
        self.node = node
        self.clock = clock
        #: hosted rooms whose entry is behind (written by :meth:`flush`)
        self.dirty: set[str] = set()
        #: awaited when a hosted room's game ends, before the room leaves the live set, and
        #: again by a node that takes over a room that ended but is still live (its host died
        #: at the end): hooks must be idempotent per room (e.g. ratings, keyed by room id)
        self.on_over: list[Callable[[Room], Awaitable[None]]] = []
        #: hosted rooms whose game ended but whose hooks (or last append) failed
        self.unfinished: set[str] = set()
        #: a room still waiting for players this long (s) after its last event is removed
        self.waiting_ttl = 1800.0
        #: a room still waiting for players that nobody is connected to and that saw no
        #: event this long (s) is removed (the only person closed the tab; only a bot sits)
        self.abandoned_after = 60.0
        #: a game going on that no player is connected to and that saw no event this long
        #: (s) is ended, no result (everybody left; else it stays in Redis for good)
        self.idle_game_ttl = 86400.0

    async def update(self, hosted: Hosted) -> None:
        """Write the room's entry now; a game that ended leaves the lobby and is finished."""
        room = hosted.room
        try:
            if room.status == "over":
                await self.store.drop_summary(room.id)
                await self.finish(room)
                log.info("room %s over: %s", room.id, room.outcome)
            else:
                await self.store.set_summary(room.id, room.summary())
        except (StoreError, RedisError, OSError) as exc:
            log.warning("lobby entry of room %s not updated: %s", room.id, exc)

    async def finish(self, room: Room) -> None:
        """Run the game-end hooks, then take the room out of the live set. A failing hook
        (or store) leaves the room live and in :attr:`unfinished`: this node runs the hooks
        again in a few seconds (:meth:`finish_pending`), or the next node to host it does."""
        try:
            for hook in self.on_over:
                try:
                    await hook(room)
                except Exception:
                    log.exception("game-end hook of room %s failed; it runs again soon", room.id)
                    self.unfinished.add(room.id)
                    return
            with contextlib.suppress(Unreplicated):  # no event: nothing to confirm
                await self.store.append(room.id, room.version, [], status="over", node=self.node)
        except BaseException:
            self.unfinished.add(room.id)
            raise
        self.unfinished.discard(room.id)

    async def finish_pending(self) -> None:
        """Finish again the games hosted here whose end did not go through (a hook or the
        store failed); rooms no longer hosted here are the next host's to finish."""
        for room_id in list(self.unfinished):
            hosted = self.hosting.rooms.get(room_id)
            if hosted is None or hosted.room.status != "over":
                self.unfinished.discard(room_id)
            else:
                await self.finish(hosted.room)

    async def expire_waiting(self, idle: float) -> int:
        """Delete the hosted rooms still waiting for players after ``idle`` seconds without
        an event (their log, lease and lobby entry): nobody came. Games that started stay,
        finished ones too. Returns how many went."""
        now = self.clock()
        gone = [
            hosted.room.id
            for hosted in list(self.hosting.rooms.values())
            if hosted.room.status == "waiting" and now - hosted.room.last_at > idle
        ]
        return await self._expire(gone, f"nobody sat down in {idle:.0f} s")

    async def touch_presence(self, ttl_s: int) -> None:
        """Mark every room a connection of this node listens to (seated or watching) as
        present, and those a connection sits in as attended, for ``ttl_s`` seconds."""
        await self.store.touch_presence(list(self.listeners), ttl_s, self._seated_here())

    def _seated_here(self) -> list[str]:
        """The rooms a connection of this node listens to as a seat (not a spectator)."""
        return [
            room_id
            for room_id, groups in list(self.listeners.items())
            if any(seat is not None and clients for seat, clients in groups.items())
        ]

    async def attended(self, room_ids: list[str]) -> list[bool]:
        """For each room, whether a player is connected to one of its seats: here, or on
        any node lately (``seated:{room}``, touched every ten seconds)."""
        here = set(self._seated_here())
        elsewhere = await self.store.seated([r for r in room_ids if r not in here])
        found = iter(elsewhere)
        return [r in here or next(found) for r in room_ids]

    async def idle_games(self, idle: float) -> list[Hosted]:
        """The games going on here that saw no event for ``idle`` seconds and whose seats
        nobody is connected to, here or on any node (a bot's turn is never idle: it moves)."""
        now = self.clock()
        quiet = [
            hosted
            for hosted in list(self.hosting.rooms.values())
            if hosted.room.status == "playing" and now - hosted.room.last_at > idle
        ]
        attended = await self.attended([hosted.room.id for hosted in quiet])
        return [hosted for hosted, here in zip(quiet, attended, strict=True) if not here]

    async def expire_abandoned(self, idle: float) -> int:
        """Delete the hosted rooms still waiting for players that nobody has been connected
        to (on any node) lately and that saw no event for ``idle`` seconds: the only person
        closed the tab, or only a bot sits there. They leave the open rooms at once instead
        of after ``waiting_ttl``. Returns how many went."""
        now = self.clock()
        waiting = [
            hosted.room.id
            for hosted in list(self.hosting.rooms.values())
            if hosted.room.status == "waiting"
            and now - hosted.room.last_at > idle
            and hosted.room.id not in self.listeners
        ]
        present = await self.store.present(waiting)
        gone = [room_id for room_id, here in zip(waiting, present, strict=True) if not here]
        return await self._expire(gone, "abandoned: nobody is connected to it")

    async def _expire(self, room_ids: list[str], why: str) -> int:
        done = 0
        for room_id in room_ids:
            try:
                await self.store.delete_room(room_id, self.node)
            except (StoreError, RedisError, OSError) as exc:
                log.warning("room %s not expired: %s", room_id, exc)
                continue
            self.hosting.drop(room_id)
            self.dirty.discard(room_id)
            done += 1
            log.info("room %s expired: %s", room_id, why)
        return done

    async def flush(self) -> int:
        """Write the lobby entries of rooms that changed since the last flush (their turn
        counts) in one pipelined round trip; returns how many."""
        dirty, self.dirty = list(self.dirty), set()
        done = 0
        for i in range(0, len(dirty), 100):  # in slices: games go on between them
            summaries = {
                room_id: hosted.room.summary()
                for room_id in dirty[i : i + 100]
                if (hosted := self.hosting.rooms.get(room_id)) is not None
                and hosted.room.status != "over"
            }
            if summaries:
                try:
                    await self.store.set_summaries(summaries)
                except (StoreError, RedisError, OSError) as exc:
                    log.warning("lobby entries not refreshed: %s", exc)
                    self.dirty |= set(summaries)
                    continue
            done += len(summaries)
        return done

    async def entries(self, game: Any = None) -> list[dict[str, Any]]:
        """The lobby's entries (of ``game``, if given), newest first."""
        rooms = await self.store.summaries()
        if game is not None:
            rooms = [r for r in rooms if r.get("game") == game]
        return sorted(rooms, key=lambda r: r.get("created_at", 0), reverse=True)

"""Room hosting: sequence each command as decide -> append to the log -> apply -> send.

The hub owns the rooms this node hosts, their listeners (which connection hears which
seat, or the spectators' view) and the store. Per room, one lock serialises commands, so
the log, the in-memory room and what clients saw never disagree. A command's events are
appended to the durable log *before* they are applied and before anybody hears of them
(DESIGN.md "Persistence"); a failed append leaves the room as it was.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..engine import REGISTRY, Registry
from ..rooms.room import Event, Recipient, Room
from ..store import Fenced, Store, StoreError
from .connection import Client
from .errors import ProtocolError

log = logging.getLogger("kibitz.hub")

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

Decide = Callable[[Room], list[Event]]


@dataclass(eq=False)
class Hosted:
    """A room this node hosts, with its lock and listeners."""

    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: dict[Recipient, set[Client]] = field(default_factory=dict)

    def listen(self, client: Client, recipient: Recipient) -> None:
        self.listeners.setdefault(recipient, set()).add(client)

    def forget(self, client: Client) -> None:
        for group in self.listeners.values():
            group.discard(client)

    def recipients_of(self, client: Client) -> list[Recipient]:
        return [r for r, group in self.listeners.items() if client in group]


class Hub:
    """Rooms, listeners and sessions of one node."""

    def __init__(
        self,
        store: Store,
        registry: Registry = REGISTRY,
        *,
        clock: Callable[[], float] = time.time,
        session_ttl: int = 7 * 24 * 3600,
        make_secret: Callable[[int], str] = secrets.token_urlsafe,
    ) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.session_ttl = session_ttl
        #: unguessable ids and secrets (room ids, seeds, seat tokens, sessions); tests that
        #: compare two runs byte for byte pass a deterministic one
        self.make_secret = make_secret
        self.rooms: dict[str, Hosted] = {}
        self.clients: set[Client] = set()
        #: called (synchronously) after every change of a room: bots, metrics
        self.on_change: list[Callable[[Hosted], None]] = []
        self.moves = 0
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    # -- background work --------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str) -> None:
        """Run ``coro`` as a task the hub owns: logged if it fails, cancelled by close()."""
        if self.closed:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro, name=what)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

    async def close(self) -> None:
        """Stop timers and background tasks and wait for them (idempotent)."""
        self.closed = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def schedule(self, hosted: Hosted) -> None:
        """Arm (or re-arm) the room's clock timer for its next flag fall."""
        room_id = hosted.room.id
        old = self.timers.pop(room_id, None)
        if old is not None:
            old.cancel()
        deadline = hosted.room.deadline()
        if deadline is None or self.closed:
            return
        delay = max(0.0, deadline - self.clock()) + 0.001
        loop = asyncio.get_running_loop()
        self.timers[room_id] = loop.call_later(
            delay, lambda: self.spawn(self._tick(hosted), f"clock {room_id}")
        )

    async def _tick(self, hosted: Hosted) -> None:
        self.timers.pop(hosted.room.id, None)
        try:
            await self.run(hosted, lambda room: room.tick(self.clock()))
        except ProtocolError as exc:  # store unavailable: try again shortly
            log.warning("clock of room %s: %s", hosted.room.id, exc.message)
            self.timers[hosted.room.id] = asyncio.get_running_loop().call_later(
                1.0, lambda: self.spawn(self._tick(hosted), f"clock {hosted.room.id}")
            )
            return
        self.schedule(hosted)

    # -- rooms ------------------------------------------------------------------------------

    async def recover(self) -> int:
        """Rebuild every live room from its log (server start). Returns how many."""
        count = 0
        for room_id in await self.store.live_rooms():
            records = await self.store.load(room_id)
            if not records:
                continue
            room = Room.replay((Event.from_record(r) for r in records), self.registry)
            hosted = self.rooms[room_id] = Hosted(room)
            count += 1
            self.schedule(hosted)
            if room.status == "over":
                await self.store.append(room_id, room.version, [], status="over")
        log.info("recovered %d live room(s) from the log", count)
        return count

    async def create(
        self,
        game: Any,
        options: Any,
        n_seats: Any,
        policy: Any,
    ) -> Hosted:
        if not isinstance(game, str) or game not in self.registry:
            raise ProtocolError("no_such_game", f"there is no game {game!r}")
        if options is not None and not isinstance(options, dict):
            raise ProtocolError("bad_request", "options must be an object")
        if policy is not None and not isinstance(policy, dict):
            raise ProtocolError("bad_request", "settings must be an object")
        room_id = self.make_secret(6)
        seed = self.make_secret(16)
        event = Room.create(
            room_id, game, options, n_seats, seed, self.clock(), policy, self.registry
        )
        await self.store.append(room_id, 0, [event.to_record()], status="live")
        hosted = Hosted(Room.from_created(event, self.registry))
        self.rooms[room_id] = hosted
        await self._publish_summary(hosted)
        log.info("room %s created: %s", room_id, game)
        return hosted

    async def get(self, room_id: Any) -> Hosted:
        """The hosted room, loaded from the log if this node does not hold it yet."""
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
        hosted = self.rooms.get(room_id)
        if hosted is not None:
            return hosted
        records = await self.store.load(room_id)
        if not records:
            raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
        hosted = self.rooms.get(room_id)  # loaded meanwhile by another request
        if hosted is None:
            room = Room.replay((Event.from_record(r) for r in records), self.registry)
            hosted = self.rooms[room_id] = Hosted(room)
        return hosted

    async def run(self, hosted: Hosted, decide: Decide) -> list[Event]:
        """Decide, persist, apply and fan out one command on ``hosted`` (serialised)."""
        async with hosted.lock:
            room = hosted.room
            events = decide(room)
            if not events:
                return events
            before = (room.status, [s.kind for s in room.seats])
            try:
                await self.store.append(room.id, room.version, [e.to_record() for e in events])
            except Fenced:
                # another writer got there first: our copy is stale; take the log's word
                await self._reload(hosted)
                raise ProtocolError(
                    "unavailable", "the room changed meanwhile; try again"
                ) from None
            except (StoreError, OSError, ConnectionError) as exc:
                log.error("append to room %s failed: %s", room.id, exc)
                raise ProtocolError("unavailable", "the game store is unavailable") from None
            for event in events:
                self.fan_out(hosted, room.apply(event))
                if event.kind == "move":
                    self.moves += 1
            after = (room.status, [s.kind for s in room.seats])
            if after != before:
                await self._publish_summary(hosted)
            self.schedule(hosted)
            for hook in self.on_change:
                hook(hosted)
            return events

    def fan_out(self, hosted: Hosted, outs: list[tuple[Recipient, dict[str, Any]]]) -> None:
        """Send each recipient's rendering to its listeners, encoded once per codec."""
        for recipient, msg in outs:
            group = hosted.listeners.get(recipient)
            if not group:
                continue
            frames: dict[str, str | bytes] = {}
            for client in list(group):
                frame = frames.get(client.codec.name)
                if frame is None:
                    frame = frames[client.codec.name] = client.codec.encode(msg)
                client.send_frame(frame)

    async def _reload(self, hosted: Hosted) -> None:
        records = await self.store.load(hosted.room.id)
        hosted.room = Room.replay((Event.from_record(r) for r in records), self.registry)

    async def _publish_summary(self, hosted: Hosted) -> None:
        room = hosted.room
        try:
            if room.status == "over":
                await self.store.drop_summary(room.id)
                await self.store.append(room.id, room.version, [], status="over")
                log.info("room %s over: %s", room.id, room.outcome)
            else:
                await self.store.set_summary(room.id, room.summary())
        except (StoreError, OSError, ConnectionError) as exc:
            log.warning("lobby entry of room %s not updated: %s", room.id, exc)

    async def lobby(self, game: Any = None) -> list[dict[str, Any]]:
        rooms = await self.store.summaries()
        if game is not None:
            rooms = [r for r in rooms if r.get("game") == game]
        return sorted(rooms, key=lambda r: r.get("created_at", 0), reverse=True)

    # -- sessions ---------------------------------------------------------------------------

    async def save_session(self, client: Client) -> None:
        if client.session is None:
            return
        data = {
            "seats": {
                room: {str(s): t for s, t in seats.items()} for room, seats in client.seats.items()
            },
            "watching": sorted(client.watching),
        }
        await self.store.save_session(client.session, data, self.session_ttl)

    async def load_session(self, client: Client, secret: str) -> bool:
        data = await self.store.load_session(secret)
        if data is None:
            return False
        client.session = secret
        client.seats = {
            room: {int(s): t for s, t in seats.items()}
            for room, seats in data.get("seats", {}).items()
        }
        client.watching = set(data.get("watching", []))
        return True

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        for room_id in set(client.seats) | client.watching:
            hosted = self.rooms.get(room_id)
            if hosted is not None:
                hosted.forget(client)

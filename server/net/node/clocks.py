"""Time on the hosted rooms: each room's next flag fall, and games nobody came back to.

:class:`Clocks` owns one timer per hosted room whose clock runs (or whose first move is
awaited): armed on the event loop for the room's :meth:`~server.rooms.table.Table.deadline`,
it runs the room's ``tick`` through the hub (persisted first, like any command) and is
re-armed after every change. It also ends the games the lobby finds idle
(:meth:`~server.net.node.lobby.Lobby.idle_games`: nobody seated is connected and nothing happened
for a day): ``Room.end_idle``, no result. The hub (:class:`~server.net.node.hub.Hub`) owns it and
hands it what it needs: how to run a decision on a room, the clock, the rooms hosted now.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ...rooms.room import Event, Room
from ..transport.errors import ProtocolError
from .hosting import Hosted

log = logging.getLogger("kibitz.hub")

#: the hub's ``run``: decide on a hosted room, persist, apply, fan out
Run = Callable[[Hosted, Callable[[Room], list[Event]]], Awaitable[list[Event]]]


class Clocks:
    """The timers of the rooms hosted here (room -> its armed timer)."""

    def __init__(
        self,
        run: Run,
        spawn: Callable[[Coroutine[Any, Any, Any], str], None],
        clock: Callable[[], float],
        hosted: Callable[[str], Hosted | None],
    ) -> None:
        self.run = run
        self.spawn = spawn
        self.clock = clock
        self.hosted = hosted
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.closed = False

    def schedule(self, hosted: Hosted) -> None:
        """Arm (or re-arm) the room's clock timer for its next flag fall."""
        room_id = hosted.room.id
        self.stop(room_id)
        deadline = hosted.room.deadline()
        if deadline is None or self.closed or self.hosted(room_id) is not hosted:
            return
        self._arm(hosted, max(0.0, deadline - self.clock()) + 0.001)

    def _arm(self, hosted: Hosted, delay: float) -> None:
        room_id = hosted.room.id
        self.timers[room_id] = asyncio.get_running_loop().call_later(
            delay, lambda: self.spawn(self._tick(hosted), f"clock {room_id}")
        )

    def stop(self, room_id: str) -> None:
        timer = self.timers.pop(room_id, None)
        if timer is not None:
            timer.cancel()

    async def _tick(self, hosted: Hosted) -> None:
        self.timers.pop(hosted.room.id, None)
        try:
            await self.run(hosted, lambda room: room.tick(self.clock()))
        except ProtocolError as exc:  # store unavailable: try again shortly
            log.warning("clock of room %s: %s", hosted.room.id, exc.message)
            self._arm(hosted, 1.0)
            return
        self.schedule(hosted)

    async def end_idle(self, rooms: list[Hosted], idle: float) -> int:
        """End each of ``rooms`` (found idle by the lobby) unless an event came within
        ``idle`` seconds after all; returns how many ended."""
        ended = 0
        for hosted in rooms:
            try:
                events = await self.run(hosted, lambda room: room.end_idle(self.clock(), idle))
            except ProtocolError as exc:  # the store away, or the room moved: next sweep
                log.warning("idle game %s not ended now: %s", hosted.room.id, exc.message)
                continue
            if events:
                ended += 1
                log.info("room %s ended: nobody came back to it in %.0f s", hosted.room.id, idle)
        return ended

    def close(self) -> None:
        self.closed = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()

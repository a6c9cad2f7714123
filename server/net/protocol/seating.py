"""A connection's seats and what it is sent on joining a room: the state it missed, then
what the ``on_join`` hooks send (the server's: the room's chat, who is gone:
:data:`~server.net.protocol.messages.ON_JOIN`).

The handlers seat a connection when it takes a seat or comes back (``hello``, ``join``),
and the seek service hands a connection of this node that it paired into a room to
:meth:`Seating.paired` (it is given that method by the server: a service never knows the
message handlers).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..node.hub import Hub
from ..services.archive.archived import ArchivedReads
from ..transport.connection import Client
from ..transport.errors import ProtocolError

#: rooms whose seats one session keeps (the oldest forgotten first): bounds a session in Redis
MAX_ROOMS_HELD = 100

#: awaited with (the seating, client, room, status) when a client joins or resyncs a room
JoinHook = Callable[["Seating", Client, str, str], Awaitable[None]]


class Seating:
    """Who of this node's connections holds which seat, and what a joining one is sent."""

    def __init__(
        self,
        hub: Hub,
        *,
        archived: ArchivedReads | None = None,
        on_join: Sequence[JoinHook] = (),
    ) -> None:
        self.hub = hub
        #: the games that left Redis (their chat): None, no archive
        self.archived = archived
        self.on_join = tuple(on_join)

    async def attach_seat(self, client: Client, room_id: str, seat: int, token: str) -> None:
        """The client holds ``seat`` now: it hears that seat (not the spectators' view). A
        session holds the seats of :data:`MAX_ROOMS_HELD` rooms at most: the oldest is
        forgotten first (a session that plays for months does not grow without end)."""
        if room_id not in client.seats:
            while len(client.seats) >= MAX_ROOMS_HELD:
                oldest = next(iter(client.seats))
                client.seats.pop(oldest)
                self.hub.audience.forget(oldest, client)
        client.seats.setdefault(room_id, {})[seat] = token
        client.watching.discard(room_id)
        self.hub.audience.forget(room_id, client)
        for held in client.seats[room_id]:
            self.hub.audience.listen(room_id, client, held)
        await self.hub.sessions.save(client)

    async def push_state(self, client: Client, room_id: str, since: int | None) -> int:
        """Send ``client`` what it missed (or the whole state) for each of its recipients,
        then the room's chat it may read. Returns the newest version sent (0: none)."""
        status, version = "waiting", 0
        for r in self.hub.audience.recipients_of(room_id, client):
            update = await self.hub.read(room_id, "resync", {"recipient": r, "since": since})
            client.send(update)
            status, version = update["status"], max(version, int(update["version"]))
        await self.push_chat(client, room_id, status)
        return version

    async def push_chat(self, client: Client, room_id: str, status: str) -> None:
        """What a listener is sent on joining a room besides its state (``on_join``: the
        server's sends the chat, ``server/net/protocol/social.py``)."""
        for hook in self.on_join:
            await hook(self, client, room_id, status)

    async def paired(self, client: Client, message: dict[str, Any]) -> None:
        """A connection of this node was paired into a room (``message``: ``paired``, with
        the room, seat and token): it holds the seat, is told, and is sent the state."""
        room_id = message["room"]
        await self.attach_seat(client, room_id, message["seat"], message["token"])
        client.send(message)
        with contextlib.suppress(ProtocolError):
            await self.push_state(client, room_id, None)

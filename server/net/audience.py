"""Who on this node hears each room, and the fan-out of a room's renderings to them.

:class:`Audience` owns this node's connections (``clients``) and, per room, the connections
listening as each recipient (a seat, or ``None``: the spectators). A rendering is encoded
and framed once per codec and delta-or-full choice, and the same bytes are queued on every
connection that hears it (``server/net/connection.py``).
"""

from __future__ import annotations

from ..rooms.render import Change
from ..rooms.room import Recipient
from .connection import Client, wire
from .metrics import Metrics

#: one command's renderings: (recipient, delta or None, full update) for every recipient
Outs = list[Change]


class Audience:
    """This node's connections, and who of them listens to which room as whom."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.clients: set[Client] = set()
        #: room -> recipient -> the connections hearing the room as that recipient
        self.listeners: dict[str, dict[Recipient, set[Client]]] = {}

    def listen(self, room_id: str, client: Client, recipient: Recipient) -> None:
        self.listeners.setdefault(room_id, {}).setdefault(recipient, set()).add(client)

    def forget(self, room_id: str, client: Client) -> None:
        groups = self.listeners.get(room_id, {})
        for group in groups.values():
            group.discard(client)
        if not any(groups.values()):
            self.listeners.pop(room_id, None)

    def recipients_of(self, room_id: str, client: Client) -> list[Recipient]:
        return [r for r, g in self.listeners.get(room_id, {}).items() if client in g]

    def fan_out(self, room_id: str, outs: Outs) -> None:
        """Send each recipient's rendering to this node's listeners: the delta to those that
        take deltas, the full update to the others (and to all when there is no delta yet),
        each encoded and framed once per codec."""
        groups = self.listeners.get(room_id)
        if not groups:
            return
        for recipient, step, full in outs:
            group = groups.get(recipient)
            if not group:
                continue
            frames: dict[tuple[str, bool], bytes] = {}
            for client in list(group):
                use_delta = step is not None and client.deltas
                key = (client.codec.name, use_delta)
                frame = frames.get(key)
                if frame is None:
                    msg = step if use_delta else full
                    assert msg is not None
                    frame = frames[key] = wire(client.codec.encode(msg))
                client.send_wire(frame)

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        self.metrics.connections.set(len(self.clients))
        if client.dropped:
            self.metrics.send_drops.inc()
        for room_id in set(client.seats) | client.watching:
            self.forget(room_id, client)

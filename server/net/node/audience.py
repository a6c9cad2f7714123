"""Who on this node hears each room, and the fan-out of a room's renderings to them.

:class:`Audience` owns this node's connections (``clients``) and, per room, the connections
listening as each recipient (a seat, or ``None``: the spectators). A rendering is encoded
and framed once per codec and delta-or-full choice, and the same bytes are queued on every
connection that hears it (``server/net/transport/connection.py``).

It also knows who is **gone**: a seat whose last connection here left (``left``). The other
seats' connections are told (``opponent_gone``: a WebSocket message, a Bot API stream's
``opponentGone``), and after :attr:`Audience.claim_after` seconds the seat is ``absent``: the
room's ``claim_victory`` takes the absent seats from here. Presence is this node's only, so
while other nodes run (``alone`` false) nobody is reported gone and nothing can be claimed.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable

from ...rooms.render import Change
from ...rooms.room import Recipient
from ..transport.connection import Client, wire
from ..transport.metrics import Metrics

#: one command's renderings: (recipient, delta or None, full update) for every recipient
Outs = list[Change]
#: seconds a seat's player must have been gone before the other may claim the game
CLAIM_AFTER = 30.0
#: seats gone remembered at most (the oldest forgotten first: finished games, mostly)
MAX_LEFT = 65_536


class Audience:
    """This node's connections, and who of them listens to which room as whom."""

    def __init__(self, metrics: Metrics, *, alone: Callable[[], bool] = lambda: True) -> None:
        self.metrics = metrics
        self.clients: set[Client] = set()
        #: room -> recipient -> the connections hearing the room as that recipient
        self.listeners: dict[str, dict[Recipient, set[Client]]] = {}
        #: room -> seat -> when its last connection here left: that seat's player is gone
        #: (at most :data:`MAX_LEFT` seats, the oldest forgotten first)
        self.left: dict[str, dict[int, float]] = {}
        self.n_left = 0
        self.told: set[tuple[str, int]] = set()  # of those, the ones the others were told of
        self.claim_after = CLAIM_AFTER
        #: whether this node sees every connection (no other node running); presence is
        #: counted per node, so in a cluster nobody is reported gone
        self.alone = alone
        self.now: Callable[[], float] = time.monotonic

    def listen(self, room_id: str, client: Client, recipient: Recipient) -> None:
        self.listeners.setdefault(room_id, {}).setdefault(recipient, set()).add(client)
        left = self.left.get(room_id)
        if recipient is not None and left is not None and left.pop(recipient, None) is not None:
            self.n_left -= 1
            if not left:
                del self.left[room_id]
            if (room_id, recipient) in self.told:
                self.told.discard((room_id, recipient))
                self._tell_gone(room_id, recipient)

    def forget(self, room_id: str, client: Client) -> None:
        groups = self.listeners.get(room_id, {})
        for recipient, group in groups.items():
            if client in group:
                group.discard(client)
                if recipient is not None and not group:
                    self._left(room_id, recipient)
        if not any(groups.values()):
            self.listeners.pop(room_id, None)

    # -- presence: a seated player who left -------------------------------------------------

    def _left(self, room_id: str, seat: int) -> None:
        """``seat``'s last connection here left: it is gone from now (the others are told)."""
        while self.n_left >= MAX_LEFT:  # forget the room gone the longest
            self.forget_presence(next(iter(self.left)))
        at = self.now()
        seats = self.left.pop(room_id, {})  # re-inserted: the newest room last
        self.n_left += seat not in seats
        seats[seat] = at
        self.left[room_id] = seats
        self._soon(room_id, seat, at)

    def forget_presence(self, room_id: str) -> None:
        """Forget who of the room left: the room gone the longest when the book is full, or
        one hosted here no more (archived, or another node's now: else a node keeps two
        entries a game played, up to :data:`MAX_LEFT`, the soak's RSS rising with games)."""
        for seat in self.left.pop(room_id, {}):
            self.told.discard((room_id, seat))
            self.n_left -= 1

    def gone_for(self, room_id: str, seat: int) -> float | None:
        """Seconds since ``seat``'s last connection here left (None: not gone, or unknown)."""
        at = self.left.get(room_id, {}).get(seat)
        return None if at is None or not self.alone() else self.now() - at

    def absent(self, room_id: str) -> list[int]:
        """The seats gone for :attr:`claim_after` seconds or more (claimable)."""
        return [
            seat
            for seat in self.left.get(room_id, {})
            if (self.gone_for(room_id, seat) or 0.0) >= self.claim_after
        ]

    def gone_message(self, room_id: str, seat: int) -> dict[str, object]:
        """``opponent_gone`` for the other seats: whether ``seat`` is gone, and in how many
        seconds (rounded up) the game may be claimed."""
        gone = self.gone_for(room_id, seat)
        msg: dict[str, object] = {"type": "opponent_gone", "room": room_id, "seat": seat}
        msg["gone"] = gone is not None
        if gone is not None:
            msg["claim_in"] = math.ceil(max(0.0, self.claim_after - gone))
        return msg

    def _soon(self, room_id: str, seat: int, at: float) -> None:
        """Tell the others ``seat`` is gone once this turn of the loop is over, if it still
        is then (a connection that changes seats leaves and comes back at once)."""
        try:
            asyncio.get_running_loop().call_soon(self._gone_now, room_id, seat, at)
        except RuntimeError:  # no loop (a test of the audience alone)
            self._gone_now(room_id, seat, at)

    def _gone_now(self, room_id: str, seat: int, at: float) -> None:
        if self.left.get(room_id, {}).get(seat) == at and self.alone():
            self.told.add((room_id, seat))
            self._tell_gone(room_id, seat)

    def _tell_gone(self, room_id: str, seat: int) -> None:
        msg = self.gone_message(room_id, seat)
        for recipient, group in self.listeners.get(room_id, {}).items():
            if recipient is None or recipient == seat:
                continue
            for client in list(group):
                payload = client.codec.encode(msg)
                client.deliver(payload, wire(payload))

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
            frames: dict[tuple[str, bool], tuple[str | bytes, bytes]] = {}
            for client in list(group):
                use_delta = step is not None and client.deltas
                key = (client.codec.name, use_delta)
                encoded = frames.get(key)
                if encoded is None:
                    msg = step if use_delta else full
                    assert msg is not None
                    payload = client.codec.encode(msg)
                    encoded = frames[key] = (payload, wire(payload))
                client.deliver(*encoded)

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        self.metrics.connections.set(len(self.clients))
        if client.dropped:
            self.metrics.send_drops.inc()
        for room_id in set(client.seats) | client.watching:
            self.forget(room_id, client)

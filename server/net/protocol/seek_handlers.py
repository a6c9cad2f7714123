"""The seek and pairing messages (docs/PROTOCOL.md "Seeks", "Quick pairing"): each a thin
handler over the node's :class:`~server.net.services.matchmaking.seeks.Seeks` service."""

from __future__ import annotations

import contextlib
from typing import Any

from ..transport.connection import Client
from ..transport.errors import ProtocolError
from .handlers import Handlers


async def seek(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    seek_id = await h.seeks.post(client, msg)
    return {"type": "seek_posted", "seek": seek_id}


async def cancel_seek(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    await h.seeks.cancel(client, msg.get("seek"))
    return {"type": "seek_cancelled", "seek": msg.get("seek")}


async def accept_seek(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    service = h.seeks
    paired = await service.accept(client, msg.get("seek"))
    if paired is None:
        return {"type": "seek_joined", "seek": msg.get("seek")}
    await h.attach_seat(client, paired["room"], paired["seat"], paired["token"])
    client.send(paired | ({"id": msg["id"]} if "id" in msg else {}))
    with contextlib.suppress(ProtocolError):
        await h.push_state(client, paired["room"], None)
    return {}


async def list_seeks(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    service = h.seeks
    service.listeners.add(client)
    return {"type": "seeks", "seeks": service.seeks_for(client, await service.seek_list())}


async def pool_join(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    pool = await h.seeks.pool_join(client, msg)
    return {"type": "pool_joined", "pool": pool}


async def pool_leave(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    left = await h.seeks.pool_leave(client, msg.get("pool"))
    return {"type": "pool_left", "pool": msg.get("pool"), "was_waiting": left}


async def pairing(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = msg.get("room")
    if not isinstance(room_id, str) or len(room_id) > 64:
        raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
    found = await h.seeks.store.pairing(room_id)
    return {"type": "pairing", "room": room_id, "pairing": found}

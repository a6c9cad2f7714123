"""The tournament messages (docs/PROTOCOL.md "Tournaments"): each a thin handler over the
node's :class:`~server.net.services.tournaments.service.Tournaments` service.

A player is known to a tournament by a key: ``u:{account}`` when logged in (shown in
standings), else the guest key of seeks (``guest:{digest of the session}``, never sent to
anybody but its owner).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...tournaments.spec import ID
from ..services.names import guest_name
from ..services.tournaments.service import Tournaments, entrant_key
from ..transport.connection import Client
from ..transport.errors import ProtocolError
from .handlers import Handlers, admitted, repeated


def _service(h: Handlers) -> Tournaments:
    return h.tournaments


def _tid(msg: dict[str, Any]) -> str:
    tid = msg.get("tournament")
    if not isinstance(tid, str) or not ID.fullmatch(tid):
        raise ProtocolError("no_such_tournament", f"there is no tournament {tid!r}")
    return tid


async def tournament_create(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    raw = {k: v for k, v in msg.items() if k not in ("type", "id")}
    if raw.get("rated") is True and client.user is None:
        raise ProtocolError("forbidden", "log in to create a rated tournament")
    guest = "" if client.user else client.address  # guests are counted by address
    with admitted(h, client):
        tid, view = await _service(h).create(raw, entrant_key(client), address=guest)
    return {"type": "tournament_created", "tournament": tid, "view": view}


async def tournament_join(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    key = entrant_key(client)
    if client.user:
        name = client.user
    elif msg.get("name") is None:
        name = f"Guest {hashlib.sha256(b'name' + key.encode()).hexdigest()[:4]}"  # not the key
    else:  # a guest's own name: printable, and no account's
        name = await guest_name(h.accounts.store, msg.get("name"))
    args = {"key": key, "name": name, "user": client.user}
    await _service(h).call(tid, "join", args)
    return {"type": "tournament_joined", "tournament": tid}


async def tournament_add_bot(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    level = msg.get("level")
    if not isinstance(level, str) or not 1 <= len(level) <= 20:
        raise ProtocolError("bad_request", "'level' names a bot strength")
    got = await _service(h).call(tid, "add_bot", {"by": entrant_key(client), "level": level})
    return {"type": "tournament_joined", "tournament": tid, "key": got["key"]}


async def tournament_withdraw(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    await _service(h).call(tid, "withdraw", {"key": entrant_key(client)})
    return {"type": "tournament_withdrawn", "tournament": tid}


async def tournament_cancel(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    await _service(h).call(tid, "cancel", {"key": entrant_key(client)})
    return {"type": "tournament_cancelled", "tournament": tid}


async def tournament_berserk(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    room = msg.get("room")
    if not isinstance(room, str) or not ID.fullmatch(room):
        raise ProtocolError("no_such_room", f"there is no room {room!r}")
    result = await _service(h).call(tid, "berserk", {"key": entrant_key(client), "room": room})
    return repeated({"type": "tournament_berserked", "tournament": tid, "room": room}, result)


async def tournament_list(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    service = _service(h)
    service.list_watchers.add(client)
    return await service.listing()


async def tournament_watch(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    service = _service(h)
    reply = await service.message(tid, client)  # no_such_tournament: not watched
    service.watch(client, tid)
    return reply


async def tournament_unwatch(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    tid = _tid(msg)
    _service(h).unwatch(client, tid)
    return {"type": "tournament_unwatched", "tournament": tid}

"""Request handlers: one per message ``type``; each validates its fields and calls the hub.

Every handler returns the reply (echoing the request ``id``) or raises an error that the
connection loop turns into an ``error`` message. Room updates reach clients through the
hub's fan-out; the reply only confirms. docs/PROTOCOL.md documents every message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..rooms.errors import Forbidden, NotSeated
from ..rooms.room import Event, Recipient, Room, clamp_since
from .connection import Client
from .errors import ProtocolError
from .hub import Hosted, Hub

PROTOCOL_VERSION = 1

Handler = Callable[["Handlers", Client, dict[str, Any]], Awaitable[dict[str, Any]]]
HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return register


def _opt_int(msg: dict[str, Any], key: str) -> int | None:
    value = msg.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("bad_request", f"{key!r} must be a whole number")
    return value


def _str(msg: dict[str, Any], key: str, *, max_len: int = 200) -> str:
    value = msg.get(key)
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise ProtocolError("bad_request", f"{key!r} must be a non-empty string (max {max_len})")
    return value


class Handlers:
    """The protocol's requests, bound to one hub."""

    def __init__(self, hub: Hub, *, server_name: str = "kibitz") -> None:
        self.hub = hub
        self.server_name = server_name

    async def dispatch(self, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg["type"]
        handler = HANDLERS.get(kind)
        if handler is None:
            raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
        if not client.greeted and kind != "hello":
            raise ProtocolError("bad_request", 'say hello first: {"type": "hello", "protocol": 1}')
        return await handler(self, client, msg)

    # -- helpers ------------------------------------------------------------------------------

    def seat_of(self, client: Client, room: Room, msg: dict[str, Any]) -> tuple[int, str]:
        """The seat this client acts for in ``room`` (``seat`` may be left out if it holds one)."""
        held = client.seats.get(room.id, {})
        seat = _opt_int(msg, "seat")
        if seat is None:
            if len(held) == 1:
                seat = next(iter(held))
            elif not held:
                raise NotSeated(f"you hold no seat in room {room.id}")
            else:
                raise ProtocolError("bad_request", "you hold several seats here: say which 'seat'")
        if seat not in held:
            raise NotSeated(f"you do not hold seat {seat} in room {room.id}")
        return seat, held[seat]

    async def attach_seat(self, client: Client, hosted: Hosted, seat: int, token: str) -> None:
        client.seats.setdefault(hosted.room.id, {})[seat] = token
        hosted.listen(client, seat)
        await self.hub.save_session(client)

    def push_state(self, client: Client, hosted: Hosted, since: int | None) -> None:
        """Send ``client`` what it missed (or the whole state) for each of its recipients."""
        recipients: list[Recipient] = hosted.recipients_of(client)
        for r in recipients:
            client.send(hosted.room.resync(r, since))


# -- session ----------------------------------------------------------------------------------


@handles("hello")
async def hello(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    if msg.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(
            "unsupported_protocol", f"this server speaks protocol {PROTOCOL_VERSION}"
        )
    since = msg.get("since") or {}
    if not isinstance(since, dict):
        raise ProtocolError("bad_request", "'since' maps room ids to versions")
    resumed = False
    secret = msg.get("session")
    if secret is not None:
        if not isinstance(secret, str) or not 16 <= len(secret) <= 128:
            raise ProtocolError("bad_request", "'session' is the secret a welcome gave you")
        resumed = await h.hub.load_session(client, secret)
    if not resumed:
        client.session = h.hub.make_secret(24)
        await h.hub.save_session(client)
    client.greeted = True
    rooms = []
    for room_id in sorted(set(client.seats) | client.watching):
        try:
            hosted = await h.hub.get(room_id)
        except ProtocolError:
            client.seats.pop(room_id, None)
            client.watching.discard(room_id)
            continue
        for seat in client.seats.get(room_id, {}):
            hosted.listen(client, seat)
        if room_id in client.watching and room_id not in client.seats:
            hosted.listen(client, None)
        rooms.append({"room": room_id, "seats": sorted(client.seats.get(room_id, {}))})
    reply = {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "server": h.server_name,
        "session": client.session,
        "resumed": resumed,
        "rooms": rooms,
        "limits": {
            "max_message": client.limits.max_message,
            "rate": client.limits.rate,
            "burst": client.limits.burst,
        },
    }
    client.send(reply | ({"id": msg["id"]} if "id" in msg else {}))
    for entry in rooms:
        hosted = await h.hub.get(entry["room"])
        h.push_state(client, hosted, clamp_since(since.get(entry["room"])))
    return {}


@handles("ping")
async def ping(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return {"type": "pong"}


# -- lobby ------------------------------------------------------------------------------------


@handles("list_games")
async def list_games(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return {"type": "games", "games": [g.info() for g in h.hub.registry]}


@handles("list_rooms")
async def list_rooms(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    game = msg.get("game")
    if game is not None and not isinstance(game, str):
        raise ProtocolError("bad_request", "'game' must be a string")
    return {"type": "rooms", "rooms": await h.hub.lobby(game)}


@handles("create_room")
async def create_room(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.create(
        msg.get("game"), msg.get("options"), msg.get("seats"), msg.get("settings")
    )
    return {"type": "room_created", "room": hosted.room.id, "summary": hosted.room.summary()}


# -- seats and watching -----------------------------------------------------------------------


@handles("take_seat")
async def take_seat(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    seat = _opt_int(msg, "seat")
    name = msg.get("name")
    token = h.hub.make_secret(24)
    events = await h.hub.run(hosted, lambda room: room.take_seat(seat, token, name, h.hub.clock()))
    taken = events[0].data["seat"]
    hosted.forget(client)  # a seated client hears its seat, not the spectators' view
    client.watching.discard(hosted.room.id)
    for held in client.seats.get(hosted.room.id, {}):
        hosted.listen(client, held)
    await h.attach_seat(client, hosted, taken, token)
    client.send(hosted.room.resync(taken, None))
    return {"type": "seated", "room": hosted.room.id, "seat": taken, "token": token}


@handles("join")
async def join(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Reclaim a seat with its token (another device, a lost session)."""
    hosted = await h.hub.get(msg.get("room"))
    seat = _opt_int(msg, "seat")
    if seat is None:
        raise ProtocolError("bad_request", "'seat' is required")
    token = _str(msg, "token")
    hosted.room.check_token(seat, token)
    hosted.listeners.get(None, set()).discard(client)
    client.watching.discard(hosted.room.id)
    await h.attach_seat(client, hosted, seat, token)
    client.send(hosted.room.resync(seat, clamp_since(msg.get("since"))))
    return {"type": "seated", "room": hosted.room.id, "seat": seat, "token": token}


@handles("watch")
async def watch(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    room_id = hosted.room.id
    if hosted.room.policy.spectator_delay and room_id in client.seats:
        raise Forbidden(
            "spectators of this room see everything (late): seated players may not watch"
        )
    if room_id not in client.seats:
        client.watching.add(room_id)
        hosted.listen(client, None)
        await h.hub.save_session(client)
    h.push_state(client, hosted, clamp_since(msg.get("since")))
    return {"type": "watching", "room": room_id}


@handles("resync")
async def resync(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    if not hosted.recipients_of(client):
        raise ProtocolError("bad_request", "neither seated nor watching here: take_seat or watch")
    h.push_state(client, hosted, clamp_since(msg.get("since")))
    return {"type": "ok", "room": hosted.room.id, "version": hosted.room.version}


@handles("leave")
async def leave(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Stop listening to a room; a seat is given back only before the game starts."""
    hosted = await h.hub.get(msg.get("room"))
    room = hosted.room
    held = client.seats.get(room.id, {})
    if room.status == "waiting":
        for seat, token in sorted(held.items()):

            def give_back(r: Room, seat: int = seat, token: str = token) -> list[Event]:
                return r.leave_seat(seat, token, h.hub.clock())

            await h.hub.run(hosted, give_back)
        client.seats.pop(room.id, None)
    hosted.forget(client)
    client.watching.discard(room.id)
    await h.hub.save_session(client)
    return {"type": "left", "room": room.id}


# -- playing ----------------------------------------------------------------------------------


@handles("move")
async def move(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    seat, token = h.seat_of(client, hosted.room, msg)
    text = msg.get("move")
    expect = _opt_int(msg, "version")
    events = await h.hub.run(
        hosted, lambda room: room.move(seat, token, text, h.hub.clock(), expect)
    )
    reply = {"type": "moved", "room": hosted.room.id, "version": hosted.room.version}
    if events[-1].kind == "sealed":
        reply["sealed"] = True
    return reply


@handles("resign")
async def resign(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    seat, token = h.seat_of(client, hosted.room, msg)
    await h.hub.run(hosted, lambda room: room.resign(seat, token, h.hub.clock()))
    return {"type": "ok", "room": hosted.room.id, "version": hosted.room.version}


@handles("undo")
async def undo(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    seat, token = h.seat_of(client, hosted.room, msg)
    await h.hub.run(hosted, lambda room: room.request_undo(seat, token, h.hub.clock()))
    return {"type": "ok", "room": hosted.room.id, "version": hosted.room.version}


@handles("undo_answer")
async def undo_answer(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    seat, token = h.seat_of(client, hosted.room, msg)
    accept = msg.get("accept")
    await h.hub.run(hosted, lambda room: room.answer_undo(seat, token, accept, h.hub.clock()))
    return {"type": "ok", "room": hosted.room.id, "version": hosted.room.version}


@handles("record")
async def record(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    hosted = await h.hub.get(msg.get("room"))
    return {"type": "record", "room": hosted.room.id, "record": hosted.room.record()}

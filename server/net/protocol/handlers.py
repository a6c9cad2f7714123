"""Request handlers: one per message ``type``; each validates its fields and calls the hub.

The handlers of the session, the seats and play live here; the lobby's, the seeks' and the
social ones beside (``lobby_handlers.py``, ``seek_handlers.py``, ``social.py``). Each is a
plain function, registered in the one table of message types, ``server/net/protocol/messages.py``.

Every handler returns the reply (echoing the request ``id``) or raises an error that the
connection loop turns into an ``error`` message. Room updates reach clients through the
hub's fan-out; the reply only confirms. docs/PROTOCOL.md documents every message.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ...bots import ladder, strengths
from ...rooms.errors import Forbidden, NotSeated
from ...rooms.room import clamp_since
from ..node.hub import ROOM_ID, Hub
from ..services.accounts import Accounts, authenticate
from ..services.matchmaking.seeks import Seeks
from ..services.names import guest_name
from ..services.seats.engines import Engines
from ..services.tournaments.service import Tournaments
from ..transport.admission import Admission, Refused, Work, unlimited
from ..transport.connection import Client, TokenBucket
from ..transport.errors import ProtocolError
from .seating import Seating

#: ``history`` requests a connection may make: a second on average, five at once
HISTORY_RATE, HISTORY_BURST = 1.0, 5

#: the newest protocol: live room changes arrive as ``delta`` messages
PROTOCOL_VERSION = 2
#: every protocol this server speaks (1: every change is a full ``update``)
PROTOCOLS = (1, 2)
#: one message type's handler: (the node's handlers, the connection, the message) -> reply
Handler = Callable[["Handlers", Client, dict[str, Any]], Awaitable[dict[str, Any]]]


def opt_int(msg: dict[str, Any], key: str) -> int | None:
    value = msg.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("bad_request", f"{key!r} must be a whole number")
    return value


def room_arg(msg: dict[str, Any]) -> str:
    room_id = msg.get("room")
    if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
        raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
    return room_id


def _str(msg: dict[str, Any], key: str, *, max_len: int = 200) -> str:
    value = msg.get(key)
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise ProtocolError("bad_request", f"{key!r} must be a non-empty string (max {max_len})")
    return value


def command_id(client: Client, msg: dict[str, Any]) -> str | None:
    """The request's ``cid`` (a client command id), scoped to the client's session: a retry
    with the same ``cid`` returns the first outcome instead of acting twice."""
    cid = msg.get("cid")
    if cid is None:
        return None
    if not isinstance(cid, str) or not 1 <= len(cid) <= 64:
        raise ProtocolError("bad_request", "'cid' must be a string of 1 to 64 characters")
    session = hashlib.sha256((client.session or "").encode()).hexdigest()[:16]
    return f"{session}/{cid}"


def seat_token(client: Client, room_id: str, cid: str) -> str:
    """The seat token a ``take_seat`` with a command id gets: derived from the session's
    secret, so a retry is handed the same token and nobody else can derive it."""
    raw = hashlib.sha256(f"{client.session}\x00{room_id}\x00{cid}".encode()).digest()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def repeated(reply: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Mark the reply to a command that changed nothing new: a retried room command (same
    ``cid``), or a ``tournament_berserk`` already done."""
    if result.get("repeated"):
        reply["repeated"] = True
    return reply


def cid_arg(client: Client, msg: dict[str, Any]) -> dict[str, str]:
    cid = command_id(client, msg)
    return {} if cid is None else {"cid": cid}


def _served(service: Any, what: str) -> Any:
    if service is None:
        raise ProtocolError("unavailable", f"{what} are not served here")
    return service


class Handlers:
    """The protocol's requests, bound to one hub: ``table`` maps each message type to its
    handler (the server's is :data:`server.net.protocol.messages.MESSAGES`); ``seating``
    seats connections and sends a joining one its state and what its ``on_join`` hooks send
    (the server's: :data:`~server.net.protocol.messages.ON_JOIN`). The handlers call the
    node's services they are given (None: not served here).
    """

    def __init__(
        self,
        hub: Hub,
        table: Mapping[str, Handler],
        *,
        seating: Seating | None = None,
        accounts: Accounts | None = None,
        seeks: Seeks | None = None,
        tournaments: Tournaments | None = None,
        engines: Engines | None = None,
        server_name: str = "kibitz",
        bots: bool = True,
        admission: Admission | None = None,
    ) -> None:
        self.hub = hub
        self.table = table
        self.seating = seating if seating is not None else Seating(hub)
        self._accounts = accounts
        self._seeks = seeks
        self._tournaments = tournaments
        self.server_name = server_name
        self.bots = bots
        #: the node's admission of new work (rooms, tournaments, games with a bot): the
        #: counts both doors share (None: nothing counted)
        self.admission = admission
        #: the ladder as ``kibitz ladder`` measured it (read once, at start)
        self.ladder = ladder.load() if bots else {}
        #: UCI engines offered as seats (``kibitz serve --engine``)
        self.engines = engines

    @property
    def accounts(self) -> Accounts:
        return _served(self._accounts, "accounts")

    @property
    def seeks(self) -> Seeks:
        return _served(self._seeks, "seeks")

    @property
    def tournaments(self) -> Tournaments:
        return _served(self._tournaments, "tournaments")

    def attach_seat(self, client: Client, room_id: str, seat: int, token: str) -> Awaitable[None]:
        return self.seating.attach_seat(client, room_id, seat, token)

    def push_state(self, client: Client, room_id: str, since: int | None) -> Awaitable[int]:
        return self.seating.push_state(client, room_id, since)

    def push_chat(self, client: Client, room_id: str, status: str) -> Awaitable[None]:
        return self.seating.push_chat(client, room_id, status)

    def bot_strengths(self, game: str) -> list[str]:
        if not self.bots:
            return []
        engines = self.engines.strengths(game) if self.engines is not None else []
        try:
            return list(strengths(game)) + engines
        except KeyError:
            return engines

    def dispatch(self, client: Client, msg: dict[str, Any]) -> Awaitable[dict[str, Any]]:
        """The handler's answer to await (a bad type or a client that did not say hello
        raises here). Not a coroutine itself: one layer less to resume on every message."""
        kind = msg["type"]
        handler = self.table.get(kind)
        if handler is None:
            raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
        if not client.greeted and kind != "hello":
            raise ProtocolError("bad_request", 'say hello first: {"type": "hello", "protocol": 1}')
        return handler(self, client, msg)

    # -- helpers ------------------------------------------------------------------------------

    def seat_of(self, client: Client, room_id: str, msg: dict[str, Any]) -> tuple[int, str]:
        """The seat this client acts for in the room (``seat`` may be left out if it holds one)."""
        held = client.seats.get(room_id, {})
        seat = opt_int(msg, "seat")
        if seat is None:
            if len(held) == 1:
                seat = next(iter(held))
            elif not held:
                raise NotSeated(f"you hold no seat in room {room_id}")
            else:
                raise ProtocolError("bad_request", "you hold several seats here: say which 'seat'")
        if seat not in held:
            raise NotSeated(f"you do not hold seat {seat} in room {room_id}")
        return seat, held[seat]

    def command(self, room_id: str, op: str, **args: Any) -> Awaitable[dict[str, Any]]:
        return self.hub.command(room_id, op, args)


# -- session ----------------------------------------------------------------------------------


async def hello(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    protocol = msg.get("protocol")
    if protocol not in PROTOCOLS or isinstance(protocol, bool):
        raise ProtocolError(
            "unsupported_protocol",
            f"this server speaks protocols {', '.join(map(str, PROTOCOLS))}",
        )
    deltas = msg.get("deltas", True)
    if not isinstance(deltas, bool):
        raise ProtocolError("bad_request", "'deltas' must be true or false")
    client.deltas = protocol >= 2 and deltas
    since = msg.get("since") or {}
    if not isinstance(since, dict):
        raise ProtocolError("bad_request", "'since' maps room ids to versions")
    resumed = False
    secret = msg.get("session")
    if secret is not None:
        if not isinstance(secret, str) or not 16 <= len(secret) <= 128:
            raise ProtocolError("bad_request", "'session' is the secret a welcome gave you")
        resumed = await h.hub.sessions.load(client, secret)
    if not resumed and client.session is None:
        # stored only once it holds something (a seat, a watched room): a hello costs Redis
        # nothing, so no client can grow it by saying hello
        client.session = h.hub.make_secret(24)
    # -- accounts (issue 13): "auth" token or the login cookie; a bad one: a guest + notice --
    authenticated = await authenticate(h.accounts, client, msg.get("auth"))
    # -- end accounts
    client.greeted = True
    rooms: list[dict[str, Any]] = []
    for room_id in sorted(set(client.seats) | client.watching):
        for seat in client.seats.get(room_id, {}):
            h.hub.audience.listen(room_id, client, seat)
        if room_id in client.watching and room_id not in client.seats:
            h.hub.audience.listen(room_id, client, None)
        rooms.append({"room": room_id, "seats": sorted(client.seats.get(room_id, {}))})
    reply = {
        "type": "welcome",
        "protocol": protocol,
        "deltas": client.deltas,
        "server": h.server_name,
        "node": h.hub.node,
        "session": client.session,
        "resumed": resumed,
        "rooms": rooms,
        "user": client.user,  # accounts (issue 13)
        "limits": {
            "max_message": client.limits.max_message,
            "rate": client.limits.rate,
            "burst": client.limits.burst,
        },
    }
    client.send(reply | ({"id": msg["id"]} if "id" in msg else {}))
    if not authenticated:  # accounts (issue 13)
        client.send({"type": "auth_failed", "message": "not logged in: a bad or expired token"})
    for room_id in [str(entry["room"]) for entry in rooms]:
        try:
            await h.push_state(client, room_id, clamp_since(since.get(room_id)))
        except ProtocolError as exc:
            if exc.code == "no_such_room":  # gone (e.g. a wiped store): forget it
                client.seats.pop(room_id, None)
                client.watching.discard(room_id)
                h.hub.audience.forget(room_id, client)
            # unavailable (changing hosts): the client may send resync later
    return {}


async def ping(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return {"type": "pong"}


# -- seats and watching -----------------------------------------------------------------------


async def sitter(h: Handlers, client: Client, name: Any) -> dict[str, str]:
    """Who sits down: an account under its own name, a guest under ``name`` (checked: a
    name no account has)."""
    if client.user:
        return {"name": client.user, "user": client.user}
    return {"name": await guest_name(h.accounts.store, name)}


async def seated(h: Handlers, client: Client, room_id: str, seat: int, token: str) -> None:
    """The client took ``seat``: it holds it, and is sent the seat's state and the chat."""
    await h.attach_seat(client, room_id, seat, token)
    update = await h.hub.read(room_id, "resync", {"recipient": seat, "since": None})
    client.send(update)
    await h.push_chat(client, room_id, update["status"])


async def take_seat(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    cid = command_id(client, msg)
    token = h.hub.make_secret(24) if cid is None else seat_token(client, room_id, cid)
    who = await sitter(h, client, msg.get("name"))
    result = await h.command(
        room_id,
        "take_seat",
        seat=opt_int(msg, "seat"),
        token=token,
        **who,
        **({"cid": cid} if cid else {}),
    )
    taken = result["events"][0]["seat"]
    await seated(h, client, room_id, taken, token)
    return repeated({"type": "seated", "room": room_id, "seat": taken, "token": token}, result)


def admitted(
    h: Handlers, client: Client, *, bot: bool = False, room: str = "", rate: bool = True
) -> Work:
    """New work from ``client`` (a room, a tournament; ``bot``: a game with a bot), to
    create inside the returned context (``with``): refused ``too_many`` past the limits of
    :class:`~server.net.transport.admission.Admission` (see :meth:`~.Admission.start`), with nothing
    counted."""
    if h.admission is None:
        return unlimited()
    try:
        return h.admission.start(client.address, client.user, bot=bot, room=room, rate=rate)
    except Refused as exc:
        raise ProtocolError("too_many", exc.message) from None


def bot_seat(h: Handlers, game: str, strength: Any) -> dict[str, str]:
    """The ``add_bot`` arguments for a bot of ``strength`` in ``game``, checked: a strength
    this server offers for the game, and a place in an engine's pool for an engine's."""
    offered = h.bot_strengths(game)
    if strength not in offered:
        raise ProtocolError("bad_request", f"no bot {strength!r} for {game} (offered: {offered})")
    name = f"{strength.capitalize()} bot"
    engine = h.engines.find(strength) if h.engines is not None else None
    if h.engines is not None and engine is not None:  # a place in the engine's pool
        h.engines.check_room(strength, h.hub.rooms)
        name = engine[0].spec.title(engine[1])
    return {"bot": strength, "name": name}


async def add_bot(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Put a bot of a named strength in an empty seat (anyone may, before or during play)."""
    room_id = room_arg(msg)
    info = await h.hub.read(room_id, "info", {})
    bot = bot_seat(h, info["game"], msg.get("strength", "normal"))
    seat = opt_int(msg, "seat")
    if seat is None:
        free = [i for i, s in enumerate(info["seats"]) if s["kind"] == "empty"]
        seat = free[0] if free else 0
    with admitted(h, client, bot=True, room=room_id, rate=False) as work:
        if room_id in h.hub.rooms:  # a game with a bot hosted here: counted while it lasts
            work.made(room_id)
        result = await h.command(room_id, "add_bot", seat=seat, **bot, **cid_arg(client, msg))
    return {"type": "ok", "room": room_id, "version": result["version"], "seat": seat}


async def join(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Reclaim a seat with its token (another device, a lost session)."""
    room_id = room_arg(msg)
    seat = opt_int(msg, "seat")
    if seat is None:
        raise ProtocolError("bad_request", "'seat' is required")
    token = _str(msg, "token")
    await h.hub.read(room_id, "check_token", {"seat": seat, "token": token})
    await h.attach_seat(client, room_id, seat, token)
    since = clamp_since(msg.get("since"))
    update = await h.hub.read(room_id, "resync", {"recipient": seat, "since": since})
    client.send(update)
    await h.push_chat(client, room_id, update["status"])
    return {"type": "seated", "room": room_id, "seat": seat, "token": token}


async def watch(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    info = await h.hub.read(room_id, "info", {})
    if info["spectator_delay"] and room_id in client.seats:
        raise Forbidden(
            "spectators of this room see everything (late): seated players may not watch"
        )
    if room_id not in client.seats:
        if room_id not in client.watching and len(client.watching) >= client.limits.watch_max:
            raise ProtocolError(
                "too_many",
                f"a session watches at most {client.limits.watch_max} rooms: leave one first",
            )
        client.watching.add(room_id)
        h.hub.audience.listen(room_id, client, None)
        await h.hub.sessions.save(client)
    await h.push_state(client, room_id, clamp_since(msg.get("since")))
    return {"type": "watching", "room": room_id}


async def resync(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    if not h.hub.audience.recipients_of(room_id, client):
        raise ProtocolError("bad_request", "neither seated nor watching here: take_seat or watch")
    # the version of the update just sent, not the room's by now: a move between the two
    # reads would name an update that, from another node, may never come (a lost publish)
    version = await h.push_state(client, room_id, clamp_since(msg.get("since")))
    return {"type": "ok", "room": room_id, "version": version}


async def leave(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Stop listening to a room; a seat is given back before the game starts, and forgotten
    once it is over (a finished game's seat is not kept in the session for ever)."""
    room_id = room_arg(msg)
    info = await h.hub.read(room_id, "info", {})
    held = client.seats.get(room_id, {})
    if info["status"] == "waiting":
        for seat, token in sorted(held.items()):
            await h.command(room_id, "leave_seat", seat=seat, actor=token)
        client.seats.pop(room_id, None)
    elif info["status"] == "over":
        client.seats.pop(room_id, None)
    h.hub.audience.forget(room_id, client)
    client.watching.discard(room_id)
    await h.hub.sessions.save(client)
    return {"type": "left", "room": room_id}


# -- playing ----------------------------------------------------------------------------------


async def move(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    seat, token = h.seat_of(client, room_id, msg)
    result = await h.command(
        room_id,
        "move",
        seat=seat,
        actor=token,
        text=msg.get("move"),
        expect_version=opt_int(msg, "version"),
        **cid_arg(client, msg),
    )
    reply = {"type": "moved", "room": room_id, "version": result["version"]}
    if result["events"][-1]["kind"] == "sealed":
        reply["sealed"] = True
    return repeated(reply, result)


async def seat_command(
    h: Handlers, client: Client, msg: dict[str, Any], op: str, **args: Any
) -> dict[str, Any]:
    """A room command a seat gives (``op``), answered with ``ok`` and the new version."""
    room_id = room_arg(msg)
    seat, token = h.seat_of(client, room_id, msg)
    result = await h.command(room_id, op, seat=seat, actor=token, **args, **cid_arg(client, msg))
    return repeated({"type": "ok", "room": room_id, "version": result["version"]}, result)


async def resign(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return await seat_command(h, client, msg, "resign")


async def undo(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return await seat_command(h, client, msg, "request_undo")


async def undo_answer(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return await seat_command(h, client, msg, "answer_undo", accept=msg.get("accept"))


async def history(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Every view this connection's seat (or, watching, the spectator) was shown so far."""
    room_id = room_arg(msg)
    recipients = h.hub.audience.recipients_of(room_id, client)
    if not recipients:
        raise ProtocolError("bad_request", "neither seated nor watching here: take_seat or watch")
    if client.history_bucket is None:
        client.history_bucket = TokenBucket(HISTORY_RATE, HISTORY_BURST)
    if not client.history_bucket.take():  # each one replays the whole game on its host
        raise ProtocolError("rate_limited", f"history: at most {HISTORY_RATE:g} a second")
    found = await h.hub.read(room_id, "history", {"recipient": recipients[0]})
    return {"type": "history", "room": room_id, **found}


async def record(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    seated = bool(client.seats.get(room_id))  # spectators see the record as late as the game
    record = await h.hub.read(room_id, "record", {"seated": seated})
    return {"type": "record", "room": room_id, "record": record}

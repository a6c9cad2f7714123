"""At the board, besides moves: draw offers, aborts, claims, rematches, and chat.

The offers are room commands (``server/rooms/offers.py``) sent by a seat, like ``resign``.
Chat is not part of a room's log: the last :data:`CHAT_KEEP` messages of a room are kept in
Redis (``chat:{room}``) and pushed to listeners as they come, through the same fan-out as
room changes (so they reach listeners on every node).

Two channels per room: ``players`` (written by a connection that holds a seat) and
``spectators``. While a game runs, spectators' chat never reaches the seated players — in a
hidden-information game they could be told what the spectator view shows, and in any game
what the spectators' engines say; players' chat reaches everybody. Once the game is over
both channels reach everybody. Text is plain text (clients must show it as text), at most
:data:`CHAT_MAX` characters, at most :data:`CHAT_RATE` messages per
:data:`CHAT_WINDOW` seconds per connection.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from ...store.log import pack, unpack
from ..node.hub import Hub, Outs
from ..services.archive.archived import ArchivedReads
from ..transport.connection import Client, TokenBucket
from ..transport.errors import ProtocolError
from .handlers import Handlers, room_arg, seat_command
from .seating import Seating

CHAT_MAX = 500
CHAT_KEEP = 50
CHAT_RATE = 5
CHAT_WINDOW = 10.0


# -- offers -------------------------------------------------------------------------------------


async def draw(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Offer a draw (two-seat games); offering when the opponent's offer is open accepts."""
    return await seat_command(h, client, msg, "offer_draw")


async def draw_answer(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return await seat_command(h, client, msg, "answer_draw", accept=msg.get("accept"))


async def abort(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """End the game with no result, before every seat has made its first move."""
    return await seat_command(h, client, msg, "abort")


async def claim_victory(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Win (or with ``draw: true`` draw) a game whose opponent has been gone past the
    countdown (``opponent_gone``); refused before, and nothing changes."""
    draw = msg.get("draw", False)
    if not isinstance(draw, bool):
        raise ProtocolError("bad_request", "'draw' must be true or false")
    absent = h.hub.audience.absent(room_arg(msg))
    return await seat_command(h, client, msg, "claim_victory", absent=absent, draw=draw)


async def presence(h: Seating, client: Client, room_id: str, status: str) -> None:
    """On joining a running game as a seat: ``opponent_gone`` for each other seat gone now."""
    mine = client.seats.get(room_id)
    if status != "playing" or not mine:
        return
    for seat in list(h.hub.audience.left.get(room_id, {})):
        if seat not in mine and h.hub.audience.gone_for(room_id, seat) is not None:
            client.send(h.hub.audience.gone_message(room_id, seat))


async def rematch(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """Ask for a rematch of a finished game; when every person seated has asked, every
    seated connection gets ``rematch`` with its seat and token in the new room. A game
    with an engine in it needs a place in the engine's pool again (the finished game gave
    its place back): refused with ``busy``, the offer not made, when every place is taken."""
    if h.engines is not None:
        info = await h.hub.read(room_arg(msg), "info", {})
        for seat in info["seats"]:
            if seat["kind"] == "bot" and h.engines.find(seat["bot"]) is not None:
                h.engines.check_room(seat["bot"], h.hub.rooms)
    return await seat_command(h, client, msg, "offer_rematch")


async def rematch_decline(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return await seat_command(h, client, msg, "decline_rematch")


# -- chat ---------------------------------------------------------------------------------------


def clean_text(value: Any) -> str:
    """The text of a chat message: 1..CHAT_MAX characters of one line (control and format
    characters refused)."""
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("bad_request", "'text' must be a non-empty string")
    text = value.strip()
    if len(text) > CHAT_MAX:
        raise ProtocolError("bad_request", f"a chat message is at most {CHAT_MAX} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise ProtocolError("bad_request", "a chat message may not hold control characters")
    return text


def speaker(client: Client, room_id: str, seats: list[dict[str, Any]]) -> tuple[str, bool]:
    """Who a message is from, and whether that is an account's name: the account name, else
    the seat's name, else a guest name derived from the session (stable for one person,
    telling nothing of the secret)."""
    if client.user:
        return client.user, True
    for seat in sorted(client.seats.get(room_id, {})):
        name = seats[seat].get("name")
        if name:
            return str(name), bool(seats[seat].get("account"))
    tag = hashlib.sha256((client.session or "").encode()).hexdigest()[:6]
    return f"guest-{tag}", False


def audience(channel: str, status: str, n_seats: int) -> list[int | None]:
    """Who hears a message: spectators always; the seats too unless it is the spectators'
    channel of a game that is not over."""
    if channel == "spectators" and status != "over":
        return [None]
    return [*range(n_seats), None]


def may_read(entry: dict[str, Any], seated: bool, status: str) -> bool:
    return not seated or entry["channel"] == "players" or status == "over"


async def chat(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    text = clean_text(msg.get("text"))
    listening = h.hub.audience.recipients_of(room_id, client)
    if not listening:
        raise ProtocolError("bad_request", "watch the room or take a seat to chat in it")
    if client.chat_bucket is None:
        client.chat_bucket = TokenBucket(CHAT_RATE / CHAT_WINDOW, CHAT_RATE)
    if not client.chat_bucket.take():
        raise ProtocolError(
            "rate_limited", f"at most {CHAT_RATE} chat messages per {CHAT_WINDOW:.0f} seconds"
        )
    info = await h.hub.read(room_id, "info", {})
    channel = "players" if client.seats.get(room_id) else "spectators"
    name, account = speaker(client, room_id, info["seats"])
    entry: dict[str, Any] = {
        "type": "chat",
        "room": room_id,
        "from": name,
        "account": account,  # an account's name, or a guest's (server/net/services/names.py)
        "text": text,
        "channel": channel,
        "at": h.hub.clock(),
    }
    store = h.hub.store
    key = store.rk("chat", room_id)
    pipe = store.redis.pipeline(transaction=False)
    pipe.lpush(key, pack(entry))
    pipe.ltrim(key, 0, CHAT_KEEP - 1)
    pipe.expire(key, 30 * 24 * 3600)
    await pipe.execute()
    outs: Outs = [(r, None, entry) for r in audience(channel, info["status"], len(info["seats"]))]
    await h.hub.broadcast(room_id, outs)
    return {"type": "chat_sent", "room": room_id, "channel": channel}


async def readable_chat(
    hub: Hub, archived: ArchivedReads | None, room_id: str
) -> list[dict[str, Any]]:
    """The room's last :data:`CHAT_KEEP` messages, oldest first, both channels (from Redis,
    or from the archive once the finished game has left it): the caller shows each reader
    what it may read (:func:`may_read`)."""
    store = hub.store
    raw = await store.redis.lrange(store.rk("chat", room_id), 0, CHAT_KEEP - 1)
    entries = [unpack(b) for b in reversed(raw)]
    if not entries and archived is not None and not await store.exists(room_id):
        entries = await archived.chat(room_id)
    return entries


async def chat_history(h: Seating, client: Client, room_id: str, status: str) -> None:
    """Send ``client`` the messages it may read of the room's last :data:`CHAT_KEEP`."""
    seated = bool(client.seats.get(room_id))
    entries = await readable_chat(h.hub, h.archived, room_id)
    shown = [e for e in entries if may_read(e, seated, status)]
    client.send({"type": "chat_history", "room": room_id, "messages": shown})


async def chat_history_request(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    room_id = room_arg(msg)
    if not h.hub.audience.recipients_of(room_id, client):
        raise ProtocolError("bad_request", "watch the room or take a seat to read its chat")
    info = await h.hub.read(room_id, "info", {})
    await chat_history(h.seating, client, room_id, info["status"])
    return {"type": "ok", "room": room_id}

"""The lobby's requests: the games (``list_games``), a page of rooms (``list_rooms``) and a
new room (``create_room``); docs/PROTOCOL.md, Lobby."""

from __future__ import annotations

from typing import Any

from ..bots import ladder
from .connection import Client
from .errors import ProtocolError
from .handlers import Handlers, _opt_int

#: the most rooms one ``list_rooms`` answer holds
LOBBY_PAGE_MAX = 200


async def list_games(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    return {"type": "games", "games": [game_info(h, g) for g in h.hub.registry]}


def game_info(h: Handlers, game: Any) -> dict[str, Any]:
    """The registry entry plus the bot strengths this server offers for the game, and the
    same strengths as ladder levels with their measured ratings (docs/BOTS.md)."""
    offered = h.bot_strengths(game.name)
    levels = (
        [lv for lv in ladder.rated_levels(game.name, h.ladder) if lv["strength"] in offered]
        if offered
        else []
    )
    if offered and h.engines is not None:  # UCI engines as seats: their levels after ours
        levels += h.engines.levels(game.name, h.ladder)
    return {**game.info(), "bots": offered, "levels": levels}


async def list_rooms(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """A page of the lobby, newest first: ``game``, ``status`` (waiting/playing), ``open``
    (only rooms with an open seat) and ``attended`` (only rooms a player is connected to a
    seat of) filter; ``limit`` (default 50, at most :data:`LOBBY_PAGE_MAX`) and ``offset``
    page; ``total`` counts the matches."""
    game = msg.get("game")
    if game is not None and not isinstance(game, str):
        raise ProtocolError("bad_request", "'game' must be a string")
    status = msg.get("status")
    if status not in (None, "waiting", "playing"):
        raise ProtocolError("bad_request", "'status' is 'waiting' or 'playing'")
    open_only = msg.get("open", False)
    if not isinstance(open_only, bool):
        raise ProtocolError("bad_request", "'open' must be true or false")
    attended = msg.get("attended", False)
    if not isinstance(attended, bool):
        raise ProtocolError("bad_request", "'attended' must be true or false")
    limit = _opt_int(msg, "limit")
    limit = 50 if limit is None else limit
    offset = _opt_int(msg, "offset") or 0
    if not 1 <= limit <= LOBBY_PAGE_MAX or offset < 0:
        raise ProtocolError(
            "bad_request", f"'limit' is 1 to {LOBBY_PAGE_MAX}, 'offset' not negative"
        )
    rooms = await h.hub.lobby.entries(game)
    if status is not None:
        rooms = [r for r in rooms if r.get("status") == status]
    if open_only:
        rooms = [r for r in rooms if r.get("open_seats")]
    if attended:
        here = await h.hub.lobby.attended([r["room"] for r in rooms])
        rooms = [r for r, yes in zip(rooms, here, strict=True) if yes]
    page = rooms[offset : offset + limit]
    return {"type": "rooms", "rooms": page, "total": len(rooms), "offset": offset}


async def create_room(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    admission = h.hub.admission
    if admission is not None and not admission.may_create(client.address):
        raise ProtocolError(
            "too_many", "too many new rooms from your address: try again in a minute"
        )
    summary = await h.hub.create(
        msg.get("game"), msg.get("options"), msg.get("seats"), msg.get("settings")
    )
    return {"type": "room_created", "room": summary["room"], "summary": summary}

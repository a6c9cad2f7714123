"""The lobby's requests: the games (``list_games``), a page of rooms (``list_rooms``), the
lobby's two lists in one answer (``lobby``) and a new room (``create_room``);
docs/PROTOCOL.md, Lobby."""

from __future__ import annotations

from typing import Any

from ...bots import ladder
from ..transport.connection import Client
from ..transport.errors import ProtocolError
from .handlers import Handlers, admitted, bot_seat, opt_int, seated, sitter

#: the most rooms one ``list_rooms`` answer holds
LOBBY_PAGE_MAX = 200
#: the most bots one ``create_room`` seats (Hase und Igel's six runners, one of them you)
MAX_CREATE_SEATS = 6


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
    limit = opt_int(msg, "limit")
    limit = 50 if limit is None else limit
    offset = opt_int(msg, "offset") or 0
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


#: what a ``lobby`` answer lists at most: rooms one can join, games in progress
LOBBY_OPEN_MAX = 40
LOBBY_PLAYING_MAX = 20


async def lobby(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """The lobby's two lists from one read of the rooms, so that they tell one story: the
    rooms one can join (waiting, a seat open) and the games in progress a player is at;
    a room is in one of them at most, whatever happens between two answers. ``game``
    filters; ``open_total`` and ``playing_total`` count past the page."""
    game = msg.get("game")
    if game is not None and not isinstance(game, str):
        raise ProtocolError("bad_request", "'game' must be a string")
    rooms = await h.hub.lobby.entries(game)
    joinable = [r for r in rooms if r.get("status") == "waiting" and r.get("open_seats")]
    going = [r for r in rooms if r.get("status") == "playing"]
    here = await h.hub.lobby.attended([r["room"] for r in going])
    going = [r for r, yes in zip(going, here, strict=True) if yes]
    return {
        "type": "lobby",
        "open": joinable[:LOBBY_OPEN_MAX],
        "playing": going[:LOBBY_PLAYING_MAX],
        "open_total": len(joinable),
        "playing_total": len(going),
    }


async def create_room(h: Handlers, client: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """A new room; ``sit`` (a seat number) seats its creator there and ``bots`` (``[{"seat",
    "strength"}]``) puts bots in seats, all in the room's first append: the lobby never
    shows it with those seats open (docs/PROTOCOL.md, Lobby)."""
    game = msg.get("game")
    sit: list[tuple[str, dict[str, Any]]] = []
    creator = opt_int(msg, "sit")
    token = ""
    if creator is not None:
        token = h.hub.make_secret(24)
        who = await sitter(h, client, msg.get("name"))
        sit.append(("take_seat", {"seat": creator, "token": token, **who}))
    bots = msg.get("bots", [])
    if not isinstance(bots, list) or len(bots) > MAX_CREATE_SEATS:
        raise ProtocolError("bad_request", f"'bots' is a list of at most {MAX_CREATE_SEATS}")
    for bot in bots:
        if not isinstance(bot, dict) or set(bot) - {"seat", "strength"}:
            raise ProtocolError("bad_request", 'each of \'bots\' is {"seat", "strength"}')
        seat = opt_int(bot, "seat")
        if seat is None or not isinstance(game, str):
            raise ProtocolError("bad_request", "each of 'bots' names its seat")
        sit.append(("add_bot", {"seat": seat, **bot_seat(h, game, bot.get("strength"))}))
    with admitted(h, client, bot=bool(bots)) as work:
        room_id = h.hub.make_secret(6)
        work.made(room_id)  # its bots' first search is already their owner's
        options, seats, settings = msg.get("options"), msg.get("seats"), msg.get("settings")
        summary = await h.hub.create(game, options, seats, settings, sit=sit, room_id=room_id)
    reply: dict[str, Any] = {"type": "room_created", "room": room_id, "summary": summary}
    if creator is not None:
        await seated(h, client, room_id, creator, token)
        reply |= {"seat": creator, "token": token}
    return reply

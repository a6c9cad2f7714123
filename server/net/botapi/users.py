"""lichess's user routes, public like lichess's, and the presence they read.

    GET /api/user/{username}          public data: id, username, title, perfs, createdAt,
                                      url, playing (the running API game's page)
    GET /api/users/status?ids=a,b     [{id, name, title?, online?, playing?, playingId?}]:
                                      up to 100 names; unknown ones are left out, and a
                                      flag that is false is left out, as lichess does
    GET /api/bot/online?nb=100        ndjson: the bot accounts online (up to 512)

**Presence.** An account is online while it holds an event stream (``/api/stream/event``)
or a WebSocket connection logged in to it; a bot account is an online bot while it holds an
event stream (lichess's rule: lichess-bot, which restarts itself when
``/api/users/status`` says it is offline, holds one for as long as it runs). Each node
writes who is online here into Redis (:meth:`~server.store.api_tokens.ApiStore.mark_online`)
at once when an event stream opens, and every :data:`PRESENCE_EVERY` seconds for all of
them; an entry lapses after :data:`~server.store.api_tokens.PRESENCE_TTL` seconds, so a
node that dies leaves nobody online for long. When an account's last event stream on a node
closes it is marked offline at once; another node holding one for it writes it back within
:data:`PRESENCE_EVERY` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from ...store.api_tokens import PRESENCE_TTL, ApiStore
from ..node.hub import Hub
from ..services.accounts import Accounts, check_name
from .tokens import Caller
from .wire import BotApiError
from .words import speed_key

log = logging.getLogger("kibitz.botapi")

#: seconds between a node's writes of who is online here
PRESENCE_EVERY = 10.0
#: names one ``/api/users/status`` may ask about, and bots one ``/api/bot/online`` lists
MAX_STATUS = 100
MAX_ONLINE_BOTS = 512


def perfs(ratings: dict[str, Any]) -> dict[str, Any]:
    """lichess's ``perfs`` of an account's chess ratings (``chess:blitz`` -> ``blitz``)."""
    out = {}
    for cat, r in ratings.items():
        game, pace = cat.split(":", 1)
        if game == "chess":
            out[speed_key(pace)] = {
                "games": r.get("games", 0),
                "rating": round(r["rating"]),
                "rd": round(r.get("rd", 0)),
                "prov": r.get("provisional", True),
            }
    return out


class Presence:
    """Who is online on this node (event streams, logged-in WebSocket connections), written
    to Redis for every node to read."""

    def __init__(self, hub: Hub, store: ApiStore) -> None:
        self.hub = hub
        self.store = store
        #: account id -> (event streams open here, a bot account)
        self.streams: dict[str, tuple[int, bool]] = {}

    def start(self) -> None:
        """Write who is online here, every :data:`PRESENCE_EVERY` seconds, as a task the hub
        owns: its close cancels it and waits a bounded time (a Redis command caught by the
        cancellation once held a server's stop for good)."""
        self.hub.spawn(self._refresh(), "botapi-presence")

    async def arrived(self, caller: Caller) -> None:
        """An event stream of ``caller`` opened here: online (an online bot) from now."""
        count, _ = self.streams.get(caller.id, (0, caller.bot))
        self.streams[caller.id] = (count + 1, caller.bot)
        bots = [caller.id] if caller.bot else []
        await self.store.mark_online([caller.id], bots, self.hub.clock() + PRESENCE_TTL)

    async def left(self, caller: Caller) -> None:
        """An event stream of ``caller`` closed here: offline once it was the last (still
        online, not an online bot, while a WebSocket connection here is logged in to it)."""
        count, bot = self.streams.get(caller.id, (1, caller.bot))
        if count > 1:
            self.streams[caller.id] = (count - 1, bot)
            return
        self.streams.pop(caller.id, None)
        try:
            await self.store.mark_offline(caller.id, bot_only=caller.id in self.logged_in())
        except Exception:  # the store is down: the entry lapses by itself
            log.exception("presence not written")

    def logged_in(self) -> set[str]:
        return {c.user.lower() for c in self.hub.audience.clients if c.user}

    async def write(self) -> None:
        """Write who is online here now (every :data:`PRESENCE_EVERY` seconds)."""
        users = sorted(set(self.streams) | self.logged_in())
        bots = [u for u, (_, bot) in self.streams.items() if bot]
        await self.store.mark_online(users, bots, self.hub.clock() + PRESENCE_TTL)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            try:
                await self.write()
            except Exception:  # the store is down: the next round tries again
                log.exception("presence not written")


class Users:
    """The user routes of one hub."""

    def __init__(self, hub: Hub, accounts: Accounts, store: ApiStore) -> None:
        self.hub = hub
        self.accounts = accounts
        self.store = store

    async def user(self, name: str) -> dict[str, str] | None:
        return await self.accounts.store.user(name) if check_name(name) is None else None

    async def public_data(self, name: str, base: str) -> dict[str, Any]:
        """lichess's ``GET /api/user/{username}`` (``base``: this server's URL)."""
        user = await self.user(name)
        if user is None:
            raise BotApiError(404, "No such user")
        light = self.light(user)
        out: dict[str, Any] = {
            "id": light["id"],
            "username": light["name"],
            **({"title": light["title"]} if "title" in light else {}),
            "perfs": perfs(await self.accounts.store.ratings(user["name"])),
            "createdAt": int(float(user.get("created", 0)) * 1000),
            "url": f"{base}#/@/{user['name']}",
        }
        games = await self.store.games_of(user["name"])
        if games:
            out["playing"] = f"{base}#room={games[0]}"
        return out

    @staticmethod
    def light(user: dict[str, str]) -> dict[str, Any]:
        """lichess's light user: id, name, and title (``BOT``) if any."""
        out: dict[str, Any] = {"id": user["name"].lower(), "name": user["name"]}
        if user.get("bot") == "1":
            out["title"] = "BOT"
        return out

    async def statuses(self, ids: str, with_game_ids: bool) -> list[dict[str, Any]]:
        """lichess's ``GET /api/users/status``: ``ids`` is names separated by commas."""
        names = list(dict.fromkeys(n.strip().lower() for n in ids.split(",") if n.strip()))
        if not names or len(names) > MAX_STATUS:
            raise BotApiError(400, f"ids: 1 to {MAX_STATUS} user names, separated by commas")
        found = [u for u in [await self.user(n) for n in names] if u is not None]
        online = await self.store.online([u["name"] for u in found], self.hub.clock())
        out = []
        for user, here in zip(found, online, strict=True):
            entry = self.light(user)
            if here:
                entry["online"] = True
            games = await self.store.games_of(user["name"])
            if games:
                entry["playing"] = True
                if with_game_ids:
                    entry["playingId"] = games[0]
            out.append(entry)
        return out

    async def online_bots(self, nb: int, base: str) -> bytes:
        """lichess's ``GET /api/bot/online``: ndjson, a bot account a line."""
        lines = []
        for bot in await self.store.online_bots(self.hub.clock(), nb):
            with contextlib.suppress(BotApiError):  # an account gone meanwhile
                lines.append(json.dumps(await self.public_data(bot, base)) + "\n")
        return "".join(lines).encode()

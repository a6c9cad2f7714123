"""Seeks, quick pairing and rating finished games (the asyncio side; see docs/PROTOCOL.md).

Messages (their handlers: :mod:`server.net.protocol.seek_handlers`): ``seek`` -> ``seek_posted``;
``cancel_seek``; ``list_seeks`` -> ``seeks`` (and ``seeks`` pushes on every change after it);
``accept_seek`` -> ``paired`` (every seat); ``pool_join`` / ``pool_leave`` (quick pairing,
:mod:`server.net.services.matchmaking.pools`); ``pairing`` -> who plays whom, rated or not.

A player is known by a key: ``user:{name}`` when logged in, else ``guest:{hash of the
session}`` (the browser keeps its session: a durable guest identity). Seeks and pool entries
live in Redis (:mod:`server.store.accounts`); taking a seek and seating a table of pool entries
are Lua scripts, so two nodes never give one seek or one player away twice. The node that
completes a pairing creates the room, seats everyone, keeps ``pairing:{room}`` and publishes
``paired`` to every node, which hands each player's connections their seat.

Ratings (:mod:`server.net.services.matchmaking.rating`): :meth:`Seeks.rate` is a ``hub.on_over``
hook: it reads ``pairing:{room}``, computes (Glicko-2 for two seats, OpenSkill for more) and stores
the result once per room (a Lua script keyed by the room id), so a node taking over a room that
ended with its dead host rates it again harmlessly.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

from ....rooms.policy import Policy
from ....rooms.ratings import Glicko, category
from ....rooms.room import Room
from ....store.accounts import AccountStore
from ...node.cluster import next_message
from ...node.hub import Hub
from ...transport.connection import Client
from ...transport.errors import ProtocolError
from ..names import guest_name, player_key
from .pools import Pools
from .rating import PAIRING_TTL, Rater, clock_label

log = logging.getLogger("kibitz.seeks")

#: a seek or pool entry outlives its poster's last connection by this long (seconds)
GRACE = 5.0
#: seconds between sweeps (expiry) and pool pairing rounds
TICK = 0.5
MAX_SEEKS_PER_PLAYER = 5
#: open seeks from one client address (``kibitz serve --seeks-per-ip``): guests are as many
#: players as they open sessions, an address is not
MAX_SEEKS_PER_IP = 20


class Seeks:
    """The seek and pairing service of one hub."""

    def __init__(
        self,
        hub: Hub,
        store: AccountStore,
        deliver: Callable[[Client, dict[str, Any]], Awaitable[None]],
        *,
        seeks_per_ip: int = MAX_SEEKS_PER_IP,
    ) -> None:
        self.hub = hub
        #: seats a connection of this node in the room it was paired into and tells it
        #: ``paired`` (the protocol's: :meth:`~server.net.protocol.seating.Seating.paired`)
        self.deliver_to = deliver
        self.store = store
        self.rater = Rater(self.store, hub)
        #: clients that asked for the seek list (pushed ``seeks`` on every change)
        self.listeners: set[Client] = set()
        #: player key -> when its last connection on this node went away
        self.gone_since: dict[str, float] = {}
        self.pubsub: Any = None
        self.started = False
        self.seeks_per_ip = seeks_per_ip
        self.pools = Pools(self)

    async def start(self) -> None:
        if self.started:
            return
        self.started = True
        self.hub.on_over.append(self.rate)
        await self.beat()  # alive before the first client can post
        self.pubsub = self.hub.store.pubsub()
        await self.pubsub.subscribe(self.channel("paired"), self.channel("seeks"))
        self.hub.spawn(self._listen(), "seeks-listen")
        self.hub.spawn(self._loop(), "seeks-loop")

    def channel(self, name: str) -> str:
        return self.hub.store.channel(f"accounts:{name}")

    async def close(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
            self.pubsub = None

    # -- players ------------------------------------------------------------------------------

    async def player(self, client: Client, cat: str, name: Any = None) -> dict[str, Any]:
        """Who ``client`` is, with its rating in ``cat`` (guests: 1500, unrated)."""
        rating: dict[str, Any] | None = None
        if client.user:
            (raw,) = await self.store.rating_raw([client.user], cat)
            rating = json.loads(raw) if raw else None
        if rating is None:
            rating = Glicko().to_json()
        if client.user:
            shown = client.user
        elif name is None or (isinstance(name, str) and not name.strip()):
            shown = "Guest"
        else:  # a guest's own name: printable, and no account's (server/net/services/names.py)
            shown = await guest_name(self.store, name)
        return {
            "key": player_key(client),
            "name": shown,
            "user": client.user,
            "rating": rating["rating"],
            "provisional": rating["provisional"],
            "node": self.hub.node,
        }

    def local_clients(self, key: str) -> list[Client]:
        return [c for c in self.hub.clients if not c.closing and player_key(c) == key]

    # -- seeks --------------------------------------------------------------------------------

    async def post(self, client: Client, msg: dict[str, Any]) -> str:
        game = msg.get("game")
        if not isinstance(game, str) or game not in self.hub.registry:
            raise ProtocolError("no_such_game", f"there is no game {game!r}")
        info = self.hub.registry.get(game).info()
        options, settings = msg.get("options") or {}, msg.get("settings") or {}
        if not isinstance(options, dict) or not isinstance(settings, dict):
            raise ProtocolError("bad_request", "options and settings must be objects")
        seats = msg.get("seats", info.get("min_seats", 2))
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise ProtocolError("bad_request", "'seats' must be a whole number")
        if not info.get("min_seats", 2) <= seats <= info.get("max_seats", 2):
            raise ProtocolError(
                "bad_options",
                f"{game} takes {info.get('min_seats')} to {info.get('max_seats')} seats",
            )
        rated = msg.get("rated", False)
        if not isinstance(rated, bool):
            raise ProtocolError("bad_request", "'rated' must be true or false")
        if rated and client.user is None:
            raise ProtocolError("forbidden", "log in to play rated games")
        policy = Policy.parse(settings, self.hub.registry.get(game))  # bad_options: refused now
        if rated and policy.clock is None:  # else the losing side may leave it unfinished
            raise ProtocolError(
                "bad_request", "a rated game needs a clock (Fischer, or up to 24 h a move)"
            )
        seat = msg.get("seat")
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < seats):
            raise ProtocolError("bad_request", f"'seat' must be 0 to {seats - 1}")
        low_high = msg.get("rating_range")
        if low_high is not None and not (
            isinstance(low_high, list)
            and len(low_high) == 2
            and all(isinstance(x, int | float) and not isinstance(x, bool) for x in low_high)
            and low_high[0] <= low_high[1]
        ):
            raise ProtocolError("bad_request", "'rating_range' is [low, high]")
        clock = settings.get("clock")
        cat = category(game, clock if isinstance(clock, dict) else None)
        key = player_key(client)
        existing = [s["poster"] for s in (await self.store.seeks()).values()]
        if sum(1 for p in existing if p["key"] == key) >= MAX_SEEKS_PER_PLAYER:
            raise ProtocolError("rate_limited", f"at most {MAX_SEEKS_PER_PLAYER} open seeks")
        if sum(1 for p in existing if p.get("address") == client.address) >= self.seeks_per_ip:
            raise ProtocolError(
                "rate_limited", f"at most {self.seeks_per_ip} open seeks from one address"
            )
        poster = await self.player(client, cat, msg.get("name")) | {"address": client.address}
        seek_id = self.hub.make_secret(8)
        seek = {
            "id": seek_id,
            "game": game,
            "options": options,
            "settings": settings,
            "seats": seats,
            "rated": rated,
            "rating_range": low_high,
            "seat": seat,
            "category": cat,
            "clock": clock_label(clock),
            "poster": poster,
            "created": time.time(),
        }
        await self.store.add_seek(seek_id, seek)
        await self.store.join_seek(seek_id, key, poster, seats)
        await self.changed()
        return seek_id

    async def cancel(self, client: Client, seek_id: Any) -> None:
        seeks = await self.store.seeks()
        seek = seeks.get(seek_id) if isinstance(seek_id, str) else None
        if seek is None:
            raise ProtocolError("no_such_seek", f"there is no seek {seek_id!r}")
        if seek["poster"]["key"] != player_key(client):
            raise ProtocolError("forbidden", "only its poster may cancel a seek")
        await self.store.drop_seek(seek_id)
        await self.changed()

    async def accept(self, client: Client, seek_id: Any) -> dict[str, Any] | None:
        """Join the seek; returns the ``paired`` message once the seek is full (else None)."""
        seeks = await self.store.seeks()
        seek = seeks.get(seek_id) if isinstance(seek_id, str) else None
        if seek is None:
            raise ProtocolError("no_such_seek", f"there is no seek {seek_id!r}")
        key = player_key(client)
        if seek["poster"]["key"] == key:
            raise ProtocolError("bad_request", "that is your own seek")
        if seek["rated"] and client.user is None:
            raise ProtocolError("forbidden", "log in to play rated games")
        me = await self.player(client, seek["category"], None)
        low_high = seek.get("rating_range")
        if low_high and not low_high[0] <= me["rating"] <= low_high[1]:
            raise ProtocolError("forbidden", "your rating is outside the seek's range")
        joined = await self.store.join_seek(seek_id, key, me, seek["seats"])
        if joined is None:
            raise ProtocolError("no_such_seek", f"seek {seek_id} was taken or you joined it")
        if isinstance(joined, int):
            await self.changed()
            return None
        seek, players = joined[0], joined[1:]
        await self.changed()
        # the poster's seat if they chose one; everybody else in a random order
        poster = next(p for p in players if p["key"] == seek["poster"]["key"])
        others = [p for p in players if p is not poster]
        random.shuffle(others)
        order: list[dict[str, Any]] = others[:]
        where = seek["seat"] if seek["seat"] is not None else random.randrange(len(players))
        order.insert(where, poster)
        paired = await self.start_game(seek, order)
        return paired.get(key)

    async def start_game(
        self, seek: dict[str, Any], order: list[dict[str, Any]], *, room_id: str | None = None
    ) -> dict[str, dict[str, Any]]:
        """Create the room with everyone seated; publish ``paired`` to every player
        (``room_id``: the room's id, when the caller drew it already: an API challenge's)."""
        rated = bool(seek["rated"]) and all(p["user"] for p in order)
        tokens = [self.hub.make_secret(24) for _ in order]
        sit: list[tuple[str, dict[str, Any]]] = []
        for seat, p in enumerate(order):
            # the name, the account and its rating: separate fields (never "Ada (1500?)")
            who = {"name": str(p["name"])[:32], "user": p["user"] or ""}
            if p["user"]:
                who["rating"] = {"rating": p["rating"], "provisional": p["provisional"]}
            sit.append(("take_seat", {"seat": seat, "token": tokens[seat], **who}))
        # everyone seated in the room's first append: it is never open to a passer-by
        summary = await self.hub.create(
            seek["game"],
            seek["options"],
            len(order),
            seek["settings"],
            rated=seek["category"] if rated else None,
            sit=sit,
            room_id=room_id,
        )
        room_id = summary["room"]
        messages: dict[str, dict[str, Any]] = {}
        for seat, p in enumerate(order):
            token = tokens[seat]
            messages[p["key"]] = {
                "type": "paired",
                "room": room_id,
                "seat": seat,
                "token": token,
                "game": seek["game"],
                "rated": rated,
                "seek": seek.get("id"),
            }
        pairing = {
            "room": room_id,
            "game": seek["game"],
            "category": seek["category"],
            "rated": rated,
            "clock": clock_label(seek["settings"].get("clock")),
            "players": [
                {k: p[k] for k in ("name", "user", "rating", "provisional")} | {"seat": s}
                for s, p in enumerate(order)
            ],
        }
        await self.store.save_pairing(room_id, pairing, PAIRING_TTL)
        for key, message in messages.items():
            await self.hub.store.publish(
                "accounts:paired", json.dumps({"key": key, "message": message}).encode()
            )
        log.info("paired room %s: %s", room_id, ", ".join(p["name"] for p in order))
        return messages

    async def deliver(self, key: str, message: dict[str, Any]) -> None:
        """Seat every connection of ``key`` on this node and tell it ``paired``."""
        for client in self.local_clients(key):
            room_id, token = message["room"], message["token"]
            if token in client.seats.get(room_id, {}).values():
                continue  # delivered already (the accepter's reply)
            await self.deliver_to(client, message)

    async def seek_list(self) -> list[tuple[str, dict[str, Any]]]:
        """(poster's key, the public entry) of every open seek, oldest first."""
        seeks = sorted((await self.store.seeks()).values(), key=lambda s: s["created"])
        return [
            (
                s["poster"]["key"],
                {k: v for k, v in s.items() if k != "options"}
                | {
                    "options": s["options"],
                    "poster": {
                        k: s["poster"][k] for k in ("name", "user", "rating", "provisional")
                    },
                },
            )
            for s in seeks
        ]

    @staticmethod
    def seeks_for(client: Client, seeks: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        """The list as ``client`` sees it: ``mine`` marks its own seeks (a guest's too)."""
        key = player_key(client)
        return [entry | {"mine": poster == key} for poster, entry in seeks]

    async def changed(self) -> None:
        await self.hub.store.publish("accounts:seeks", b"1")

    async def push_seeks(self) -> None:
        self.listeners &= self.hub.clients  # gone connections stop listening
        if not self.listeners:
            return
        seeks = await self.seek_list()
        posters = {poster for poster, _ in seeks}
        shared = {"type": "seeks", "seeks": [entry | {"mine": False} for _, entry in seeks]}
        for client in list(self.listeners):  # one list for all but the posters
            if player_key(client) in posters:
                client.send({"type": "seeks", "seeks": self.seeks_for(client, seeks)})
            else:
                client.send(shared)

    # -- quick pairing ------------------------------------------------------------------------

    async def pool_join(self, client: Client, msg: dict[str, Any]) -> str:
        return await self.pools.join(client, msg)

    async def pool_leave(self, client: Client, pool: Any) -> bool:
        return await self.pools.leave(client, pool)

    # -- background ---------------------------------------------------------------------------

    async def beat(self) -> None:
        await self.store.beat(self.hub.node, int((GRACE + 4 * TICK) * 1000))

    async def sweep(self) -> None:
        """Drop seeks and pool entries whose poster has had no connection here for GRACE, and
        those of nodes that stopped beating (died)."""
        await self.beat()
        now = time.monotonic()
        seeks = await self.store.seeks()
        dropped = False
        mine = [s for s in seeks.values() if s["poster"]["node"] == self.hub.node]
        keys = {s["poster"]["key"] for s in mine}
        pools = [
            (p.decode() if isinstance(p, bytes) else str(p))
            for p in await self.hub.store.redis.smembers(self.store.k("pools"))
        ]
        pool_entries = {pool: await self.store.pool(pool) for pool in pools}
        for entries in pool_entries.values():
            keys |= {k for k, e in entries.items() if e.get("node") == self.hub.node}
        # every connection's key, only when somebody here has a seek or a pool entry
        present = {player_key(c) for c in self.hub.clients if not c.closing} if keys else set()
        for key in keys:
            if key in present:
                self.gone_since.pop(key, None)
            else:
                self.gone_since.setdefault(key, now)
        expired = {k for k, t in self.gone_since.items() if now - t >= GRACE}
        for seek in mine:
            if seek["poster"]["key"] in expired:
                dropped |= await self.store.drop_seek(seek["id"])
        for pool, entries in pool_entries.items():
            for key in expired & set(entries):
                await self.store.pool_leave(pool, key)
        for key in expired:
            self.gone_since.pop(key, None)
        # a dead node's seeks and pool entries: whoever notices first drops them
        others = {s["poster"]["node"] for s in seeks.values()} | {
            e.get("node", "") for entries in pool_entries.values() for e in entries.values()
        }
        others.discard(self.hub.node)
        dead = set(others) - await self.store.alive(sorted(others))
        for seek in seeks.values():
            if seek["poster"]["node"] in dead:
                dropped |= await self.store.drop_seek(seek["id"])
        for pool, entries in pool_entries.items():
            for key, entry in entries.items():
                if entry.get("node") in dead:
                    await self.store.pool_leave(pool, key)
        if dropped:
            await self.changed()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.sweep()
                await self.pools.pair()
            except (RedisError, OSError) as exc:  # Redis away (a failover): one line
                log.warning("seek sweep failed: %s", exc)
            except Exception:
                log.exception("seek sweep failed")

    async def _listen(self) -> None:
        try:
            await self._listen_loop()
        finally:
            await self.close()

    async def _listen_loop(self) -> None:
        paired, seeks = self.channel("paired").encode(), self.channel("seeks").encode()
        while self.pubsub is not None:
            message = await next_message(self.pubsub, "seek messages")
            if message is None:
                continue
            try:
                if message["channel"] == paired:
                    data = json.loads(message["data"])
                    await self.deliver(data["key"], data["message"])
                elif message["channel"] == seeks:
                    await self.push_seeks()
            except Exception:
                log.exception("seek message failed")

    async def rate(self, room: Room) -> None:
        """The ``on_over`` hook: :meth:`server.net.services.matchmaking.rating.Rater.rate`."""
        await self.rater.rate(room)

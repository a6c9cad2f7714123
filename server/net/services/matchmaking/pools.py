"""Quick pairing (the asyncio side; see docs/PROTOCOL.md "Quick pairing").

``pool_join`` puts a player in the pool of a game, a time control and a table size (the
game's smallest unless ``seats`` asks for more: Yonin Shogi's tables are of four, Hase und
Igel's of two to six); ``pool_leave`` takes them out. Every node runs :meth:`Pools.pair`
every half second: it reads each pool, chooses full tables by rating
(:func:`server.rooms.pairing.choose_tables`) and takes each table out of Redis in one script
(:meth:`server.store.accounts.AccountStore.table`: every entry or none), so two nodes never
seat a player twice and a player who left meanwhile sinks the table. The node that took a
table shuffles the seats and starts the game as a seek's (rated when everyone has an
account: Glicko-2 for two, OpenSkill for more).

A pool's name is ``{game}:{base}+{increment}``, with ``/{seats}`` after it when a table has
more than two seats (``yonin_shogi:300+3/4``).
"""

from __future__ import annotations

import logging
import random
import re
import time
from typing import Any, Protocol

from ....rooms.pairing import Entry, choose_tables
from ....rooms.ratings import category
from ....store.accounts import AccountStore
from ...node.hub import Hub
from ...transport.connection import Client
from ...transport.errors import ProtocolError
from ..names import player_key

log = logging.getLogger("kibitz.pools")

POOL_NAME = re.compile(r"(?P<game>[^:/]+):(?P<base>\d+)\+(?P<inc>\d+)(?:/(?P<seats>\d+))?")


def pool_name(game: str, base: int, inc: int, seats: int) -> str:
    return f"{game}:{base}+{inc}" + (f"/{seats}" if seats != 2 else "")


def parse_pool(name: str) -> tuple[str, int, int, int] | None:
    """(game, base, increment, seats) of a pool's name, or None for no pool's name."""
    m = POOL_NAME.fullmatch(name)
    if m is None:
        return None
    seats = int(m["seats"] or 2)
    if pool_name(m["game"], int(m["base"]), int(m["inc"]), seats) != name:
        return None  # one name a pool: no "/2", no leading zeros
    return m["game"], int(m["base"]), int(m["inc"]), seats


class SeekService(Protocol):
    """What a pool needs of the node's seek service
    (:class:`server.net.services.matchmaking.seeks.Seeks`)."""

    hub: Hub
    store: AccountStore

    async def player(self, client: Client, cat: str, name: Any = None) -> dict[str, Any]: ...

    async def start_game(
        self, seek: dict[str, Any], order: list[dict[str, Any]]
    ) -> dict[str, dict[str, Any]]: ...


class Pools:
    """The quick-pairing pools, as one node sees them."""

    def __init__(self, seeks: SeekService) -> None:
        self.seeks = seeks

    async def join(self, client: Client, msg: dict[str, Any]) -> str:
        hub = self.seeks.hub
        game = msg.get("game")
        if not isinstance(game, str) or game not in hub.registry:
            raise ProtocolError("no_such_game", f"there is no game {game!r}")
        clock = msg.get("clock")
        if not isinstance(clock, dict) or set(clock) - {"base", "increment"}:
            raise ProtocolError("bad_request", '\'clock\' is {"base": s, "increment": s}')
        base, inc = clock.get("base"), clock.get("increment", 0)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (base, inc)):
            raise ProtocolError("bad_request", "clock base and increment are whole seconds")
        assert isinstance(base, int) and isinstance(inc, int)
        if not 15 <= base <= 3 * 3600 or not 0 <= inc <= 180:
            raise ProtocolError("bad_request", "clock base 15 s to 3 h, increment 0 to 180 s")
        info = hub.registry.get(game).info()
        low, high = info.get("min_seats", 2), info.get("max_seats", 2)
        seats = msg.get("seats", low)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise ProtocolError("bad_request", "'seats' must be a whole number")
        if not max(2, low) <= seats <= high:
            raise ProtocolError("bad_options", f"{game} takes {low} to {high} seats")
        pool = pool_name(game, base, inc, seats)
        settings = {"clock": {"type": "fischer", "base": base, "increment": inc}}
        cat = category(game, settings["clock"])
        entry = await self.seeks.player(client, cat, msg.get("name"))
        entry |= {"since": time.time(), "category": cat}
        await self.seeks.store.pool_join(pool, entry["key"], entry)
        await hub.store.redis.sadd(self.seeks.store.k("pools"), pool)
        return pool

    async def leave(self, client: Client, pool: Any) -> bool:
        if not isinstance(pool, str) or len(pool) > 100:
            raise ProtocolError("bad_request", "'pool' is the name pool_joined gave")
        return await self.seeks.store.pool_leave(pool, player_key(client))

    async def pair(self) -> int:
        """One round over every pool: the games started."""
        store = self.seeks.store
        made = 0
        now = time.time()
        for raw in await self.seeks.hub.store.redis.smembers(store.k("pools")):
            pool = raw.decode() if isinstance(raw, bytes) else str(raw)
            parsed = parse_pool(pool)
            if parsed is None:
                continue
            game, base, inc, seats = parsed
            entries = await store.pool(pool)
            if len(entries) < seats:
                continue
            waiting = [Entry(k, float(e["rating"]), float(e["since"])) for k, e in entries.items()]
            for table in choose_tables(waiting, now, seats):
                got = await store.table(pool, [e.key for e in table])
                if got is None:  # another node seated one of them first, or one left
                    continue
                random.shuffle(got)  # the seats, at random
                clock = {"type": "fischer", "base": base, "increment": inc}
                seek = {
                    "id": None,
                    "game": game,
                    "options": {},
                    "settings": {"clock": clock},
                    "rated": True,
                    "category": got[0]["category"],
                }
                try:
                    await self.seeks.start_game(seek, got)
                    made += 1
                except Exception:
                    log.exception("pairing in pool %s failed", pool)
        return made

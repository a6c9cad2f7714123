"""Reads of finished games wherever they are: in Redis (hosted as ever) or in the archive.

A room that is not in Redis is looked up in the archive (``Hub.read`` falls back to
:meth:`ArchivedReads.read`): its log is replayed into a room, and the read runs on it
through the same :func:`~server.net.node.hosting.read_hosted` as a hosted room's (``record``,
``resync``, ``history``, ``info``): one view function for every door, so a record of an
archived hidden-information game is what the public record of the finished game shows.

A player's games (``/api/users/{name}/games``) merge the games still in Redis (the rating
service's ``games:{name}`` and ``result:{room}``) with the archive's, filtered alike, and
the export (``/api/users/{name}/export``) streams them all.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncGenerator, Mapping
from typing import Any

from ....archive import RESULTS, Archive, Query
from ....engine import Registry
from ....rooms.room import Event, Room
from ....store.accounts import AccountStore
from ...node.hosting import Hosted, read_hosted
from ...node.hub import ROOM_ID, Hub
from ...transport.errors import ProtocolError

#: archived rooms kept replayed (a replay viewer asks for a record, then views, then more)
CACHED = 64
#: games of a player's Redis history looked at per request (with an archive, only those
#: finished within the grace period are there)
REDIS_SCAN = 1000
#: rating changes of a category a profile's chart is given (the latest)
KEEP_RATINGS = 500
#: games of an export read per round (each is replayed for its record)
EXPORT_PAGE = 50


class ArchivedReads:
    """Room reads on archived games (the hub's ``archived`` fallback), and their chat;
    ``archive`` None: the node has no archive (finished games stay in Redis)."""

    def __init__(self, archive: Archive | None, registry: Registry) -> None:
        self.archive = archive
        self.registry = registry
        self._rooms: OrderedDict[str, Room] = OrderedDict()

    async def chat(self, room_id: str) -> list[dict[str, Any]]:
        """The chat archived with a game that left Redis, oldest first (empty: none, or no
        archive)."""
        return [] if self.archive is None else await self.archive.chat(room_id)

    async def room(self, room_id: str) -> Room | None:
        room = self._rooms.get(room_id)
        if room is None:
            if self.archive is None:
                return None
            records = await self.archive.events(room_id)
            if records is None:
                return None
            room = Room.replay((Event.from_record(r) for r in records), self.registry)
            self._rooms[room_id] = room
            while len(self._rooms) > CACHED:
                self._rooms.popitem(last=False)
        self._rooms.move_to_end(room_id)
        return room

    async def read(self, room_id: str, op: str, args: dict[str, Any]) -> Any:
        if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
            raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
        room = await self.room(room_id)
        if room is None:
            raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
        return read_hosted(Hosted(room), op, args)


def games_query(account: str, args: Mapping[str, list[str]]) -> Query:
    """The filters of ``?game=&result=&rated=&opponent=&vs_bot=`` (each once, whole
    values); a ValueError says what is wrong."""
    found: dict[str, str] = {}
    for key in ("game", "result", "rated", "opponent", "vs_bot"):
        values = args.get(key)
        if values is None:
            continue
        if len(values) != 1 or not values[0]:
            raise ValueError(f"{key!r} is given once, not empty")
        found[key] = values[0]
    if found.get("result", RESULTS[0]) not in RESULTS:
        raise ValueError(f"'result' is one of {', '.join(RESULTS)}")
    for key in ("rated", "vs_bot"):
        if found.get(key, "true") not in ("true", "false"):
            raise ValueError(f"{key!r} is true or false")
    for key in ("game", "opponent"):
        if key in found and not ROOM_ID.fullmatch(found[key]):
            raise ValueError(f"no such {key}: {found[key]!r}")
    rated, vs_bot = found.get("rated"), found.get("vs_bot")
    return Query(
        account.lower(),
        game=found.get("game"),
        result=found.get("result"),
        rated=None if rated is None else rated == "true",
        opponent=found["opponent"].lower() if "opponent" in found else None,
        vs_bot=None if vs_bot is None else vs_bot == "true",
    )


def _key(entry: Mapping[str, Any]) -> tuple[float, str]:
    return (float(entry["finished"]), str(entry["room"]))


async def player_games(
    accounts: AccountStore, archive: Archive | None, q: Query, start: int, count: int
) -> tuple[int, list[dict[str, Any]]]:
    """(how many, a page of) the player's games passing ``q``, newest first, from Redis and
    the archive together (a game in both, on its way, counts once)."""
    plain = q == Query(q.account)
    if archive is None and plain:
        return await accounts.history(q.account, start, count)
    _total, recent = await accounts.history(q.account, 0, REDIS_SCAN)
    live = [e for e in recent if q.matches(e)]
    if archive is None:
        return len(live), live[start : start + count]
    archived = await archive.versions([e["room"] for e in live])
    live = sorted((e for e in live if e["room"] not in archived), key=_key, reverse=True)
    total = await archive.count(q) + len(live)
    # where each game lands in the merged order: its place among its own + the others newer
    page: dict[int, dict[str, Any]] = {}
    for i, entry in enumerate(live):
        place = i + await archive.count(q, newer=_key(entry))
        if start <= place < start + count:
            page[place] = entry
    first = max(0, start - len(live))
    for j, entry in enumerate(await archive.games(q, first, count + len(live)), first):
        place = j + sum(1 for e in live if _key(e) > _key(entry))
        if start <= place < start + count:
            page[place] = entry
    return total, [page[p] for p in sorted(page)]


async def rating_history(
    accounts: AccountStore, archive: Archive | None, account: str, *, keep: int = KEEP_RATINGS
) -> dict[str, list[dict[str, Any]]]:
    """Every rating change of the account by category, oldest first (the last ``keep`` of
    each): the archive's, then those of games still in Redis."""
    changes: dict[str, dict[str, Any]] = {}
    for entry in await archive.ratings(account) if archive is not None else []:
        changes[entry["room"]] = entry
    _total, recent = await accounts.history(account, 0, REDIS_SCAN)
    for game in recent:
        me = next(
            (
                p
                for p in game.get("players", [])
                if (p.get("user") or "").lower() == account.lower()
            ),
            None,
        )
        if me is None or not game.get("rated") or "new_rating" not in me:
            continue
        changes.setdefault(
            game["room"],
            {
                "room": game["room"],
                "category": game.get("category"),
                "finished": game["finished"],
                "rating": me["rating"],
                "new_rating": me["new_rating"],
                "change": me["change"],
            },
        )
    out: dict[str, list[dict[str, Any]]] = {}
    for entry in sorted(changes.values(), key=_key):
        out.setdefault(str(entry["category"]), []).append(entry)
    return {cat: entries[-keep:] for cat, entries in out.items()}


def export_source(hub: Hub, accounts: AccountStore, archive: Archive | None, q: Query) -> Any:
    """The export's ndjson lines: per game, newest first, ``{"room", "game", "pgn"}`` for
    a game with a PGN (chess) else ``{"room", "game", "record"}`` — the public record, from
    wherever the game is."""

    async def source() -> AsyncGenerator[dict[str, Any] | None]:
        start = 0
        while True:
            _total, games = await player_games(accounts, archive, q, start, EXPORT_PAGE)
            for entry in games:
                try:
                    record = await hub.read(entry["room"], "record", {})
                except ProtocolError:
                    continue  # gone between the list and the read (an expired casual game)
                line: dict[str, Any] = {"room": entry["room"], "game": record["game"]}
                pgn = (record.get("exports") or {}).get("pgn")
                if pgn is not None:
                    line["pgn"] = pgn
                else:
                    line["record"] = record
                yield line
            if len(games) < EXPORT_PAGE:
                return
            start += EXPORT_PAGE

    return source


__all__ = [
    "ArchivedReads",
    "export_source",
    "games_query",
    "player_games",
    "rating_history",
]

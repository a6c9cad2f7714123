"""Finished games leave Redis for the archive, over real sockets, a real redis-server and
a real PostgreSQL (and the embedded SQLite): every game kind reads back as it read live; the
grace period keeps a game in Redis; a node stopped at any step of archiving (as kill -9
would: nothing after that step runs) loses nothing and duplicates nothing, and the check
that holds this catches an archiver that removes keys before the write."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.net.node.audience import Audience
from server.net.services.archive.archiving import Archiver, Crash
from server.sdk import KibitzClient

from .helpers import archived_server, assert_somewhere, finished_game, other_archive, where

#: every game kind, with the seats it is played with
KINDS = [
    ("chess", 2),
    ("dark_chess", 2),
    ("apocalypse", 2),
    ("banqi", 2),
    ("hase_und_igel", 3),
    ("kono", 2),
    ("jungle", 2),
    ("kamisado", 2),
    ("ming_mang", 2),
    ("yonin_shogi", 4),
    ("xiangqi", 2),
    ("rps", 2),
]
STEPS = ("read", "written", "checked", "dropped", "forgotten")


async def reads(srv: KibitzServer, room: str) -> dict[str, Any]:
    """Everything a reader can ask of a finished game: the record (as a spectator and as a
    seat), a spectator's history of views, a seat's resync, the room's info."""
    assert srv.hub is not None
    hub = srv.hub
    return {
        "record": await hub.read(room, "record", {}),
        "record_seated": await hub.read(room, "record", {"seated": True}),
        "history": await hub.read(room, "history", {"recipient": None}),
        "resync": await hub.read(room, "resync", {"recipient": None, "since": None}),
        "info": await hub.read(room, "info", {}),
    }


async def gone_from_node(srv: KibitzServer, room: str) -> None:
    assert srv.hub is not None
    assert room not in srv.hub.rooms, "the node still hosts an archived room"


async def test_every_game_kind_reads_back_as_it_read_live(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None
        live: dict[str, dict[str, Any]] = {}
        for game, n in KINDS:
            room, clients = await finished_game(srv, game, n, f"kind {game}")
            live[room] = await reads(srv, room)
            for c in clients.values():
                await c.close()
        assert await srv.archiver.sweep() == 0  # within the grace period: nothing moves
        assert sorted(await srv.archiver.pending()) == sorted(live)
        assert await srv.archiver.sweep(everything=True) == len(KINDS)
        assert await srv.archiver.pending() == []
        for room, before in live.items():
            assert await where(srv.store, srv.archiver.archive, room) == (False, True)
            await gone_from_node(srv, room)
            after = await reads(srv, room)
            assert after == before, room
        chess = next(r for r, v in live.items() if v["record"]["game"] == "chess")
        assert "pgn" in live[chess]["record"]["exports"]


async def test_the_grace_period_keeps_a_game_in_redis(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url, archive_grace=600) as srv:
        assert srv.archiver is not None and srv.store is not None
        room, clients = await finished_game(srv, "chess", 2, "grace")
        archiver = srv.archiver
        assert await archiver.sweep() == 0
        assert await where(srv.store, archiver.archive, room) == (True, False)
        # a rematch offer within the grace period is taken
        await clients[0].request("rematch", room=room)
        archiver.clock = lambda: srv.config.clock() + 601  # the grace period is over
        assert await archiver.sweep() == 1
        assert await where(srv.store, archiver.archive, room) == (False, True)
        for c in clients.values():
            await c.close()


@pytest.mark.parametrize("broken", [False, True], ids=["forgotten", "broken-kept"])
async def test_an_archived_game_leaves_no_trace_of_who_left_it(
    redis_url: str,
    prefix: str,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    broken: bool,
) -> None:
    """While a finished game is hosted, the node remembers its seats' players left
    (``Audience.left``: a claim, ``opponent_gone``); once it is archived it does not: else
    a node keeps two entries a game played, up to ``MAX_LEFT`` (the soak's RSS rising).
    Broken: a hub that forgets nothing when a room goes."""
    if broken:
        monkeypatch.setattr(Audience, "forget_presence", lambda self, room_id: None)
    archive = f"sqlite:{tmp_path / 'archive.sqlite3'}"
    async with archived_server(redis_url, prefix, registry, archive) as srv:
        assert srv.archiver is not None and srv.hub is not None
        room, clients = await finished_game(srv, "chess", 2, "presence")
        for c in clients.values():
            await c.request("leave", room=room)
        audience = srv.hub.audience
        assert sorted(audience.left[room]) == [0, 1]
        assert {(room, 0), (room, 1)} <= audience.told
        assert await srv.archiver.sweep(everything=True) == 1
        assert (room in audience.left) is broken
        assert ({(room, 0), (room, 1)} <= audience.told) is broken
        assert audience.n_left == sum(len(seats) for seats in audience.left.values())
        for c in clients.values():
            await c.close()


@pytest.mark.parametrize("step", STEPS)
async def test_a_node_stopped_at_any_step_loses_nothing_and_duplicates_nothing(
    redis_url: str, prefix: str, registry: Registry, archive_url: str, step: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None and srv.hub is not None
        room, clients = await finished_game(srv, "chess", 2, f"crash {step}")
        before = await reads(srv, room)
        dying = srv.archiver

        def crash(at: str) -> None:
            if at == step:
                raise Crash(at)

        dying.fault = crash
        with pytest.raises(Crash):
            await dying.archive_one(room)
        await assert_somewhere(srv.store, dying.archive, room)
        # the next node: its own archiver, its own connection to the archive
        archive = await other_archive(archive_url)
        try:
            nxt = Archiver(srv.store, archive, registry, node="next-node", grace=0)
            assert await nxt.pending() == [room]  # still marked: the job is not done
            assert await nxt.archive_one(room)
            assert await nxt.pending() == []
            assert await where(srv.store, archive, room) == (False, True)
            events = await archive.events(room)
            assert events is not None and len(events) == before["record"]["version"]
            assert events[0]["k"] == "created" and len({e["t"] for e in events}) > 1
            assert await archive.put(_game_again(events, room, registry)) is False  # once
        finally:
            await archive.close()
        srv.hub.hosting.drop(room)
        assert await reads(srv, room) == before
        for c in clients.values():
            await c.close()


class RemovesFirst(Archiver):
    """A broken archiver: it removes the game's keys before its write to the archive."""

    async def archive_one(self, room_id: str) -> bool:
        keys = [self.store.rk(k, room_id) for k in ("room", "lease", "chat")]
        await self.store.redis.delete(*keys)
        self.fault("dropped")
        return await super().archive_one(room_id)


async def test_the_check_catches_an_archiver_that_removes_keys_before_the_write(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None and srv.hub is not None
        room, clients = await finished_game(srv, "chess", 2, "broken")
        broken = RemovesFirst(srv.store, srv.archiver.archive, registry, node=srv.hub.node)

        def crash(at: str) -> None:
            if at == "dropped":
                raise Crash(at)

        broken.fault = crash
        with pytest.raises(Crash):
            await broken.archive_one(room)
        with pytest.raises(AssertionError, match="neither"):
            await assert_somewhere(srv.store, srv.archiver.archive, room)
        for c in clients.values():
            await c.close()


async def test_games_finished_before_the_archive_was_on_are_backfilled(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    from ..conftest import serving

    async with serving(redis_url, prefix, registry, bot_workers=0) as old:  # no archive
        assert old.archiver is None
        finished = []
        for i in range(3):
            room, clients = await finished_game_unmarked(old, i)
            finished.append(room)
            for c in clients.values():
                await c.close()
        waiting = await KibitzClient.connect(old.ws_url)
        open_room = (await waiting.request("create_room", game="chess", seats=2))["room"]
        live = await reads(old, finished[0])
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None
        # the node backfills as it starts (a SCAN step a sweep), marked as long ago: past
        # the grace period, its first sweeps archive them
        for _ in range(200):
            places = [await where(srv.store, srv.archiver.archive, r) for r in finished]
            if places == [(False, True)] * 3:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"not backfilled: {places}")
        assert await srv.archiver.backfill() is None  # walked once: done
        assert await srv.archiver.pending() == []
        assert await where(srv.store, srv.archiver.archive, open_room) == (True, False)
        assert await reads(srv, finished[0]) == live
    await waiting.close()


async def finished_game_unmarked(srv: KibitzServer, i: int) -> tuple[str, dict[int, Any]]:
    """A chess game to its end (Fool's Mate) on a server without an archive."""
    players = {s: await KibitzClient.connect(srv.ws_url) for s in (0, 1)}
    room = (await players[0].request("create_room", game="chess", seats=2))["room"]
    for s, c in players.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}{i}")
    for n, mv in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        await players[n % 2].request("move", room=room, move=mv)
    await players[0].wait_update(lambda m: m["status"] == "over", room=room)
    assert srv.store is not None
    for _ in range(100):  # the game-end hooks ran: it left the live set
        if room not in await srv.store.live_rooms():
            break
        await asyncio.sleep(0.02)
    return room, players


class DropsWithoutLooking(Archiver):
    """A broken archiver: it deletes the room's keys without checking that the log is still
    at the version it archived."""

    async def archive_one(self, room_id: str) -> bool:
        self._drop = self._plain_drop  # type: ignore[method-assign]
        return await super().archive_one(room_id)

    async def _plain_drop(self, *, keys: list[str], args: list[Any]) -> int:
        await self.store.redis.delete(*keys)
        return 1


@pytest.mark.parametrize("broken", [False, True])
async def test_an_event_that_lands_during_archiving_is_archived_too(
    redis_url: str,
    prefix: str,
    registry: Registry,
    archive_url: str,
    broken: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rematch offer lands between the write and the deletion (as the write is read back):
    the keys stay and the next sweep writes the game again, with it. Deleting without
    looking loses it (the guard's broken twin, caught here)."""
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None and srv.hub is not None
        room, clients = await finished_game(srv, "chess", 2, "late event")
        kind = DropsWithoutLooking if broken else Archiver
        archiver = kind(srv.store, srv.archiver.archive, registry, node=srv.hub.node, grace=0)
        landed: list[int] = []
        archive = srv.archiver.archive
        read_back = archive.versions

        async def offer_as_it_reads_back(ids: list[str]) -> dict[str, int]:
            found = await read_back(ids)  # step 3, then a rematch offer lands in the log
            if not landed:
                await clients[0].request("rematch", room=room)
                landed.append(await srv.store.version(room))
            return found

        monkeypatch.setattr(archive, "versions", offer_as_it_reads_back)
        moved = await archiver.archive_one(room)
        assert moved is broken  # the guard keeps the keys: the log moved since the write
        if not broken:  # the next sweep's turn: written again, with the offer
            assert await archiver.archive_one(room)
        events = await srv.archiver.archive.events(room)
        assert events is not None
        if broken:
            assert len(events) < landed[0]  # the offer is lost: what the guard prevents
        else:
            assert len(events) == landed[0] and events[-1]["k"] != "created"
            assert await where(srv.store, srv.archiver.archive, room) == (False, True)
        for c in clients.values():
            await c.close()


def _game_again(events: list[dict[str, Any]], room: str, registry: Registry) -> Any:
    """The archived game as a node would write it again (from the same log)."""
    from server.net.services.archive.archiving import game_of

    game = game_of(room, events, registry, None)
    assert game is not None
    return game

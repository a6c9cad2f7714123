"""An arena of bots over two nodes, played to its end: the standings are a recount of the
games' records; every door shows the one view; a guest's key never leaves the server."""

from __future__ import annotations

import asyncio

from server.engine import Registry
from server.net.services.names import player_key
from server.sdk import KibitzClient

from .test_protocol_examples import register
from .tournament_helpers import (
    assert_nobody_paired_twice,
    finished,
    http_json,
    log_of,
    nodes,
    pairings,
    records,
    recount_arena,
    results,
    standings_table,
    wait_view,
    with_bots,
)

ARENA = {
    "name": "Quick kamisado",
    "game": "kamisado",
    "system": "arena",
    "clock": {"base": 15, "increment": 0},
    "seconds": 10,
    "max_players": 8,
}


async def test_an_arena_of_eight_bots_over_two_nodes_matches_a_recount(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry) as (n1, n2):
        token = await asyncio.to_thread(register, n1.url, "Ada")
        creator = await KibitzClient.connect(n1.ws_url)
        await creator.request("hello", protocol=2, auth=token)
        # the creator on the other node too: its requests go to the director (n1)
        there = await KibitzClient.connect(n2.ws_url)
        await there.request("hello", protocol=2, auth=token)
        watcher = await KibitzClient.connect(n2.ws_url)
        tid = await with_bots(creator, ARENA, 8, adders=[creator, there])
        assert n1.hub is not None and n2.hub is not None
        first = await watcher.request("tournament_watch", tournament=tid)
        assert first["me"] == {"joined": False, "paused": False, "game": None}
        listing = await watcher.request("tournament_list")
        assert [t["id"] for t in listing["upcoming"] + listing["running"]] == [tid]
        view = await wait_view(watcher, tid, finished, 40)
        log = await log_of(n2, tid)
        rooms = [p["room"] for p in pairings(log)]
        assert len(rooms) >= 8 and set(results(log)) == set(rooms)  # no result lost
        assert_nobody_paired_twice(log)
        recs = await records(watcher, rooms)
        assert standings_table(view) == recount_arena(log, recs)
        assert sum(r["games"] for r in view["standings"]) == 2 * view["games_total"]
        # every door: HTTP shows the same view and lists it as finished
        got = await asyncio.to_thread(http_json, f"{n2.url}api/tournaments/{tid}")
        assert got == {"tournament": tid, "view": view}
        listed = await asyncio.to_thread(http_json, f"{n1.url}api/tournaments")
        assert [t["id"] for t in listed["finished"]] == [tid] and not listed["running"]
        assert listed["finished"][0]["status"] == "finished"
        assert view["creator"] == "Ada" and listed["finished"][0]["creator"] == "Ada"
        for c in (creator, there, watcher):
            await c.close()


async def test_a_guests_key_never_leaves_the_server(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        guest = await KibitzClient.connect(n1.ws_url)
        other = await KibitzClient.connect(n1.ws_url)
        spec = ARENA | {"name": "Guests", "max_players": 4}
        tid = (await guest.request("tournament_create", **spec))["tournament"]
        await guest.request("tournament_join", tournament=tid, name="Gus")
        await other.request("tournament_join", tournament=tid)
        mine = await guest.request("tournament_watch", tournament=tid)
        assert mine["me"] == {"joined": True, "paused": False, "game": None}
        theirs = await other.request("tournament_watch", tournament=tid)
        assert theirs["view"] == mine["view"] and theirs["me"]["joined"]
        listed = await guest.request("tournament_list")
        got = await asyncio.to_thread(http_json, f"{n1.url}api/tournaments/{tid}")
        names = [r["name"] for r in got["view"]["standings"]]
        assert len(names) == 2 and "Gus" in names
        assert n1.hub is not None
        keys = {player_key(c) for c in n1.hub.clients}
        assert len(keys) == 2
        for shown in (str(mine), str(theirs), str(listed), str(got)):
            assert not any(k in shown for k in keys) and "guest:" not in shown
        # the creator cancels; the others are told
        await guest.request("tournament_cancel", tournament=tid)
        view = await wait_view(other, tid, lambda v: v["status"] == "cancelled", 5)
        assert view["end_reason"] == "creator"
        for c in (guest, other):
            await c.close()


async def test_an_arena_of_three_seat_tables_is_scored_by_rank(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        spec = ARENA | {"name": "Race", "game": "hase_und_igel", "seats": 3, "max_players": 3}
        tid = await with_bots(c, spec | {"seconds": 10}, 3)
        await c.request("tournament_watch", tournament=tid)
        view = await wait_view(c, tid, finished, 60)
        log = await log_of(n1, tid)
        tables = pairings(log)
        assert tables and all(len(p["players"]) == 3 for p in tables)
        assert_nobody_paired_twice(log)
        recs = await records(c, [p["room"] for p in tables])
        assert all(r["n_seats"] == 3 for r in recs.values())
        assert standings_table(view) == recount_arena(log, recs)
        await c.close()


async def test_simultaneous_and_hidden_information_games_in_an_arena(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    """Apocalypse (both seats move at once) and Dark Chess (each seat sees its own part) are
    tournament games like any: an arena of each ends with standings equal to a recount, and a
    spectator who follows a Dark Chess game from the tournament's games list is shown what
    any spectator of that room is (no seat's secret)."""
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        for game in ("apocalypse", "dark_chess"):
            spec = ARENA | {"name": game, "game": game, "max_players": 4, "seconds": 10}
            tid = await with_bots(c, spec, 4)
            await c.request("tournament_watch", tournament=tid)
            view = await wait_view(c, tid, lambda v: v["games_total"] >= 1, 20)
            if game == "dark_chess":
                room = view["games"][0]["room"]
                await c.request("watch", room=room)
                assert n1.hub is not None
                hosted = n1.hub.rooms[room].room
                for _ in range(200):  # the update of the room as it is now (bots move on)
                    seen = await c.next_update(room, timeout=10)
                    if seen["version"] == hosted.version:
                        break
                assert seen["version"] == hosted.version
                assert seen.get("you") is None and not seen.get("legal")
                assert seen["view"] == hosted.view_for(None)  # what any spectator is shown
                assert hosted.view_for(0) != hosted.view_for(None)  # and a seat sees more
                await c.request("leave", room=room)
            view = await wait_view(c, tid, finished, 60)
            log = await log_of(n1, tid)
            assert_nobody_paired_twice(log)
            recs = await records(c, [p["room"] for p in pairings(log)])
            assert standings_table(view) == recount_arena(log, recs)
        await c.close()

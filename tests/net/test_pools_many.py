"""Quick pairing for more than two, over real sockets, two nodes and a real redis-server.

Six accounts on two nodes and the Yonin Shogi pool (tables of four): three join and nobody is
seated at the half table; one of them leaves; three more join, one table of the four who
stayed is made (each gets ``paired`` once, with a seat of its own), the fifth waits, the
leaver never hears of it; the four play to the end and are rated with OpenSkill. The same
scenario against a table script that seats three, and one that leaves the entries in the
pool, fails the check. The script itself (every entry or none) is checked in the store, and
so is a version of it without its guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.net.services.matchmaking.pools import parse_pool, pool_name
from server.net.transport.connection import Limits
from server.sdk import KibitzClient, KibitzError
from server.store import accounts

from ..conftest import two_nodes as nodes_of_two
from .test_games import play_out
from .test_seeks import next_of, user, wait_rated

POOL = "yonin_shogi:180+2/4"
CLOCK = {"base": 180, "increment": 2}
SEATED, FIFTH, LEAVER = ("Aki", "Ben", "Chi", "Dai"), "Eri", "Lou"

#: the table script seating the first three it is given (a table short of a player)
SEATS_THREE = """
local out = {}
for i = 1, 3 do out[i] = redis.call('HGET', KEYS[1], ARGV[i]) end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[2], ARGV[3])
return out
"""
#: the table script leaving the entries in the pool (the next round seats them again)
LEAVES_THEM = """
local out = {}
for i, key in ipairs(ARGV) do
  local raw = redis.call('HGET', KEYS[1], key)
  if not raw then return false end
  out[i] = raw
end
return out
"""
#: the table script without its guard: it seats whoever is still there
NO_GUARD = """
local out = {}
for i, key in ipairs(ARGV) do
  local raw = redis.call('HGET', KEYS[1], key)
  if raw then table.insert(out, raw) end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return out
"""


@contextlib.asynccontextmanager
async def two_nodes(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    async with nodes_of_two(
        redis_url, prefix, registry, limits=Limits(rate=10_000, burst=10_000)
    ) as pair:
        yield pair


@dataclass
class Seen:
    """What the scenario saw: every ``paired`` each player got, and what the pool held."""

    clients: dict[str, KibitzClient]
    rated: bool
    before: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    after: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    half_table: set[str] = field(default_factory=set)
    left_over: set[str] = field(default_factory=set)
    leave: dict[str, Any] = field(default_factory=dict)


async def gather_paired(clients: dict[str, KibitzClient], want: int) -> dict[str, list[Any]]:
    """The ``paired`` messages until ``want`` have come (10 s at most: twenty pairing rounds,
    room for a loaded machine), then 1.5 s more: three more rounds, in which nobody may be
    seated again."""
    got: dict[str, list[Any]] = {name: [] for name in clients}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    settle = loop.time() + 1.5 if want == 0 else None
    while settle is None or loop.time() < settle:
        for name, c in clients.items():
            got[name] += [m for m in c.drain() if m.get("type") == "paired"]
        if settle is None and (sum(map(len, got.values())) >= want or loop.time() > deadline):
            settle = loop.time() + 1.5
        await asyncio.sleep(0.05)
    return got


async def scenario(n1: KibitzServer, n2: KibitzServer, *, rated: bool = True) -> Seen:
    """Accounts when ``rated``, else guests (no accounts to make: faster)."""
    assert n2.hub is not None
    store = n2.seeks.store
    names = [*SEATED[:2], LEAVER, *SEATED[2:], FIFTH]  # every other one on each node
    seen = Seen({}, rated=rated)
    for i, name in enumerate(names):
        node = (n1, n2)[i % 2]
        c = await user(node, name) if rated else await KibitzClient.connect(node.ws_url)
        seen.clients[name] = c

    async def join(name: str) -> None:
        c = seen.clients[name]
        joined = await c.request("pool_join", game="yonin_shogi", clock=CLOCK, name=name)
        assert joined["pool"] == POOL

    for name in (*SEATED[:2], LEAVER):
        await join(name)
    seen.before = await gather_paired(seen.clients, 0)  # three rounds with three waiting
    seen.leave = await seen.clients[LEAVER].request("pool_leave", pool=POOL)
    seen.half_table = {e["name"] for e in (await store.pool(POOL)).values()}
    for name in (*SEATED[2:], FIFTH):
        await join(name)
    seen.after = await gather_paired(seen.clients, 4)
    seen.left_over = {e["name"] for e in (await store.pool(POOL)).values()}
    return seen


def check(seen: Seen) -> str:
    """One table of the four who stayed, each seated once in a seat of its own: the room."""
    assert seen.leave["was_waiting"] is True
    assert not any(seen.before.values()), "somebody was seated at a half table"
    assert seen.half_table == set(SEATED[:2])
    paired = seen.after
    assert paired[FIFTH] == [] and paired[LEAVER] == []
    assert all(len(paired[n]) == 1 for n in SEATED), {n: len(paired[n]) for n in SEATED}
    mine = [paired[n][0] for n in SEATED]
    assert len({m["room"] for m in mine}) == 1
    assert sorted(m["seat"] for m in mine) == [0, 1, 2, 3]
    assert all(m["game"] == "yonin_shogi" and m["rated"] is seen.rated for m in mine)
    assert seen.left_over == {FIFTH}
    return str(mine[0]["room"])


async def close_all(seen: Seen) -> None:
    for c in seen.clients.values():
        await c.close()


async def test_four_meet_across_two_nodes_a_fifth_waits_a_leaver_is_not_seated(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with two_nodes(redis_url, prefix, registry) as (n1, n2):
        seen = await scenario(n1, n2)
        room = check(seen)
        # the room and the pairing: four accounts, rated in Yonin Shogi's blitz with OpenSkill
        fifth = seen.clients[FIFTH]
        pairing = (await fifth.request("pairing", room=room))["pairing"]
        assert pairing["rated"] and pairing["category"] == "yonin_shogi:blitz"
        assert pairing["clock"] == "3+2"
        by_seat = {p["seat"]: p["name"] for p in pairing["players"]}
        assert sorted(by_seat.values()) == sorted(SEATED)
        players: dict[int, KibitzClient] = {}
        for name in SEATED:
            seat = seen.after[name][0]["seat"]
            assert by_seat[seat] == name
            players[seat] = seen.clients[name]
            await players[seat].request("resync", room=room, since=0)
        end = await play_out(players, room, random.Random("pool of four"))
        assert end["status"] == "over" and sorted(end["outcome"]["ranks"]) == [1, 2, 2, 4]
        assert [s["name"] for s in end["seats"]] == [by_seat[s] for s in range(4)]
        ratings = {
            seat: await wait_rated(n1, by_seat[seat], pairing["category"]) for seat in by_seat
        }
        ranks = end["outcome"]["ranks"]
        assert all(r["games"] == 1 for r in ratings.values())
        assert ratings[ranks.index(1)]["mu"] > 25 > ratings[ranks.index(4)]["mu"]
        # the fifth still waits, and nobody else was paired meanwhile
        assert [m for m in fifth.drain() if m.get("type") == "paired"] == []
        await close_all(seen)


@pytest.mark.parametrize(
    ("script", "broken"),
    [(accounts.TABLE, False), (SEATS_THREE, True), (LEAVES_THEM, True)],
    ids=["the-real-one", "seats-three", "no-removal"],
)
async def test_the_check_catches_a_broken_table_script(
    redis_url: str,
    prefix: str,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    script: str,
    broken: bool,
) -> None:
    """Guests this time; the real script passes the same check (the control)."""
    monkeypatch.setattr(accounts, "TABLE", script)
    async with two_nodes(redis_url, prefix, registry) as (n1, n2):
        seen = await scenario(n1, n2, rated=False)
        if broken:
            with pytest.raises(AssertionError, match="Aki"):  # each of the four seated once
                check(seen)
        else:
            check(seen)
        await close_all(seen)


async def take_checks(store: accounts.AccountStore) -> None:
    """The table script: every entry or none; a leaver or a repeated key sinks the table; of
    two overlapping tables taken at once, one is seated."""
    for key in "abcdefg":
        await store.pool_join("p/4", key, {"key": key})
    await store.pool_leave("p/4", "d")
    assert await store.table("p/4", ["a", "b", "c", "d"]) is None
    assert await store.table("p/4", ["a", "b", "c", "c"]) is None
    assert set(await store.pool("p/4")) == set("abcefg")
    got = await asyncio.gather(
        store.table("p/4", ["a", "b", "c", "e"]), store.table("p/4", ["e", "f", "g", "a"])
    )
    assert sorted(g is None for g in got) == [False, True]
    won = next(g for g in got if g is not None)
    assert len(won) == 4 and len({g["key"] for g in won}) == 4
    assert set(await store.pool("p/4")) == set("abcefg") - {g["key"] for g in won}


async def test_the_table_script_takes_everyone_or_nobody(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with two_nodes(redis_url, prefix, registry) as (n1, _):
        assert n1.hub is not None
        await take_checks(n1.seeks.store)
        broken = accounts.AccountStore(n1.hub.store.redis, prefix + "broken:")
        broken._table = broken.redis.register_script(NO_GUARD)
        with pytest.raises(AssertionError):
            await take_checks(broken)


async def test_pool_join_takes_the_games_table_sizes(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with two_nodes(redis_url, prefix, registry) as (n1, _):
        assert n1.hub is not None
        store = n1.seeks.store
        guests = [await KibitzClient.connect(n1.ws_url) for _ in range(3)]
        g = guests[0]
        for bad, code in [
            ({"game": "yonin_shogi", "seats": 2}, "bad_options"),
            ({"game": "yonin_shogi", "seats": 5}, "bad_options"),
            ({"game": "hase_und_igel", "seats": 7}, "bad_options"),
            ({"game": "chess", "seats": 3}, "bad_options"),
            ({"game": "hase_und_igel", "seats": "3"}, "bad_request"),
            ({"game": "hase_und_igel", "seats": True}, "bad_request"),
            ({"game": "hase_und_igel", "seats": 3.0}, "bad_request"),
        ]:
            with pytest.raises(KibitzError) as err:
                await g.request("pool_join", clock=CLOCK, **bad)
            assert err.value.code == code, bad
        assert await n1.hub.store.redis.smembers(store.k("pools")) == set()  # nothing changed
        # the game's smallest table unless asked: two for Hase und Igel; three when asked
        two = await g.request("pool_join", game="hase_und_igel", clock=CLOCK)
        assert two["pool"] == "hase_und_igel:180+2"
        await g.request("pool_leave", pool=two["pool"])
        for c in guests:
            joined = await c.request("pool_join", game="hase_und_igel", clock=CLOCK, seats=3)
            assert joined["pool"] == "hase_und_igel:180+2/3"
        paired = []
        for c in guests:
            paired.append(await next_of(c, "paired"))
        assert len({p["room"] for p in paired}) == 1
        assert sorted(p["seat"] for p in paired) == [0, 1, 2]
        assert not any(p["rated"] for p in paired)  # guests: unrated
        update = await g.wait_update(room=paired[0]["room"])
        assert len(update["seats"]) == 3
        assert await store.pool("hase_und_igel:180+2/3") == {}
        for c in guests:
            await c.close()


def test_pool_names_round_trip_and_are_one_a_pool(registry: Registry) -> None:
    for one in registry:
        game, info = one.name, one.info()
        for seats in range(max(2, info["min_seats"]), info["max_seats"] + 1):
            assert parse_pool(pool_name(game, 300, 3, seats)) == (game, 300, 3, seats)
    assert pool_name("chess", 300, 3, 2) == "chess:300+3"
    for bad in ("chess:300+3/2", "chess:0300+3", "chess:300+3\n", "chess:300", "p/4", ""):
        assert parse_pool(bad) is None, bad

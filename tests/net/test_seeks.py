"""Seeks, quick pairing and ratings over real sockets against a real redis-server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.services.matchmaking import seeks as seeks_module
from server.sdk import KibitzClient, KibitzError
from server.store.accounts import Stale

from ..conftest import node_config
from .test_accounts import api, register_and_login
from .test_restart import ServerProcess

BLITZ = {"clock": {"type": "fischer", "base": 180, "increment": 2}}
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


async def user(server: KibitzServer, name: str) -> KibitzClient:
    token = await register_and_login(server, name)
    c = await KibitzClient.connect(server.ws_url, hello=False)
    c.welcome = await c.request("hello", protocol=2, auth=token)
    assert c.welcome["user"] == name
    return c


async def next_of(c: KibitzClient, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.next_message(max(0.01, deadline - loop.time()))
        if msg.get("type") == kind:
            return msg


async def play(players: dict[int, KibitzClient], room: str, moves: list[str]) -> None:
    for i, mv in enumerate(moves):
        await players[i % 2].request("move", room=room, move=mv)


async def rated_fools_mate(server: KibitzServer, a: KibitzClient, b: KibitzClient) -> str:
    posted = await a.request("seek", game="chess", settings=BLITZ, rated=True)
    assert posted["type"] == "seek_posted"
    paired_b = await b.request("accept_seek", seek=posted["seek"])
    paired_a = await next_of(a, "paired")
    assert paired_b["type"] == "paired" and paired_a["room"] == paired_b["room"]
    assert {paired_a["seat"], paired_b["seat"]} == {0, 1} and paired_a["rated"]
    room = paired_a["room"]
    by_seat = {paired_a["seat"]: a, paired_b["seat"]: b}
    await play(by_seat, room, FOOLS_MATE)
    for c in (a, b):
        end = await c.wait_update(lambda m: m["status"] == "over", room=room)
        assert end["outcome"]["winner"] == 1
    # the seats carry the names, and the ratings at the start in fields of their own
    assert sorted(s["name"] for s in end["seats"]) == ["Ada", "Bob"]
    assert [(s["rating"], s["provisional"]) for s in end["seats"]] == [(1500, True)] * 2
    return room


async def wait_rated(server: KibitzServer, name: str, cat: str) -> dict[str, Any]:
    for _ in range(100):
        status, profile, _ = await api(server, "GET", f"/api/users/{name}")
        assert status == 200
        if cat in profile["ratings"]:
            return dict(profile["ratings"][cat])
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} was never rated in {cat}")


async def test_rated_seek_fools_mate_rates_both(server: KibitzServer) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    room = await rated_fools_mate(server, ada, bob)
    pairing = (await ada.request("pairing", room=room))["pairing"]
    black = pairing["players"][1]["name"]
    white = pairing["players"][0]["name"]
    winner = await wait_rated(server, black, "chess:blitz")
    loser = await wait_rated(server, white, "chess:blitz")
    assert winner["rating"] == pytest.approx(1662.3, abs=0.05)
    assert winner["rd"] == pytest.approx(290.3, abs=0.05)
    assert winner["games"] == 1 and winner["provisional"] is True
    assert loser["rating"] == pytest.approx(1337.7, abs=0.05)
    status, history, _ = await api(server, "GET", f"/api/users/{black}/games")
    assert status == 200 and history["total"] == 1
    game = history["games"][0]
    assert game["room"] == room and game["game"] == "chess" and game["rated"]
    assert game["reason"] == "checkmate"
    mine = next(p for p in game["players"] if p["name"] == black)
    assert mine["change"] == pytest.approx(162.31, abs=0.02) and mine["score"] == 1.0
    # running the game-end hook again (a node taking the room over) changes nothing
    assert server.hub is not None
    service = server.seeks
    hosted = server.hub.rooms.get(room)
    if hosted is not None:
        await service.rate(hosted.room)
        await service.rate(hosted.room)
    again = await wait_rated(server, black, "chess:blitz")
    assert again == winner
    for c in (ada, bob):
        await c.close()


async def test_seek_rules_and_the_live_list(server: KibitzServer) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    guest = await KibitzClient.connect(server.ws_url)
    watcher = await KibitzClient.connect(server.ws_url)
    listed = await watcher.request("list_seeks")
    assert listed["seeks"] == []
    with pytest.raises(KibitzError) as err:
        await guest.request("seek", game="chess", rated=True)
    assert err.value.code == "forbidden"  # guests play unrated only
    for bad in [
        {"game": "go"},
        {"game": "chess", "seats": 3},
        {"game": "chess", "rated": "yes"},
        {"game": "chess", "seat": 2},
        {"game": "chess", "rating_range": [1600, 1400]},
    ]:
        with pytest.raises(KibitzError):
            await ada.request("seek", **bad)
    seek_id = (await ada.request("seek", game="chess", settings=BLITZ, rated=True))["seek"]
    pushed = await next_of(watcher, "seeks")
    (entry,) = pushed["seeks"]
    assert entry["id"] == seek_id and entry["poster"]["name"] == "Ada"
    assert entry["poster"]["rating"] == 1500 and entry["category"] == "chess:blitz"
    assert entry["clock"] == "3+2"
    with pytest.raises(KibitzError) as err:
        await ada.request("accept_seek", seek=seek_id)
    assert err.value.code == "bad_request"  # not your own
    with pytest.raises(KibitzError) as err:
        await guest.request("accept_seek", seek=seek_id)
    assert err.value.code == "forbidden"
    with pytest.raises(KibitzError) as err:
        await bob.request("cancel_seek", seek=seek_id)
    assert err.value.code == "forbidden"
    await ada.request("cancel_seek", seek=seek_id)
    assert (await next_of(watcher, "seeks"))["seeks"] == []
    with pytest.raises(KibitzError) as err:
        await bob.request("accept_seek", seek=seek_id)
    assert err.value.code == "no_such_seek"
    # an unrated seek by a guest, accepted by a guest
    other = await KibitzClient.connect(server.ws_url)
    gid = (await guest.request("seek", game="chess", seat=0, name="Gus"))["seek"]
    paired = await other.request("accept_seek", seek=gid)
    assert paired["seat"] == 1 and not paired["rated"]
    assert (await next_of(guest, "paired"))["seat"] == 0
    for c in (ada, bob, guest, watcher, other):
        await c.close()


async def test_a_seek_dies_with_its_posters_connections(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seeks_module, "GRACE", 0.3)
    poster = await KibitzClient.connect(server.ws_url)
    watcher = await KibitzClient.connect(server.ws_url)
    await watcher.request("list_seeks")
    await poster.request("seek", game="chess")
    assert len((await next_of(watcher, "seeks"))["seeks"]) == 1
    await asyncio.sleep(1.0)  # still connected: the seek stays
    assert len((await watcher.request("list_seeks"))["seeks"]) == 1
    await poster.close()
    assert (await next_of(watcher, "seeks"))["seeks"] == []
    await watcher.close()


async def test_a_many_seat_seek_fills_before_it_starts(server: KibitzServer) -> None:
    players = [await KibitzClient.connect(server.ws_url) for _ in range(4)]
    seek_id = (await players[0].request("seek", game="hase_und_igel", seats=4, name="P0"))["seek"]
    for p in players[1:3]:
        assert (await p.request("accept_seek", seek=seek_id))["type"] == "seek_joined"
    with pytest.raises(KibitzError):
        await players[1].request("accept_seek", seek=seek_id)  # once only
    last = await players[3].request("accept_seek", seek=seek_id)
    assert last["type"] == "paired"
    got = [last] + [await next_of(p, "paired") for p in players[:3]]
    assert len({m["room"] for m in got}) == 1
    assert sorted(m["seat"] for m in got) == [0, 1, 2, 3]
    update = await players[0].wait_update(lambda m: m["status"] == "playing", room=last["room"])
    assert update["status"] == "playing"
    for p in players:
        await p.close()


@pytest.fixture
async def two_nodes(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    def config(node: str) -> Config:
        return node_config(redis_url, prefix, registry, node)

    async with KibitzServer(config("n1")) as n1, KibitzServer(config("n2")) as n2:
        yield n1, n2


async def test_quick_pairing_of_twenty_across_two_nodes(
    two_nodes: tuple[KibitzServer, KibitzServer],
) -> None:
    n1, n2 = two_nodes
    clients = [await KibitzClient.connect((n1, n2)[i % 2].ws_url) for i in range(20)]
    joined = await asyncio.gather(
        *(
            c.request("pool_join", game="chess", clock={"base": 180, "increment": 2})
            for c in clients
        )
    )
    assert {j["pool"] for j in joined} == {"chess:180+2"}
    paired = await asyncio.gather(*(next_of(c, "paired", 20) for c in clients))
    rooms: dict[str, list[int]] = {}
    for msg in paired:
        rooms.setdefault(msg["room"], []).append(msg["seat"])
    assert len(rooms) == 10 and all(sorted(s) == [0, 1] for s in rooms.values())
    await asyncio.sleep(1.5)  # nobody is paired a second time
    for c in clients:
        assert not [m for m in c.drain() if m.get("type") == "paired"]
        await c.close()


async def test_a_host_dying_at_the_end_still_rates_once(
    two_nodes: tuple[KibitzServer, KibitzServer],
) -> None:
    n1, n2 = two_nodes
    assert n1.hub is not None and n2.hub is not None
    a = await user(n1, "Ada")
    b = await user(n1, "Bob")
    service = n1.seeks

    async def dies(room: Any) -> None:  # the host dies after the last move, before rating
        raise RuntimeError("killed")

    n1.hub.on_over[:] = [dies]
    room = await rated_fools_mate(n1, a, b)
    assert not await service.store.applied(room)
    await a.close()
    await b.close()
    await n1.stop()  # its lease runs out; n2 takes the ended room over and rates it
    c = await KibitzClient.connect(n2.ws_url)
    for _ in range(50):
        try:
            await c.request("record", room=room)
            break
        except KibitzError:
            await asyncio.sleep(0.2)
    for name in ("Ada", "Bob"):
        rating = await wait_rated(n2, name, "chess:blitz")
        assert rating["games"] == 1
    other = n2.seeks
    hosted = n2.hub.rooms[room]
    await asyncio.gather(*(other.rate(hosted.room) for _ in range(3)))
    status, history, _ = await api(n2, "GET", "/api/users/Ada/games")
    assert status == 200 and history["total"] == 1
    assert (await wait_rated(n2, "Ada", "chess:blitz"))["games"] == 1
    await c.close()


async def test_store_scripts_refuse_twice(server: KibitzServer) -> None:
    """The Lua guards themselves: a room's result once; a stale rating refused; a pool entry
    paired once; a seek taken once."""
    assert server.hub is not None
    store = server.seeks.store
    old = ""
    new = '{"rating": 1662.31, "rd": 290.32, "volatility": 0.06, "games": 1, "provisional": true}'
    players = [("Ada", old, new)]
    assert await store.apply_result("room1", {"room": "room1"}, 1.0, "chess:blitz", players)
    assert not await store.apply_result("room1", {"room": "room1"}, 2.0, "chess:blitz", players)
    total, games = await store.history("Ada", 0, 10)
    assert total == 1 and games == [{"room": "room1"}]
    # computed from a rating that changed meanwhile: refused, nothing written
    with pytest.raises(Stale):
        await store.apply_result("room2", {"room": "room2"}, 3.0, "chess:blitz", players)
    assert not await store.applied("room2")
    assert (await store.history("Ada", 0, 10))[0] == 1
    # pool entries: a pair leaves together, and once
    for key in ("a", "b", "c"):
        await store.pool_join("p", key, {"key": key})
    results = await asyncio.gather(store.pair("p", "a", "b"), store.pair("p", "a", "c"))
    assert sorted(r is None for r in results) == [False, True]
    assert len(await store.pool("p")) == 1
    # a two-seat seek: only one of many acceptors gets it
    await store.add_seek("s1", {"id": "s1"})
    await store.join_seek("s1", "poster", {"key": "poster"}, 2)
    got = await asyncio.gather(
        *(store.join_seek("s1", f"p{i}", {"key": f"p{i}"}, 2) for i in range(5))
    )
    assert sum(isinstance(g, list) for g in got) == 1 and got.count(None) == 4


async def test_a_rated_many_player_game_uses_openskill(server: KibitzServer) -> None:
    assert server.hub is not None
    service = server.seeks
    names = ["Ann", "Ben", "Cid"]
    for n in names:
        await register_and_login(server, n)
    pairing = {
        "room": "hui1",
        "game": "hase_und_igel",
        "category": "hase_und_igel:correspondence",
        "rated": True,
        "clock": "untimed",
        "players": [{"name": n, "user": n, "rating": 1500.0, "provisional": True} for n in names],
    }
    await service.store.save_pairing("hui1", pairing, 60)
    outcome = SimpleNamespace(scores=(0.5, 1.0, 0.0), ranks=(2, 1, 3), reason="finished")
    room: Any = SimpleNamespace(id="hui1", outcome=outcome, rated=None)
    await asyncio.gather(service.rate(room), service.rate(room))
    ratings = {n: await wait_rated(server, n, "hase_und_igel:correspondence") for n in names}
    assert ratings["Ben"]["mu"] > 25 > ratings["Cid"]["mu"]
    assert all(r["games"] == 1 for r in ratings.values())
    # guests in the game: unrated, but the account holders' history has it
    pairing["room"] = "hui2"
    pairing["players"][2]["user"] = None
    await service.store.save_pairing("hui2", pairing, 60)
    await service.rate(SimpleNamespace(id="hui2", outcome=outcome, rated=None))  # type: ignore[arg-type]
    status, history, _ = await api(server, "GET", "/api/users/Ann/games")
    assert status == 200 and history["total"] == 2
    assert history["games"][0]["room"] == "hui2" and not history["games"][0]["rated"]
    assert (await wait_rated(server, "Ann", "hase_und_igel:correspondence"))["games"] == 1


async def test_a_dead_nodes_seeks_and_pool_entries_are_dropped(
    two_nodes: tuple[KibitzServer, KibitzServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seeks_module, "GRACE", 0.3)
    n1, n2 = two_nodes
    assert n2.hub is not None
    poster = await KibitzClient.connect(n1.ws_url)
    waiting = await KibitzClient.connect(n1.ws_url)
    watcher = await KibitzClient.connect(n2.ws_url)
    await watcher.request("list_seeks")
    await poster.request("seek", game="chess")
    await waiting.request("pool_join", game="chess", clock={"base": 600, "increment": 0})
    assert len((await next_of(watcher, "seeks"))["seeks"]) == 1
    n1.hub.on_over.clear()  # type: ignore[union-attr]
    for task in list(n1.hub.tasks):  # type: ignore[union-attr]
        if task.get_name() == "seeks-loop":
            task.cancel()  # n1 dies: it sweeps (and beats) no more, its clients stay "up"
    await asyncio.sleep(0.1)
    assert (await next_of(watcher, "seeks", timeout=10))["seeks"] == []
    service = n2.seeks
    assert await service.store.pool("chess:600+0") == {}
    for c in (poster, waiting, watcher):
        await c.close()


async def test_sigkill_of_the_host_at_the_end_rates_exactly_once(
    redis_url: str, prefix: str
) -> None:
    """The room's host (a real process) is killed right after the mating move: whether it
    rated the game or not, the game is rated once (the other node takes over the room)."""
    common = ["--redis", redis_url, "--prefix", prefix, "--lease-ms", "1000", "--bot-workers", "0"]
    n1 = ServerProcess([*common, "--node-id", "n1"])
    n2 = ServerProcess([*common, "--node-id", "n2"])
    await n1.start()
    await n2.start()
    try:
        host = SimpleNamespace(url=n2.url)
        tokens = {n: await register_and_login(host, n) for n in ("Ada", "Bob")}  # type: ignore[arg-type]

        async def login(ws: str, name: str) -> KibitzClient:
            c = await KibitzClient.connect(ws, hello=False)
            c.welcome = await c.request("hello", protocol=2, auth=tokens[name])
            return c

        bob = await login(n2.ws, "Bob")
        ada_n1 = await login(n1.ws, "Ada")  # accepts on n1: n1 hosts the room
        ada = await login(n2.ws, "Ada")  # Ada's other connection, on the node that survives
        seek_id = (await bob.request("seek", game="chess", settings=BLITZ, rated=True))["seek"]
        paired = await ada_n1.request("accept_seek", seek=seek_id)
        room = paired["room"]
        assert (await next_of(ada, "paired"))["room"] == room
        bob_seat = (await next_of(bob, "paired"))["seat"]
        by_seat = {bob_seat: bob, 1 - bob_seat: ada}
        await play(by_seat, room, FOOLS_MATE)
        n1.kill()
        for _ in range(100):  # n2 hosts the room once n1's lease is gone
            try:
                await bob.request("record", room=room)
                break
            except KibitzError:
                await asyncio.sleep(0.2)
        winner = "Bob" if bob_seat == 1 else "Ada"
        rating = await wait_rated(host, winner, "chess:blitz")  # type: ignore[arg-type]
        assert rating["games"] == 1 and rating["rating"] == pytest.approx(1662.3, abs=0.05)
        await asyncio.sleep(1.0)
        _, history, _ = await api(host, "GET", f"/api/users/{winner}/games")  # type: ignore[arg-type]
        assert history["total"] == 1
        again = await wait_rated(host, winner, "chess:blitz")  # type: ignore[arg-type]
        assert again == rating
        for c in (bob, ada):
            await c.close()
    finally:
        n1.ensure_dead()
        n2.ensure_dead()


async def test_an_aborted_rated_game_is_recorded_unrated(server: KibitzServer) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    seek_id = (await ada.request("seek", game="chess", settings=BLITZ, rated=True))["seek"]
    paired = await bob.request("accept_seek", seek=seek_id)
    room = paired["room"]
    await bob.request("abort", room=room)
    await bob.wait_update(lambda m: m["status"] == "over", room=room)
    for _ in range(50):
        status, history, _ = await api(server, "GET", "/api/users/Bob/games")
        if history["total"]:
            break
        await asyncio.sleep(0.1)
    assert status == 200 and history["total"] == 1
    game = history["games"][0]
    assert game["reason"] == "aborted" and game["rated"] is False
    assert all("change" not in p for p in game["players"])
    _, profile, _ = await api(server, "GET", "/api/users/Bob")
    assert profile["ratings"] == {}
    for c in (ada, bob):
        await c.close()

"""Kibitz on a real Redis Cluster (3 primaries + 3 replicas on loopback): two nodes play
every game to the end, the keys of a room share one slot, and a primary killed mid-game
fails over while the games go on — with ``--durability replica`` no acknowledged move is
lost. (The long form, many kill trials: ``python -m server.tools.cluster_failover``.)"""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient, KibitzError
from server.store import Unknown
from server.store.cluster import ClusterStore, TornDownSafeCluster
from server.tools import redis_cluster as cluster_tool
from server.tools.cluster_failover import Player, acked_moves_kept
from server.tools.redis_cluster import LocalCluster

from .test_games import pick


async def seen_by(c: KibitzClient, room: str) -> dict[str, Any]:
    """The room as this client's seat sees it now (a resync and the update it pushes)."""
    c.drain()
    ok = await c.request("resync", room=room)
    return await c.wait_update(lambda m: m["version"] >= ok["version"], room=room)


async def play_to_the_end(
    clients: dict[int, KibitzClient], room: str, rng: random.Random, turns: int = 300
) -> dict[str, Any]:
    """Each seat plays a random legal move whenever it may (clients on two nodes hear of
    changes at different moments: a stale choice is simply made again)."""
    for _ in range(turns):
        for c in clients.values():
            state = await seen_by(c, room)
            if state["status"] == "over":
                return state
            if not state.get("legal"):
                continue
            try:
                await c.request(
                    "move", room=room, move=pick(state["legal"], rng), version=state["version"]
                )
            except KibitzError as exc:
                if exc.code not in ("stale_version", "not_your_turn", "already_sealed"):
                    raise
    # not over yet (a long race, or many stale choices on a busy machine): every seat
    # resigns in turn — in Hase und Igel the race goes on without one who leaves
    for c in clients.values():
        state = await seen_by(c, room)
        if state["status"] == "over":
            return state
        await c.request("resign", room=room)
    return await seen_by(clients[0], room)


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as cluster:
        yield cluster


@pytest.fixture
async def two_nodes(
    redis_cluster: LocalCluster, prefix: str, registry: Registry
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    def config(node: str) -> Config:
        return Config(
            port=0,
            redis_cluster=redis_cluster.url,
            prefix=prefix,
            registry=registry,
            node_id=node,
            bot_workers=0,
            durability="replica",
            wait_ms=2000,
            limits=Limits(rate=10_000, burst=10_000),
        )

    async with KibitzServer(config("c1")) as n1, KibitzServer(config("c2")) as n2:
        yield n1, n2


GAMES = [
    ("chess", 2, {}),
    ("dark_chess", 2, {}),
    ("banqi", 2, {}),
    ("apocalypse", 2, {}),
    ("hase_und_igel", 3, {}),
]


async def test_every_game_to_the_end_on_two_nodes(
    two_nodes: tuple[KibitzServer, KibitzServer],
) -> None:
    n1, n2 = two_nodes
    rng = random.Random(7)
    for game, n, options in GAMES:
        # seats alternate between the nodes: half the commands are forwarded to the host
        clients = {
            s: await KibitzClient.connect((n1 if s % 2 == 0 else n2).ws_url) for s in range(n)
        }
        room = (await clients[0].request("create_room", game=game, seats=n, options=options))[
            "room"
        ]
        for s, c in clients.items():
            await c.request("take_seat", room=room, seat=s, name=f"P{s}")
        end = await play_to_the_end(clients, room, rng)
        assert end["status"] == "over" and end["outcome"] is not None, game
        record = (await clients[1].request("record", room=room))["record"]
        assert record["outcome"] == end["outcome"]
        for c in clients.values():
            await c.close()


async def test_a_rooms_keys_share_one_slot(two_nodes: tuple[KibitzServer, KibitzServer]) -> None:
    n1, _ = two_nodes
    assert isinstance(n1.store, ClusterStore)
    c = await KibitzClient.connect(n1.ws_url)
    room = (await c.request("create_room", game="chess"))["room"]
    await c.request("take_seat", room=room, seat=0, name="Ada")
    await c.request("chat", room=room, text="hello")
    keys = [n1.store.rk(kind, room) for kind in ("room", "lease", "chat", "live")]
    assert len({key_slot(k.encode()) for k in keys}) == 1
    client: Any = n1.store.redis
    assert await client.exists(keys[0]) and await client.exists(keys[1])
    assert await client.exists(keys[2])
    await c.close()


async def test_a_connection_torn_down_under_a_command_is_a_connection_error(
    redis_cluster: LocalCluster, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The redis-py race a failover set off (seen once in the test below): a slot-map
    refresh disconnects a node's connections while a command is between its connect and
    its write, and the write finds ``_writer`` gone. Reproduced by tearing the connection
    down at that very point: redis-py's client raises ``AttributeError`` (an ``internal``
    error for our client), the store's raises a connection error (``unavailable``)."""
    from redis.asyncio.connection import Connection
    from redis.exceptions import ConnectionError as RedisConnectionError

    key = f"{prefix}torn".encode()
    plain = RedisCluster.from_url(redis_cluster.url, decode_responses=False)
    safe = TornDownSafeCluster.from_url(redis_cluster.url, decode_responses=False)
    for client in (plain, safe):
        await client.set(key, b"1")
    send = Connection._send_packed_command

    async def torn_down(self: Connection, command: Any) -> None:
        await self.disconnect(nowait=True)  # what the refresh does to every connection
        await send(self, command)

    monkeypatch.setattr(Connection, "_send_packed_command", torn_down)
    with pytest.raises(AttributeError):
        await plain.get(key)
    with pytest.raises(RedisConnectionError, match="a cluster connection closed"):
        await safe.get(key)
    with pytest.raises(AttributeError):  # a pipeline (as mget_nonatomic runs) alike
        await plain.mget_nonatomic([key])
    with pytest.raises(RedisConnectionError, match="a cluster connection closed"):
        await safe.mget_nonatomic([key])
    monkeypatch.undo()
    assert await safe.get(key) == b"1"  # the next command reconnects
    for client in (plain, safe):
        await client.aclose()


async def test_the_pub_sub_health_check_answer_is_not_a_message(
    redis_cluster: LocalCluster, prefix: str
) -> None:
    """NodePubSub PINGs its node now and then; the ``pong`` comes back through
    ``get_message`` with ``data`` b"" (redis-py hands it on), which every listener would
    take for a publication and fail to decode. Only publications come out."""
    store = ClusterStore.from_cluster_url(redis_cluster.url, prefix=prefix)
    await store.redis.initialize()  # the nodes a subscription may go to
    pubsub = store.pubsub()
    await pubsub.subscribe(store.channel("pong"))
    raw = pubsub._pubsub  # what redis-py itself delivers: the pong the guard drops
    await raw.ping()
    first = [await raw.get_message(timeout=0.5) for _ in range(3)]  # the subscribe's reply: None
    assert [m["type"] for m in first if m is not None] == ["pong"]
    got: list[Any] = []
    for i in range(3):
        pubsub._checked = 0.0  # a health check (a PING) on the next read
        await store.publish("pong", f"m{i}".encode())
        for _ in range(6):  # the pong and the publication, in either order
            if (message := await pubsub.get_message(timeout=0.1)) is not None:
                got.append(message)
    sent = [("message", f"m{i}".encode()) for i in range(3)]
    assert [(m["type"], m["data"]) for m in got] == sent
    await pubsub.aclose()
    await store.redis.aclose()


async def test_a_killed_primary_fails_over_and_no_acknowledged_move_is_lost(
    redis_cluster: LocalCluster, two_nodes: tuple[KibitzServer, KibitzServer], prefix: str
) -> None:
    n1, n2 = two_nodes
    players = [await Player.seat(n1.ws_url, n2.ws_url, seed=i) for i in range(4)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop, moves=40)) for p in players]
    await asyncio.sleep(0.5)
    for p in players:
        p.mark = time.monotonic()
    port = redis_cluster.kill_primary(0)
    failover = await asyncio.to_thread(redis_cluster.wait_ok, 30)
    # its replica took over, with no replica of its own: moves there are answered
    # not_replicated (in the game, not acknowledged) until the dead node is back as one
    await asyncio.to_thread(redis_cluster.restart, port)
    while min(p.after_mark() for p in players) < 10:  # the games go on after the kill
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert all(len(p.acked) >= 40 for p in players)
    assert all(not p.errors for p in players), [p.errors for p in players]
    client = RedisCluster.from_url(redis_cluster.url)
    try:
        store = ClusterStore(client, prefix=prefix)
        lost = [m for p in players for m in await acked_moves_kept(store, p)]
    finally:
        await client.aclose()
    assert lost == []
    assert failover < 30
    for p in players:
        await p.close()


async def test_an_append_under_a_torn_down_connection_is_retried_or_unknown_never_internal(
    redis_cluster: LocalCluster, prefix: str
) -> None:
    """A slot-map refresh (any task's, during a failover) disconnects every connection of a
    node, also one an append holds between connect and send. Before a byte is sent that
    append is simply tried again; after, its outcome is :class:`Unknown` and the log says.
    Never an AttributeError out of redis-py (which the server would answer 'internal')."""
    store = ClusterStore.from_cluster_url(redis_cluster.url, prefix=prefix)
    room = "torn"
    await store.append(room, 0, [{"n": 0}], status="live")
    node = store.redis.get_node_from_key(store.rk("room", room))
    version, acked, unknown, tears = 1, {0}, 0, []
    for i in range(200):
        # what NodesManager.initialize does to a node it replaces, at every phase of an append
        tears.append(asyncio.create_task(node.disconnect()))
        for _ in range(i % 5):
            await asyncio.sleep(0)
        try:
            version = await store.append(room, version, [{"n": i + 1}])
            acked.add(i + 1)
        except Unknown:
            unknown += 1
            await asyncio.gather(*tears, return_exceptions=True)
            version = await store.version(room)  # the log says what happened
    await asyncio.gather(*tears, return_exceptions=True)
    records = [r["n"] for r in await store.load(room)]
    assert len(records) == version == await store.version(room)
    assert records == sorted(set(records))  # none doubled
    assert acked <= set(records) and len(acked) + unknown >= 200  # none acknowledged lost
    await store.redis.aclose()


def test_a_node_whose_port_was_taken_meanwhile_starts_on_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port found free may be taken before redis-server binds it (tests run side by side):
    the node exits and another pair is tried. The broken version (one try) fails as the
    suite once did: "redis-server on port ... did not start"."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        free = cluster_tool._port_pair
        for tries, works in ((2, True), (1, False)):
            pairs = iter([port, free()])
            monkeypatch.setattr(cluster_tool, "_port_pair", pairs.__next__)
            cluster = LocalCluster(directory=tmp_path / str(tries))
            try:
                if works:
                    started = cluster._start_node(10.0, tries)
                    assert started != port and cluster.procs[started].poll() is None
                else:
                    with pytest.raises(RuntimeError, match="in 1 tries"):
                        cluster._start_node(10.0, tries)
            finally:
                cluster.stop()

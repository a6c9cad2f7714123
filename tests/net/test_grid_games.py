"""Every game drawn from its board description, over the wire as players meet it: a rated
seek accepted, a whole game played from the updates' legal moves, a spectator and a record;
quick pairing; a table of bots. A game registered with ``board = "grid"`` is picked up here
without a line of its own."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from server.engine import REGISTRY, Registry
from server.engine import grid as grid_contract
from server.net.app import KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient

from ..conftest import serving
from .test_bots import replay_is_legal
from .test_games import play_out
from .test_seeks import next_of, user, wait_rated

#: the grid games two can play (a four-seat game, Yonin Shogi, has its own: test_yonin_shogi.py)
GRID_GAMES = [g.name for g in REGISTRY if g.board == "grid" and g.min_seats <= 2 <= g.max_seats]
BLITZ = {"clock": {"type": "fischer", "base": 180, "increment": 2}}


@pytest.fixture
async def server(redis_url: str, prefix: str, registry: Registry) -> AsyncIterator[KibitzServer]:
    """These clients play as fast as they can: a generous message budget."""
    limits = Limits(rate=10_000, burst=10_000)
    async with serving(redis_url, prefix, registry, limits=limits) as srv:
        yield srv


@pytest.mark.parametrize("game", GRID_GAMES)
async def test_a_rated_seek_played_to_the_end(server: KibitzServer, game: str) -> None:
    assert server.hub is not None
    assert server.seeks.started
    ada, bob = await user(server, f"Ada{game[:4]}"), await user(server, f"Bob{game[:4]}")
    posted = await ada.request("seek", game=game, settings=BLITZ, rated=True)
    paired_b = await bob.request("accept_seek", seek=posted["seek"])
    paired_a = await next_of(ada, "paired")
    room = paired_a["room"]
    assert paired_b["room"] == room and paired_a["rated"]
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    first = await spec.wait_update(lambda m: True, room=room)
    grid_contract.check(first["view"]["grid"], 2)
    players = {paired_a["seat"]: ada, paired_b["seat"]: bob}
    end = await play_out(players, room, random.Random(game))
    assert end["status"] == "over" and end["outcome"]["reason"]
    seen = await spec.wait_update(lambda m: m["status"] == "over", room=room)
    assert seen["outcome"] == end["outcome"]
    grid_contract.check(seen["view"]["grid"], 2)
    record = (await spec.request("record", room=room))["record"]
    assert record["game"] == game and len(record["moves"]) == end["turn"]
    replay_is_legal(record)
    for name in (f"Ada{game[:4]}", f"Bob{game[:4]}"):
        rating = await wait_rated(server, name, f"{game}:blitz")
        assert rating["games"] == 1
    for c in (ada, bob, spec):
        await c.close()


@pytest.mark.parametrize("game", GRID_GAMES)
async def test_quick_pairing_seats_two(server: KibitzServer, game: str) -> None:
    assert server.hub is not None
    assert server.seeks.started
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    clock = {"base": 300, "increment": 3}
    joined = []
    for c, n in ((a, "A"), (b, "B")):
        joined.append(await c.request("pool_join", game=game, clock=clock, name=n))
    assert {j["pool"] for j in joined} == {f"{game}:300+3"}
    paired = await asyncio.gather(next_of(a, "paired", 20), next_of(b, "paired", 20))
    assert paired[0]["room"] == paired[1]["room"]
    assert sorted(p["seat"] for p in paired) == [0, 1]
    for c in (a, b):
        await c.close()


@pytest.mark.parametrize("game", GRID_GAMES)
async def test_a_table_of_bots(server: KibitzServer, game: str) -> None:
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game=game, seats=2))["room"]
    for seat, strength in enumerate(("easy", "random")):
        await c.request("add_bot", room=room, seat=seat, strength=strength)
    await c.request("watch", room=room)
    end = await c.wait_update(lambda m: m["status"] == "over", room=room, timeout=120)
    record = (await c.request("record", room=room))["record"]
    assert record["outcome"] == end["outcome"] and len(record["moves"]) == end["turn"] > 0
    replay_is_legal(record)
    await c.close()

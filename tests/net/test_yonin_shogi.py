"""Yonin Shogi over the wire: four players meet through one rated seek (the poster and three
who accept it), play a whole game by random legal moves from their updates, a spectator
watches, the record replays, and the four are rated with OpenSkill (the rating for more than
two seats). The two-seat grid tests (tests/net/test_grid_games.py) leave four-seat games out.

Quick pairing for four (tables of four filled from the pool across two nodes) is
tests/net/test_pools_many.py."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from server.engine import Registry
from server.engine import grid as grid_contract
from server.net.app import KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient

from ..conftest import serving
from .test_bots import replay_is_legal
from .test_games import play_out
from .test_seeks import next_of, user, wait_rated

BLITZ = {"clock": {"type": "fischer", "base": 180, "increment": 2}}
NAMES = ("Aki", "Ben", "Chi", "Dai")


@pytest.fixture
async def server(redis_url: str, prefix: str, registry: Registry) -> AsyncIterator[KibitzServer]:
    """These clients play as fast as they can: a generous message budget."""
    limits = Limits(rate=10_000, burst=10_000)
    async with serving(redis_url, prefix, registry, limits=limits) as srv:
        yield srv


async def test_a_four_seat_rated_seek_played_to_the_end(server: KibitzServer) -> None:
    assert server.hub is not None
    assert server.seeks.started
    clients = [await user(server, n) for n in NAMES]
    posted = await clients[0].request(
        "seek", game="yonin_shogi", settings=BLITZ, rated=True, seats=4
    )
    for c in clients[1:3]:  # two accept: the seek waits for the fourth
        assert await c.request("accept_seek", seek=posted["seek"]) is not None
    last = await clients[3].request("accept_seek", seek=posted["seek"])
    paired = [await next_of(c, "paired") for c in clients[:3]] + [last]
    room = paired[0]["room"]
    assert all(p["room"] == room and p["rated"] for p in paired)
    assert sorted(p["seat"] for p in paired) == [0, 1, 2, 3]
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    first = await spec.wait_update(lambda m: True, room=room)
    grid_contract.check(first["view"]["grid"], 4)
    assert first["view"]["grid"]["status"] == "South to move"
    players = {p["seat"]: c for p, c in zip(paired, clients, strict=True)}
    end = await play_out(players, room, random.Random("yonin"))
    assert end["status"] == "over" and end["outcome"]["reason"] == "king_captured"
    ranks = end["outcome"]["ranks"]
    assert sorted(ranks) == [1, 2, 2, 4]
    seen = await spec.wait_update(lambda m: m["status"] == "over", room=room)
    assert seen["outcome"] == end["outcome"]
    grid_contract.check(seen["view"]["grid"], 4)
    assert seen["view"]["grid"]["status"].endswith("King and wins")
    record = (await spec.request("record", room=room))["record"]
    assert record["game"] == "yonin_shogi" and len(record["moves"]) == end["turn"]
    replay_is_legal(record)
    ratings = {
        p["seat"]: await wait_rated(server, n, "yonin_shogi:blitz")
        for p, n in zip(paired, NAMES, strict=True)
    }
    assert all(r["games"] == 1 for r in ratings.values())
    winner, loser = ranks.index(1), ranks.index(4)
    assert ratings[winner]["mu"] > 25 > ratings[loser]["mu"]  # OpenSkill's mu, from 25
    for c in (*clients, spec):
        await c.close()

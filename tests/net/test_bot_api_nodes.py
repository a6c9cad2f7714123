"""The Bot API over two nodes on one Redis: the challenge made on one node, accepted on the
other (which hosts the room), the events and the game stream read on a node that does not
host the game — everything goes through pub/sub and the host, as for WebSocket clients."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server.engine import Registry
from server.net.app import KibitzServer

from ..conftest import two_nodes as nodes_of_two
from .botapi_helpers import Reader, berserk_client, bot_account, post
from .test_accounts import register_and_login
from .test_bot_api import user_with
from .test_seeks import next_of


@pytest.fixture
async def two_nodes(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    async with nodes_of_two(redis_url, prefix, registry) as pair:
        yield pair


async def test_a_game_over_the_api_across_two_nodes(
    two_nodes: tuple[KibitzServer, KibitzServer],
) -> None:
    n1, n2 = two_nodes
    _, bot_token = await bot_account(n1, "Robo")
    on_n1, on_n2 = berserk_client(n1, bot_token), berserk_client(n2, bot_token)
    events = Reader(on_n1.bots.stream_incoming_events)
    login = await register_and_login(n1, "Bea")
    bea = await user_with(n1, "Bea", login)
    fields = {"rated": "true", "clock.limit": "180", "clock.increment": "2", "color": "white"}
    status, made = await post(n1, "/api/challenge/Robo", login, fields)
    assert status == 200
    seen = await events.until(lambda e: e["type"] == "challenge")
    await asyncio.to_thread(on_n2.bots.accept_challenge, seen["challenge"]["id"])
    start = await events.until(lambda e: e["type"] == "gameStart")
    game_id = start["game"]["gameId"]
    assert game_id in n2.hub.rooms and game_id not in n1.hub.rooms  # n2 hosts it
    paired = await next_of(bea, "paired")  # delivered to Bea's connection on n1
    assert paired["room"] == game_id
    game = Reader(lambda: on_n1.bots.stream_game_state(game_id))  # n1 only relays
    assert (await game.next())["type"] == "gameFull"
    await bea.request("move", room=game_id, move="e2e4")
    await game.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4")
    await asyncio.to_thread(on_n1.bots.make_move, game_id, "e7e5")
    await bea.wait_update(lambda m: m["view"]["last_move"] == "e7e5", room=game_id)
    await asyncio.to_thread(on_n1.bots.post_message, game_id, "hello from n1")
    line = await game.until(lambda s: s["type"] == "chatLine")
    assert line["text"] == "hello from n1"
    await asyncio.to_thread(on_n2.bots.resign_game, game_id)
    last = await game.until(lambda s: s["type"] == "gameState" and s["status"] != "started")
    assert last["status"] == "resign" and last["winner"] == "white"
    finish = await events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"]["gameId"] == game_id
    del made

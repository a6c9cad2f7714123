"""The Bot API's bounds, each shown catching a deliberately broken version of itself: the
tokens and challenges one account may hold (a Lua script checks and writes at once), and the
renderings a game stream may hold unread."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.net.botapi import games
from server.net.botapi import wire as botapi_wire
from server.net.botapi.games import SeatListener
from server.net.codec import Codec
from server.net.connection import Limits, wire
from server.store import api_tokens
from server.store.api_tokens import ApiStore

#: the scripts without their bounds: what a check-then-write in two steps would allow
UNBOUNDED = api_tokens.ADD_BOUNDED.replace(
    "if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end", ""
)
UNBOUNDED_CHALLENGE = api_tokens.ADD_CHALLENGE.replace(
    "if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return -1 end", ""
)


async def held_after_many(store: ApiStore, tries: int) -> int:
    for _ in range(tries):
        await store.create_token("Ada", ["bot:play"], "x")
    return len(await store.tokens("Ada"))


@pytest.mark.parametrize("broken", [False, True], ids=["script", "broken-script"])
async def test_the_token_bound_and_a_broken_script(
    redis_url: str, prefix: str, monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    assert UNBOUNDED != api_tokens.ADD_BOUNDED
    assert UNBOUNDED_CHALLENGE != api_tokens.ADD_CHALLENGE
    if broken:
        monkeypatch.setattr(api_tokens, "ADD_BOUNDED", UNBOUNDED)
        monkeypatch.setattr(api_tokens, "ADD_CHALLENGE", UNBOUNDED_CHALLENGE)
    r = aioredis.from_url(redis_url)
    try:
        store = ApiStore(r, prefix)
        held = await held_after_many(store, api_tokens.MAX_TOKENS + 3)
        if broken:
            assert held > api_tokens.MAX_TOKENS  # the check below would catch it
        else:
            assert held == api_tokens.MAX_TOKENS
        challenge = {"id": "c1", "challenger": {"id": "ada"}, "destUser": {"id": "bob"}}
        made = 0
        for i in range(api_tokens.MAX_CHALLENGES + 2):
            made += await store.add_challenge(challenge | {"id": f"c{i}"}) is None
        assert (made > api_tokens.MAX_CHALLENGES) is broken
    finally:
        await r.aclose()


class Unbounded(SeatListener):
    """A listener without its bound (what the stream would be without it)."""

    __slots__ = ()

    def send_wire(self, data: bytes) -> None:
        self.queue.append(json.loads(data[2:] if data[1] < 126 else data[4:]))


@pytest.mark.parametrize("kind", [SeatListener, Unbounded], ids=["listener", "broken"])
async def test_a_game_stream_holds_a_bounded_queue(kind: Any) -> None:
    # no connection: only the queue is looked at
    listener = kind(SimpleNamespace(response=None), Codec(), Limits())
    frame = wire(json.dumps({"type": "update", "room": "r", "status": "playing"}))
    for _ in range(games.QUEUE * 3):
        listener.send_wire(frame)
    if kind is Unbounded:
        assert len(listener.queue) > games.QUEUE  # the check below would catch it
    else:
        assert len(listener.queue) <= games.QUEUE and listener.overflowed


async def dropped_within(server: Any, head: bytes, seconds: float) -> bool:
    """Whether a client that sends ``head`` and then nothing is cut within ``seconds``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(head)
    try:
        data = await asyncio.wait_for(reader.read(), seconds)
        return data == b"" or data.startswith(b"HTTP/1.1 4")
    except TimeoutError:
        return False
    finally:
        writer.close()


@pytest.mark.parametrize("limit", [0.5, 60.0], ids=["timeout", "broken-timeout"])
async def test_a_silent_client_is_cut_at_the_handshake_timeout(
    server: Any, monkeypatch: pytest.MonkeyPatch, limit: float
) -> None:
    """The server runs with websockets' ``open_timeout`` off (a stream is no handshake):
    StreamingConnection times the handshake itself; without it a client that never
    finishes its request would hold a connection for ever."""
    monkeypatch.setattr(botapi_wire, "OPEN_TIMEOUT", limit)
    for head in (b"", b"GET /api/stream/event HTTP/1.1\r\nHost: x\r\n"):
        assert await dropped_within(server, head, 2.0) is (limit < 2.0), head

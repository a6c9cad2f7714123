"""The Bot API's bounds, each shown catching a deliberately broken version of itself: the
tokens and challenges one account may hold (a Lua script checks and writes at once), the
challenges waiting for one account, and the renderings a game stream may hold unread."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.engine import Registry
from server.net.botapi import games
from server.net.botapi.games import SeatListener
from server.net.transport import http11
from server.net.transport.codec import Codec
from server.net.transport.connection import Limits, wire
from server.store import api_tokens
from server.store.api_tokens import ApiStore

from ..conftest import serving
from .botapi_helpers import Reader, api_token, bot_account, get, post
from .test_accounts import register_and_login

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

    def deliver(self, payload: str | bytes, frame: bytes) -> None:
        self.queue.append(json.loads(payload))


@pytest.mark.parametrize("kind", [SeatListener, Unbounded], ids=["listener", "broken"])
async def test_a_game_stream_holds_a_bounded_queue(kind: Any) -> None:
    # no connection: only the queue is looked at
    listener = kind(SimpleNamespace(response=None), Codec(), Limits())
    payload = json.dumps({"type": "update", "room": "r", "status": "playing"})
    for _ in range(games.QUEUE * 3):
        listener.deliver(payload, wire(payload))
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
    """A request's head (and body) must come within ``OPEN_TIMEOUT`` seconds
    (server/net/transport/http11.py); without it a client that never finishes its request would hold
    a connection for ever."""
    monkeypatch.setattr(http11, "OPEN_TIMEOUT", limit)
    for head in (b"", b"GET /api/stream/event HTTP/1.1\r\nHost: x\r\n"):
        assert await dropped_within(server, head, 2.0) is (limit < 2.0), head


@pytest.mark.parametrize("bounded", [True, False], ids=["capped", "broken-uncapped"])
async def test_challenges_waiting_for_one_bot_are_capped_and_oldest_first(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, bounded: bool
) -> None:
    """Issue 47: 600 open challenges waited for one bot, and its event stream opened with a
    399 KB burst. At most 50 wait for one account (past it, 429 saying so); they are listed
    oldest first, and the event stream opens with them in that order."""
    cap = api_tokens.MAX_INCOMING
    if not bounded:
        monkeypatch.setattr(api_tokens, "MAX_INCOMING", 10_000)
    async with serving(redis_url, prefix, registry, bot_workers=0, rooms_per_minute=1000) as server:
        bot, bot_token = await bot_account(server, "Target")
        per_maker = api_tokens.MAX_CHALLENGES
        tokens = []
        for i in range(cap // per_maker + 1):
            login = await register_and_login(server, f"Fan{i}")
            tokens.append(await api_token(server, login, ["challenge:write"]))
        answers = [
            await post(server, "/api/challenge/Target", tokens[k // per_maker])
            for k in range(cap + 1)
        ]
        made = [body["id"] for status, body in answers if status == 200]
        status, listed = await get(server, "/api/challenge", bot_token)
        assert status == 200
        if bounded:
            assert len(made) == cap == 50
            assert answers[cap] == (
                429,
                {
                    "error": "Target has 50 challenges waiting for an answer, as many as one "
                    "may: try again once they have answered some (an unanswered challenge "
                    "lapses after 10 minutes)"
                },
            )
        else:  # the twin: the 51st waits too, and so on without end
            assert len(made) == cap + 1
        assert [c["id"] for c in listed["in"]] == made  # oldest first
        events = Reader(bot.bots.stream_incoming_events)
        burst = [await events.next() for _ in made]
        assert [(e["type"], e["challenge"]["id"]) for e in burst] == [
            ("challenge", cid) for cid in made
        ]

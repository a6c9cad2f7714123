"""Helpers of the Bot API's tests: accounts with API tokens, and berserk run off the loop.

berserk is a blocking client (requests) and the server runs in the test's event loop, so
every call goes through a thread; a stream is read by a thread of its own into a queue.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from typing import Any

import berserk
import pytest
import requests

from server.net.app import KibitzServer

from .test_accounts import api, register_and_login

Json = dict[str, Any]


async def api_token(server: KibitzServer, login: str, scopes: list[str]) -> str:
    status, body, _ = await api(
        server,
        "POST",
        "/api/tokens",
        {"description": "test", "scopes": scopes},
        headers={"Authorization": f"Bearer {login}"},
    )
    assert status == 200, body
    return str(body["token"])


async def bot_account(server: KibitzServer, name: str) -> tuple[berserk.Client, str]:
    """A bot account (upgraded through the API) and its berserk client."""
    login = await register_and_login(server, name)
    token = await api_token(server, login, ["bot:play"])
    client = berserk_client(server, token)
    await asyncio.to_thread(client.account.upgrade_to_bot)
    return client, token


async def person_account(
    server: KibitzServer, name: str, scopes: tuple[str, ...] = ("board:play", "challenge:write")
) -> tuple[berserk.Client, str]:
    """A person's account with an API token of ``scopes``, and its berserk client."""
    login = await register_and_login(server, name)
    token = await api_token(server, login, list(scopes))
    return berserk_client(server, token), token


def berserk_client(server: KibitzServer, token: str) -> berserk.Client:
    return berserk.Client(session=berserk.TokenSession(token), base_url=server.url)


class Reader:
    """A stream (a berserk generator) read by a thread into a queue (the thread ends with
    the stream: the server ends every stream when it stops)."""

    def __init__(self, start: Any) -> None:
        self.items: queue.Queue[Any] = queue.Queue()
        self.stream = start()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for item in self.stream:
                self.items.put(item)
        except Exception as exc:  # the connection was dropped (close) or failed
            self.items.put(exc)
        self.items.put(StopIteration())

    async def next(self, timeout: float = 10.0) -> Any:
        item = await asyncio.to_thread(self.items.get, True, timeout)
        if isinstance(item, Exception):
            raise item
        return item

    async def until(self, test: Any, timeout: float = 15.0) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            item = await self.next(max(0.1, deadline - loop.time()))
            if test(item):
                return item


async def raw_first_line(server: KibitzServer, path: str, token: str) -> tuple[bytes, Json]:
    """Open an ndjson stream on a bare socket: (the response head, its first object); the
    caller drops the connection (``writer.close()``) as a client that goes away does."""
    port = server.port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    await asyncio.wait_for(reader.readline(), 10)  # the chunk's size
    first = json.loads(await asyncio.wait_for(reader.readline(), 10))
    writer.close()
    return head, first


async def held_stream(server: KibitzServer, path: str, token: str) -> asyncio.StreamWriter:
    """Open an ndjson stream on a bare socket and read its head; the caller drops it
    (``writer.close()``) as a client that goes away does."""
    port = server.port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert head.startswith(b"HTTP/1.1 200 OK"), head
    return writer


def raw_stream(server: KibitzServer, path: str, token: str) -> requests.Response:
    return requests.get(
        server.url.rstrip("/") + path,
        stream=True,
        timeout=15,
        headers={"Authorization": f"Bearer {token}"},
    )


async def post(
    server: KibitzServer, path: str, token: str | None, data: Json | None = None
) -> tuple[int, Any]:
    def run() -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = requests.post(server.url.rstrip("/") + path, data=data, headers=headers, timeout=10)
        return r.status_code, json.loads(r.content)

    return await asyncio.to_thread(run)


async def get(server: KibitzServer, path: str, token: str | None) -> tuple[int, Any]:
    def run() -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = requests.get(server.url.rstrip("/") + path, headers=headers, timeout=10)
        return r.status_code, json.loads(r.content)

    return await asyncio.to_thread(run)


async def challenged(
    server: KibitzServer, robo: berserk.Client, person: berserk.Client, **clock: Any
) -> str:
    """The person challenges Robo (white, rated blitz unless ``clock`` says otherwise), Robo
    accepts; the game's id (the challenge's)."""
    events = Reader(robo.bots.stream_incoming_events)
    terms = {"clock_limit": 180, "clock_increment": 2} | clock
    made = await asyncio.to_thread(person.challenges.create, "Robo", True, color="white", **terms)
    await events.until(lambda e: e["type"] == "challenge" and e["challenge"]["id"] == made["id"])
    await asyncio.to_thread(robo.bots.accept_challenge, made["id"])
    start = await events.until(lambda e: e["type"] == "gameStart")
    assert start["game"]["gameId"] == start["game"]["id"] == made["id"]
    return str(made["id"])


async def refused(call: Any, *args: Any) -> tuple[int, str]:
    """A berserk call refused: (its status, the error of lichess's body ``{"error": ...}``)."""
    with pytest.raises(berserk.exceptions.ResponseError) as caught:
        await asyncio.to_thread(call, *args)
    assert list(caught.value.cause) == ["error"]
    return caught.value.status_code, caught.value.cause["error"]


async def until_over(server: KibitzServer, game_id: str) -> None:
    for _ in range(400):
        if (await server.hub.read(game_id, "info", {}))["status"] == "over":
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{game_id} is not over")


async def until_rated(server: KibitzServer, game_id: str) -> None:
    """Until a finished rated game's rating changes are in its record: they land just
    after the end, in a command of their own (a read between sees the game without them)."""
    for _ in range(400):
        record = await server.hub.read(game_id, "record", {})
        if (record.get("rated") or {}).get("changes"):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{game_id} is not rated")


async def login(server: KibitzServer, name: str) -> str:
    """A new web login of an account made by :func:`register_and_login`."""
    status, body, _ = await api(
        server, "POST", "/api/login", {"name": name, "password": "pa55-w0rd!"}
    )
    assert status == 200
    return str(body["token"])

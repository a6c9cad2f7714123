"""Helpers of ``kibitz bot``'s tests: runners of bot accounts on a test server, what they
tell, a player class, and a TCP proxy whose connections a test can cut."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from server.net.app import KibitzServer
from server.sdk.botrunner import BotRunner, Terms
from server.sdk.http import ApiClient

from .botapi_helpers import api_token
from .test_accounts import register_and_login


class RandomPlayer:
    """A player class as ``--player`` takes one: any legal move."""

    def __init__(self) -> None:
        self.rng = random.Random(7)

    def move(self, game: dict[str, Any]) -> str:
        return str(self.rng.choice(game["state"]["legalMoves"]))


class Notes:
    """What a runner told its listener, in order, and a way to wait for it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, Any]] = []
        self.changed = asyncio.Event()

    def __call__(self, kind: str, key: str, detail: Any) -> None:
        self.seen.append((kind, key, detail))
        self.changed.set()

    def of(self, kind: str) -> list[tuple[str, Any]]:
        return [(key, detail) for k, key, detail in self.seen if k == kind]

    async def until(self, test: Callable[[Notes], bool], timeout: float = 30.0) -> None:
        async with asyncio.timeout(timeout):
            while not test(self):
                self.changed.clear()
                await self.changed.wait()


async def bot_token(server: KibitzServer, name: str) -> str:
    """A new account's ``bot:play`` token (the account not yet upgraded)."""
    login = await register_and_login(server, name)
    return await api_token(server, login, ["bot:play"])


@contextlib.asynccontextmanager
async def running(
    url: str,
    token: str,
    make_player: Callable[[str], Any],
    games: frozenset[str] = frozenset({"chess"}),
    **options: Any,
) -> AsyncIterator[tuple[BotRunner, Notes]]:
    """A runner (upgrading its account) following its event stream, stopped after."""
    notes = Notes()
    options = {"upgrade": True, "backoff": (0.05, 0.5)} | options
    runner = BotRunner(ApiClient(url, token), make_player, Terms(games), listener=notes, **options)
    await runner.login()
    task = asyncio.create_task(runner.run())
    try:
        yield runner, notes
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class Proxy:
    """A TCP proxy to ``port`` on loopback; :meth:`cut` drops every connection it holds
    (the server sees its client go, the client its server)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None
        self.cuts = 0

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def start(self) -> Proxy:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}

    def cut(self) -> None:
        self.cuts += 1
        for writer in list(self.writers):
            writer.transport.abort()

    async def close(self) -> None:
        self.cut()
        assert self.server is not None
        self.server.close()

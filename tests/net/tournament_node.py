"""A node for the tournament kill -9 test: ``python -m tests.net.tournament_node REDIS PREFIX``
serves with a bot worker and 1 s leases, prints its URLs, and waits to be killed."""

from __future__ import annotations

import asyncio
import json
import sys

from server.engine import REGISTRY, Registry
from server.net.app import KibitzServer

from .tournament_helpers import config


async def main(redis_url: str, prefix: str) -> None:
    registry = Registry()
    for game in REGISTRY:
        registry.add(game)
    server = KibitzServer(config(redis_url, prefix, registry, "doomed"))
    await server.start()
    print(json.dumps({"url": server.url, "ws": server.ws_url}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:3]))

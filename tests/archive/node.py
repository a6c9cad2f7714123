"""A node for the kill -9 tests: ``python -m tests.archive.node REDIS PREFIX ARCHIVE STEP``
serves with the archive, a grace period of 2 s and a sweep every 0.2 s, and SIGKILLs itself
right after archiving step STEP (``server/net/services/archive/archiving.py``: read, written,
checked, dropped, forgotten) — a node killed there, by the kernel, mid-way."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

from server.net.app import Config, KibitzServer

from ..conftest import ROOT
from ..rps import RockPaperScissors


def kill_at(step: str):  # type: ignore[no-untyped-def]
    def fault(at: str) -> None:
        if at == step:
            os.kill(os.getpid(), signal.SIGKILL)

    return fault


async def main(redis_url: str, prefix: str, archive: str, step: str) -> None:
    from server.engine import REGISTRY, Registry

    registry = Registry()
    for game in REGISTRY:
        registry.add(game)
    registry.add(RockPaperScissors())
    cfg = Config(
        port=0,
        redis_url=redis_url,
        prefix=prefix,
        registry=registry,
        web_dir=ROOT / "web",
        archive=archive,
        archive_grace=2.0,
        bot_workers=0,
        node_id="doomed",
    )
    server = KibitzServer(cfg)
    await server.start()
    assert server.archiver is not None
    server.archiver.interval = 0.2
    server.archiver.fault = kill_at(step)
    print(json.dumps({"url": server.url, "ws": server.ws_url}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))

"""docs/CLIENT.md's external bot takes a seat over the wire and plays a game to its end."""

from __future__ import annotations

import asyncio
import random
import sys

from server.net.app import KibitzServer
from server.sdk import KibitzClient

from .conftest import ROOT, env_with_path


async def test_the_external_bot_example_plays_a_whole_game(server: KibitzServer) -> None:
    me = await KibitzClient.connect(server.ws_url)
    room = (await me.request("create_room", game="rps", options={"rounds": 5}))["room"]
    await me.request("take_seat", room=room, seat=0, name="Me")
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "examples" / "external_bot.py"), server.ws_url, room, "Randy",
        stdout=asyncio.subprocess.PIPE, env=env_with_path(),
    )  # fmt: skip
    rng = random.Random(1)
    played = 0
    while True:
        update = await me.next_update(room, timeout=30)
        if update["status"] == "over":
            break
        if update.get("legal"):
            await me.request("move", room=room, move=rng.choice(update["legal"]))
            played += 1
    assert played == 5 and len(update["view"]["history"]) == 5
    assert update["seats"][1] == {"kind": "person", "name": "Randy"}
    out, _ = await asyncio.wait_for(bot.communicate(), 30)
    assert bot.returncode == 0
    assert b"sits in seat 1" in out and b"game over" in out
    await me.close()

"""docs/CLIENT.md's external bot takes a seat over the wire and plays a game to its end."""

from __future__ import annotations

import asyncio
import random
import sys

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError

from .conftest import ROOT, env_with_path


async def test_the_external_bot_example_plays_a_whole_game(server: KibitzServer) -> None:
    me = await KibitzClient.connect(server.ws_url)
    room = (await me.request("create_room", game="rps", options={"rounds": 5}))["room"]
    await me.request("take_seat", room=room, seat=0, name="Me")
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "examples" / "external_bot.py"),
        server.ws_url,
        room,
        "Randy",
        stdout=asyncio.subprocess.PIPE,
        env=env_with_path(),
    )
    rng = random.Random(1)
    played = 0  # moves accepted; each names the version it saw, so none re-seals a throw
    while True:
        update = await me.next_update(room, timeout=30)
        if update["status"] == "over":
            break
        if update.get("legal"):
            try:
                move = rng.choice(update["legal"])
                await me.request("move", room=room, move=move, version=update["version"])
            except KibitzError as exc:  # an update the game has left behind meanwhile
                if exc.code not in ("game_over", "stale_version", "already_sealed"):
                    raise
                continue
            played += 1
    assert played == 5 and len(update["view"]["history"]) == 5
    assert update["seats"][1] == {"kind": "person", "name": "Randy", "account": False}  # a guest
    out, _ = await asyncio.wait_for(bot.communicate(), 30)
    assert bot.returncode == 0
    assert b"sits in seat 1" in out and b"game over" in out
    await me.close()


async def test_client_md_first_sample_runs(server: KibitzServer) -> None:
    """docs/CLIENT.md's first sample, as printed (only the URL is the test server's), makes
    its move: a game needs every seat taken, so it seats a bot."""
    import re
    import textwrap

    text = (ROOT / "docs" / "CLIENT.md").read_text()
    sample = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    body = sample.replace("ws://127.0.0.1:8765/ws", server.ws_url)
    code = "async def sample():\n" + textwrap.indent(body, "    ")
    scope: dict[str, object] = {}
    exec(compile(code, "CLIENT.md", "exec"), scope)
    await scope["sample"]()  # type: ignore[operator]
    assert server.hub is not None
    played = [h.room for h in server.hub.rooms.values() if h.room.game.name == "chess"]
    assert played and played[0].turns[0].moves == {"0": "e2e4"}

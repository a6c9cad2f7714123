"""A bot move refused for a passing reason (the room moved to another node and back, the
store failed for a moment) is planned again a little later. Before, it waited for the room's
next change: a bot's first move has no clock behind it (the first-move wait is for people),
so a game of bots whose first move was refused stood still for good — in a tournament, the
tournament never finished."""

from __future__ import annotations

from typing import Any

import pytest

from server.net.app import KibitzServer
from server.net.node.hub import Hosted
from server.net.transport.errors import ProtocolError
from server.sdk import KibitzClient

FISCHER = {"clock": {"type": "fischer", "base": 60, "increment": 0}}


@pytest.mark.parametrize("broken", [False, True], ids=["retried", "broken_twin"])
async def test_a_refused_first_bot_move_is_tried_again(server: KibitzServer, broken: bool) -> None:
    assert server.hub is not None and server.bots is not None
    hub, runner = server.hub, server.bots
    run = hub.run
    refused: list[str] = []

    async def once_unavailable(hosted: Hosted, decide: Any) -> Any:
        if hosted.room.status == "playing" and not refused:  # the first bot move
            refused.append(hosted.room.id)
            raise ProtocolError("unavailable", "the room moved to another node; try again")
        return await run(hosted, decide)

    hub.run = once_unavailable  # type: ignore[method-assign]
    if broken:  # the code before: a refused move waits for the room's next change

        def never(key: tuple[str, int], version: int) -> None:
            return None

        runner._retry_later = never  # type: ignore[method-assign]
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game="chess", settings=FISCHER))["room"]
    await c.request("watch", room=room)
    for seat in (0, 1):
        await c.request("add_bot", room=room, seat=seat, strength="random")
    if broken:
        with pytest.raises(TimeoutError):
            await c.wait_update(lambda m: m["turn"] >= 1, room=room, timeout=3)
    else:
        moved = await c.wait_update(lambda m: m["turn"] >= 2, room=room, timeout=10)
        assert moved["status"] in ("playing", "over")
        assert not runner.refused  # forgotten once the move went through
    assert refused == [room]
    await c.close()

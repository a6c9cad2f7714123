"""The lichess routes a client calls besides play, in lichess's shapes, with berserk (PyPI):
a user's public data, the real-time status of users, the bots online (all three public, as
on lichess), a game's export as JSON and PGN, and a game's chat read back — over real HTTP
and a real redis-server."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime
from typing import Any

import berserk
import chess.pgn

from server.net.app import KibitzServer

from .botapi_helpers import (
    Reader,
    bot_account,
    challenged,
    get,
    held_stream,
    login,
    person_account,
    refused,
    until_over,
    until_rated,
)
from .test_bot_api import user_with


async def statuses(client: berserk.Client, *names: str, **kw: Any) -> dict[str, Any]:
    found = await asyncio.to_thread(client.users.get_realtime_statuses, *names, **kw)
    return {s["id"]: s for s in found}


async def until_offline(client: berserk.Client, name: str) -> dict[str, Any]:
    for _ in range(100):
        status = (await statuses(client, name))[name.lower()]
        if "online" not in status:
            return status
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} stays online")


async def test_status_online_bots_and_public_data(server: KibitzServer) -> None:
    robo, robo_token = await bot_account(server, "Robo")
    bea, _ = await person_account(server, "Bea")
    anyone = berserk.Client(base_url=server.url)  # no token: lichess's routes are public
    assert await statuses(anyone, "Robo", "Bea", "Nobody") == {
        "robo": {"id": "robo", "name": "Robo", "title": "BOT"},  # offline: no flag at all
        "bea": {"id": "bea", "name": "Bea"},
    }
    assert await online_bots(anyone) == []
    # the bot's event stream opens (lichess-bot holds one while it runs): online, a bot online
    events = await held_stream(server, "/api/stream/event", robo_token)
    assert (await statuses(anyone, "Robo"))["robo"]["online"] is True
    (online,) = await online_bots(anyone)
    assert online["id"] == "robo" and online["username"] == "Robo" and online["title"] == "BOT"
    assert online["url"] == f"{server.url}#/@/Robo" and isinstance(online["createdAt"], datetime)
    # the stream closes: offline at once, no longer a bot online
    events.close()
    assert await until_offline(anyone, "Robo") == {"id": "robo", "name": "Robo", "title": "BOT"}
    assert await online_bots(anyone) == []
    # a game: both are playing, its id given on request
    game_id = await challenged(server, robo, bea)
    found = await statuses(anyone, "Robo", "Bea", with_game_ids=True)
    assert found["robo"]["playing"] is True and found["robo"]["playingId"] == game_id
    assert found["bea"]["playing"] is True and "online" not in found["bea"]
    data = await asyncio.to_thread(anyone.users.get_public_data, "robo")
    assert data["id"] == "robo" and data["username"] == "Robo" and data["title"] == "BOT"
    assert data["url"] == f"{server.url}#/@/Robo"
    assert data["playing"] == f"{server.url}#room={game_id}"  # the running game's page
    assert data["createdAt"].tzinfo == UTC and data["createdAt"] <= datetime.now(UTC)
    assert data["perfs"] == {}  # no game finished yet
    assert (await refused(anyone.users.get_public_data, "Nobody"))[0] == 404
    # a person logged in over the WebSocket is online once the node writes who is here
    ws = await user_with(server, "Bea", await login(server, "Bea"))
    await server.botapi.presence.write()
    assert (await statuses(anyone, "Bea"))["bea"]["online"] is True
    await ws.close()
    status, body = await get(server, "/api/users/status", None)  # no ids
    assert status == 400 and list(body) == ["error"]


async def online_bots(client: berserk.Client) -> list[dict[str, Any]]:
    return await asyncio.to_thread(lambda: list(client.bots.get_online_bots()))


async def test_a_game_exported_as_lichess_exports_it(server: KibitzServer) -> None:
    robo, _ = await bot_account(server, "Robo")
    bea, _ = await person_account(server, "Bea")
    game_id = await challenged(server, robo, bea)
    anyone = berserk.Client(base_url=server.url)
    for move, player in (("e2e4", bea.board), ("e7e5", robo.bots), ("g1f3", bea.board)):
        await asyncio.to_thread(player.make_move, game_id, move)
    running = await asyncio.to_thread(anyone.games.export, game_id)  # JSON: berserk's default
    assert running["status"] == "started" and running["moves"] == "e4 e5 Nf3"
    assert "winner" not in running
    await asyncio.to_thread(robo.bots.resign_game, game_id)
    await until_over(server, game_id)
    await until_rated(server, game_id)
    game = await asyncio.to_thread(anyone.games.export, game_id)
    info = await server.hub.read(game_id, "info", {})
    created = datetime.fromtimestamp(int(info["created_at"] * 1000) / 1000, UTC)
    assert game["id"] == game_id and game["rated"] is True and game["variant"] == "standard"
    assert game["speed"] == game["perf"] == "blitz" and game["status"] == "resign"
    assert game["winner"] == "white" and game["moves"] == "e4 e5 Nf3"
    assert game["createdAt"] == created and game["lastMoveAt"] >= created
    assert game["clock"] == {"initial": 180, "increment": 2, "totalTime": 260}
    white, black = game["players"]["white"], game["players"]["black"]
    assert white["user"] == {"name": "Bea", "id": "bea"} and white["rating"] == 1500
    assert black["user"] == {"name": "Robo", "id": "robo", "title": "BOT"}
    assert white["ratingDiff"] > 0 > black["ratingDiff"]  # rated: the changes
    # PGN with lichess's tags, as lichess-bot saves it
    pgn = await asyncio.to_thread(anyone.games.export, game_id, as_pgn=True)
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None
    assert read.headers["Site"] == f"{server.url}#room={game_id}"
    assert read.headers["GameId"] == game_id and read.headers["Result"] == "1-0"
    assert read.headers["White"] == "Bea" and read.headers["Black"] == "Robo"
    assert read.headers["BlackTitle"] == "BOT" and "WhiteTitle" not in read.headers
    assert read.headers["Event"] == "Rated blitz game" and read.headers["Variant"] == "Standard"
    assert [m.uci() for m in read.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    bare = await asyncio.to_thread(anyone.games.export, game_id, as_pgn=True, moves=False)
    assert "GameId" in bare and "Nf3" not in bare
    assert (await refused(anyone.games.export, "zzzzzzzz"))[0] == 404


async def test_the_game_chat_read_back(server: KibitzServer) -> None:
    robo, robo_token = await bot_account(server, "Robo")
    bea, _ = await person_account(server, "Bea")
    game_id = await challenged(server, robo, bea)
    game = Reader(lambda: robo.bots.stream_game_state(game_id))
    await game.next()
    await asyncio.to_thread(bea.board.post_message, game_id, "good luck")
    await asyncio.to_thread(robo.bots.post_message, game_id, "you too")
    await asyncio.to_thread(robo.bots.post_message, game_id, "hello watchers", True)
    await game.until(lambda s: s["type"] == "chatLine" and s["text"] == "you too")
    lines = [{"text": "good luck", "user": "Bea"}, {"text": "you too", "user": "Robo"}]
    assert await asyncio.to_thread(bea.board.get_game_chat, game_id) == lines  # players' only
    assert await get(server, f"/api/bot/game/{game_id}/chat", robo_token) == (200, lines)
    _, stranger = await person_account(server, "Cid")
    status, body = await get(server, f"/api/board/game/{game_id}/chat", stranger)
    assert (status, body) == (404, {"error": "Not your game"})
    assert await refused(robo.board.get_game_chat, game_id) == (403, "Missing scope")
    # a budget per game and chat room, as a WebSocket connection has in a room: lichess-bot
    # greets both rooms of each game it starts and ends
    for n in range(4):  # 5 lines a 10 s in the players' room: one is spent
        await asyncio.to_thread(robo.bots.post_message, game_id, f"line {n}")
    too_many = (429, "Too many requests. Try again later.")
    assert await refused(robo.bots.post_message, game_id, "one more") == too_many
    await asyncio.to_thread(robo.bots.post_message, game_id, "to the watchers again", True)

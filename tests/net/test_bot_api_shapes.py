"""The fields and refusals lichess's clients read, in lichess's shapes — over real HTTP, a real
redis-server and berserk (PyPI) as every client: ``gameFull``'s titles, perf and creation
time, absolute ``url`` fields, lichess's speed keys, the ``403 Missing scope`` and lichess's
order of checks, and lichess's sentences for refused commands."""

from __future__ import annotations

import asyncio
from typing import Any

import requests

from server.net.app import KibitzServer

from .botapi_helpers import (
    Reader,
    berserk_client,
    bot_account,
    challenged,
    person_account,
    raw_first_line,
    refused,
    until_over,
)


async def test_game_full_and_urls_as_lichess_sends_them(server: KibitzServer) -> None:
    robo, robo_token = await bot_account(server, "Robo")
    bea, _ = await person_account(server, "Bea")
    me = await asyncio.to_thread(robo.account.get)
    assert me["url"] == f"{server.url}#/@/Robo" and me["url"].startswith("http://")
    events = Reader(robo.bots.stream_incoming_events)
    made = await asyncio.to_thread(
        bea.challenges.create, "Robo", True, clock_limit=180, clock_increment=2, color="white"
    )
    assert made["url"] == f"{server.url}#room={made['id']}"  # absolute: the game's page
    assert made["perf"] == {"name": "Blitz"} and made["speed"] == "blitz"
    seen = (await events.until(lambda e: e["type"] == "challenge"))["challenge"]
    assert seen["url"] == made["url"] and seen["challenger"]["title"] is None
    assert seen["destUser"]["title"] == "BOT"
    status, listed = await asyncio.to_thread(challenges_of, server, robo_token)
    assert status == 200 and listed["in"][0]["url"] == made["url"]
    await asyncio.to_thread(robo.bots.accept_challenge, made["id"])
    game_id = (await events.until(lambda e: e["type"] == "gameStart"))["game"]["id"]
    assert game_id == made["id"]
    # gameFull: lichess's titles (a bot account: BOT; a person: null), perf name, createdAt
    _, full = await raw_first_line(server, f"/api/bot/game/stream/{game_id}", robo_token)
    assert full["type"] == "gameFull" and full["id"] == game_id
    assert full["white"] == {
        "id": "bea",
        "name": "Bea",
        "title": None,
        "rating": 1500,
        "provisional": True,
    }
    assert full["black"]["name"] == "Robo" and full["black"]["title"] == "BOT"
    assert full["speed"] == "blitz" and full["perf"] == {"name": "Blitz"}
    info = await server.hub.read(game_id, "info", {})
    assert full["createdAt"] == int(info["created_at"] * 1000)  # the game's creation
    # the game is played and ends: createdAt stays the creation time
    await asyncio.to_thread(bea.board.make_move, game_id, "e2e4")
    await asyncio.to_thread(robo.bots.make_move, game_id, "e7e5")
    await asyncio.to_thread(bea.board.resign_game, game_id)
    await events.until(lambda e: e["type"] == "gameFinish")
    _, after = await raw_first_line(server, f"/api/bot/game/stream/{game_id}", robo_token)
    assert after["state"]["status"] == "resign" and after["state"]["winner"] == "black"
    assert after["createdAt"] == full["createdAt"]
    assert after["state"]["moves"] == "e2e4 e7e5"


def challenges_of(server: KibitzServer, token: str) -> tuple[int, Any]:
    r = requests.get(
        server.url + "api/challenge", timeout=10, headers={"Authorization": f"Bearer {token}"}
    )
    return r.status_code, r.json()


async def test_speeds_are_lichess_keys(server: KibitzServer) -> None:
    await bot_account(server, "Robo")
    bea, _ = await person_account(server, "Bea")
    fast = await asyncio.to_thread(
        bea.challenges.create, "Robo", False, clock_limit=15, clock_increment=0
    )
    assert fast["speed"] == "ultraBullet" and fast["perf"] == {"name": "UltraBullet"}
    slow = await asyncio.to_thread(
        bea.challenges.create, "Robo", False, clock_limit=1800, clock_increment=20
    )
    assert slow["speed"] == "classical" and slow["perf"] == {"name": "Classical"}


async def test_refusals_in_lichess_words_and_order(server: KibitzServer) -> None:
    robo, _ = await bot_account(server, "Robo")
    scopes = ("board:play", "challenge:write", "bot:play")  # a person's token with bot:play
    bea, _ = await person_account(server, "Bea", scopes)
    game_id = await challenged(server, robo, bea)
    before = await server.hub.read(game_id, "info", {})
    # the scope first: 403 {"error": "Missing scope"}, the scopes named in lichess's headers
    _, reader = await person_account(server, "Cid", ("challenge:read",))
    missing = (403, "Missing scope")
    assert await refused(berserk_client(server, reader).board.make_move, game_id, "e2e4") == missing
    r = await asyncio.to_thread(
        requests.post,
        f"{server.url}api/board/game/{game_id}/move/e2e4",
        timeout=10,
        headers={"Authorization": f"Bearer {reader}"},
    )
    assert r.status_code == 403 and r.json() == {"error": "Missing scope"}
    assert r.headers["X-OAuth-Scopes"] == "challenge:read"
    assert r.headers["X-Accepted-OAuth-Scopes"] == "board:play"
    # a bot's token (bot:play only) on the board routes
    assert await refused(robo.board.make_move, game_id, "e7e5") == missing
    # then the game: none, or not the caller's
    assert await refused(robo.bots.make_move, "zzzzzzzz", "e7e5") == (404, "No such game")
    cid, _ = await person_account(server, "Dee")
    assert await refused(cid.board.make_move, game_id, "e2e4") == (404, "Not your game")
    # then the kind of account: a person on the bot routes of her own game
    status, error = await refused(bea.bots.make_move, game_id, "e2e4")
    assert status == 400 and error.startswith("This endpoint can only be used with a Bot account.")
    # a command the game refuses: lichess's sentences, not the room's ("seat 1 is not ...")
    not_yet = (400, "Not your turn, or game already over")
    assert await refused(robo.bots.make_move, game_id, "e7e5") == not_yet
    assert await refused(bea.board.make_move, game_id, "e2e5") == (
        400,
        "Piece on e2 cannot move to e5",
    )
    assert await refused(bea.board.make_move, game_id, "e3e4") == (400, "No piece on e3")
    assert (await server.hub.read(game_id, "info", {}))["version"] == before["version"]
    await asyncio.to_thread(bea.board.make_move, game_id, "e2e4")
    await asyncio.to_thread(robo.bots.make_move, game_id, "e7e5")
    assert await refused(bea.board.abort_game, game_id) == (
        400,
        "This game can no longer be aborted",
    )
    await asyncio.to_thread(bea.board.resign_game, game_id)
    await until_over(server, game_id)
    assert await refused(robo.bots.make_move, game_id, "g8f6") == not_yet
    assert await refused(robo.bots.resign_game, game_id) == (400, "This game cannot be resigned")

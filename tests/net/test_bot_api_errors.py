"""The Bot API's tokens, refusals and bounds, over real HTTP against a real redis-server.

Every refusal is lichess's body (``{"error": "..."}``) with its status, and changes nothing."""

from __future__ import annotations

import asyncio

import berserk
import pytest

from server.net.app import KibitzServer
from server.net.botapi import routes
from server.net.transport import http11
from server.store import api_tokens

from .botapi_helpers import (
    Reader,
    api_token,
    berserk_client,
    bot_account,
    get,
    post,
)
from .test_accounts import api, register_and_login

BLITZ = {"rated": "true", "clock.limit": "180", "clock.increment": "2"}


def only_error(body: object) -> str:
    assert isinstance(body, dict) and list(body) == ["error"] and isinstance(body["error"], str)
    return body["error"]


async def test_tokens_made_listed_revoked_and_a_revoked_token_refused(
    server: KibitzServer,
) -> None:
    login = await register_and_login(server, "Ada")
    token = await api_token(server, login, ["board:play", "challenge:read"])
    assert token.startswith("kbt_")
    status, me = await get(server, "/api/account", token)
    assert status == 200 and me["id"] == "ada" and me["username"] == "Ada" and "title" not in me
    status, listed, _ = await api(
        server, "GET", "/api/tokens", headers={"Authorization": f"Bearer {login}"}
    )
    (entry,) = listed["tokens"]
    assert entry["scopes"] == ["board:play", "challenge:read"] and "token" not in entry
    assert token not in str(listed) and "hash" not in entry  # shown once, never again
    # an API token cannot manage tokens; a page of another site cannot either
    status, body = await get(server, "/api/tokens", token)
    assert status == 403 and only_error(body)
    status, body, _ = await api(
        server,
        "POST",
        "/api/tokens",
        {"description": "x", "scopes": ["bot:play"]},
        headers={"Authorization": f"Bearer {login}", "Origin": "http://evil.example"},
    )
    assert status == 403 and only_error(body)
    status, body, _ = await api(
        server,
        "POST",
        f"/api/tokens/{entry['id']}/revoke",
        headers={"Authorization": f"Bearer {login}"},
    )
    assert status == 200
    status, body = await get(server, "/api/account", token)
    assert (status, body) == (401, {"error": "No such token"})
    client = berserk_client(server, token)
    with pytest.raises(berserk.exceptions.ResponseError) as caught:
        await asyncio.to_thread(client.account.get)
    assert caught.value.status_code == 401 and caught.value.cause == {"error": "No such token"}
    for bad in (None, "kbt_" + "A" * 43, "nonsense", login + "x"):
        status, body = await get(server, "/api/stream/event", bad)
        assert (status, body) == (401, {"error": "No such token"})


async def test_token_requests_checked_whole_and_bounded(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    login = await register_and_login(server, "Ada")
    auth = {"Authorization": f"Bearer {login}"}
    for body in (
        {"description": "x", "scopes": ["bot:play", "admin"]},
        {"description": "x", "scopes": []},
        {"description": "x", "scopes": "bot:play"},
        {"description": "", "scopes": ["bot:play"]},
        {"description": "a\nb", "scopes": ["bot:play"]},
        {"description": "x" * 61, "scopes": ["bot:play"]},
    ):
        status, answer, _ = await api(server, "POST", "/api/tokens", body, headers=auth)
        assert status == 400 and only_error(answer), body
    monkeypatch.setattr(api_tokens, "MAX_TOKENS", 2)
    for _ in range(2):
        await api_token(server, login, ["bot:play"])
    status, answer, _ = await api(
        server, "POST", "/api/tokens", {"description": "x", "scopes": ["bot:play"]}, headers=auth
    )
    assert status == 429 and only_error(answer)
    status, listed, _ = await api(server, "GET", "/api/tokens", headers=auth)
    assert len(listed["tokens"]) == 2  # refused: nothing was added


async def test_scopes_and_bot_routes(server: KibitzServer) -> None:
    login = await register_and_login(server, "Ada")
    reader = await api_token(server, login, ["challenge:read"])
    status, body = await post(server, "/api/challenge/Nobody", reader, BLITZ)
    assert (status, body) == (403, {"error": "Missing scope"})  # lichess's words
    status, body = await post(server, "/api/bot/account/upgrade", reader)
    assert (status, body) == (403, {"error": "Missing scope"})
    # lichess's order: the scope, then the game (404), then the kind of account (400) —
    # a person's token on the bot routes, a bot's on the board routes
    player = await api_token(server, login, ["bot:play", "board:play"])
    status, body = await get(server, "/api/bot/game/stream/abcdefgh", player)
    assert (status, body) == (404, {"error": "No such game"})
    bot, bot_token = await bot_account(server, "Robo")
    status, body = await get(server, "/api/board/game/stream/abcdefgh", bot_token)
    assert (status, body) == (403, {"error": "Missing scope"})  # a bot's token: bot:play
    status, body = await get(server, "/api/bot/game/stream/abcdefgh", bot_token)
    assert (status, body) == (404, {"error": "No such game"})
    status, body = await post(server, "/api/bot/account/upgrade", bot_token)
    assert status == 400 and only_error(body)  # already a bot
    del bot


async def test_challenges_refused_whole_and_bounded(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot, bot_token = await bot_account(server, "Robo")
    login = await register_and_login(server, "Ada")
    for fields in (
        {"rated": "yes"},
        {"rated": "true"},  # rated with no clock
        {"clock.limit": "180"},  # a limit without an increment
        {"clock.limit": "180x", "clock.increment": "2"},
        {"clock.limit": "-1", "clock.increment": "2"},
        {"clock.limit": "180", "clock.increment": "2.5"},
        {"clock.limit": "180", "clock.increment": "2", "variant": "darkChess"},
        {"clock.limit": "180", "clock.increment": "2", "variant": "dark_chess "},
        {"clock.limit": "180", "clock.increment": "2", "variant": "kriegspiel"},
        {"clock.limit": "180", "clock.increment": "2", "variant": "standard\n"},
        {"clock.limit": "180", "clock.increment": "2", "color": "red"},
        {"clock.limit": "180", "clock.increment": "2", "days": "3"},
        {"clock.limit": "180", "clock.increment": "2", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"},
    ):
        status, body = await post(server, "/api/challenge/Robo", login, fields)
        assert status == 400 and only_error(body), fields
    status, body = await post(server, "/api/challenge/Nobody", login, BLITZ)
    assert status == 404 and only_error(body)
    status, body = await post(server, "/api/challenge/Ada", login, BLITZ)
    assert status == 400 and only_error(body)
    status, body = await get(server, "/api/challenge", bot_token)
    assert status == 200 and body == {"in": [], "out": []}  # nothing was made
    monkeypatch.setattr(api_tokens, "MAX_CHALLENGES", 2)
    for _ in range(2):
        status, _ = await post(server, "/api/challenge/Robo", login, BLITZ)
        assert status == 200
    status, body = await post(server, "/api/challenge/Robo", login, BLITZ)
    assert status == 429 and only_error(body)
    status, body = await get(server, "/api/challenge", bot_token)
    assert len(body["in"]) == 2 and body["out"] == []
    # decline (with a reason) and cancel tell both sides; an answered challenge is gone
    events = Reader(bot.bots.stream_incoming_events)
    first, second = (c["id"] for c in body["in"])
    for _ in range(2):
        assert (await events.next())["type"] == "challenge"  # the open ones, on connecting
    status, body = await post(
        server, f"/api/challenge/{first}/decline", bot_token, {"reason": "nonsense"}
    )
    assert status == 400 and only_error(body)
    await asyncio.to_thread(bot.bots.decline_challenge, first, "tooFast")
    declined = await events.next()
    assert declined["type"] == "challengeDeclined" and declined["challenge"]["id"] == first
    assert declined["challenge"]["declineReasonKey"] == "toofast"
    status, body = await post(server, f"/api/challenge/{first}/accept", bot_token)
    assert (status, body) == (404, {"error": "No such challenge"})
    status, body = await post(server, f"/api/challenge/{second}/cancel", bot_token)
    assert status == 404  # only its maker cancels it
    status, body = await post(server, f"/api/challenge/{second}/cancel", login)
    assert status == 200
    canceled = await events.next()
    assert canceled["type"] == "challengeCanceled" and canceled["challenge"]["id"] == second


async def test_moves_and_commands_refused_clearly(server: KibitzServer) -> None:
    bot, bot_token = await bot_account(server, "Robo")
    login = await register_and_login(server, "Ada")
    status, made = await post(server, "/api/challenge/Robo", login, BLITZ | {"color": "black"})
    await asyncio.to_thread(bot.bots.accept_challenge, made["id"])
    (game_id,) = await server.botapi.store.games_of("robo")
    assert game_id == made["id"]  # the challenge became its game, as on lichess
    info = await server.hub.read(game_id, "info", {})
    for path in (
        f"/api/bot/game/{game_id}/move/e2e4\n",
        f"/api/bot/game/{game_id}/move/e2e9",
        f"/api/bot/game/{game_id}/move/E2E4",
        f"/api/bot/game/{game_id}/move/e7e5",  # not its piece
        f"/api/bot/game/{game_id}/move/e2e4?offeringDraw=maybe",
        f"/api/bot/game/{game_id}/draw/perhaps",
        f"/api/bot/game/{game_id}/draw/no",  # no offer to decline
        f"/api/bot/game/{game_id}/chat",  # no text
    ):
        status, body = await post(server, path, bot_token, {"room": "player"})
        assert status in (400, 404) and only_error(body), path
    status, body = await post(
        server, f"/api/bot/game/{game_id}/chat", bot_token, {"room": "lobby", "text": "hi"}
    )
    assert status == 400 and only_error(body)
    status, body = await post(server, "/api/bot/game/zzzzzzzz/move/e2e4", bot_token)
    assert (status, body) == (404, {"error": "No such game"})
    status, body = await post(server, f"/api/board/game/{game_id}/move/e7e5", login)
    assert (status, body) == (400, {"error": "Not your turn, or game already over"})  # black
    outsider = await register_and_login(server, "Cid")
    status, body = await post(server, f"/api/board/game/{game_id}/move/e2e4", outsider)
    assert (status, body) == (404, {"error": "Not your game"})  # no seat of hers
    assert (await server.hub.read(game_id, "info", {}))["version"] == info["version"]
    # the bot aborts before the first moves: aborted, unrated, gameFinish
    await asyncio.to_thread(bot.bots.abort_game, game_id)
    over = await server.hub.read(game_id, "resync", {"recipient": 0, "since": None})
    assert over["status"] == "over" and over["outcome"]["reason"] == "aborted"


async def test_streams_bounded_and_keepalive(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, bot_token = await bot_account(server, "Robo")
    monkeypatch.setattr(http11, "KEEPALIVE", 0.3)
    monkeypatch.setattr(routes, "MAX_EVENT_STREAMS", 1)
    port = server.port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/stream/event HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {bot_token}\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert b"application/x-ndjson" in head and b"chunked" in head
    assert await asyncio.wait_for(reader.readexactly(6), 5) == b"1\r\n\n\r\n"  # a bare newline
    status, body = await get(server, "/api/stream/event", bot_token)  # a second: refused
    assert (status, body) == (429, {"error": "Too many requests. Try again later."})
    writer.close()
    for _ in range(100):
        if not server.botapi.open:
            break
        await asyncio.sleep(0.05)
    assert server.botapi.open == {}  # the dropped stream gave its place back
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/stream/event HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {bot_token}\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 200 OK")  # its place is free again
    writer.close()


async def test_the_login_cookie_serves_this_sites_pages_only(server: KibitzServer) -> None:
    await bot_account(server, "Robo")
    login = await register_and_login(server, "Ada")
    host = server.url.split("//", 1)[1].rstrip("/")
    cookie = {"Cookie": f"kibitz_token={login}", "Content-Type": "application/json"}
    body = {"rated": True, "clock.limit": 180, "clock.increment": 2}
    status, answer, _ = await api(
        server,
        "POST",
        "/api/challenge/Robo",
        body,
        headers=cookie | {"Origin": "http://evil.example"},
    )
    assert status == 403 and only_error(answer)
    status, listed, _ = await api(server, "GET", "/api/challenge", headers=cookie)
    assert listed == {"in": [], "out": []}  # refused: nothing was made
    status, answer, _ = await api(
        server, "POST", "/api/challenge/Robo", body, headers=cookie | {"Origin": f"http://{host}"}
    )
    assert status == 200 and answer["destUser"]["title"] == "BOT"

"""The lichess-compatible Bot API over real HTTP, a real redis-server and berserk (PyPI) as
the client: a bot account plays a whole rated game against a person on the WebSocket — a
challenge, moves, chat both ways, a draw offer declined, a dropped game stream resumed, a
resignation — and the game is an ordinary rated Kibitz room."""

from __future__ import annotations

import asyncio
from typing import Any

import berserk
import chess
import requests

from server.net.app import KibitzServer

from .botapi_helpers import Reader, bot_account, get, post, raw_first_line
from .test_accounts import register_and_login
from .test_seeks import next_of

BLITZ = {"rated": "true", "clock.limit": "180", "clock.increment": "2", "color": "white"}


async def test_a_bot_plays_a_whole_rated_game_against_a_person(server: KibitzServer) -> None:
    bot, bot_token = await bot_account(server, "Robo")
    me = await asyncio.to_thread(bot.account.get)
    assert me["id"] == "robo" and me["username"] == "Robo" and me["title"] == "BOT"
    events = Reader(bot.bots.stream_incoming_events)
    # the person challenges the bot (as the web page does, with the person's login)
    login = await register_and_login(server, "Bea")
    bea = await user_with(server, "Bea", login)
    status, made = await post(server, "/api/challenge/Robo", login, BLITZ)
    assert status == 200 and made["direction"] == "out" and made["rated"] is True
    seen = await events.until(lambda e: e["type"] == "challenge")
    challenge = seen["challenge"]
    assert challenge["id"] == made["id"] and challenge["direction"] == "in"
    assert challenge["challenger"]["name"] == "Bea" and challenge["speed"] == "blitz"
    assert challenge["timeControl"] == {
        "type": "clock",
        "limit": 180,
        "increment": 2,
        "show": "3+2",
    }
    await asyncio.to_thread(bot.bots.accept_challenge, challenge["id"])
    start = await events.until(lambda e: e["type"] == "gameStart")
    game_id = start["game"]["gameId"]
    assert start["game"]["color"] == "black" and start["game"]["opponent"]["username"] == "Bea"
    paired = await next_of(bea, "paired")  # the person's WebSocket is seated: an ordinary room
    assert paired["room"] == game_id and paired["seat"] == 0 and paired["rated"] is True
    # the game stream: gameFull, then a gameState for every move
    game = Reader(lambda: bot.bots.stream_game_state(game_id))
    full = await game.next()
    assert full["type"] == "gameFull" and full["id"] == game_id and full["rated"] is True
    assert full["white"]["name"] == "Bea" and full["black"]["name"] == "Robo"
    assert full["clock"] == {"initial": 180000, "increment": 2000}
    assert full["initialFen"] == "startpos" and full["state"]["moves"] == ""
    assert full["state"]["status"] == "started"
    await bea.request("move", room=game_id, move="e2e4")
    state = await game.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4")
    assert state["status"] == "started" and state["wtime"].total_seconds() > 170
    await asyncio.to_thread(bot.bots.make_move, game_id, "e7e5")
    await bea.wait_update(lambda m: m["view"]["last_move"] == "e7e5", room=game_id)
    # chat both ways
    await asyncio.to_thread(bot.bots.post_message, game_id, "good luck")
    heard = await next_of(bea, "chat")
    assert heard["from"] == "Robo" and heard["text"] == "good luck"
    await bea.request("chat", room=game_id, text="you too")
    own = await game.until(lambda s: s["type"] == "chatLine")  # its own line first, as lichess
    assert own["username"] == "Robo" and own["text"] == "good luck"
    line = await game.until(lambda s: s["type"] == "chatLine")
    assert line == {"type": "chatLine", "room": "player", "username": "Bea", "text": "you too"}
    # a draw offer, declined by the bot
    await bea.request("draw", room=game_id)
    offered = await game.until(lambda s: s["type"] == "gameState" and s["wdraw"])
    assert offered["moves"] == "e2e4 e7e5" and not offered["bdraw"]
    status, body = await post(
        server, f"/api/bot/game/{game_id}/draw/no", bot_token
    )  # berserk's Bots has none
    assert status == 200 and body == {"ok": True}
    await bea.wait_update(lambda m: m.get("draw_offer") is None, room=game_id)
    # a stream dropped by its client ends on the server (its place is given back); a move
    # is made meanwhile; a new stream starts where the game is
    head, first = await raw_first_line(server, f"/api/bot/game/stream/{game_id}", bot_token)
    assert head.startswith(b"HTTP/1.1 200 OK") and b"Transfer-Encoding: chunked" in head
    assert first["type"] == "gameFull" and first["state"]["moves"] == "e2e4 e7e5"
    await until_true(lambda: server.botapi.open.get(("robo", "games")) == 1)
    await bea.request("move", room=game_id, move="g1f3")
    again = Reader(lambda: bot.bots.stream_game_state(game_id))
    resumed = await again.next()
    assert resumed["type"] == "gameFull" and resumed["state"]["moves"] == "e2e4 e7e5 g1f3"
    # an illegal move is refused with lichess's body, and changes nothing
    before = await server.hub.read(game_id, "info", {})
    try:
        await asyncio.to_thread(bot.bots.make_move, game_id, "e8e6")
        raise AssertionError("an illegal move was accepted")
    except berserk.exceptions.ResponseError as exc:
        assert exc.status_code == 400  # lichess's words (scalachess's), not the room's
        assert exc.cause == {"error": "Piece on e8 cannot move to e6"}
    assert (await server.hub.read(game_id, "info", {}))["version"] == before["version"]
    # the bot resigns: the stream says so and ends; gameFinish; the game is rated
    await asyncio.to_thread(bot.bots.resign_game, game_id)
    last = await again.until(lambda s: s["type"] == "gameState" and s["status"] != "started")
    assert last["status"] == "resign" and last["winner"] == "white"
    finish = await events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"]["gameId"] == game_id and finish["game"]["winner"] == "white"
    over = await bea.wait_update(
        lambda m: m["status"] == "over" and (m.get("rated") or {}).get("changes"), room=game_id
    )
    assert over["outcome"]["winner"] == 0 and over["outcome"]["reason"] == "resignation"
    after = await asyncio.to_thread(bot.account.get)  # rated: the bot's blitz rating moved
    assert after["perfs"]["blitz"]["games"] == 1 and after["perfs"]["blitz"]["rating"] < 1500
    assert server.botapi.open == {("robo", "events"): 1}  # the game streams ended


async def until_true(test: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if test():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never came true")


async def user_with(server: KibitzServer, name: str, login: str) -> object:
    from server.sdk import KibitzClient

    c = await KibitzClient.connect(server.ws_url, hello=False)
    c.welcome = await c.request("hello", protocol=2, auth=login)
    assert c.welcome["user"] == name
    return c


async def test_a_bot_plays_a_kibitz_bot_through_challenge_ai(server: KibitzServer) -> None:
    """lichess's ``/api/challenge/ai``: a casual game at once against Kibitz's own chess bot
    (level 1-8 over its strengths), played to the end over the bot routes."""
    bot, bot_token = await bot_account(server, "Robo")
    events = Reader(bot.bots.stream_incoming_events)
    made = await asyncio.to_thread(
        bot.challenges.create_ai, level=1, clock_limit=300, clock_increment=0, color="white"
    )
    game_id = made["id"]
    assert made["player"] == "white" and made["rated"] is False
    start = await events.until(lambda e: e["type"] == "gameStart")
    assert start["game"]["gameId"] == game_id and start["game"]["opponent"]["username"]
    game = Reader(lambda: bot.bots.stream_game_state(game_id))
    full = await game.next()
    assert full["black"]["name"].endswith("bot") and full["white"]["name"] == "Robo"
    state = full["state"]
    for _ in range(60):  # play the first legal move (python-chess) until the game ends
        if state["status"] != "started":
            break
        board = chess.Board()
        for uci in state["moves"].split():
            board.push_uci(uci)
        if board.turn == chess.WHITE:
            move = next(iter(board.legal_moves)).uci()
            await asyncio.to_thread(bot.bots.make_move, game_id, move)
            count = len(board.move_stack) + 1
            state = await game.until(
                lambda s, n=count: (
                    s["type"] == "gameState"
                    and (len(s["moves"].split()) > n or s["status"] != "started")
                )
            )
        else:
            state = await game.until(lambda s: s["type"] == "gameState")
    else:
        await asyncio.to_thread(bot.bots.resign_game, game_id)
        state = await game.until(lambda s: s["type"] == "gameState" and s["status"] != "started")
    assert state["status"] in ("mate", "resign", "draw", "stalemate")
    finish = await events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"]["gameId"] == game_id
    del bot_token


async def test_what_lichess_bot_asks_first(server: KibitzServer) -> None:
    """lichess-bot's start: ``/api/token/test`` (the body: tokens, commas between) and the
    running games (``/api/account/playing``), which it resumes."""
    bot, bot_token = await bot_account(server, "Robo")

    def token_test(body: str) -> tuple[int, Any]:
        r = requests.post(server.url + "api/token/test", data=body, timeout=10)
        return r.status_code, r.json()

    unknown = "kbt_" + "B" * 43
    status, found = await asyncio.to_thread(token_test, f"{bot_token},{unknown},nonsense")
    assert status == 200 and found[unknown] is None and found["nonsense"] is None
    assert found[bot_token] == {"userId": "robo", "scopes": "bot:play", "expires": None}
    status, body = await asyncio.to_thread(token_test, ",".join([unknown] * 11))
    assert status == 400 and list(body) == ["error"]
    status, playing = await get(server, "/api/account/playing", bot_token)
    assert (status, playing) == (200, {"nowPlaying": []})
    made = await asyncio.to_thread(
        bot.challenges.create_ai, level=8, clock_limit=60, clock_increment=1, color="black"
    )
    status, playing = await get(server, "/api/account/playing", bot_token)
    (game,) = playing["nowPlaying"]
    assert game["gameId"] == made["id"] and game["color"] == "black"
    assert game["speed"] == "bullet" and game["opponent"]["username"]

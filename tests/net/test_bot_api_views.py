"""The Bot API's game stream shows a seat what that seat's connection is shown, no more: in
chess every lichess field of gameState is rebuilt from what a spectator of the room is sent
(its update and its history of views); Kibitz's fields (``view``, ``legalMoves``, ``fen``)
are the seat's own rendering — in Dark Chess its fogged view, never the other seat's."""

from __future__ import annotations

import asyncio

from server.net.app import KibitzServer
from server.net.botapi.games import game_state

from .botapi_helpers import Reader, api_token, berserk_client, bot_account, post
from .botapi_play import game_stream
from .test_accounts import register_and_login


async def spectator_moves(server: KibitzServer, room: str) -> list[str]:
    found = await server.hub.read(room, "history", {"recipient": None})
    moves = []
    for turn in found["turns"][1:]:
        moves.append(turn["view"]["last_move"])
    return moves


async def test_the_game_stream_is_the_spectators_view(server: KibitzServer) -> None:
    bot, bot_token = await bot_account(server, "Robo")
    login = await register_and_login(server, "Ada")
    fields = {"rated": "false", "clock.limit": "300", "clock.increment": "0", "color": "white"}
    status, made = await post(server, "/api/challenge/Robo", login, fields)
    await asyncio.to_thread(bot.bots.accept_challenge, made["id"])
    (room,) = await server.botapi.store.games_of("robo")
    game = Reader(lambda: bot.bots.stream_game_state(room))
    full = await game.next()
    for i, move in enumerate(["d2d4", "d7d5", "c2c4", "e7e6"]):
        path = f"/api/{'board' if i % 2 == 0 else 'bot'}/game/{room}/move/{move}"
        status, body = await post(server, path, login if i % 2 == 0 else bot_token)
        assert status == 200, body
    await post(server, f"/api/board/game/{room}/draw/yes", login)
    seen = await game.until(lambda s: s["type"] == "gameState" and s["wdraw"])
    spectator = await server.hub.read(room, "resync", {"recipient": None, "since": None})
    rebuilt = game_state(spectator, await spectator_moves(server, room), server.hub.clock())
    for key in ("wtime", "btime", "winc", "binc"):  # berserk reads ms as timedeltas; a
        shown = seen.pop(key).total_seconds() * 1000  # running clock, read a moment apart
        assert abs(shown - rebuilt.pop(key)) < 2000, key
    kibitz = {key: seen.pop(key) for key in ("legalMoves", "toAct", "view", "fen")}
    assert seen == rebuilt  # field for field: moves, status, draw offers
    assert kibitz["view"] == spectator["view"] and kibitz["fen"] == spectator["view"]["fen"]
    assert kibitz["toAct"] == [0] and kibitz["legalMoves"] == []  # Robo (black) waits
    assert seen["moves"] == "d2d4 d7d5 c2c4 e7e6" and seen["status"] == "started"
    assert full["white"]["name"] == "Ada" and full["black"]["name"] == "Robo"
    # the person's side over the Board API, with a board:play token: the same state
    person = berserk_client(server, await api_token(server, login, ["board:play"]))
    board = Reader(lambda: person.board.stream_game_state(room))
    theirs = (await board.next())["state"]
    assert theirs["moves"] == "d2d4 d7d5 c2c4 e7e6" and theirs["wdraw"] is True
    assert [s["name"] for s in spectator["seats"]] == ["Ada", "Robo"]  # the names: public


async def test_a_dark_chess_stream_carries_its_seat_s_view_only(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    _, bob = await bot_account(server, "Bob")
    fields = {"variant": "dark_chess", "color": "white"}
    status, made = await post(server, "/api/challenge/Bob", ann, fields)
    assert status == 200, made
    status, _ = await post(server, f"/api/challenge/{made['id']}/accept", bob)
    room = made["id"]
    status, body = await post(server, f"/api/bot/game/{room}/move/e2e4", ann)
    assert status == 200, body
    streams = [game_stream(server, room, token) for token in (ann, bob)]
    for seat, reader in enumerate(streams):
        state = (await reader.next())["state"]
        own = await server.hub.read(room, "resync", {"recipient": seat, "since": None})
        other = await server.hub.read(room, "resync", {"recipient": 1 - seat, "since": None})
        assert state["view"] == own["view"] != other["view"]
        assert state["fen"] == own["view"]["fen"] and "?" in state["fen"]
        assert state["legalMoves"] == own.get("legal", [])
        # its own move in full, the other's as "?"
        assert state["moves"] == ("e2e4" if seat == 0 else "?")
    status, body = await post(server, f"/api/bot/game/{room}/move/e7e5", bob)
    assert status == 200, body
    last = await streams[0].until(lambda s: s.get("moves") == "e2e4 ?")
    assert last["toAct"] == [0] and "e4d5" not in last["legalMoves"]

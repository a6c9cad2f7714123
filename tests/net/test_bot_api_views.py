"""The Bot API's game stream shows nothing a spectator's view does not: every gameState field
is rebuilt from what a spectator of the room is sent (its update and its history of views),
and games with hidden information are not offered over the API at all."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.engine import NO_DRAWS, Registry
from server.net.app import KibitzServer
from server.net.botapi.challenges import VARIANTS
from server.net.botapi.games import game_state

from .botapi_helpers import Reader, api_token, berserk_client, bot_account, post
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
    assert seen == rebuilt  # field for field: moves, status, draw offers
    assert seen["moves"] == "d2d4 d7d5 c2c4 e7e6" and seen["status"] == "started"
    assert full["white"]["name"] == "Ada" and full["black"]["name"] == "Robo"
    # the person's side over the Board API, with a board:play token: the same state
    person = berserk_client(server, await api_token(server, login, ["board:play"]))
    board = Reader(lambda: person.board.stream_game_state(room))
    theirs = (await board.next())["state"]
    assert theirs["moves"] == "d2d4 d7d5 c2c4 e7e6" and theirs["wdraw"] is True
    assert [s["name"] for s in spectator["seats"]] == ["Ada", "Robo"]  # the names: public


async def test_hidden_information_games_are_refused(server: KibitzServer) -> None:
    await bot_account(server, "Robo")
    login = await register_and_login(server, "Ada")
    for variant in ("darkChess", "dark_chess", "banqi", "kriegspiel"):
        fields = {"clock.limit": "300", "clock.increment": "0", "variant": variant}
        status, body = await post(server, "/api/challenge/Robo", login, fields)
        assert status == 400 and "hidden-information games are refused" in body["error"]
    assert await server.botapi.store.challenges_of("ada") == []


@pytest.mark.parametrize("game", ["chess", "dark_chess"])
def test_the_api_offers_only_games_whose_seats_see_what_spectators_see(
    registry: Registry, game: str
) -> None:
    """The API's gameState has no field for a seat's private view, so it may offer only games
    in which every seat's view is the spectators' (random playouts). Dark Chess is the
    control: the check tells it apart, and it is not offered."""
    offered = {name for name, _, _ in VARIANTS.values()}
    rules = registry.get(game)
    rng = random.Random(7)
    same = True
    for _ in range(5):
        state = rules.new({}, 2, rng)
        for _ in range(40):
            views = [rules.view(state, seat) for seat in (0, 1, None)]
            same &= views[0] == views[1] == views[2]
            if rules.outcome(state) is not None:
                break
            (seat,) = rules.to_act(state)
            move = rng.choice(rules.legal_moves(state, seat))
            state = rules.play(state, {seat: move}, NO_DRAWS)
    assert same is (game in offered)
    assert offered == {"chess"}

"""A challenge's terms beyond lichess's, over real HTTP: a start position (``fen``) for the
games that take one, the seats of a bigger game and the server's bots in its open seats,
``/api/challenge/ai`` for any game — and every bad term refused with 400 and nothing made;
and Apocalypse's simultaneous moves: a seat's move is sealed until both are in."""

from __future__ import annotations

import asyncio
import json

from server.net.app import KibitzServer
from server.net.botapi.words import status_of

from .botapi_helpers import bot_account, get, post
from .botapi_play import game_stream, latest

XIANGQI_FEN = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1"


async def nothing_made(server: KibitzServer, token: str) -> None:
    status, body = await get(server, "/api/challenge", token)
    assert status == 200 and body == {"in": [], "out": []}
    assert await server.botapi.store.games_of("ann") == []


async def test_bad_terms_are_refused_and_make_nothing(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    await bot_account(server, "Bob")
    for fields, word in (
        ({"variant": "crazyhouse"}, "variant"),
        ({"variant": "dark_chess\n"}, "variant"),
        ({"variant": "Xiangqi"}, "variant"),
        ({"variant": "chess", "fen": "not a fen"}, "fen"),
        ({"variant": "standard", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "fen"),  # no kings
        ({"variant": "dark_chess", "fen": "rnbqkbnr/pppppppp/8/8 w"}, "fen"),
        ({"variant": "xiangqi", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"}, "fen"),
        ({"variant": "kono", "fen": "anything"}, "fen"),
        ({"variant": "yonin_shogi"}, "seats"),  # four seats, two players: bots needed
        ({"variant": "yonin_shogi", "seats": "5", "bots": "random"}, "seats"),
        ({"variant": "hase_und_igel", "seats": "7", "bots": "random"}, "seats"),
        ({"variant": "hase_und_igel", "seats": "3"}, "seats"),  # a third player unnamed
        ({"variant": "hase_und_igel", "seats": "3 ", "bots": "random"}, "seats"),
        ({"variant": "hase_und_igel", "seats": "3", "bots": "godlike"}, "bots"),
        ({"variant": "hase_und_igel", "seats": "3", "bots": "random "}, "bots"),
        ({"variant": "banqi", "bots": "random"}, "bots"),  # two seats: none for a bot
        (
            {
                "variant": "yonin_shogi",
                "seats": "4",
                "bots": "random",
                "rated": "true",
                "clock.limit": "300",
                "clock.increment": "0",
            },
            "rated",
        ),
    ):
        status, body = await post(server, "/api/challenge/Bob", ann, fields)
        assert status == 400 and list(body) == ["error"], (fields, body)
        assert body["error"].startswith(f"{word}: "), (fields, body)
    status, body = await post(server, "/api/challenge/ai", ann, {"variant": "go"})
    assert status == 400 and body["error"].startswith("variant")
    status, body = await post(server, "/api/challenge/ai", ann, {"variant": "kono", "fen": "x"})
    assert status == 400 and body["error"].startswith("fen")
    await nothing_made(server, ann)


async def test_games_start_from_a_position(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    _, bob = await bot_account(server, "Bob")
    for variant, fen in (
        ("standard", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
        ("dark_chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
        ("xiangqi", XIANGQI_FEN),
    ):
        fields = {"variant": variant, "fen": fen, "color": "white"}
        status, made = await post(server, "/api/challenge/Bob", ann, fields)
        assert status == 200 and made["initialFen"] == fen, made
        status, _ = await post(server, f"/api/challenge/{made['id']}/accept", bob)
        assert status == 200
        full = await game_stream(server, made["id"], ann).next()
        assert full["initialFen"] == fen and full["state"]["moves"] == ""
        if variant != "dark_chess":  # the seat's FEN: Dark Chess's has its unseen squares
            assert full["state"]["fen"] == fen
        else:
            assert full["state"]["fen"].endswith("w - - 0 1")
        assert full["state"]["legalMoves"] and full["state"]["toAct"] == [0]
        status, _ = await post(server, f"/api/bot/game/{made['id']}/resign", ann)
        assert status == 200
    # from the usual start: "startpos"
    status, made = await post(server, "/api/challenge/Bob", ann, {"variant": "xiangqi"})
    await post(server, f"/api/challenge/{made['id']}/accept", bob)
    full = await game_stream(server, made["id"], bob).next()
    assert full["initialFen"] == "startpos"
    assert full["seat"] == (0 if full["white"]["name"] == "Bob" else 1)


async def test_the_ai_plays_any_game_in_every_other_seat(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    fields = {"variant": "yonin_shogi", "level": "1", "color": "black"}
    status, made = await post(server, "/api/challenge/ai", ann, fields)
    assert status == 201 and made["variant"]["key"] == "yonin_shogi", made
    assert made["player"] == "black"
    reader = game_stream(server, made["id"], ann)
    full = await reader.next()
    assert full["seat"] == 1 and full["game"] == "yonin_shogi"
    assert [p["title"] for p in full["players"]] == ["BOT"] * 4  # Ann is a bot account too
    assert [p["name"] == "Ann" for p in full["players"]] == [False, True, False, False]
    state = full["state"]
    while not state["legalMoves"]:  # seat 0, a bot, moves first
        state = await latest(reader)
    move = state["legalMoves"][0]
    status, body = await post(server, f"/api/bot/game/{made['id']}/move/{move}", ann)
    assert status == 200, body
    after = await reader.until(lambda s: s.get("moves", "").endswith(move))
    assert after["legalMoves"] == [] and 1 not in after["toAct"]
    status, body = await post(
        server, "/api/challenge/ai", ann, {"variant": "hase_und_igel", "seats": "3"}
    )
    assert status == 201 and body["variant"] == {
        "key": "hase_und_igel",
        "name": "Hase und Igel",
        "short": "HuI",
    }


async def test_a_simultaneous_move_is_sealed_until_both_are_in(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    _, bob = await bot_account(server, "Bob")
    status, made = await post(
        server, "/api/challenge/Bob", ann, {"variant": "apocalypse", "color": "white"}
    )
    await post(server, f"/api/challenge/{made['id']}/accept", bob)
    room = made["id"]
    streams = [game_stream(server, room, token) for token in (ann, bob)]
    fulls = [await s.next() for s in streams]
    for seat, full in enumerate(fulls):
        assert full["state"]["toAct"] == [0, 1] and full["state"]["legalMoves"], seat
    mine, theirs = fulls[0]["state"]["legalMoves"][0], fulls[1]["state"]["legalMoves"][-1]
    status, body = await post(server, f"/api/bot/game/{room}/move/{mine}", ann)
    assert status == 200, body
    sealed = await streams[1].next()  # the other seat learns that Ann moved, not what
    assert sealed["toAct"] == [1] and sealed["moves"] == "" and mine not in json.dumps(sealed)
    assert sealed["view"] == fulls[1]["state"]["view"]
    own = await streams[0].next()
    assert own["toAct"] == [1] and own["legalMoves"] == []
    status, body = await post(server, f"/api/bot/game/{room}/move/{theirs}", bob)
    assert status == 200, body
    joined = await asyncio.gather(*(s.until(lambda x: x.get("moves")) for s in streams))
    assert [j["moves"] for j in joined] == [f"{mine},{theirs}"] * 2
    assert joined[0]["view"]["last_moves"] == {"0": mine, "1": theirs}


async def test_move_texts_are_checked_whole(server: KibitzServer) -> None:
    _, ann = await bot_account(server, "Ann")
    _, bob = await bot_account(server, "Bob")
    status, made = await post(server, "/api/challenge/Bob", ann, {"variant": "banqi"})
    await post(server, f"/api/challenge/{made['id']}/accept", bob)
    room = made["id"]
    full = await game_stream(server, room, ann).next()
    token = ann if full["seat"] == 0 else bob
    for bad in ("flip__a1", "flip%0Aa1", "flip,a1", "a" * 30):
        status, body = await post(server, f"/api/bot/game/{room}/move/{bad}", token)
        assert status == 400 and body["error"].startswith("Invalid move"), (bad, body)
    status, body = await post(server, f"/api/bot/game/{room}/move/a1-a2", token)
    assert status == 400 and body["error"].startswith("Illegal move"), body
    status, body = await post(server, f"/api/bot/game/{room}/move/flip%20a1", token)
    assert status == 200, body


def test_an_end_by_a_game_s_own_rules_is_lichess_s_variant_end() -> None:
    """lichess's ``variantEnd`` for another game's own end (Kamisado's home row); chess's
    ends keep their statuses, and its unnamed ones stay ``resign`` as before."""
    over = {"status": "over", "outcome": {"reason": "home_row", "winner": 1}}
    assert status_of({**over, "game": "kamisado"}) == ("variantEnd", "black")
    assert status_of({**over, "game": "chess"}) == ("resign", "black")
    assert status_of(over) == ("resign", "black")  # a record of old, with no game: chess
    mate = {**over, "game": "xiangqi", "outcome": {"reason": "checkmate", "winner": 0}}
    assert status_of(mate) == ("mate", "white")
    draw = {**over, "game": "jungle", "outcome": {"reason": "no_progress", "winner": None}}
    assert status_of(draw) == ("draw", None)

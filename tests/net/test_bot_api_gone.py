"""A player who leaves, over the Bot API and the WebSocket: lichess's ``opponentGone`` and
``claim-victory`` / ``claim-draw``, over real HTTP, a real redis-server, berserk (PyPI) as
the bot's client and the SDK's WebSocket client as the person.

A seat is gone when no connection of this node hears it (``Audience.left``); the other seat
may claim the game once it has been gone ``claim_after`` seconds (shortened here). A claim
before is refused with lichess's error body and changes nothing — shown catching a broken
version that takes a claim as soon as the opponent is gone; and with another node running
nothing is claimed (presence is counted per node), shown catching a node that forgets it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, NamedTuple

import berserk
import pytest

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.node import audience
from server.net.node.audience import Audience
from server.net.transport.metrics import Metrics
from server.sdk import KibitzClient
from server.sdk.client import KibitzError

from ..conftest import node_config
from .botapi_helpers import Reader, api_token, berserk_client, bot_account, post
from .test_accounts import register_and_login
from .test_bot_api import user_with
from .test_seeks import next_of

CASUAL = {"rated": "false", "clock.limit": "300", "clock.increment": "0", "color": "white"}
RATED = {**CASUAL, "rated": "true"}
WAIT = 2.0  # the countdown in these tests (30 s by default)


class Game(NamedTuple):
    bot: berserk.Client
    bot_token: str
    login: str  # Bea's
    bea: KibitzClient
    id: str
    seat_token: str  # Bea's seat's
    stream: Any  # the bot's game stream: berserk's, or a bare socket's (``close()``)


async def a_game(server: KibitzServer, raw: bool = False, rated: bool = False) -> Game:
    """Bea (WebSocket, white) against the bot Robo (berserk, black), a move each made; the
    bot's game stream is berserk's, or with ``raw`` a bare socket's."""
    server.hub.audience.claim_after = WAIT
    bot, bot_token = await bot_account(server, "Robo")
    events = Reader(bot.bots.stream_incoming_events)
    login = await register_and_login(server, "Bea")
    bea = await user_with(server, "Bea", login)
    status, made = await post(server, "/api/challenge/Robo", login, RATED if rated else CASUAL)
    assert status == 200, made
    await events.until(lambda e: e["type"] == "challenge")
    await asyncio.to_thread(bot.bots.accept_challenge, made["id"])
    start = await events.until(lambda e: e["type"] == "gameStart")
    game_id = start["game"]["gameId"]
    paired = await next_of(bea, "paired")
    path = f"/api/bot/game/stream/{game_id}"
    game: Any = (
        await held_open(server, path, bot_token)
        if raw
        else Reader(lambda: bot.bots.stream_game_state(game_id))
    )
    if not raw:
        assert (await game.next())["type"] == "gameFull"
    await bea.request("move", room=game_id, move="e2e4")
    await asyncio.to_thread(bot.bots.make_move, game_id, "e7e5")
    await bea.wait_update(lambda m: m["view"].get("last_move") == "e7e5", room=game_id)
    return Game(bot, bot_token, login, bea, game_id, paired["token"], game)


async def held_open(server: KibitzServer, path: str, token: str) -> asyncio.StreamWriter:
    """A game stream on a bare socket, its first line read: the bot is there until it is
    closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    await asyncio.wait_for(reader.readline(), 10)  # the chunk's size
    first = json.loads(await asyncio.wait_for(reader.readline(), 10))
    assert first["type"] == "gameFull"
    return writer


async def claim(server: KibitzServer, game_id: str, token: str, what: str = "victory") -> Any:
    return await post(server, f"/api/bot/game/{game_id}/claim-{what}", token)


async def version(server: KibitzServer, game_id: str) -> int:
    return int((await server.hub.read(game_id, "info", {}))["version"])


async def test_opponent_gone_comes_and_goes_and_the_win_is_claimed(server: KibitzServer) -> None:
    g = await a_game(server, rated=True)
    bot_token, login, bea, game_id, game = g.bot_token, g.login, g.bea, g.id, g.stream
    # while Bea is here there is nothing to claim
    status, body = await claim(server, game_id, bot_token)
    assert status == 400 and set(body) == {"error"} and "not left" in body["error"]
    # Bea's connection goes: the bot's stream says so, with the countdown
    await bea.close()
    gone = await game.until(lambda s: s["type"] == "opponentGone")
    assert gone == {"type": "opponentGone", "gone": True, "claimWinInSeconds": 2}
    # she comes back (a new connection, her seat's token): gone no more
    back = await user_with(server, "Bea", login)
    await back.request("join", room=game_id, seat=0, token=g.seat_token)
    again = await game.until(lambda s: s["type"] == "opponentGone")
    assert again == {"type": "opponentGone", "gone": False}
    await asyncio.sleep(WAIT + 0.5)  # her earlier absence counts for nothing
    before = await version(server, game_id)
    status, body = await claim(server, game_id, bot_token)
    assert status == 400 and "not left" in body["error"]
    assert await version(server, game_id) == before
    # she leaves again; the countdown runs out (the stream says so); the claim wins
    await back.close()
    await game.until(lambda s: s["type"] == "opponentGone" and s["gone"])
    over = await game.until(lambda s: s["type"] == "opponentGone", timeout=WAIT + 5)
    assert over == {"type": "opponentGone", "gone": True, "claimWinInSeconds": 0}
    status, body = await claim(server, game_id, bot_token)
    assert (status, body) == (200, {"ok": True})
    last = await game.until(lambda s: s["type"] == "gameState" and s["status"] != "started")
    assert last["status"] == "timeout" and last["winner"] == "black"
    record = await server.hub.read(game_id, "record", {})
    assert record["outcome"]["winner"] == 1 and record["outcome"]["reason"] == "abandoned"
    for _ in range(100):  # rated like any result but an abort: the bot's rating went up
        me = await asyncio.to_thread(g.bot.account.get)
        if me["perfs"]["blitz"]["games"]:
            break
        await asyncio.sleep(0.05)
    assert me["perfs"]["blitz"]["games"] == 1 and me["perfs"]["blitz"]["rating"] > 1500
    # and a game that is over is claimed no more
    status, body = await claim(server, game_id, bot_token)
    assert status == 400 and set(body) == {"error"}


@pytest.mark.parametrize("broken", [False, True], ids=["countdown", "broken-countdown"])
async def test_a_claim_before_the_countdown_is_refused_and_changes_nothing(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    if broken:  # a claim taken as soon as the opponent is gone
        monkeypatch.setattr(Audience, "absent", lambda self, room: list(self.left.get(room, {})))
    g = await a_game(server)
    bot_token, game_id, game = g.bot_token, g.id, g.stream
    await g.bea.close()
    gone = await game.until(lambda s: s["type"] == "opponentGone")
    assert gone["gone"] and gone["claimWinInSeconds"] == 2
    before = await version(server, game_id)
    for what in ("victory", "draw"):
        status, body = await claim(server, game_id, bot_token, what)
        refused = status == 400 and set(body) == {"error"}
        assert refused is not broken, body
        if broken:
            break
        assert await version(server, game_id) == before
    info = await server.hub.read(game_id, "info", {})
    assert (info["status"] == "playing") is not broken


async def test_the_person_claims_a_draw_over_the_board_api_when_the_bot_left(
    server: KibitzServer,
) -> None:
    """berserk's board client (its path ends in a slash) for the person, and the WebSocket
    told of the bot's leaving: the bot's game stream is its presence."""
    g = await a_game(server, raw=True)
    bea, game_id = g.bea, g.id
    board = berserk_client(server, await api_token(server, g.login, ["board:play"]))
    g.stream.close()  # the bot's only connection to the game goes
    told = await next_of(bea, "opponent_gone")
    assert told == {
        "type": "opponent_gone",
        "room": game_id,
        "seat": 1,
        "gone": True,
        "claim_in": 2,
    }
    try:
        await asyncio.to_thread(board.board.claim_victory, game_id)
        raise AssertionError("a claim before the countdown was accepted")
    except berserk.exceptions.ResponseError as exc:
        assert exc.status_code == 400 and "not left" in exc.cause["error"]
    await asyncio.sleep(WAIT + 0.2)
    with pytest.raises(KibitzError, match="'draw' must be true or false"):
        await bea.request("claim_victory", room=game_id, draw="yes")
    ok = await bea.request("claim_victory", room=game_id, draw=True)
    assert ok["type"] == "ok"
    over = await bea.wait_update(lambda m: m["status"] == "over", room=game_id)
    assert over["outcome"]["winner"] is None and over["outcome"]["reason"] == "abandoned"


async def test_a_seat_is_told_on_joining_that_its_opponent_is_gone(server: KibitzServer) -> None:
    g = await a_game(server, raw=True)
    g.stream.close()
    await next_of(g.bea, "opponent_gone")
    await g.bea.close()  # Bea reloads her page: told again on joining
    back = await user_with(server, "Bea", g.login)
    await back.request("join", room=g.id, seat=0, token=g.seat_token)
    told = await next_of(back, "opponent_gone")
    assert told["seat"] == 1 and told["gone"] is True and 0 <= told["claim_in"] <= 2


@pytest.mark.parametrize("broken", [False, True], ids=["nodes", "broken-nodes"])
async def test_nothing_is_claimed_while_other_nodes_run(
    redis_url: str, prefix: str, registry: Registry, broken: bool
) -> None:
    """Presence is counted per node: Bea moves from n1 to n2 (still here, on n2), so n1 saw
    her leave; with another node running, n1 reports nobody gone and takes no claim. The
    broken version (a node that believes it sees every connection) gives her game away."""

    def config(node: str) -> Config:
        return node_config(redis_url, prefix, registry, node)

    async with KibitzServer(config("n1")) as n1, KibitzServer(config("n2")) as n2:
        for _ in range(100):
            if n1.cluster.peers:
                break
            await asyncio.sleep(0.05)
        assert n1.cluster.peers == 1
        if broken:
            n1.hub.audience.alone = lambda: True
        g = await a_game(n1)
        await g.bea.close()
        there = await user_with(n2, "Bea", g.login)
        await there.request("join", room=g.id, seat=0, token=g.seat_token)
        await asyncio.sleep(WAIT + 0.3)
        status, body = await claim(n1, g.id, g.bot_token)
        assert (status == 400) is not broken, body
        info = await n2.hub.read(g.id, "info", {})
        assert (info["status"] == "playing") is not broken


@pytest.mark.parametrize("bound", [8, 10**9], ids=["bounded", "broken-unbounded"])
def test_the_seats_gone_are_remembered_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch, bound: int
) -> None:
    """Every seat a connection left is remembered (a client may join and leave many rooms),
    at most ``MAX_LEFT`` of them, the oldest forgotten first; the unbounded version grows."""
    monkeypatch.setattr(audience, "MAX_LEFT", bound)
    crowd = Audience(Metrics())
    for i in range(50):
        client: Any = object()  # nobody else listens: nobody is told, nothing is sent
        crowd.listen(f"room{i:04d}", client, 0)
        crowd.forget(f"room{i:04d}", client)
    held = sum(len(seats) for seats in crowd.left.values())
    assert held == crowd.n_left
    assert (held <= 8) is (bound == 8)
    if bound == 8:  # the newest kept
        assert list(crowd.left) == [f"room{i:04d}" for i in range(42, 50)]

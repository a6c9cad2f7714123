"""A bot plays challenge after challenge in one process, two at a time, as lichess-bot does
with ``concurrency: 2`` — over real HTTP, a real redis-server and berserk as every client.

lichess-bot counts a challenge it accepted as a busy slot under the challenge's id
(``active_games[challenge.id]``), starts the game of the ``gameStart`` event under the
game's id and frees the slot of the ``gameFinish`` event's id. That works because on lichess
a challenge's id is its game's id; were they different, every accepted challenge would keep
a slot busy forever and the bot would stop accepting after its first games. The bot below
keeps exactly that bookkeeping, and is held to it: every ``gameStart`` is a game it accepted
under that id, and every game frees its slot."""

from __future__ import annotations

import asyncio
from typing import Any

import berserk

from server.net.app import KibitzServer
from server.net.node.hub import ROOM_ID

from .botapi_helpers import Reader, bot_account

CONCURRENCY = 2
ROUNDS = 2  # games each challenger asks for, one after the other


async def test_challenge_after_challenge_two_at_a_time(server: KibitzServer) -> None:
    robo, _ = await bot_account(server, "Robo")
    challengers = [await bot_account(server, name) for name in ("Alpha", "Beta", "Gamma")]
    events = Reader(robo.bots.stream_incoming_events)
    busy: dict[str, str] = {}  # lichess-bot's active_games: id -> opponent
    queue: list[dict[str, Any]] = []  # challenges waiting for a free slot
    most_busy = 0
    accepted: list[str] = []
    finished: list[str] = []
    playing: set[asyncio.Task[None]] = set()

    async def play_black(game_id: str) -> None:
        """Robo's side of a game: answer 1. e4 with e5, then resign."""
        stream = Reader(lambda: robo.bots.stream_game_state(game_id))
        full = await stream.next()
        assert full["type"] == "gameFull" and full["id"] == game_id
        if full["state"]["moves"] != "e2e4":  # not played yet when the stream opened
            await stream.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4")
        await asyncio.to_thread(robo.bots.make_move, game_id, "e7e5")
        await stream.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4 e7e5")
        await asyncio.to_thread(robo.bots.resign_game, game_id)

    async def robo_loop() -> None:
        nonlocal most_busy
        while len(finished) < len(challengers) * ROUNDS:
            event = await events.next(timeout=30)
            kind = event["type"]
            if kind == "challenge" and event["challenge"]["direction"] == "in":
                queue.append(event["challenge"])
            elif kind == "gameStart":
                game_id = event["game"]["id"]
                assert game_id in busy, f"gameStart {game_id} was never accepted: {busy}"
                task = asyncio.create_task(play_black(game_id))
                playing.add(task)
                task.add_done_callback(playing.discard)
            elif kind == "gameFinish":
                game_id = event["game"]["id"]
                assert busy.pop(game_id, None) is not None, f"{game_id} held no slot"
                finished.append(game_id)
            while queue and len(busy) < CONCURRENCY:  # lichess-bot's accept_challenges
                challenge = queue.pop(0)
                await asyncio.to_thread(robo.bots.accept_challenge, challenge["id"])
                busy[challenge["id"]] = challenge["challenger"]["name"]
                accepted.append(challenge["id"])
                most_busy = max(most_busy, len(busy))

    async def challenger(client: berserk.Client) -> list[str]:
        """Challenge Robo ROUNDS times, one after the other; play 1. e4 in each game."""
        own = Reader(client.bots.stream_incoming_events)
        games = []
        for _ in range(ROUNDS):
            made = await asyncio.to_thread(
                client.challenges.create,
                "Robo",
                False,
                clock_limit=300,
                clock_increment=0,
                color="white",
            )
            start = await own.until(lambda e: e["type"] == "gameStart", timeout=60)
            assert start["game"]["gameId"] == made["id"]  # the challenge became the game
            await asyncio.to_thread(client.bots.make_move, made["id"], "e2e4")
            await own.until(
                lambda e, i=made["id"]: e["type"] == "gameFinish" and e["game"]["id"] == i,
                timeout=60,
            )
            games.append(made["id"])
        return games

    loop = asyncio.create_task(robo_loop())
    played = await asyncio.gather(*(challenger(client) for client, _ in challengers))
    await asyncio.wait_for(loop, 60)
    await asyncio.gather(*playing)
    every = [g for games in played for g in games]
    assert len(set(every)) == len(challengers) * ROUNDS  # six games, each its own id
    assert all(ROOM_ID.fullmatch(game_id) for game_id in every)  # ids as rooms have them
    assert sorted(accepted) == sorted(every) == sorted(finished)
    assert most_busy == CONCURRENCY and busy == {}  # two at a time, every slot freed
    for game_id in every:  # ordinary rooms of the challenge's id, each over
        over = await server.hub.read(game_id, "info", {})
        assert over["status"] == "over"

"""An API game after it left Redis for the archive: lichess's export (JSON and PGN), the game
chat read back and the game stream answer as they did while it was in Redis — berserk (PyPI)
as every client."""

from __future__ import annotations

import asyncio

import berserk

from server.engine import Registry

from ..net.botapi_helpers import (
    Reader,
    bot_account,
    challenged,
    get,
    person_account,
    raw_first_line,
    until_over,
    until_rated,
)
from .helpers import archived_server, where


async def test_an_archived_api_game_exported_and_read_as_before(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None
        robo, robo_token = await bot_account(srv, "Robo")
        bea, _ = await person_account(srv, "Bea")
        game_id = await challenged(srv, robo, bea)
        game = Reader(lambda: robo.bots.stream_game_state(game_id))
        await game.next()
        await asyncio.to_thread(bea.board.post_message, game_id, "good luck")
        await game.until(lambda s: s["type"] == "chatLine")
        for move, player in (("e2e4", bea.board), ("e7e5", robo.bots)):
            await asyncio.to_thread(player.make_move, game_id, move)
        await asyncio.to_thread(bea.board.resign_game, game_id)
        await until_over(srv, game_id)
        await until_rated(srv, game_id)  # the export is read whole, ratings included
        anyone = berserk.Client(base_url=srv.url)
        live_json = await asyncio.to_thread(anyone.games.export, game_id)
        live_pgn = await asyncio.to_thread(anyone.games.export, game_id, as_pgn=True)
        live_chat = await get(srv, f"/api/bot/game/{game_id}/chat", robo_token)
        _, live_full = await raw_first_line(srv, f"/api/bot/game/stream/{game_id}", robo_token)
        for _ in range(100):  # the finished game is marked for the archive
            if game_id in await srv.archiver.pending():
                break
            await asyncio.sleep(0.05)
        assert await srv.archiver.archive_one(game_id)
        assert await where(srv.store, srv.archiver.archive, game_id) == (False, True)
        assert await asyncio.to_thread(anyone.games.export, game_id) == live_json
        assert await asyncio.to_thread(anyone.games.export, game_id, as_pgn=True) == live_pgn
        assert live_json["status"] == "resign" and live_json["moves"] == "e4 e5"
        assert await get(srv, f"/api/bot/game/{game_id}/chat", robo_token) == live_chat
        assert live_chat == (200, [{"text": "good luck", "user": "Bea"}])
        _, full = await raw_first_line(srv, f"/api/bot/game/stream/{game_id}", robo_token)
        assert full == live_full
        assert full["createdAt"] == round(live_json["createdAt"].timestamp() * 1000)

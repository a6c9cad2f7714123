"""``kibitz bot`` in every game: two runners with Kibitz's ``random`` bot accept and play a
challenge of each of the eleven games to its end (Yonin Shogi with the server's bots in its
two other seats), all at once; and Fairy-Stockfish plays XiangQi through the runner, from
the start, against Kibitz's bot, to its mate."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.tools.bot_players import BotPlayer, EnginePlayer

from ..conftest import serving
from .botapi_play import short_registry
from .botrunner_helpers import bot_token, running
from .test_bot_api_variants import GAMES

FAIRY = "uci:/usr/games/fairy-stockfish?time=0.05"


@pytest.fixture
async def short(redis_url: str, prefix: str) -> AsyncIterator[KibitzServer]:
    """A server whose games end soon (botapi_play.SHORT)."""
    async with serving(redis_url, prefix, short_registry()) as srv:
        yield srv


def done(ids: set[str]) -> Any:
    return lambda notes: ids <= {key for key, _ in notes.of("finished")}


async def test_every_game_is_played_to_its_end_by_two_runners(short: KibitzServer) -> None:
    ann, bob = await bot_token(short, "Ann"), await bot_token(short, "Bob")
    every = frozenset(GAMES)

    def random_bot(game: str) -> BotPlayer:
        return BotPlayer("random", game)

    options: dict[str, Any] = {"concurrency": len(GAMES)}
    async with (
        running(short.url, ann, random_bot, every, **options) as (runner, ann_notes),
        running(short.url, bob, random_bot, every, **options) as (_, bob_notes),
    ):
        ids = {}
        for name, (fields, _) in GAMES.items():
            terms = {k: v for k, v in fields.items() if k != "variant"}
            ids[name] = await runner.challenge("Bob", name, color="white", **terms)
        await bob_notes.until(lambda n: {k for k, _ in n.of("accepted")} == set(ids.values()))
        await ann_notes.until(done(set(ids.values())), 60)
        await bob_notes.until(done(set(ids.values())), 30)
    ends = dict(ann_notes.of("finished"))
    for name, game_id in ids.items():
        assert (await short.hub.read(game_id, "info", {}))["status"] == "over", name
        assert ends[game_id]["status"] not in ("created", "started"), name
        theirs = dict(bob_notes.of("finished"))[game_id]["moves"].split()
        assert len(theirs) == len(ends[game_id]["moves"].split()) > 0, name  # Dark Chess: ?
    assert len(ends[ids["yonin_shogi"]]["ranks"]) == 4
    starts = dict(ann_notes.of("started"))
    assert {starts[i]["game"] for i in ids.values()} == every
    assert all(starts[i]["seat"] == 0 for i in ids.values())


async def test_fairy_stockfish_plays_xiangqi_through_the_runner(server: KibitzServer) -> None:
    fsf, kb = await bot_token(server, "Fairy"), await bot_token(server, "Kibitz")
    xiangqi = frozenset({"xiangqi"})
    async with (
        running(server.url, fsf, lambda g: EnginePlayer(FAIRY, g), xiangqi) as (runner, notes),
        running(server.url, kb, lambda g: BotPlayer("random", g), xiangqi) as (_, kb_notes),
    ):
        game_id = await runner.challenge("Kibitz", "xiangqi", color="white")
        await notes.until(done({game_id}), 60)
        await kb_notes.until(done({game_id}))
    [(_, end)] = notes.of("finished")
    [(_, moved)] = notes.of("moved")[:1]
    assert "-" in moved or "x" in moved  # our notation (h2-e2), read from the engine's UCI
    assert end["winner"] == "white" and end["status"] == "mate", end
    assert (await server.hub.read(game_id, "info", {}))["status"] == "over"

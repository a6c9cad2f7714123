"""An engine seat from the browser: the lobby offers Stockfish's levels among the bots (with
the skill and time of each), a room is created against one, and it answers a move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser

from server.bots.uci import parse_engine
from server.engine import Registry
from server.net.app import KibitzServer

from ..conftest import serving
from .levels import readable_level
from .tabs import Tab


@pytest_asyncio.fixture(loop_scope="session")  # the browser tests' loop
async def engine_server(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[KibitzServer]:
    engines = [parse_engine("stockfish=/usr/games/stockfish?processes=1")]
    async with serving(redis_url, prefix, registry, lag_limit=5.0, engines=engines) as srv:
        yield srv


async def test_the_lobby_offers_stockfish_and_it_plays(
    browser: Browser, engine_server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, engine_server.url, "Ada")
    page = ada.page
    await page.wait_for_selector("#create-room")
    await page.select_option("#game", "chess")
    labels = await page.locator("#seat-1 option[value^='bot:stockfish:']").all_inner_texts()
    games = await page.evaluate("() => window.kibitz.games()")
    [chess] = [g for g in games if g["name"] == "chess"]
    rated = [lv for lv in chess["levels"] if lv.get("engine") == "stockfish"]
    # named as the ladder measured them (server/bots/ladder.json), or not rated yet
    assert labels == [f"Bot: {readable_level(lv)}" for lv in rated]
    assert [lv["title"] for lv in rated] == [f"Stockfish level {n}" for n in (1, 2, 3)]
    await page.select_option("#game", "xiangqi")  # Stockfish plays chess only
    assert await page.locator("#seat-1 option[value^='bot:stockfish:']").count() == 0
    await ada.create_room("chess", seats=["me", "bot:stockfish:2"])
    latest = await ada.latest()
    assert latest["seats"][1]["name"] == "Stockfish level 2"
    await ada.wait_to_act()
    await ada.play("e2e4")
    await ada.wait_turn(2)  # its answer, on the board
    answer = (await ada.latest())["view"]["last_move"]
    assert answer and answer[1] in "87654"  # a Black move
    await ada.screenshot(shots, "engine-seat")
    ada.assert_clean()
    await ada.close()

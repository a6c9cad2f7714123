"""Issue 37's Done-when, in Chromium: berserk (PyPI) drives a bot account through a whole rated
game over the lichess-compatible API against a person playing in the web client — the
person's API token made, listed and revoked on the account page (a revoked token refused),
a challenge sent from the bot's profile page, moves, chat both ways, a draw offer declined,
a resignation, and the rating change on the board."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from ..net.botapi_helpers import Reader, bot_account, get
from .tabs import Tab
from .test_accounts import sign_up


async def test_berserk_bot_plays_a_person_in_the_browser(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    bot, bot_token = await bot_account(server, "Robo")
    events = Reader(bot.bots.stream_incoming_events)
    bea = await Tab.open(browser, server.url, "Bea")
    await sign_up(bea, "Bea", "lime-tree-123")
    page = bea.page
    # the account page: a token made (shown once), listed, revoked — and then refused
    await page.goto(f"{server.url}#/@/Bea")
    await page.click("[data-action=create-token]")
    token = await page.locator(".api-token-new code").inner_text()
    assert token.startswith("kbt_")
    await page.wait_for_selector(".api-tokens li")
    assert "my bot — bot:play" in await page.inner_text(".api-tokens li")
    status, me = await get(server, "/api/account", token)
    assert status == 200 and me["username"] == "Bea"
    await page.click(".api-tokens [data-action=revoke]")
    await page.wait_for_selector(".api-tokens li", state="detached")
    assert await get(server, "/api/account", token) == (401, {"error": "No such token"})
    await bea.screenshot(shots, "bot-api-tokens")
    # a rated 3+2 challenge from the bot's profile page, as White
    await page.goto(f"{server.url}#/@/Robo")
    await page.select_option("select[name=challenge-color]", "white")
    await page.click("[data-action=challenge]")
    seen = await events.until(lambda e: e["type"] == "challenge")
    assert seen["challenge"]["challenger"]["name"] == "Bea" and seen["challenge"]["rated"]
    await asyncio.to_thread(bot.bots.accept_challenge, seen["challenge"]["id"])
    start = await events.until(lambda e: e["type"] == "gameStart")
    game_id = start["game"]["gameId"]
    await page.wait_for_function(
        "() => { const u = window.kibitz.latest(); return u && u.status === 'playing'; }"
    )
    assert (await bea.latest())["room"] == game_id and (await bea.latest())["you"] == 0
    game = Reader(lambda: bot.bots.stream_game_state(game_id))
    assert (await game.next())["type"] == "gameFull"
    # moves both ways
    await bea.wait_to_act()
    await bea.play("e2e4")
    await game.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4")
    await asyncio.to_thread(bot.bots.make_move, game_id, "e7e5")
    await bea.wait_to_act()
    await bea.play("g1f3")
    await game.until(lambda s: s["type"] == "gameState" and s["moves"] == "e2e4 e7e5 g1f3")
    # chat both ways
    await asyncio.to_thread(bot.bots.post_message, game_id, "good luck")
    await page.wait_for_selector("#chat-list .chat-msg")
    assert "good luck" in await page.inner_text("#chat-list")
    await page.fill("#chat-input", "you too")
    await page.click("#chat-send")
    line = await game.until(lambda s: s["type"] == "chatLine" and s["username"] == "Bea")
    assert line["text"] == "you too" and line["room"] == "player"
    # a draw offer from the person, declined by the bot
    await page.click("#draw-offer")
    await page.wait_for_selector("#draw-waiting")
    await game.until(lambda s: s["type"] == "gameState" and s["wdraw"])
    await asyncio.to_thread(
        bot.bots._r.post,
        f"/api/bot/game/{game_id}/draw/no",  # berserk's Bots has no helper
    )
    await page.wait_for_selector("#draw-waiting", state="detached")
    await asyncio.to_thread(bot.bots.make_move, game_id, "b8c6")
    await bea.wait_to_act()
    await bea.screenshot(shots, "bot-api-board")
    # the bot resigns: the person wins, rated
    await asyncio.to_thread(bot.bots.resign_game, game_id)
    final = await bea.wait_over()
    assert final["outcome"]["winner"] == 0 and final["outcome"]["reason"] == "resignation"
    finish = await events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"]["winner"] == "white"
    await page.locator("#rating-changes li").first.wait_for()
    del bot_token
    bea.assert_clean()

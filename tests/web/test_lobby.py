"""The lobby: every game with its options schema, live open rooms, keyboard-only creation,
taking a seat from another browser, the "your games" list, phone width."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from server.engine.xiangqi import START_FEN
from server.net.app import KibitzServer

from .levels import readable_level
from .tabs import Tab

NAMELESS = """() => [...document.querySelectorAll('button, a[href], input, select, [role=button]')]
  .filter(el => el.offsetParent !== null || el.getBoundingClientRect().width > 0)
  .filter(el => {
    const aria = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    const text = (el.textContent || '').trim();
    const labelled = el.labels && el.labels.length > 0;
    return !(aria || labelled || (text && !['INPUT', 'SELECT'].includes(el.tagName)));
  })
  .map(el => el.outerHTML.slice(0, 120))"""


async def assert_accessible_names(page: Page) -> None:
    """Every visible control has an accessible name (text, label or aria-label)."""
    assert await page.evaluate(NAMELESS) == []


async def test_lobby_options_live_rooms_and_keyboard(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob", width=375, height=800)
    page = ada.page

    # every game of the registry, each with the fields of its options schema
    games = await page.evaluate("() => window.kibitz.games()")
    names = [g["name"] for g in games]
    assert names[:5] == ["chess", "dark_chess", "apocalypse", "banqi", "hase_und_igel"]
    assert await page.locator("#game option").evaluate_all("os => os.map(o => o.value)") == names
    for game in games:
        await page.select_option("#game", game["name"])
        assert await page.inner_text("#game-desc") == game["description"]
        for option, schema in game["options"].items():
            field = page.locator(f"[data-option='{option}']")
            assert await field.count() == 1, option
            if "choices" in schema:
                values = await field.locator("option").evaluate_all("os => os.map(o => o.value)")
                assert values == [str(c) for c in schema["choices"]]
        # a bot seat is offered only where the server lists bots for the game
        bots = await page.locator("#seat-0 option[value^='bot:']").count()
        assert bots == len(game.get("bots") or [])
        # each with its ladder level and its measured rating (or that it has none yet)
        labels = await page.locator("#seat-0 option[value^='bot:']").all_inner_texts()
        for label, level in zip(labels, game.get("levels") or [], strict=True):
            assert label == f"Bot: {readable_level(level)}", label
        assert await page.is_checked("#opt-undo") == (not game["hidden_information"])
        await assert_accessible_names(page)
    await page.select_option("#game", "hase_und_igel")
    await page.fill("#seat-count", "4")
    await page.dispatch_event("#seat-count", "change")
    assert await page.locator("select[data-seat]").count() == 4
    await page.fill("#seat-count", "2")
    await page.dispatch_event("#seat-count", "change")
    await ada.screenshot(shots, "lobby-desktop")

    # Ada creates a BanQi room with the keyboard alone
    await page.select_option("#game", "banqi")
    await page.focus("#game")
    for _ in range(40):
        if await page.evaluate("() => document.activeElement.id") == "create-room":
            break
        await page.keyboard.press("Tab")
    else:
        raise AssertionError("the create button is not reachable with Tab")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/#room=*")
    room = page.url.split("#room=")[1]
    await ada.wait_room()
    await assert_accessible_names(page)

    # Bob's lobby shows the new room within a poll or two and he sits down from there
    # (the room exists a moment before Ada sits in it: a poll in between lists it empty)
    card = bob.page.locator(f".open-rooms li[data-room='{room}']")
    await expect(card).to_contain_text("Ada", timeout=10000)
    assert "BanQi" in await card.inner_text()
    await bob.screenshot(shots, "lobby-phone")
    await card.locator("[data-take-seat='1']").click()
    await bob.page.wait_for_url(f"**/#room={room}")
    await bob.wait_room()
    assert (await bob.latest())["you"] == 1
    await ada.wait_to_act()

    # back in the lobby, Ada's game is listed as hers, waiting for her move
    await page.click("#to-lobby")
    mine = page.locator(f".my-rooms [data-room='{room}']")
    await mine.wait_for()
    assert "your move" in await mine.inner_text()
    assert await page.locator(f".open-rooms li[data-room='{room}']").count() == 0
    await mine.get_by_text("Go to game").click()
    await page.wait_for_url(f"**/#room={room}")
    await ada.wait_to_act()
    await assert_accessible_names(bob.page)
    ada.assert_clean()
    bob.assert_clean()


async def test_xiangqi_from_a_fen_under_more_options(
    browser: Browser, server: KibitzServer
) -> None:
    """XiangQi's ``fen`` option is a text field under "More options": a bad FEN is refused
    with its reason in a toast and no room, a good one starts the room from that position."""
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    await page.select_option("#game", "xiangqi")
    await page.click("details.advanced summary")
    field = page.locator("#opt-fen")
    assert await field.input_value() == START_FEN
    await field.fill("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    await page.click("#create-room")
    await page.locator("#toasts").get_by_text("faces the other on an open file").wait_for()
    assert "#room=" not in page.url
    await field.fill("4k4/4n4/9/9/9/9/9/r3C4/9/3K5 b - - 0 20")
    await page.click("#create-room")
    await page.wait_for_url("**/#room=*")
    await expect(page.locator(".grid-status")).to_have_text("Black to move — check!")

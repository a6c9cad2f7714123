"""A player who leaves, in Chromium: the other is told with the countdown, and once it has
run out gets **Claim victory** (and a draw instead), which ends the game — on a phone and on a
desktop screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

WAIT = 3.0  # the countdown here (30 s by default)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
async def test_claim_victory_when_the_opponent_left(
    browser: Browser, server: KibitzServer, shots: Path, size: tuple[int, int]
) -> None:
    server.hub.audience.claim_after = WAIT
    ada = await Tab.open(browser, server.url, "Ada", width=size[0], height=size[1])
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    await ada.play("e2e4")
    await bob.wait_to_act()
    await bob.play("e7e5")
    await ada.wait_to_act()
    assert await ada.page.locator("#opponent-gone").count() == 0
    await bob.close()  # Bob's tab goes
    gone = ada.page.locator("#opponent-gone")
    await gone.wait_for()
    assert "Bob (Black) left the game" in await gone.inner_text()
    assert "claim the game in 3 s" in await gone.inner_text()
    await ada.page.wait_for_function(  # counting down
        "() => /in [12] s/.test(document.querySelector('#opponent-gone').textContent)"
    )
    assert await ada.page.locator("#claim-victory").count() == 0
    name = f"claim-{'phone' if size[0] < 500 else 'desktop'}"
    await ada.screenshot(shots, f"{name}-countdown")
    await ada.page.locator("#claim-victory").wait_for(timeout=(WAIT + 5) * 1000)
    assert await ada.page.locator("#claim-draw").count() == 1
    await ada.screenshot(shots, f"{name}-button")
    await ada.page.click("#claim-victory")
    over = await ada.wait_over()
    assert over["outcome"]["winner"] == 0 and over["outcome"]["reason"] == "abandoned"
    await ada.page.wait_for_selector("#opponent-gone", state="detached")
    assert "You win — a player left the game" in await ada.page.inner_text(".room-view")
    await ada.screenshot(shots, f"{name}-won")
    ada.assert_clean()

"""Apocalypse in the browser: sealed simultaneous moves (changed, kept over a reload, never
shown to the opponent or spectators), the joint move revealed, a collision, a real end."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab


async def test_sealed_moves_collision_and_horsemen_lost(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("apocalypse", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()
    await bob.wait_to_act()
    assert "both sides move at the same time" in await ada.status()

    # turn 1: Ada seals b1-b2, then changes her mind to a1-b3
    await ada.play("b1b2")
    assert (await ada.latest())["your_move"] == "b1b2"
    await ada.play("a1b3")
    assert (await ada.latest())["your_move"] == "a1b3"
    assert "You have moved (a1b3)" in await ada.status()
    await bob.page.wait_for_function("() => window.kibitz.latest().sealed.includes(0)")
    await eve.page.wait_for_function("() => window.kibitz.latest().sealed.includes(0)")
    assert "Ada (White) has moved — your move" in await bob.status()
    assert "Ada (White) has moved" in await eve.status()
    # the sealed move is nowhere in the opponent's or the spectator's page
    for tab in (bob, eve):
        html = await tab.page.content()
        assert "a1b3" not in html and "b1b2" not in html
        assert "your_move" not in await tab.latest()
    assert "legal" not in await eve.latest()

    # a reload keeps the sealed move (and the choice to change it)
    await ada.page.reload()
    await ada.wait_room()
    assert (await ada.latest())["your_move"] == "a1b3"
    assert "You have moved (a1b3)" in await ada.status()
    assert "a1b3" in await ada.legal()
    await ada.screenshot(shots, "apocalypse-sealed-white")
    await bob.screenshot(shots, "apocalypse-opponent-moved-black")

    # Bob moves his horseman to the same square: both horsemen die in the collision
    await bob.play("a5b3")
    for tab in (ada, bob, eve):
        await tab.wait_turn(1)
    view = (await eve.latest())["view"]
    assert view["last_moves"] == {"0": "a1b3", "1": "a5b3"}
    assert view["last_events"] == [{"type": "collision", "square": "b3", "removed": ["N", "n"]}]
    assert "collision on b3" in await eve.page.inner_text(".last-events")
    assert await eve.page.locator("svg.board .burst").count() == 1
    await eve.screenshot(shots, "apocalypse-collision-spectator")

    # turn 2 and 3: White's last horseman takes Black's last one
    for white, black in (("e1d3", "a4a3"), ("d3e5", "e4d3")):
        await ada.wait_to_act()
        await bob.wait_to_act()
        await bob.play(black)
        await ada.play(white)
    for tab in (ada, bob, eve):
        final = await tab.wait_over()
        assert final["outcome"]["reason"] == "horsemen_lost"
        assert final["outcome"]["winner"] == 0
    assert "You win — all horsemen lost" in await ada.status()
    assert (await eve.latest())["view"]["horsemen"] == [1, 0]
    await bob.screenshot(shots, "apocalypse-over-black")
    for tab in (ada, bob, eve):
        tab.assert_clean()

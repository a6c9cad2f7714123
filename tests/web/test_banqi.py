"""BanQi in the browser: two people flip, move and capture through the board until the game
ends by its rules; a spectator never learns what a face-down disc is."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

PLY_CAP = 240


def choose(legal: list[str]) -> str:
    """Captures first, then flips, then the first quiet move: a real end in ~50-80 actions."""
    captures = [m for m in legal if "x" in m]
    flips = [m for m in legal if m.startswith("flip")]
    return (captures or flips or legal)[0]


async def assert_no_identity_leak(eve: Tab) -> None:
    """Face-down discs are identical in the spectator's update and page."""
    view = (await eve.latest())["view"]
    hidden = sorted(sq for sq, p in view["squares"].items() if p.get("hidden"))
    for sq in hidden:
        assert view["squares"][sq] == {"hidden": True}
    dom = await eve.page.locator("svg.board .piece").evaluate_all(
        """els => els.map(e => ({on: e.dataset.on, down: e.classList.contains('face-down'),
                                 text: e.textContent}))"""
    )
    down = sorted(d["on"] for d in dom if d["down"])
    assert down == hidden
    assert all(d["text"] == "" for d in dom if d["down"])
    for sq in hidden:
        label = await eve.page.get_attribute(f"[data-square='{sq}']", "aria-label")
        assert label == f"{sq}: face-down piece"


async def test_flip_move_capture_until_the_end(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("banqi", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()
    await assert_no_identity_leak(eve)
    assert len(await ada.legal()) == 32  # every disc may be flipped
    await eve.screenshot(shots, "banqi-start-spectator")

    tabs = (ada, bob)
    for ply in range(PLY_CAP):
        u = await eve.latest()
        if u["status"] == "over":
            break
        mover = tabs[u["to_act"][0]]
        await mover.wait_to_act()
        await mover.play(choose(await mover.legal()))
        await eve.wait_turn(ply + 1)
        if ply == 0:
            colours = (await eve.latest())["view"]["colours"]
            assert colours is not None
            mine = colours["0"]
            assert await ada.page.inner_text(".you-play") == f"You play {mine}."
        if ply % 12 == 5:
            await assert_no_identity_leak(eve)
        if ply == 20:
            await ada.screenshot(shots, "banqi-midgame-first")
    else:
        # no end within the cap: the seat to act gives up through the UI
        u = await eve.latest()
        mover = tabs[u["to_act"][0]]
        await mover.page.click("#resign")
        await mover.page.click("#resign-yes")

    final = await eve.wait_over()
    ends = {"all_captured", "no_moves", "repetition", "no_progress", "resignation"}
    assert final["outcome"]["reason"] in ends
    await assert_no_identity_leak(eve)
    for tab in (ada, bob):
        assert (await tab.wait_over())["outcome"] == final["outcome"]
    await eve.screenshot(shots, "banqi-over-spectator")
    for tab in (ada, bob, eve):
        tab.assert_clean()

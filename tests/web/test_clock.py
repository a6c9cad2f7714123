"""Clocks in the browser: a per-move clock chosen in the lobby counts down live on both
players' pages — even with browser clocks an hour off — and the flag fall ends the game
"on time"; the Fischer and on-timeout choices reach the room settings."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

# Shift the page's Date by a number of milliseconds (a browser whose clock is off).
SKEW = """(() => {
  const shift = %d;
  const Real = Date;
  class Skewed extends Real {
    constructor(...args) { if (args.length) super(...args); else super(Real.now() + shift); }
    static now() { return Real.now() + shift; }
  }
  globalThis.Date = Skewed;
})();"""


async def skew_clock(tab: Tab, ms: int) -> None:
    await tab.context.add_init_script(SKEW % ms)
    await tab.page.reload()
    await tab.page.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")


def seconds(text: str) -> float:
    """ "00:01.4" -> 1.4, "04:59" -> 299."""
    m = re.fullmatch(r"(\d+):(\d\d(?:\.\d)?)", text.strip())
    assert m, text
    return int(m[1]) * 60 + float(m[2])


async def test_per_move_clock_counts_down_and_flag_falls(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    await skew_clock(ada, 3_600_000)  # an hour fast
    await skew_clock(bob, -3_600_000)  # an hour slow
    room = await ada.create_room(
        "chess", seats=["me", "open"], undo=False, clock={"type": "per_move", "seconds": 5}
    )
    settings = (await ada.latest())["settings"]
    assert settings["clock"] == {"type": "per_move", "seconds": 5.0}
    assert settings["undo"] is False
    assert await ada.page.inner_text("#clock-0") == "00:05.0"
    assert await ada.page.inner_text("#clock-summary") == "Clock: 5 s per move"

    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    await ada.play("e2e4")  # no clock runs before each side's first move (as on lichess)
    await bob.wait_to_act()
    await bob.play("e7e5")
    await ada.wait_to_act()
    await ada.play("g1f3")  # within White's five seconds: the clocks run from here
    await bob.wait_to_act()

    # (five seconds, not two: a loaded machine took two to read the clocks below once)
    # Black's time runs on both pages at the pace of real time, read twice; each reading is
    # bracketed by the test's own clock (a loaded machine reads slowly: that is allowed for)
    loop = asyncio.get_running_loop()

    async def read(tab: Tab) -> tuple[float, float, float]:
        before = loop.time()
        shown = seconds(await tab.page.inner_text("#clock-1"))
        return before, shown, loop.time()

    first = [await read(tab) for tab in (ada, bob)]
    await asyncio.sleep(0.4)
    second = [await read(tab) for tab in (ada, bob)]
    for (t0, a, t1), (t2, b, t3) in zip(first, second, strict=True):
        assert 0 < b < a <= 5.0, (first, second)
        # shown to the tenth and redrawn about every tenth: 0.2 s either way
        assert (t2 - t1) - 0.2 <= a - b <= (t3 - t0) + 0.2, (first, second)
    for tab in (ada, bob):
        assert "running" in (await tab.page.get_attribute("#clock-1", "class") or "")
        assert await tab.page.inner_text("#clock-0") == "00:05.0"  # White's next move: 5 s again
        label = await tab.page.get_attribute("#clock-1", "aria-label") or ""
        assert label.startswith("Black clock: ") and label.endswith("left, running"), label
    # take-backs are off in this room (the setting comes with the update)
    assert await bob.page.locator("#undo").count() == 0
    await bob.screenshot(shots, "clock-running-black", full_page=False)

    for tab in (ada, bob):
        final = await tab.wait_over()
        assert final["outcome"]["reason"] == "timeout"
        assert final["outcome"]["winner"] == 0
        assert await tab.page.inner_text("#clock-1") == "00:00.0"
        assert "flagged" in (await tab.page.get_attribute("#clock-1", "class") or "")
    assert await ada.status() == "Game over: You win on time — Bob (Black) ran out of time"
    assert await bob.status() == "Game over: Ada (White) wins on time — you ran out of time"
    assert "Reason: out of time." in await bob.page.inner_text("#gameover")
    assert "Bob (Black) ran out of time" in await ada.page.inner_text("#log")
    await ada.screenshot(shots, "clock-timeout-white")
    await bob.screenshot(shots, "clock-timeout-black")
    ada.assert_clean()
    bob.assert_clean()


async def test_fischer_clock_and_on_timeout_choice(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    await page.select_option("#game", "chess")
    assert not await page.is_visible("#clock-base")
    await page.select_option("#clock-type", "fischer")
    assert await page.is_visible("#clock-base") and await page.is_visible("#clock-increment")
    assert not await page.is_visible("#clock-on-timeout")  # turn-based: the seat loses
    await page.select_option("#game", "apocalypse")  # simultaneous turns
    assert await page.is_visible("#clock-on-timeout")
    await ada.screenshot(shots, "clock-lobby-choice")
    await page.select_option("#clock-type", "none")
    assert not await page.is_visible("#clock-on-timeout")

    await ada.create_room(
        "apocalypse",
        seats=["me", "open"],
        clock={"type": "fischer", "base": 1.5, "increment": 3},
        on_timeout="random",
    )
    settings = (await ada.latest())["settings"]
    assert settings["clock"] == {"type": "fischer", "base": 90.0, "increment": 3.0}
    assert settings["on_timeout"] == "random"
    assert settings["undo"] is False
    assert await page.inner_text("#clock-0") == "01:30"
    assert await page.inner_text("#clock-1") == "01:30"
    assert await page.inner_text("#clock-summary") == "Clock: 1.5 min + 3 s per move"
    ada.assert_clean()

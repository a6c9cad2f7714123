"""Premoves and right-click drawings, as a lichess player expects them (issue 34, item 12).

A player waiting for the other side's move may queue one move of their own (clicks or a
drag): it is shown, and played the moment their turn comes if it is legal then, else
dropped without a word; Escape or a right-click cancels it. A right-drag draws an arrow, a
right-click rings a square (Shift: red), a left click wipes them; the board keeps the
browser's context menu to itself. The opponent is an SDK client; what the page sends is
read from its WebSocket frames, what was played from the server's record.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.async_api import Page, WebSocket

from server.net.app import KibitzServer
from server.sdk import KibitzClient

from .tabs import Tab

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


async def record_moves(server: KibitzServer, room: str) -> list[str]:
    """Every move of the room as the server recorded it (the HTTP record)."""

    def get() -> dict[str, Any]:
        with urllib.request.urlopen(f"{server.url}api/rooms/{room}/record") as resp:
            return dict(json.loads(resp.read()))

    record = await asyncio.to_thread(get)
    return [text for turn in record["moves"] for text in turn["moves"].values()]


async def listen_for_moves(tab: Tab) -> list[str]:
    """The move texts the page sends from now on (it reloads to open a socket we see)."""
    sent: list[str] = []

    def on_frame(payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "move":
            sent.append(msg["move"])

    def on_socket(ws: WebSocket) -> None:
        ws.on("framesent", on_frame)

    tab.page.on("websocket", on_socket)
    await tab.page.reload()
    await tab.wait_room()
    await tab.page.wait_for_selector("svg.board [data-square]")
    return sent


async def our_turn(tab: Tab, turn: int) -> None:
    """Until the page is at `turn` and offers moves (a premove, if any, had its chance)."""
    await tab.page.wait_for_function(
        "t => { const u = window.kibitz.latest();"
        " return u && u.turn === t && window.kibitz.legal().length > 0; }",
        arg=turn,
    )
    await asyncio.sleep(0.3)  # a frame the page sent is reported by now


async def squares(page: Page, cls: str) -> list[str]:
    return sorted(
        await page.locator(f"svg.board .sq.{cls}").evaluate_all(
            "els => els.map(e => e.dataset.square)"
        )
    )


async def centre(page: Page, square: str) -> tuple[float, float]:
    box = await page.locator(f"svg.board [data-square='{square}']").bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def drag(page: Page, a: str, b: str, *, button: str = "left") -> None:
    x1, y1 = await centre(page, a)
    x2, y2 = await centre(page, b)
    await page.mouse.move(x1, y1)
    await page.mouse.down(button=button)  # type: ignore[arg-type]
    await page.mouse.move(x2, y2, steps=6)
    await page.mouse.up(button=button)  # type: ignore[arg-type]


async def right_click(page: Page, square: str, *, shift: bool = False) -> None:
    x, y = await centre(page, square)
    if shift:
        await page.keyboard.down("Shift")
    await page.mouse.click(x, y, button="right")
    if shift:
        await page.keyboard.up("Shift")


async def drawings(page: Page) -> list[str]:
    """The shapes drawn: "arrow g8 f6 green", "circle e5 red"."""
    return sorted(
        await page.locator("svg.board .drawings > *:not(.preview)").evaluate_all(
            "els => els.map(e => e.classList.contains('draw-arrow')"
            " ? `arrow ${e.dataset.from} ${e.dataset.to} ${e.dataset.brush}`"
            " : `circle ${e.dataset.at} ${e.dataset.brush}`)"
        )
    )


async def seated_against_sdk(browser: Any, server: KibitzServer, game: str, **size: int) -> Any:
    """An SDK client holds the first seat, the browser (Bob) the second."""
    ada = await KibitzClient.connect(server.ws_url)
    room = (await ada.request("create_room", game=game))["room"]
    await ada.request("take_seat", room=room, seat=0, name="Ada")
    bob = await Tab.open(browser, server.url, "Bob", **size)
    await bob.goto_room(room)
    await bob.sit(1)
    sent = await listen_for_moves(bob)
    return ada, bob, room, sent


async def test_chess_premoves_played_dropped_cancelled_and_drawings(
    browser: Any, server: KibitzServer, shots: Path
) -> None:
    ada, bob, room, sent = await seated_against_sdk(browser, server, "chess")
    page = bob.page
    await page.evaluate(
        "() => { window.menus = []; window.addEventListener('contextmenu',"
        " e => window.menus.push(e.defaultPrevented)); }"
    )

    # White to move: Bob picks e7 and sees where a premove may go, then queues ...e5
    await bob.click_square("e7")
    assert await squares(page, "pretarget") == ["d6", "e5", "e6", "f6"]
    assert await page.locator("svg.board .hints .hint-dot.pre").count() == 4
    await bob.screenshot(shots, "premove-choosing-desktop", full_page=False)
    await bob.click_square("e5")
    assert await squares(page, "premove") == ["e5", "e7"]
    assert await page.get_attribute("svg.board", "data-premove") == "e7-e5"
    # drawn while it waits: arrows (a right-drag; with Shift, red)
    await drag(page, "g8", "f6", button="right")
    await page.keyboard.down("Shift")
    await drag(page, "d8", "h4", button="right")
    await page.keyboard.up("Shift")
    assert await drawings(page) == ["arrow d8 h4 red", "arrow g8 f6 green"]
    assert await page.evaluate("() => window.menus") == [True, True]  # no browser menu here
    assert await squares(page, "premove") == ["e5", "e7"]  # an arrow keeps the premove
    for size, name in ((DESKTOP, "premove-arrows-desktop"), (PHONE, "premove-arrows-phone")):
        await page.set_viewport_size(size)
        await page.locator("svg.board").scroll_into_view_if_needed()
        await bob.screenshot(shots, name, full_page=False)
    await page.set_viewport_size(DESKTOP)
    assert sent == []

    # 1. e4: the premove goes at once, and the server has it
    await ada.request("move", room=room, move="e2e4")
    await page.wait_for_function("() => window.kibitz.latest().turn === 2")
    assert await record_moves(server, room) == ["e2e4", "e7e5"]
    assert sent == ["e7e5"]
    assert await squares(page, "premove") == []
    assert await page.get_attribute("svg.board", "data-premove") is None
    assert await drawings(page) == ["arrow d8 h4 red", "arrow g8 f6 green"]  # kept

    # a left click wipes the drawings; the same ring twice is no ring
    await bob.click_square("h5")
    assert await drawings(page) == []
    await right_click(page, "c5")
    await right_click(page, "c5")
    assert await drawings(page) == []

    # ...Nf6 queued by a drag, then Escape: 2. Nf3 comes and nothing is sent
    await drag(page, "g8", "f6")
    assert await squares(page, "premove") == ["f6", "g8"]
    await page.keyboard.press("Escape")
    assert await squares(page, "premove") == []
    await ada.request("move", room=room, move="g1f3")
    await our_turn(bob, 3)
    assert sent == ["e7e5"]
    await bob.play("b8c6")

    # ...Bb4 queued, then a right-click: cancelled (and the square ringed, as on lichess)
    await bob.click_square("f8")
    await bob.click_square("b4")
    assert await squares(page, "premove") == ["b4", "f8"]
    await right_click(page, "h4", shift=True)
    assert await squares(page, "premove") == []
    assert await drawings(page) == ["circle h4 red"]
    await ada.request("move", room=room, move="f1b5")
    await our_turn(bob, 5)
    assert sent == ["e7e5", "b8c6"]
    await bob.play("a7a6")  # the left clicks wipe the ring
    assert await drawings(page) == []

    # ...axb5 queued, but 4. Bxc6 takes the bishop away: dropped without a word
    await bob.click_square("a6")
    await bob.click_square("b5")
    assert await squares(page, "premove") == ["a6", "b5"]
    await ada.request("move", room=room, move="b5c6")
    await our_turn(bob, 7)
    assert await squares(page, "premove") == []
    assert sent == ["e7e5", "b8c6", "a7a6"]
    played = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6"  # 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6
    assert await record_moves(server, room) == played.split()
    assert await page.locator("#toasts .toast").count() == 0
    assert await page.evaluate("() => window.menus") == [True] * 5  # one per right press
    bob.assert_clean()
    await ada.close()


async def test_a_premove_on_the_described_board(
    browser: Any, server: KibitzServer, shots: Path
) -> None:
    """Jungle (a board described as data, which knows no rules): Blue queues a7-a6 by a
    drag while Red thinks; Red's move brings it out."""
    ada, bob, room, sent = await seated_against_sdk(browser, server, "jungle", **PHONE)
    page = bob.page
    # premoves off (this browser's choice, kept): a click on an own piece does nothing
    await page.click("#premove-toggle")
    assert await page.get_attribute("#premove-toggle", "aria-pressed") == "false"
    assert await page.evaluate("() => localStorage.getItem('kibitz.pref.premoves')") == "false"
    await bob.click_square("a7")
    assert await squares(page, "selected") == [] and await squares(page, "premovable") == []
    await page.click("#premove-toggle")
    await bob.click_square("a7")
    await bob.click_square("c7")  # another own piece: picked instead, no premove onto it
    assert await squares(page, "selected") == ["c7"]
    assert await squares(page, "premove") == []
    await drag(page, "a7", "a6")
    assert await squares(page, "premove") == ["a6", "a7"]
    assert await page.locator("svg.board .hints .pre").count() == 0  # no rules: no dots
    await drag(page, "b8", "b5", button="right")
    assert await drawings(page) == ["arrow b8 b5 green"]
    await bob.screenshot(shots, "premove-described-phone", full_page=False)
    await ada.request("move", room=room, move="a1-a2")
    await page.wait_for_function("() => window.kibitz.latest().turn === 2")
    assert await record_moves(server, room) == ["a1-a2", "a7-a6"]
    assert sent == ["a7-a6"]
    assert await squares(page, "premove") == []
    bob.assert_clean()
    await ada.close()

"""A four-seat board described as data (Yonin Shogi) in the browser: one person and three
bots, played by clicks to the end.

The person sits at West, so the board must turn a quarter for them: West's edge at the
bottom, their pentagons pointing up, North's to the right, East's down, South's to the left.
The hands of the four seats: the person's own below the board, the three others above it,
each named with its seat and colour. A drop from the hand is played when one arises.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from server.engine import REGISTRY, Registry
from server.net.app import KibitzServer

from .tabs import Tab
from .test_described_board import (
    PHONE_H,
    PHONE_W,
    assert_drawn,
    assert_edge_at_bottom,
    choose,
    play,
)

GAME = "yonin_shogi"
SEAT = 1  # West
PLY_LIMIT = 80  # the game's own draw after this many plies ends the test's game
MOVES = 4  # the person's moves at least, and until a piece has been in a hand; then they
# resign and the bots play on to the ply limit


@pytest.fixture(scope="module")
def registry() -> Registry:
    reg = Registry()
    for game in REGISTRY:
        reg.add(game)
    return reg


def pick(legal: list[str], desc: dict, seat: int, previous: str | None) -> str:
    """A drop when there is one (to play from the hand), else a capture or forward; a
    promotion when it is offered."""
    drops = [t for t in legal if "*" in t]
    if drops:
        return drops[0]
    text = choose(desc, legal, seat, previous)
    return f"{text}=+" if f"{text}=+" in legal else text


async def pointing(tab: Tab, seat: int) -> set[str]:
    """The turns of the pentagons of ``seat`` as drawn (rotate(0 ...) = pointing up)."""
    polygons = tab.page.locator(f"svg.board .piece.seat-{seat} .token.point polygon")
    turns = await polygons.evaluate_all(
        "ps => ps.map(p => (p.getAttribute('transform') || 'rotate(0').match(/rotate\\((\\d+)/)[1])"
    )
    return set(turns)


async def assert_hands(tab: Tab, desc: dict, you: int) -> None:
    """Each seat's hand where it belongs, named, with what it holds."""
    page = tab.page
    for seat, entries in desc["hands"].items():
        where = "hands-bottom" if int(seat) == you else "hands-top"
        row = page.locator(f".hands.{where} .hand[data-seat='{seat}']")
        assert await row.count() == 1, f"hand of seat {seat} not in .hands.{where}"
        text = await row.inner_text()
        assert desc["seats"][int(seat)]["name"] in text, text
        assert await row.locator(".hand-piece").count() == len(entries)
        for e in entries:
            piece = row.locator(f".hand-piece[data-letter='{e['letter']}']")
            assert f"\N{MULTIPLICATION SIGN}{e['count']}" in await piece.inner_text()
        assert await row.locator(".hand-chip").count() == 1


async def test_four_seats_one_person_three_bots(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    seats = ["bot:random"] * 4
    seats[SEAT] = "me"
    await ada.create_room(GAME, seats=seats, options={"ply_limit": PLY_LIMIT})
    page = ada.page
    await page.wait_for_selector("svg.board.described")
    u = await ada.latest()
    desc = u["view"]["grid"]
    assert u["you"] == SEAT and desc["seats"][SEAT]["edge"] == "west"
    await assert_drawn(ada, desc)
    await assert_edge_at_bottom(ada, desc, "west")  # the board turned a quarter for West
    # pentagons point away from their owners' edges, as seen from West
    assert await pointing(ada, SEAT) == {"0"}  # West: up
    assert await pointing(ada, 2) == {"90"}  # North, on the left: right
    assert await pointing(ada, 3) == {"180"}  # East, across: down
    assert await pointing(ada, 0) == {"270"}  # South, on the right: left

    previous: str | None = None
    dropped = held = False
    moves = 0
    while moves < MOVES or not (held or dropped):
        await page.wait_for_function(
            """() => { const u = window.kibitz.latest();
                       return u && (u.status === 'over' || (u.legal && u.legal.length > 0)); }"""
        )
        u = await ada.latest()
        if u["status"] == "over":
            break
        desc = u["view"]["grid"]
        if any(desc["hands"].values()):
            await assert_hands(ada, desc, SEAT)
            held = True
        legal = await ada.legal()
        text = pick(legal, desc, SEAT, previous)
        await play(ada, text)
        dropped = dropped or "*" in text
        previous = text
        moves += 1
        if moves == 4:
            await ada.screenshot(shots, "described-yonin_shogi-desktop-west")
    else:
        if (await ada.latest())["status"] != "over":
            await page.click("#resign")
            await page.click("#resign-yes")
    await ada.screenshot(shots, "described-yonin_shogi-desktop-late")
    await page.set_viewport_size({"width": PHONE_W, "height": PHONE_H})
    await ada.screenshot(shots, "described-yonin_shogi-phone-west")
    right = await page.locator("svg.board").evaluate("el => el.getBoundingClientRect().right")
    assert right <= PHONE_W, "the board overflows a phone"
    await assert_edge_at_bottom(ada, (await ada.latest())["view"]["grid"], "west")
    final = await ada.wait_over()
    assert final["outcome"], final
    assert moves >= 3
    assert held or dropped, "no piece was ever in a hand"
    ada.assert_clean()

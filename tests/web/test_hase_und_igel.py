"""Hase und Igel in the browser: two runners race on the 1978 board through the UI (clicking
fields for forward and back moves, buttons for carrots and card choices) until one
reaches the goal; a spectator follows the race."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

PLY_CAP = 160


def choose(view: dict[str, Any], seat: int, legal: list[str]) -> str:
    """A plain racing policy over what the page shows (finishes in ~40 moves)."""
    board = view["board"]
    me = view["runners"][seat]
    pos, carrots, salads = me["field"], me["carrots"], me["salads"]
    if legal[0].startswith("card"):
        return "card take" if carrots < 80 else "card none"
    advance = {int(m.split()[1]): m for m in legal if m.startswith("advance")}
    goal = len(board) - 1
    if goal - pos in advance:
        return advance[goal - pos]
    if salads > 0:
        for n in sorted(advance):
            if board[pos + n] == "L":
                return advance[n]
    best = None
    for n in sorted(advance):
        rest = carrots - n * (n + 1) // 2
        dist = goal - (pos + n)
        need = 10 + (min(dist, 8) * (min(dist, 8) + 1) // 2 if salads == 0 else 20)
        if rest >= need and board[pos + n] != "H":
            best = n
    if best:
        return advance[best]
    if "carrots +10" in legal and carrots < 60:
        return "carrots +10"
    if "back" in legal:
        return "back"
    if salads == 0 and "carrots -10" in legal and carrots > 10:
        return "carrots -10"
    return legal[0]


async def test_race_to_the_goal(browser: Browser, server: KibitzServer, shots: Path) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve", width=375, height=800)
    room = await ada.create_room("hase_und_igel", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()

    # the 65 fields of the track, each a focusable button with its kind in its name
    fields = ada.page.locator("svg.board.hase .field")
    assert await fields.count() == 65
    label = await ada.page.get_attribute("[data-field='8']", "aria-label")
    assert label == "Field 8: hedgehog field"
    targets = await ada.page.locator("svg.board .field.target").evaluate_all(
        "els => els.map(e => Number(e.dataset.field)).sort((a, b) => a - b)"
    )
    assert targets == [1, 2, 3, 4, 5, 6, 7, 9, 10]  # docs/GAMES.md 4.7: 8 and 11 are hedgehogs
    assert await eve.page.locator(".hase-actions button").count() == 0
    await ada.screenshot(shots, "hase-start-white")

    tabs = (ada, bob)
    cards_seen = 0
    for ply in range(PLY_CAP):
        u = await eve.latest()
        if u["status"] == "over":
            break
        seat = u["to_act"][0]
        mover = tabs[seat]
        await mover.wait_to_act()
        mine = await mover.latest()
        text = choose(mine["view"], seat, mine["legal"])
        before = mine["version"]
        field = mover.page.locator(f"svg.board .field[data-move='{text}']")
        if await field.count():
            await field.click()
        else:
            await mover.page.click(f".hase-actions button[data-move='{text}']")
        await mover.wait_version(before + 1)
        await eve.wait_version(before + 1)
        if any(e["kind"] == "card" for e in (await eve.latest())["view"]["events"]):
            cards_seen += 1
            if cards_seen == 1:
                await eve.page.wait_for_selector(".hase-card:not([hidden])")
                await ada.screenshot(shots, "hase-card-drawn")
        if ply == 24:
            await eve.screenshot(shots, "hase-midrace-spectator-phone")
    else:
        u = await eve.latest()
        mover = tabs[u["to_act"][0]]
        await mover.page.click("#resign")
        await mover.page.click("#resign-yes")

    final = await eve.wait_over()
    assert final["outcome"]["reason"] in {"goal", "resignation"}
    winner = final["outcome"]["winner"]
    assert winner in (0, 1)
    if final["outcome"]["reason"] == "goal":
        assert final["view"]["finished"] == [winner]
    assert "You win" in await tabs[winner].status()
    await ada.screenshot(shots, "hase-over-white")
    for tab in (ada, bob, eve):
        tab.assert_clean()

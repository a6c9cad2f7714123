"""Hase und Igel in the browser: two runners race on the 1978 board through the UI (clicking
fields for forward and back moves, buttons for carrots and card choices) until one
reaches the goal; a spectator follows the race.

The race is short by design: the room is made in the lobby with 300 starting carrots (the
``carrots`` option; 68 by default), so that the runners jump farther and reach the goal in
some 21 actions instead of 36, with forward and back moves and a carrots button still among
them (asserted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

PLY_CAP = 160
CARROTS = 300  # the farthest jump from the start: 23 fields (23 * 24 / 2 = 276 carrots)


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
    room = await ada.create_room(
        "hase_und_igel", seats=["me", "open"], options={"carrots": CARROTS}
    )
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
    # docs/GAMES.md 4.7: 8, 11, 15 and 19 are hedgehogs, never a forward move's target
    assert targets == [n for n in range(1, 24) if n not in (8, 11, 15, 19)]
    assert await eve.page.locator(".hase-actions button").count() == 0
    await ada.screenshot(shots, "hase-start-white")

    tabs = (ada, bob)
    cards_seen = 0
    played: set[str] = set()  # "advance", "back", "carrots", "card"
    for ply in range(PLY_CAP):
        u = await eve.latest()
        if u["status"] == "over":
            break
        seat = u["to_act"][0]
        mover = tabs[seat]
        await mover.wait_to_act()
        mine = await mover.latest()
        text = choose(mine["view"], seat, mine["legal"])
        played.add(text.split()[0])
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
        if ply == 10:
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
        assert {"advance", "back", "carrots"} <= played, played  # fields and a button
    assert "You win" in await tabs[winner].status()
    await ada.screenshot(shots, "hase-over-white")
    for tab in (ada, bob, eve):
        tab.assert_clean()

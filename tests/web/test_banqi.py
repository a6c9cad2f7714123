"""BanQi in the browser: two people flip, move and capture through the board until the game
ends by its rules; a spectator never learns what a face-down disc is.

The game is short by design: the room is made in the lobby with a run of six quiet actions
as the draw (the ``draw_plies`` option, 50 by default), and once a capture has been made
the players prefer quiet moves, so that the game ends by ``no_progress`` (or repetition,
or a side left without moves) in some 15-30 actions instead of the 50-80 a game of captures
and flips takes. Every kind of action is played by clicks: flips, captures, quiet moves."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

PLY_CAP = 120
QUIET_DRAW = 6  # the room's draw_plies: six actions in a row without capture or flip


def kind(move: str) -> str:
    return "flip" if move.startswith("flip") else "capture" if "x" in move else "quiet"


def choose(legal: list[str], captured: bool) -> str:
    """Captures first, then flips, until a capture has been made; then quiet moves first
    (a draw by no progress after six), then captures, then flips."""
    by_kind: dict[str, list[str]] = {"flip": [], "capture": [], "quiet": []}
    for m in legal:
        by_kind[kind(m)].append(m)
    order = ("quiet", "capture", "flip") if captured else ("capture", "flip", "quiet")
    return next(by_kind[k][0] for k in order if by_kind[k])


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
    labels = await eve.page.evaluate(
        "sqs => sqs.map(sq => document.querySelector(`[data-square='${sq}']`)"
        ".getAttribute('aria-label'))",
        hidden,
    )
    assert labels == [f"{sq}: face-down piece" for sq in hidden]


async def test_flip_move_capture_until_the_end(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("banqi", seats=["me", "open"], options={"draw_plies": QUIET_DRAW})
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()
    await assert_no_identity_leak(eve)
    assert len(await ada.legal()) == 32  # every disc may be flipped
    await eve.screenshot(shots, "banqi-start-spectator")

    tabs = (ada, bob)
    played: dict[str, int] = {"flip": 0, "capture": 0, "quiet": 0}
    for ply in range(PLY_CAP):
        u = await eve.latest()
        if u["status"] == "over":
            break
        mover = tabs[u["to_act"][0]]
        await mover.wait_to_act()
        move = choose(await mover.legal(), played["capture"] > 0)
        await mover.play(move)
        played[kind(move)] += 1
        await eve.wait_turn(ply + 1)
        if ply == 0:
            colours = (await eve.latest())["view"]["colours"]
            assert colours is not None
            mine = colours["0"]
            assert await ada.page.inner_text(".you-play") == f"You play {mine}."
        if ply % 4 == 2:
            await assert_no_identity_leak(eve)
        if ply == 8:
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
    assert all(played.values()), played  # flips, captures and quiet moves, all by clicks
    await assert_no_identity_leak(eve)
    for tab in (ada, bob):
        assert (await tab.wait_over())["outcome"] == final["outcome"]
    await eve.screenshot(shots, "banqi-over-spectator")
    for tab in (ada, bob, eve):
        tab.assert_clean()

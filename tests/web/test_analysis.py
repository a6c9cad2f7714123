"""A finished game's analysis where players look (issue 52, item 3): the "Request analysis"
button under the game over box, then the evaluation graph (a point per ply, the judged moves
as dots; a click or a key goes to that ply of the replay), the better move as an arrow on
the replayed board, the move list's ?!/?/?? and each player's table; a Dark Chess game's
switch between what the players saw and what was there. In a real Chromium against a real
server, Redis, Stockfish, at a desktop's and a phone's size."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from server.analysis.records import Tools
from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient

from ..analysis.test_game_analyses import random_record
from ..conftest import serving
from ..net.analysis_helpers import SCHOLAR, analysed, finished, settings
from ..net.test_analysis_games import moves_of
from .tabs import Tab

SIZES = [(1280, 800), (390, 844)]
#: small budgets: Stockfish's nodes, our own searches' seconds and depth
QUICK = Tools(nodes=30_000, seconds=0.05, max_depth=3)
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@pytest_asyncio.fixture(loop_scope="session")
async def analysing_server(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[KibitzServer]:
    async with serving(
        redis_url, prefix, registry, lag_limit=5.0, analysis=settings(tools=QUICK)
    ) as srv:
        yield srv


async def scholar(srv: KibitzServer) -> str:
    a, b = await KibitzClient.connect(srv.ws_url), await KibitzClient.connect(srv.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    for i, move in enumerate(SCHOLAR):
        await (a, b)[i % 2].request("move", room=room, move=move)
    await a.close()
    await b.close()
    return room


async def fits(page: Page, width: int) -> None:
    """No horizontal scroll, and the graph within the viewport's width."""
    scroll = await page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"
    box = await page.locator("#eval-graph").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


async def shot(page: Page, shots: Path, name: str) -> None:
    """A whole-page screenshot once the board's animations have ended."""
    await page.wait_for_function("() => document.getAnimations().length === 0")
    await page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
async def test_the_blunder_shows_on_the_graph_the_board_and_the_move_list(
    browser: Browser, analysing_server: KibitzServer, shots: Path, width: int, height: int
) -> None:
    srv = analysing_server
    room = await scholar(srv)
    eve = await Tab.open(browser, srv.url, "Eve", width=width, height=height)
    await eve.goto_room(room, watch=True)
    await eve.wait_over()
    page = eve.page
    button = page.locator("#request-analysis")
    await button.wait_for(state="visible")
    await button.click()
    graph = page.locator("#eval-graph")
    await graph.wait_for(state="visible", timeout=60_000)
    analysis = await analysed(srv, room)
    six = analysis["plies"][5]
    assert six["judgement"] == "blunder" and six["san"] == "Nf6"
    # a point per ply, the blunder's dot at 3...Nf6, an aria-label
    points = page.locator("#eval-graph .eval-point")
    await expect(points).to_have_count(len(SCHOLAR))
    await expect(page.locator("#eval-graph .eval-point.blunder[data-ply='6']")).to_have_count(1)
    assert "per move" in (await graph.get_attribute("aria-label") or "")
    # the players' tables (lichess's summary)
    bob = page.locator("#analysis-summary .analysis-player[data-seat='1']")
    await expect(bob.locator("tr.blunder td")).to_have_text("1")
    await expect(
        page.locator("#analysis-summary .analysis-player[data-seat='0'] tr.blunder td")
    ).to_have_text("0")
    assert await button.is_hidden()
    # the move list marks the blunder
    await expect(page.locator("#move-list button[data-ply='6']")).to_contain_text("Nf6??")
    marked = page.locator("#move-list button[data-ply='6'] .judgement.blunder")
    await expect(marked).to_have_count(1)
    # a click on the point of ply 6 shows that position, with the better move's arrow
    await page.locator("#eval-graph .eval-point[data-ply='6']").click()
    await expect(page.locator("#replay-showing")).to_have_text(
        "Showing the position after move 6 of 7"
    )
    await expect(page.locator("#eval-graph .eval-point.current")).to_have_attribute("data-ply", "6")
    knight = await page.locator("svg.board [data-square='f6']").get_attribute("aria-label")
    assert "knight" in (knight or "").lower()
    best = page.locator("svg.board .best-move")
    await expect(best).to_have_count(1)
    assert await best.get_attribute("data-from") == six["best"][:2]
    assert await best.get_attribute("data-to") == six["best"][2:4]
    await fits(page, width)
    await shot(page, shots, f"chess-ply6-{width}")
    await eve.screenshot(shots, f"analysis-chess-ply6-{width}")
    # the keyboard: ← from the focused point goes to ply 5 (no better move drawn there)
    await page.locator("#eval-graph .eval-point[data-ply='6']").focus()
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator("#replay-showing")).to_have_text(
        "Showing the position after move 5 of 7"
    )
    await expect(page.locator("svg.board .best-move")).to_have_count(0)
    await page.keyboard.press("End")
    await expect(page.locator("#eval-graph .eval-point.current")).to_have_attribute("data-ply", "7")
    # a second visitor finds it done, without asking
    other = await Tab.open(browser, srv.url, "Finn", width=width, height=height)
    await other.goto_room(room, watch=True)
    await other.page.locator("#eval-graph").wait_for(state="visible")
    assert await other.page.locator("#request-analysis").is_hidden()
    eve.assert_clean()
    other.assert_clean()
    await eve.close()
    await other.close()


def judged(analysis: dict[str, Any], view: str) -> set[str]:
    """The plies judged in a view, as the data says."""
    out = set()
    for p in analysis["plies"]:
        verdict = (p.get("seen") or {}).get("judgement") if view == "seen" else p["judgement"]
        if verdict:
            out.add(str(p["ply"]))
    return out


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
async def test_dark_chess_switches_between_what_you_saw_and_what_was_there(
    browser: Browser, analysing_server: KibitzServer, shots: Path, width: int, height: int
) -> None:
    srv = analysing_server
    moves = moves_of(random_record("dark_chess", 3, 8))
    room = await finished(srv, moves, game="dark_chess")
    eve = await Tab.open(browser, srv.url, "Eve", width=width, height=height)
    await eve.goto_room(room, watch=True)
    await eve.wait_over()
    page = eve.page
    await page.locator("#request-analysis").click()
    graph = page.locator("#eval-graph")
    await graph.wait_for(state="visible", timeout=60_000)
    analysis = await analysed(srv, room)
    switch = page.locator("#analysis-views")
    await expect(switch).to_be_visible()
    await expect(page.locator("#analysis-view-true")).to_have_attribute("aria-pressed", "true")
    await expect(page.locator("#eval-graph .eval-point")).to_have_count(len(moves))

    async def shown() -> tuple[str, set[str], set[str]]:
        line = await page.locator("#eval-graph .eval-line").get_attribute("d") or ""
        dots = page.locator("#eval-graph .eval-point.judged")
        plies = {await d.get_attribute("data-ply") or "" for d in await dots.all()}
        listed = page.locator("#move-list .judgement")
        marked = {
            await m.locator("xpath=..").get_attribute("data-ply") or "" for m in await listed.all()
        }
        return line, plies, marked

    true_line, true_dots, true_marks = await shown()
    assert true_dots == judged(analysis, "true") == true_marks
    await shot(page, shots, f"dark-true-{width}")
    await page.locator("#analysis-view-seen").click()
    await expect(graph).to_have_attribute("data-view", "seen")
    await expect(page.locator("#analysis-view-seen")).to_have_attribute("aria-pressed", "true")
    seen_line, seen_dots, seen_marks = await shown()
    assert seen_dots == judged(analysis, "seen") == seen_marks
    # the plotted values differ: the mover's own win chances against the true evaluations
    assert seen_line != true_line
    # the summary follows the switch: each player's counts as they saw the board
    for seat, player in enumerate(analysis["players"]):
        cell = page.locator(f".analysis-player[data-seat='{seat}'] tr.blunder td")
        await expect(cell).to_have_text(str(player["seen"]["blunder"]))
    await fits(page, width)
    await shot(page, shots, f"dark-seen-{width}")
    await eve.screenshot(shots, f"analysis-dark-seen-{width}")
    eve.assert_clean()
    await eve.close()


#: the stored shapes of a many-seat game (values, a seat's each) and of a simultaneous one
#: (two plies a turn), and a hidden game's `seen`, as docs/ANALYSIS.md draws them
SHAPES = """async () => {
  const m = await import("./js/evalseries.js");
  const yonin = {
    values: [[0.25, 0.25, 0.25, 0.25], null, [0.1, 0.5, 0.2, 0.2]],
    plies: [
      { ply: 1, seat: 0, judgement: "mistake", best: "a1-a2" },
      { ply: 2, seat: 1, judgement: null, best: null },
    ],
  };
  const apocalypse = {
    values: [[0.5, 0.5], [0.2, 1.4]],
    plies: [
      { ply: 1, seat: 0, judgement: "inaccuracy", best: "a1-b3" },
      { ply: 1, seat: 1, judgement: "blunder", best: "e5-d3" },
    ],
  };
  const dark = {
    views: "seen",
    evals: [{ cp: 0 }, { mate: 2 }, { over: -1 }],
    plies: [
      { ply: 1, seat: 0, judgement: "blunder", best: "e2e4",
        seen: { value: 0.6, played: 0.6, best: null, judgement: null } },
      { ply: 2, seat: 1, judgement: null, best: null,
        seen: { value: 0.9, played: 0.5, best: "d7d5", judgement: "mistake" } },
    ],
  };
  const plain = (d) => ({ ...d, marks: [...d.marks].map(([p, v]) => [p, v.judgement]) });
  return {
    yonin: plain(m.series(yonin, "true")),
    apocalypse: plain(m.series(apocalypse, "true")),
    apocalypseBest: m.series(apocalypse, "true").marks.get(1).best,
    darkTrue: plain(m.series(dark, "true")),
    darkSeen: plain(m.series(dark, "seen")),
    views: [m.viewsOf(dark), m.viewsOf(yonin)],
    cp: [m.chances({ cp: 5000 }), m.chances({ cp: -1000 }), m.chances({ cp: 0 })],
  };
}"""


async def test_the_graph_s_data_follows_the_stored_shape(
    browser: Browser, analysing_server: KibitzServer
) -> None:
    tab = await Tab.open(browser, analysing_server.url, "Ida")
    got = await tab.page.evaluate(SHAPES)
    # a line per seat of `values`, a gap where a position has none, the scale widened
    yonin = got["yonin"]
    assert yonin["seats"] == 4 and yonin["lines"][1] == [0.25, None, 0.5]
    assert (yonin["low"], yonin["high"], yonin["last"]) == (0, 1, 2)
    assert yonin["marks"] == [[1, "mistake"], [2, None]]
    # two plies of one turn: one point, the worse judgement, both better moves
    apocalypse = got["apocalypse"]
    assert apocalypse["seats"] == 2 and apocalypse["high"] == 1.4
    assert apocalypse["marks"] == [[1, "blunder"]]
    assert got["apocalypseBest"] == ["a1-b3", "e5-d3"]
    # `evals`: seat 0's winning chances (a mate the clamp); `seen`: each mover's own
    assert got["darkTrue"]["lines"] == [[0, 1, -1]] and got["darkTrue"]["seats"] == 1
    assert got["darkTrue"]["marks"] == [[1, "blunder"], [2, None]]
    seen = got["darkSeen"]["lines"][0]
    assert seen[0] is None and abs(seen[1] - 0.2) < 1e-9 and abs(seen[2]) < 1e-9
    assert got["darkSeen"]["marks"] == [[1, None], [2, "mistake"]]
    assert got["views"] == [["seen", "true"], ["true"]]
    assert abs(got["cp"][0] + got["cp"][1]) < 1e-9 and abs(got["cp"][0] - 0.951) < 0.001
    assert got["cp"][2] == 0
    tab.assert_clean()
    await tab.close()

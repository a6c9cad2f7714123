"""The browser's delta apply (``applyDelta``, web/js/net.js) and the Python one
(``server.sdk.apply_delta``) give the same state from the same deltas, as the server makes
them (``server.rooms.delta.diff``), and neither changes the state it is given."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.async_api import Browser

from server.net.app import KibitzServer
from server.rooms import delta
from server.sdk import apply_delta

from .tabs import Tab

#: runs in the page: the page's own module, as main.js imports it; the cases go in and the
#: results come out as JSON text, as updates come over the WebSocket (Playwright's own
#: serialization of a megabyte of nested values took 30 s on a loaded machine, JSON 1 s)
APPLY_IN_PAGE = """async (text) => {
  const { applyDelta } = await import("/js/net.js");
  return JSON.stringify(JSON.parse(text).map(([state, sets, dels]) => {
    const before = JSON.stringify(state);
    const out = applyDelta(state, sets, dels);
    return [out, JSON.stringify(state) === before];
  }));
}"""


async def apply_in_page(tab: Tab, given: list[tuple[Any, Any, Any]]) -> list[Any]:
    """``applyDelta`` in ``tab`` on each case: [result, whether the state was untouched]."""
    return list(json.loads(await tab.page.evaluate(APPLY_IN_PAGE, json.dumps(given))))


# no float that JavaScript would write back as an integer (1.0 comes back as 1)
SCALARS: list[Any] = [None, True, False, 0, 1, -3, 1.5, "", "a", "é"]


def document(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(SCALARS)
    if roll < 0.7:  # lists of 8 and more are patched entry by entry
        return [document(rng, depth + 1) for _ in range(rng.choice([0, 2, 8, 9, 12]))]
    keys = rng.sample("abcdefgh", rng.randint(0, 5))
    return {k: document(rng, depth + 1) for k in keys}


def changed(doc: Any, rng: random.Random) -> Any:
    if isinstance(doc, dict):
        out = {k: v if rng.random() < 0.5 else changed(v, rng) for k, v in doc.items()}
        for k in list(out):
            if rng.random() < 0.15:
                del out[k]
        if rng.random() < 0.3:
            out[rng.choice("abcdefghz")] = document(rng)
        return out
    if isinstance(doc, list):
        if rng.random() < 0.2:
            return [*doc, 0]
        return [v if rng.random() < 0.6 else changed(v, rng) for v in doc]
    return rng.choice([doc, *SCALARS])


def cases(n: int, seed: int) -> list[tuple[Any, Any, Any]]:
    rng = random.Random(seed)
    out: list[tuple[Any, Any, Any]] = []
    while len(out) < n:
        old = {k: document(rng) for k in rng.sample("abcdefgh", rng.randint(1, 6))}
        new = changed(old, rng)
        sets, dels = delta.diff(old, new)
        if sets or dels:
            out.append((old, sets, dels))
    # an empty path replaces the whole state
    out.append(({"a": 1, "b": [1, 2]}, [[[], {"c": {"d": None}}], [["c", "d"], 2]], []))
    return out


async def test_the_browser_and_python_apply_deltas_alike(
    browser: Browser, server: KibitzServer
) -> None:
    # the cases made, and checked in Python, while no page is open: that work holds the loop
    # the server shares with the test, and a page would meet it as a lagging server
    given = cases(400, seed=35)
    tab = await Tab.open(browser, server.url, "Ada")
    in_page = await apply_in_page(tab, given)
    tab.assert_clean()
    await tab.close()
    assert len(in_page) == len(given)
    deletions = 0
    for (state, sets, dels), (browser_result, untouched) in zip(given, in_page, strict=True):
        before = repr(state)
        python_result = apply_delta(state, sets, dels)
        assert repr(state) == before, "the Python apply changed the state it was given"
        assert untouched, "applyDelta changed the state it was given"
        assert browser_result == python_result, (state, sets, dels)
        deletions += len(dels)
    assert deletions > 0  # the cases delete paths too, not only set them


async def test_a_differing_apply_would_be_seen(browser: Browser, server: KibitzServer) -> None:
    """The comparison above can fail: an apply that skips the deletions differs from the
    page's on these very cases."""
    given = [c for c in cases(50, seed=35) if c[2]]
    tab = await Tab.open(browser, server.url, "Ada")
    in_page = await apply_in_page(tab, given)
    broken = [apply_delta(state, sets, []) for state, sets, _dels in given]
    assert any(b != r for b, (r, _u) in zip(broken, in_page, strict=True))
    tab.assert_clean()

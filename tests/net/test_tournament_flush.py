"""A tournament's view that could not be stored (or announced) stays due: the director's
next round stores it again, rather than waiting for the next change (which, after the
last one, never comes)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.engine import Registry

from .tournament_helpers import nodes, two_joined

SPEC = {
    "name": "Flushed",
    "game": "chess",
    "system": "arena",
    "clock": {"base": 60, "increment": 0},
    "minutes": 5,
}


async def test_a_view_not_told_is_told_in_the_next_round(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        players, tid, _starts = await two_joined(n1, SPEC)
        assert n1.hub is not None
        director = n1.tournaments.director
        d = director.directed[tid]
        told: list[tuple[str, str]] = []
        working = director.publish

        async def down(tid: str, what: str) -> None:
            raise OSError("the pub/sub connection is down")

        async def recording(tid: str, what: str) -> Any:
            told.append((tid, what))
            assert working is not None
            return await working(tid, what)

        director.publish = down
        d.dirty = True
        with pytest.raises(OSError):
            await director.flush(tid, d)
        assert d.dirty  # still owed
        director.publish = recording  # the director's own round (every 0.2 s) tells it
        for _ in range(50):
            if (tid, "view") in told:
                break
            await asyncio.sleep(0.1)
        assert (tid, "view") in told and not d.dirty
        for p in players:
            await p.close()

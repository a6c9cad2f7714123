"""A bulk load through the archive's own API (:meth:`Archive.put_many`: the benchmark's way
to fill an archive): one transaction, each game as ``put`` writes it, none twice."""

from __future__ import annotations

import dataclasses

from server.archive import Archive

from .test_backends import game


async def test_put_many_writes_each_game_once(archive: Archive) -> None:
    games = [game(f"m{i}", 100.0 + i, who=("Ann", "Bob"), ranks=(1, 2)) for i in range(3)]
    assert await archive.put_many(games) == 3
    assert await archive.put_many(games) == 0  # again: nothing changes
    longer = dataclasses.replace(games[0], events=(*games[0].events, games[0].events[-1]))
    assert await archive.put_many([longer, games[1]]) == 1  # only the longer one replaces
    assert await archive.versions(["m0", "m1", "m2", "m3"]) == {
        "m0": len(longer.events),
        "m1": len(games[1].events),
        "m2": len(games[2].events),
    }
    for g in games[1:]:
        assert await archive.events(g.id) == [dict(e) for e in g.events]

"""Two nodes never pair one player twice: a node that does not hold a tournament's lease
appends nothing, even deciding from the latest log (its broken twin, without the lease in the
append, would pair the players a second time)."""

from __future__ import annotations

import random

import pytest

from server.engine import Registry
from server.net.services.tournaments.director import Directed, Director
from server.net.transport.errors import ProtocolError
from server.tournaments import Tournament

from .tournament_helpers import log_of, nodes, pairings, two_joined

SPEC = {
    "name": "Fenced",
    "game": "chess",
    "system": "arena",
    "clock": {"base": 60, "increment": 0},
    "minutes": 5,
}


async def stale_copy(director: Director, tid: str, log: list[dict]) -> Directed:
    """What a node that believes it directs ``tid`` holds: the latest log, replayed."""
    secret = await director.store.secret(tid)
    assert secret is not None
    d = Directed(Tournament.replay(log), secret)
    director.directed[tid] = d
    return d


@pytest.mark.parametrize("fenced", [True, False])
async def test_a_node_without_the_lease_pairs_nobody(
    redis_url: str, prefix: str, registry: Registry, fenced: bool
) -> None:
    async with nodes(redis_url, prefix, registry) as (n1, n2):
        players, tid, starts = await two_joined(n1, SPEC)
        log = await log_of(n1, tid)
        assert n1.hub is not None and n2.hub is not None
        other = n2.tournaments.director
        assert tid not in other.directed and tid in n1.tournaments.director.directed
        d = await stale_copy(other, tid, log)
        if not fenced:
            other.node = ""  # the broken twin: its appends do not name the node
        rng = random.Random(1)
        decide = lambda t: t.tick(starts + 1, set(), rng)  # noqa: E731
        if fenced:
            with pytest.raises(ProtocolError) as err:
                await other.run(tid, d, decide)
            assert err.value.code == "unavailable" and tid not in other.directed
            assert await log_of(n1, tid) == log  # nothing appended
            assert pairings(await log_of(n1, tid)) == []
        else:
            await other.run(tid, d, decide)
            assert len(pairings(await log_of(n1, tid))) == 1  # paired by a node not directing
        for p in players:
            await p.close()

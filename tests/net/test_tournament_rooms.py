"""A pairing's room: created with the id the event names, once; seated with the same tokens
whoever seats it; rated only when every player has an account; seated in the end when a dead
host's lease held it at first."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest

from server.engine import Registry
from server.net.services.tournaments import director as director_module
from server.net.services.tournaments.rooms import seat_token, start_game
from server.net.transport.errors import ProtocolError
from server.sdk import KibitzClient
from server.tournaments import Spec, Tournament

from .test_protocol_examples import register
from .tournament_helpers import log_of, nodes, two_joined

ADA = {"key": "u:Ada", "name": "Ada", "user": "Ada", "rating": 1500.0, "bot": None}
BOT = {"key": "bot:random:1", "name": "Random bot 1", "user": None, "rating": 1500.0}
PLAYERS = [ADA, BOT | {"bot": "random"}]
SPEC = {
    "name": "Retry",
    "game": "chess",
    "system": "arena",
    "clock": {"base": 60, "increment": 0},
    "minutes": 5,
}


async def test_a_pairing_seats_its_room_once_with_the_same_tokens(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 2) as (n1, n2):
        assert n1.hub is not None and n2.hub is not None
        raw = {"name": "R", "game": "chess", "system": "arena", "clock": {"base": 60}, "minutes": 5}
        spec = Spec.parse(raw | {"rated": True}, id="T1", creator="u:Ada", now=0.0)
        store = n1.tournaments.store
        first = await start_game(
            n1.hub, store, n1.accounts.store, "T1", "s3cret", spec, "tRoom1", PLAYERS
        )
        info = await n1.hub.read("tRoom1", "info", {})
        assert [s["kind"] for s in info["seats"]] == ["person", "bot"]
        # the tournament pairs the next game: its rooms offer no rematch (rooms' own test)
        assert (await n1.hub.read("tRoom1", "record", {}))["policy"]["rematch"] is False
        # a second director (another node, after a failover) seats the same event again
        again = await start_game(
            n2.hub, store, n2.accounts.store, "T1", "s3cret", spec, "tRoom1", PLAYERS
        )
        assert again == first and first["u:Ada"]["token"] == seat_token("s3cret", "tRoom1", 0)
        assert (await n2.hub.read("tRoom1", "info", {}))["version"] == info["version"]
        assert first["u:Ada"]["rated"] is False  # a bot at the table: not rated
        assert await store.room_tournament("tRoom1") == "T1"


async def test_a_rated_pairing_of_accounts_is_rated(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        assert n1.hub is not None
        await asyncio.to_thread(register, n1.url, "Ada")
        await asyncio.to_thread(register, n1.url, "Bob")
        bob = {"key": "u:Bob", "name": "Bob", "user": "Bob", "rating": 1500.0, "bot": None}
        raw = {"name": "R", "game": "chess", "system": "arena", "clock": {"base": 60}, "minutes": 5}
        store = n1.tournaments.store
        for rated in (True, False):
            spec = Spec.parse(raw | {"rated": rated}, id="T2", creator="u:Ada", now=0.0)
            room = f"tRated{rated}"
            sent = await start_game(
                n1.hub, store, n1.accounts.store, "T2", "s", spec, room, [PLAYERS[0], bob]
            )
            assert sent["u:Bob"]["rated"] is rated
            info = await n1.hub.read(room, "record", {})
            assert (info["rated"] is not None) is rated
        c = await KibitzClient.connect(n1.ws_url)
        pairing = (await c.request("pairing", room="tRatedTrue"))["pairing"]
        assert pairing["rated"] and [p["user"] for p in pairing["players"]] == ["Ada", "Bob"]
        await c.close()


@pytest.mark.parametrize("attempts", [36, 1])
async def test_a_room_its_dead_host_still_leases_is_seated_once_the_lease_lapses(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, attempts: int
) -> None:
    """A pairing whose room's lease a dead node still holds cannot be seated now: the
    director tries again until it can (with one attempt, the broken twin, it never is)."""
    monkeypatch.setattr(director_module, "SEAT_ATTEMPTS", attempts)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        assert n1.hub is not None
        players, tid, starts = await two_joined(n1, SPEC)
        director = n1.tournaments.director
        d = director.directed[tid]
        decide = lambda t: t.tick(starts + 1, set(), random.Random(1))  # noqa: E731
        twin = Tournament.replay(await log_of(n1, tid))
        (room,) = [e.data["room"] for e in decide(twin) if e.kind == "paired"]
        assert await n1.hub.store.acquire(room, "ghost", 3000)  # the dead host's lease
        t0 = time.monotonic()
        await director.run(tid, d, decide)
        assert room in d.open
        deadline = t0 + (15 if attempts > 1 else 5)  # 5: past the lease, still unseated
        seated = False
        while time.monotonic() < deadline and not seated:
            await asyncio.sleep(0.2)
            with contextlib.suppress(ProtocolError):
                info = await n1.hub.read(room, "info", {})
                seated = all(s["kind"] != "empty" for s in info["seats"])
        if attempts > 1:
            assert seated and time.monotonic() - t0 >= 2.5  # not before the lease lapsed
        else:
            assert not seated  # tried once, while the lease was held: the game never starts
        for p in players:
            await p.close()

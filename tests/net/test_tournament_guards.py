"""Refused tournament requests change nothing, and the bounds hold (each with the twin that
shows the bound is what refused)."""

from __future__ import annotations

import asyncio

import pytest

from server.engine import Registry
from server.net.services.tournaments import ops as tournament_ops
from server.net.services.tournaments import service as tournament_service
from server.sdk import KibitzClient, KibitzError
from server.store import tournaments as tstore

from .test_accounts import register_and_login
from .tournament_helpers import log_of, nodes

SPEC = {
    "name": "Guarded",
    "game": "kamisado",
    "system": "arena",
    "clock": {"base": 15, "increment": 0},
    "minutes": 5,
    "max_players": 10,
}


async def refused(c: KibitzClient, code: str, kind: str, **fields: object) -> None:
    with pytest.raises(KibitzError) as err:
        await c.request(kind, **fields)
    assert err.value.code == code, err.value


async def test_bad_requests_change_nothing(redis_url: str, prefix: str, registry: Registry) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        other = await KibitzClient.connect(n1.ws_url)
        await refused(c, "bad_request", "tournament_create", **SPEC, colour="white")
        await refused(c, "bad_request", "tournament_create", **SPEC | {"name": " x"})
        await refused(c, "bad_request", "tournament_create", **SPEC | {"game": "chess\n"})
        listed = await c.request("tournament_list")
        assert (listed["upcoming"], listed["running"], listed["finished"]) == ([], [], [])
        tid = (await c.request("tournament_create", **SPEC))["tournament"]
        assert n1.hub is not None
        before = await log_of(n1, tid)
        await refused(c, "no_such_tournament", "tournament_join", tournament=tid + "\n")
        await refused(c, "no_such_tournament", "tournament_watch", tournament="nope")
        await refused(other, "forbidden", "tournament_add_bot", tournament=tid, level="easy")
        await refused(c, "bad_request", "tournament_add_bot", tournament=tid, level="godlike")
        await refused(other, "forbidden", "tournament_cancel", tournament=tid)
        await refused(other, "not_joined", "tournament_withdraw", tournament=tid)
        await refused(c, "forbidden", "tournament_create", **SPEC | {"rated": True})
        assert await log_of(n1, tid) == before
        await c.request("tournament_cancel", tournament=tid)
        await refused(c, "not_open", "tournament_join", tournament=tid)
        for client in (c, other):
            await client.close()


@pytest.mark.parametrize("bounded", [True, False])
async def test_one_player_cannot_grow_the_log_by_joining_and_leaving(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, bounded: bool
) -> None:
    monkeypatch.setattr(tournament_ops, "MAX_ACTS", 3 if bounded else 1000)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        tid = (await c.request("tournament_create", **SPEC))["tournament"]
        await c.request("tournament_join", tournament=tid)
        await c.request("tournament_withdraw", tournament=tid)
        await c.request("tournament_join", tournament=tid)
        before = await log_of(n1, tid)
        if bounded:
            await refused(c, "rate_limited", "tournament_withdraw", tournament=tid)
            assert await log_of(n1, tid) == before
        else:  # the twin without the bound: one more event, and so on without end
            await c.request("tournament_withdraw", tournament=tid)
            assert len(await log_of(n1, tid)) == len(before) + 1
        await c.close()


async def test_creators_watchers_and_gone_connections_are_bounded(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_service, "WATCH_MAX", 2)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        tids = []
        for i in range(3):
            tids.append(
                (await c.request("tournament_create", **SPEC | {"name": f"T{i}"}))["tournament"]
            )
        await refused(c, "rate_limited", "tournament_create", **SPEC)
        listed = await c.request("tournament_list")
        assert sorted(t["id"] for t in listed["upcoming"]) == sorted(tids)
        watcher = await KibitzClient.connect(n1.ws_url)
        for tid in tids[:2]:
            await watcher.request("tournament_watch", tournament=tid)
        await watcher.request("tournament_watch", tournament=tids[0])  # again: the same one
        await refused(watcher, "too_many", "tournament_watch", tournament=tids[2])
        assert n1.hub is not None
        service = n1.tournaments
        assert sum(len(w) for w in service.watchers.values()) == 2
        await watcher.close()
        for _ in range(40):  # a quiet second later nobody keeps the closed connection
            if not service.watchers:
                break
            await asyncio.sleep(0.1)
        assert service.watchers == {}
        await c.close()


@pytest.mark.parametrize("bounded", [True, False], ids=["per-address", "broken-per-address"])
async def test_guests_from_one_address_take_their_share_and_an_account_still_creates(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, bounded: bool
) -> None:
    """Issue 47: 40 guest connections from one address created 3 tournaments each and
    filled the server's cap (the per-creator bound counted a session). Guests from one
    address now share 3 live tournaments; an account still creates its own."""
    monkeypatch.setattr(tstore, "MAX_LIVE", 8)  # the server's cap, small: quick to fill
    if not bounded:
        monkeypatch.setattr(tstore, "GUESTS_PER_ADDRESS", 1000)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        guests = [await KibitzClient.connect(n1.ws_url) for _ in range(4)]
        made, refusals = [], []
        for i, guest in enumerate(guests):
            for j in range(3):
                try:
                    spec = SPEC | {"name": f"G{i}-{j}"}
                    made.append((await guest.request("tournament_create", **spec))["tournament"])
                except KibitzError as exc:
                    refusals.append(exc)
        login = await register_and_login(n1, "Ada")
        ada = await KibitzClient.connect(n1.ws_url, hello=False)
        await ada.request("hello", protocol=2, auth=login)
        listed = await ada.request("tournament_list")
        assert sorted(t["id"] for t in listed["upcoming"]) == sorted(made)
        if bounded:
            assert len(made) == tstore.GUESTS_PER_ADDRESS == 3
            assert {(e.code, e.message) for e in refusals} == {
                (
                    "rate_limited",
                    "guests from your address have as many upcoming and running tournaments"
                    " as they may (3 together): log in to create one, or wait until one ends",
                )
            }
            created = await ada.request("tournament_create", **SPEC | {"name": "Ada's"})
            assert created["view"]["spec"]["name"] == "Ada's"
            await guests[0].request("tournament_cancel", tournament=made[0])  # one ends:
            await guests[1].request("tournament_create", **SPEC)  # the address's share again
        else:  # the twin: the guests of one address fill the server; the account is refused
            assert len(made) == tstore.MAX_LIVE
            await refused(ada, "rate_limited", "tournament_create", **SPEC)
        for c in (*guests, ada):
            await c.close()

"""Seeks that cannot be abused, over real sockets against a real redis-server: a rated game
needs a clock, seeks are capped per address as well as per player, and every listener is told
which seeks are its own (a guest's too)."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError

from ..conftest import serving
from .test_seeks import BLITZ, next_of, user


async def refused(c: KibitzClient, **seek: Any) -> KibitzError:
    with pytest.raises(KibitzError) as err:
        await c.request("seek", **seek)
    return err.value


# -- item 15: a rated game needs a clock ---------------------------------------------------------


async def test_a_rated_seek_without_a_clock_is_refused(server: KibitzServer) -> None:
    ada = await user(server, "Ada")
    for settings in [{}, {"clock": None}, {"undo": False}]:
        err = await refused(ada, game="chess", rated=True, settings=settings)
        assert err.code == "bad_request" and "clock" in str(err), settings
    assert (await ada.request("list_seeks"))["seeks"] == []
    # with a clock it is posted: Fischer, or a per-move clock (a day a move at most)
    await ada.request("seek", game="chess", rated=True, settings=BLITZ)
    per_move = {"clock": {"type": "per_move", "seconds": 86400}}
    await ada.request("seek", game="chess", rated=True, settings=per_move)
    # casual games may go untimed
    await ada.request("seek", game="chess", settings={})
    # settings that no room would take are refused when posted, not when the seek is taken
    err = await refused(ada, game="chess", settings={"clock": {"type": "sundial"}})
    assert err.code == "bad_options"
    err = await refused(ada, game="chess", settings={"colour": "blue"})
    assert err.code == "bad_options"
    await ada.close()


async def test_quick_pairing_games_are_rated_and_timed(server: KibitzServer) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    for c in (ada, bob):
        await c.request("pool_join", game="chess", clock={"base": 180, "increment": 2})
    paired = await next_of(ada, "paired")
    assert paired["rated"]
    update = await ada.wait_update(lambda m: m["status"] == "playing", room=paired["room"])
    assert update["settings"]["clock"] == {"type": "fischer", "base": 180, "increment": 2}
    for c in (ada, bob):
        await c.close()


# -- item 16: seeks are capped per address too ---------------------------------------------------


async def test_seeks_are_capped_per_address(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    """Guests are as many players as they open sessions: 3 seeks from one address at most
    here (``Config.seeks_per_ip``, ``kibitz serve --seeks-per-ip``), whoever posts them."""
    async with serving(redis_url, prefix, registry, seeks_per_ip=3) as server:
        guests = [await KibitzClient.connect(server.ws_url) for _ in range(5)]
        posted = [(await g.request("seek", game="chess"))["seek"] for g in guests[:3]]
        for g in guests[3:]:
            err = await refused(g, game="chess")
            assert err.code == "rate_limited" and "address" in str(err)
        assert len((await guests[0].request("list_seeks"))["seeks"]) == 3
        # a seek withdrawn frees its place
        await guests[0].request("cancel_seek", seek=posted[0])
        await guests[3].request("seek", game="chess")
        for g in guests:
            await g.close()


async def test_the_default_caps(server: KibitzServer) -> None:
    """5 open seeks per player; 20 per address by default."""
    from server.net.services.matchmaking.seeks import MAX_SEEKS_PER_IP

    assert server.hub is not None
    assert server.seeks.seeks_per_ip == MAX_SEEKS_PER_IP
    assert MAX_SEEKS_PER_IP == 20
    guest = await KibitzClient.connect(server.ws_url)
    for _ in range(5):
        await guest.request("seek", game="chess")
    err = await refused(guest, game="chess")
    assert err.code == "rate_limited" and "address" not in str(err)
    await guest.close()


# -- item 6: a guest's own seek is marked as theirs ----------------------------------------------


async def test_every_listener_is_told_which_seeks_are_its_own(server: KibitzServer) -> None:
    gus = await KibitzClient.connect(server.ws_url)
    other = await KibitzClient.connect(server.ws_url)
    ada = await user(server, "Ada")
    for c in (gus, other, ada):
        await c.request("list_seeks")
    mine = (await gus.request("seek", game="chess", name="Gus"))["seek"]
    pushed = {id(c): (await next_of(c, "seeks"))["seeks"] for c in (gus, other, ada)}
    assert [s["mine"] for s in pushed[id(gus)]] == [True]
    assert [s["mine"] for s in pushed[id(other)]] == [False]
    assert [s["mine"] for s in pushed[id(ada)]] == [False]
    theirs = (await ada.request("seek", game="chess", rated=True, settings=BLITZ))["seek"]
    listed = {s["id"]: s["mine"] for s in (await gus.request("list_seeks"))["seeks"]}
    assert listed == {mine: True, theirs: False}
    listed = {s["id"]: s["mine"] for s in (await ada.request("list_seeks"))["seeks"]}
    assert listed == {mine: False, theirs: True}
    # and the guest may withdraw it
    await gus.request("cancel_seek", seek=mine)
    assert [s["id"] for s in (await other.request("list_seeks"))["seeks"]] == [theirs]
    for c in (gus, other, ada):
        await c.close()

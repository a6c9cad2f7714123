"""The tournament store: fenced appends under a lease, and the bounds on what a client grows."""

from __future__ import annotations

import pytest

from server.store import Fenced, NotHost, Store, StoreError
from server.store import tournaments as ts
from server.store.tournaments import Full, TournamentStore


@pytest.fixture
async def tstore(redis_url: str, prefix: str) -> TournamentStore:
    return TournamentStore(Store.from_url(redis_url, prefix=prefix))


async def test_only_the_director_appends_and_only_at_the_end_of_the_log(
    tstore: TournamentStore,
) -> None:
    assert await tstore.acquire(["t1"], "n1", 10_000) == ["t1"]
    assert await tstore.acquire(["t1"], "n2", 10_000) == []
    assert await tstore.append("t1", 0, [{"k": "created"}], node="n1", status="live") == 1
    assert await tstore.live() == ["t1"]
    with pytest.raises(NotHost):  # a second node, even at the right version
        await tstore.append("t1", 1, [{"k": "paired"}], node="n2")
    with pytest.raises(Fenced):  # the director itself, from a stale copy
        await tstore.append("t1", 0, [{"k": "paired"}], node="n1")
    assert await tstore.load("t1") == [{"k": "created"}]
    # the broken twin: without naming the node, the lease would not fence the second node
    assert await tstore.append("t1", 1, [{"k": "paired"}], node="") == 2
    assert await tstore.renew(["t1"], "n2", 10_000) == ["t1"]
    await tstore.release("t1", "n1")
    assert await tstore.holder("t1") is None
    await tstore.store.close()


async def test_a_log_is_capped(tstore: TournamentStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ts, "MAX_EVENTS", 3)
    await tstore.acquire(["t"], "n", 10_000)
    await tstore.append("t", 0, [{"n": 1}, {"n": 2}], node="n")
    with pytest.raises(StoreError, match="full"):
        await tstore.append("t", 2, [{"n": 3}, {"n": 4}], node="n")
    assert len(await tstore.load("t")) == 2  # refused: nothing changed
    await tstore.store.close()


async def test_creators_and_everybody_are_bounded(
    tstore: TournamentStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(ts.PER_CREATOR):
        await tstore.reserve(f"a{i}", "guest:x", "s")
    with pytest.raises(Full) as err:
        await tstore.reserve("a9", "guest:x", "s")
    assert err.value.who == "creator" and await tstore.secret("a9") is None
    await tstore.retire("a0", "guest:x", 1.0)  # one ended: a slot again
    await tstore.reserve("a9", "guest:x", "s")
    monkeypatch.setattr(ts, "MAX_LIVE", 2)
    for t in ("b1", "b2"):
        await tstore.acquire([t], "n", 10_000)
        await tstore.append(t, 0, [{"n": 1}], node="n", status="live")
    with pytest.raises(Full) as err:
        await tstore.reserve("b3", "guest:y", "s")
    assert err.value.who == "everybody"
    await tstore.store.close()


async def test_only_the_newest_finished_tournaments_are_kept(
    tstore: TournamentStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ts, "KEEP_FINISHED", 2)
    for i in range(4):
        tid = f"f{i}"
        await tstore.reserve(tid, "guest:x", "s")
        await tstore.acquire([tid], "n", 10_000)
        await tstore.append(tid, 0, [{"n": 1}], node="n", status="live")
        await tstore.publish_view(tid, {"id": tid}, {"id": tid}, {"guest:x": {"joined": True}})
        await tstore.save_result(tid, "room", {"ranks": [0, 1]})
        await tstore.append(tid, 1, [{"n": 2}], node="n", status="over")
        gone = await tstore.retire(tid, "guest:x", float(i))
        assert gone == (["f" + str(i - 2)] if i >= 2 else [])
    assert sorted(s["id"] for s in await tstore.summaries()) == ["f2", "f3"]
    assert await tstore.view("f0") is None and await tstore.load("f0") == []
    assert await tstore.me("f3", "guest:x") == {"joined": True}
    keys = sorted(k.decode() for k in await tstore.redis.keys(tstore.prefix + "*f0*"))
    assert keys == []  # nothing of a deleted tournament is left
    await tstore.store.close()

"""The node's garbage-collector schedule (server/net/transport/gcpolicy.py): what lives is frozen,
and frozen cyclic garbage is found by the full collection the policy runs once memory has grown
(what bounds a node's memory)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from server.net.transport.gcpolicy import GcPolicy


class Node:
    """A cyclic object (it refers to itself), so only the collector can free it."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Memory:
    """The process's resident bytes, as the test sets them."""

    def __init__(self) -> None:
        self.now = 100 << 20

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def frozen_process() -> Iterator[None]:
    """The policy changes the whole process's collector: undo it after each test."""
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()


def cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


@pytest.mark.usefixtures("frozen_process")
def test_a_tick_freezes_what_lives_and_a_full_collection_starts_it() -> None:
    dead = cycle()  # garbage from before the policy: its start collects everything once
    policy = GcPolicy(clock=Clock(), memory=Memory())
    policy.start()
    assert dead() is None
    before = gc.get_freeze_count()
    kept = [Node() for _ in range(1000)]
    assert policy.tick() == "young"
    assert gc.get_freeze_count() >= before + len(kept)
    assert gc.get_count()[0] < 50  # the young generation emptied: nothing to rescan


@pytest.mark.usefixtures("frozen_process")
def test_frozen_garbage_waits_for_the_full_collection_that_growth_triggers() -> None:
    clock, memory = Clock(), Memory()
    policy = GcPolicy(growth=0.5, full_every=600, clock=clock, memory=memory)
    policy.start()
    node = Node()
    ref = weakref.ref(node)
    policy.tick()  # frozen alive
    del node  # now cyclic garbage in the permanent generation
    policy.tick()
    gc.collect()  # no collection of the generations reaches frozen objects
    assert ref() is not None, "a young tick must not see frozen objects"

    memory.now = int(1.6 * (100 << 20))  # resident memory grew by 60 %
    assert policy.tick() == "young", "a full collection waits for full_every"
    clock.now += 600
    assert policy.tick() == "full"
    assert ref() is None, "the full collection frees frozen cyclic garbage"
    assert policy.full == 1
    assert policy.baseline == memory.now  # grown from here on
    clock.now += 600
    assert policy.tick() == "young"  # no full collection until memory grows again


@pytest.mark.usefixtures("frozen_process")
def test_no_full_collection_without_growth() -> None:
    clock, memory = Clock(), Memory()
    policy = GcPolicy(growth=0.5, full_every=0, clock=clock, memory=memory)
    policy.start()
    clock.now += 10_000
    memory.now = int(1.4 * memory.now)
    assert [policy.tick() for _ in range(3)] == ["young"] * 3
    assert policy.full == 0


def test_resident_memory_is_read() -> None:
    from server.net.transport.gcpolicy import resident_bytes

    assert resident_bytes() > 1 << 20


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        GcPolicy(interval=0)
    with pytest.raises(ValueError):
        GcPolicy(growth=-1)

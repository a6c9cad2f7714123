"""The test fixtures' teardown bound (:func:`tests.conftest.within`): a step that ignores
cancellation is left after its time, named in a warning, and does not hold the worker."""

from __future__ import annotations

import asyncio
import time

import pytest

from .conftest import within


async def _stubborn(release: asyncio.Event) -> None:
    """A teardown step that swallows cancellation until released (as a wedged close may)."""
    while not release.is_set():
        try:
            await release.wait()
        except asyncio.CancelledError:
            continue


async def test_a_step_that_ignores_cancellation_is_left_and_named() -> None:
    release = asyncio.Event()
    started = time.monotonic()
    with pytest.warns(UserWarning, match="closing the thing did not end in 0.2 s"):
        assert not await within(_stubborn(release), 0.2, "closing the thing")
    assert time.monotonic() - started < 5
    release.set()


async def test_the_check_catches_a_bound_that_waits_for_the_cancellation() -> None:
    """The twin: ``asyncio.wait_for`` (what the fixtures used before) cancels the step and
    then waits for it to end, so the stubborn step holds it past its bound."""
    release = asyncio.Event()
    waiting = asyncio.ensure_future(asyncio.wait_for(_stubborn(release), 0.2))
    done, _ = await asyncio.wait({waiting}, timeout=1.0)
    assert not done, "wait_for returned although the step ignored its cancellation"
    release.set()
    await waiting  # released, the step ends (swallowing its cancellation) and wait_for too


async def test_a_step_that_ends_in_time_gives_its_result_or_error() -> None:
    assert await within(asyncio.sleep(0), 1, "a quick step")

    async def failing() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await within(failing(), 1, "a failing step")

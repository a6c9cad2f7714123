"""What a node's garbage collector did during a `kibitz bench` window, read from its
``/metrics`` (``kibitz_gc_pause_seconds``) at both ends of the window."""

from __future__ import annotations

import asyncio
import urllib.request
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

GC_METRIC = "kibitz_gc_pause_seconds"


def gc_pauses(metrics: str) -> dict[str, dict[str, Any]]:
    """The node's garbage-collector pauses from its ``/metrics`` text, by generation:
    ``{"0": {"count": n, "seconds": s, "le": {bound: how many at most that}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for family in text_string_to_metric_families(metrics):
        if family.name != GC_METRIC:
            continue
        for sample in family.samples:
            gen = out.setdefault(
                sample.labels["generation"], {"count": 0, "seconds": 0.0, "le": {}}
            )
            if sample.name == GC_METRIC + "_bucket":
                gen["le"][sample.labels["le"]] = sample.value
            elif sample.name == GC_METRIC + "_count":
                gen["count"] = sample.value
            elif sample.name == GC_METRIC + "_sum":
                gen["seconds"] = sample.value
    return out


def gc_window(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What the collector did between two :func:`gc_pauses` readings, by generation: how
    many pauses, their seconds, and the bucket the longest of them fell in (``longest_le``,
    seconds; ``"+Inf"`` past the largest bound)."""
    out: dict[str, Any] = {}
    for gen, now in sorted(after.items()):
        was = before.get(gen, {"count": 0, "seconds": 0.0, "le": {}})
        count = now["count"] - was["count"]
        longest = None
        if count:
            for le, cum in sorted(now["le"].items(), key=lambda kv: float(kv[0])):
                if cum - was["le"].get(le, 0) >= count:
                    longest = le
                    break
        out[gen] = {
            "pauses": int(count),
            "seconds": round(now["seconds"] - was["seconds"], 3),
            "longest_le": longest,
        }
    return out


async def scrape_gc(urls: list[str]) -> list[dict[str, Any]]:
    """Each node's :func:`gc_pauses` now (``{}`` for a node that did not answer)."""

    def get(url: str) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                return gc_pauses(reply.read().decode())
        except OSError:
            return {}

    return list(await asyncio.gather(*(asyncio.to_thread(get, u) for u in urls)))

"""Prometheus metrics of one node, served at ``GET /metrics`` (text format 0.0.4).

Each server has its own registry (several servers may share a process in tests).
"""

from __future__ import annotations

import contextlib
import gc
import time
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Tally:
    """A counter bumped on the hot path (every message, every move): a plain int, read at
    scrape time. prometheus_client's ``Counter.inc`` takes a lock each time (its values may
    be shared by threads); a node's hot-path counters have one writer, its event loop."""

    __slots__ = ("help", "name", "value")

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount

    def family(self) -> Metric:
        return CounterMetricFamily(self.name, self.help, value=self.value)


class Timings:
    """A latency histogram on the hot path, without a lock (see :class:`Tally`): a count per
    bucket (``le``: the bucket holds what is at most its bound), cumulated at scrape time."""

    __slots__ = ("bounds", "counts", "help", "name", "total")

    def __init__(self, name: str, help: str, bounds: tuple[float, ...]) -> None:
        self.name, self.help = name, help
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last one: over every bound (+Inf)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.total += seconds

    def buckets(self) -> list[tuple[str, int]]:
        """``(le, how many at most that)`` for each bound, cumulated, ``+Inf`` last."""
        out, running = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            out.append((floatToGoString(bound), running))
        return out

    def family(self) -> Metric:
        return HistogramMetricFamily(
            self.name, self.help, buckets=self.buckets(), sum_value=self.total
        )


#: garbage-collector pauses: a young collection takes well under a millisecond; a full one
#: over a big heap (10,000 connections) about half a second, and every game waits for it
GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class GcPauses:
    """How long the garbage collector stopped the process, by generation (0, 1, 2): a
    ``gc.callbacks`` hook that :meth:`install` adds and :meth:`remove` takes out again."""

    def __init__(self) -> None:
        self.by_generation = [
            Timings("kibitz_gc_pause_seconds", "Garbage-collector pauses", GC_BUCKETS)
            for _ in range(3)
        ]
        self._started = 0.0

    def hook(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started:
            self.by_generation[min(2, info["generation"])].observe(
                time.perf_counter() - self._started
            )
            self._started = 0.0

    def install(self) -> None:
        if self.hook not in gc.callbacks:
            gc.callbacks.append(self.hook)

    def remove(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self.hook)

    def family(self) -> Metric:
        out = HistogramMetricFamily(
            "kibitz_gc_pause_seconds",
            "Garbage-collector pauses (the whole node waits), by generation",
            labels=["generation"],
        )
        for generation, timings in enumerate(self.by_generation):
            out.add_metric([str(generation)], timings.buckets(), timings.total)
        return out


class _HotPath:
    """The registry's view of the hot-path metrics (a custom collector)."""

    def __init__(self, *metrics: Tally | Timings | GcPauses) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        for metric in self.metrics:
            yield metric.family()


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("kibitz_connections", "Open WebSocket connections", registry=r)
        self.rooms = Gauge("kibitz_rooms", "Rooms hosted by this node", registry=r)
        self.moves = Tally("kibitz_moves", "Moves played (turns resolved)")
        self.messages = Tally("kibitz_messages_in", "Messages received from clients")
        self.errors = Counter("kibitz_errors", "Error replies sent, by code", ["code"], registry=r)
        self.move_latency = Timings(
            "kibitz_move_seconds",
            "Move handling: decide, append to the log, apply, queue to every recipient",
            LATENCY_BUCKETS,
        )
        self.redis_rtt = Timings(
            "kibitz_redis_append_seconds",
            "Round trip of appending events to the Redis log",
            LATENCY_BUCKETS,
        )
        self.gc_pauses = GcPauses()
        r.register(
            _HotPath(self.moves, self.messages, self.move_latency, self.redis_rtt, self.gc_pauses)
        )
        self.bot_think = Histogram(
            "kibitz_bot_think_seconds",
            "Time a bot spent choosing a move (in its worker process)",
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
            registry=r,
        )
        self.send_drops = Counter(
            "kibitz_send_queue_drops",
            "Connections dropped because their send queue overflowed (slow readers)",
            registry=r,
        )

        self.loop_lag = Gauge(
            "kibitz_loop_lag_seconds",
            "How late the event loop runs a timer (smoothed): the node's saturation",
            registry=r,
        )
        self.overloaded = Gauge(
            "kibitz_overloaded", "1 while the node sheds new work (loop lag over limit)", registry=r
        )
        self.shed = Counter(
            "kibitz_shed",
            "New work refused while overloaded or over a quota, by kind",
            ["kind"],
            registry=r,
        )

    def render(self) -> bytes:
        return bytes(generate_latest(self.registry))

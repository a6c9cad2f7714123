"""The hot path's lock-free metrics render what prometheus_client's own would."""

from __future__ import annotations

import random
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.metrics_core import Metric

from server.net.transport.metrics import LATENCY_BUCKETS, Metrics, Tally, Timings


def _samples(text: bytes, name: str) -> list[str]:
    """The sample lines of one metric (comments and ``_created`` left out)."""
    return [
        line
        for line in text.decode().splitlines()
        if line.startswith(name) and "_created" not in line
    ]


def test_timings_match_prometheus_histogram() -> None:
    rng = random.Random(7)
    values = [rng.choice(LATENCY_BUCKETS) for _ in range(50)]  # exactly on a bound: le holds it
    values += [rng.expovariate(200) for _ in range(500)] + [3.0, 0.0]
    reference = CollectorRegistry()
    theirs = Histogram("x_seconds", "h", buckets=LATENCY_BUCKETS, registry=reference)
    ours = Timings("x_seconds", "h", LATENCY_BUCKETS)
    for v in values:
        theirs.observe(v)
        ours.observe(v)
    mine = CollectorRegistry()
    mine.register(_Collect(ours))
    want = _samples(generate_latest(reference), "x_seconds")
    got = _samples(generate_latest(mine), "x_seconds")
    assert [line.split(" ")[0] for line in got] == [line.split(" ")[0] for line in want]
    for a, b in zip(got, want, strict=True):  # the sum may differ in its last digits
        assert abs(float(a.split(" ")[1]) - float(b.split(" ")[1])) < 1e-9


def test_tally_matches_prometheus_counter() -> None:
    reference = CollectorRegistry()
    theirs = Counter("x_moves", "c", registry=reference)
    ours = Tally("x_moves", "c")
    for _ in range(17):
        theirs.inc()
        ours.inc()
    mine = CollectorRegistry()
    mine.register(_Collect(ours))
    assert _samples(generate_latest(mine), "x_moves") == _samples(
        generate_latest(reference), "x_moves"
    )


def test_node_metrics_render_the_hot_path() -> None:
    m = Metrics()
    m.moves.inc()
    m.messages.inc(3)
    m.move_latency.observe(0.002)
    text = m.render().decode()
    assert "kibitz_moves_total 1.0" in text
    assert "kibitz_messages_in_total 3.0" in text
    assert 'kibitz_move_seconds_bucket{le="0.0025"} 1.0' in text
    assert 'kibitz_move_seconds_bucket{le="0.001"} 0.0' in text
    assert "kibitz_redis_append_seconds_count 0.0" in text


class _Collect:
    def __init__(self, metric: Tally | Timings) -> None:
        self.metric = metric

    def collect(self) -> Iterator[Metric]:
        yield self.metric.family()


def test_gc_pauses_are_timed_by_generation_while_installed() -> None:
    import gc

    m = Metrics()
    m.gc_pauses.install()
    try:
        gc.collect(2)
        gc.collect(0)
    finally:
        m.gc_pauses.remove()
    assert m.gc_pauses.hook not in gc.callbacks
    text = m.render().decode()
    counts = {
        line.split('"')[1]: float(line.split(" ")[1])
        for line in text.splitlines()
        if line.startswith("kibitz_gc_pause_seconds_count")
    }
    assert counts["2"] >= 1 and counts["0"] >= 1
    gc.collect(2)  # removed: counted no more
    again = m.render().decode()
    assert f'kibitz_gc_pause_seconds_count{{generation="2"}} {counts["2"]}' in again

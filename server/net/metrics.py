"""Prometheus metrics of one node, served at ``GET /metrics`` (text format 0.0.4).

Each server has its own registry (several servers may share a process in tests).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("kibitz_connections", "Open WebSocket connections", registry=r)
        self.rooms = Gauge("kibitz_rooms", "Rooms hosted by this node", registry=r)
        self.moves = Counter("kibitz_moves", "Moves played (turns resolved)", registry=r)
        self.messages = Counter("kibitz_messages_in", "Messages received from clients", registry=r)
        self.errors = Counter("kibitz_errors", "Error replies sent, by code", ["code"], registry=r)
        self.move_latency = Histogram(
            "kibitz_move_seconds",
            "Move handling: decide, append to the log, apply, queue to every recipient",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.redis_rtt = Histogram(
            "kibitz_redis_append_seconds",
            "Round trip of appending events to the Redis log",
            buckets=LATENCY_BUCKETS,
            registry=r,
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

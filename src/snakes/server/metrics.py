"""Prometheus metrics at ``/metrics``: rooms, connections, rolls, intent latency, errors.

Each app has its own registry, so several apps in one process (tests) never collide.
Counts that the room manager already keeps are read when scraped, not double-counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from snakes.server.manager import RoomManager

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Intent handling on one node takes well under a millisecond when idle; the upper
# buckets catch a store or Redis that has slowed down.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _ManagerCollector(Collector):
    def __init__(self, manager: Callable[[], RoomManager | None]) -> None:
        self._manager = manager

    def collect(self) -> Iterator[Metric]:
        manager = self._manager()
        if manager is None:
            return
        stats = manager.backend.stats()
        yield GaugeMetricFamily("snakes_rooms", "Rooms this node holds in memory", len(manager.rooms))
        yield GaugeMetricFamily(
            "snakes_connections", "WebSocket connections to this node", stats.get("connections", 0)
        )
        if "timers" in stats:
            yield GaugeMetricFamily("snakes_timers", "Pending room timers", stats["timers"])
        yield CounterMetricFamily(
            "snakes_rolls", "Dice rolled on this node (people and AI)", manager.rolls
        )


class Metrics:
    def __init__(self, manager: Callable[[], RoomManager | None]) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(_ManagerCollector(manager))
        self.intent_seconds = Histogram(
            "snakes_intent_seconds",
            "Server-side handling time of one WebSocket message, by type",
            ["type"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.errors = Counter(
            "snakes_errors", "Errors answered to clients, by code", ["code"], registry=self.registry
        )

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)

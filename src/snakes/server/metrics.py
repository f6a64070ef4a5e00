"""Prometheus metrics at ``/metrics``: rooms, connections, rolls, intent latency, errors.

Each app has its own registry, so several apps in one process (tests) never collide.
Counts that the runtime already keeps are read when scraped, not double-counted.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from snakes.server.runtime.runtime import RoomRuntime

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Intent handling on one node takes well under a millisecond when idle; the upper
# buckets catch a store or Redis that has slowed down.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class GcTimer:
    """Time spent in the cyclic garbage collector, per generation (a pause for everyone)."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self.longest_cpu = [0.0, 0.0, 0.0]
        """CPU time of the longest pause: far less than its wall time means the process
        was waiting for a CPU (a busy machine), not collecting."""
        self._started = self._started_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
            return
        spent = time.perf_counter() - self._started
        generation = info.get("generation", 2)
        self.seconds[generation] += spent
        if spent > self.longest[generation]:
            self.longest[generation] = spent
            self.longest_cpu[generation] = time.thread_time() - self._started_cpu

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


class _ManagerCollector(Collector):
    def __init__(self, manager: Callable[[], RoomRuntime | None], gc_timer: GcTimer) -> None:
        self._manager = manager
        self._gc = gc_timer

    def collect(self) -> Iterator[Metric]:
        pauses = CounterMetricFamily(
            "snakes_gc_seconds", "Time spent in garbage collection", labels=["generation"]
        )
        for generation, seconds in enumerate(self._gc.seconds):
            pauses.add_metric([str(generation)], seconds)
        yield pauses
        longest = GaugeMetricFamily(
            "snakes_gc_longest_seconds", "Longest garbage collection pause", labels=["generation"]
        )
        for generation, seconds in enumerate(self._gc.longest):
            longest.add_metric([str(generation)], seconds)
        yield longest
        cpu = GaugeMetricFamily(
            "snakes_gc_longest_cpu_seconds",
            "CPU time of the longest garbage collection pause",
            labels=["generation"],
        )
        for generation, seconds in enumerate(self._gc.longest_cpu):
            cpu.add_metric([str(generation)], seconds)
        yield cpu
        manager = self._manager()
        if manager is None:
            return
        stats = manager.stats()
        yield GaugeMetricFamily("snakes_rooms", "Rooms this node holds in memory", stats["rooms"])
        yield GaugeMetricFamily(
            "snakes_connections", "WebSocket connections to this node", stats.get("connections", 0)
        )
        if "timers" in stats:
            yield GaugeMetricFamily("snakes_timers", "Pending room timers", stats["timers"])
        yield CounterMetricFamily(
            "snakes_rolls", "Dice rolled on this node (people and AI)", manager.rolls
        )


class Metrics:
    def __init__(self, manager: Callable[[], RoomRuntime | None]) -> None:
        self.registry = CollectorRegistry()
        self.gc = GcTimer()
        self.registry.register(_ManagerCollector(manager, self.gc))
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

        self._intent_kinds: dict[str, Any] = {}

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def intent(self, kind: str, seconds: float) -> None:
        """One message handled: its type and how long it took (the hot path: every roll)."""
        child = self._intent_kinds.get(kind)
        if child is None:
            child = self._intent_kinds[kind] = self.intent_seconds.labels(kind)
        child.observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)

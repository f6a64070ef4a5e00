"""``/debug/stats``: the Python heap, the garbage collector and asyncio's tasks, to find
leaks. Off unless the server is started with ``--debug-stats-token``, and then only for
requests that carry that token.

What it costs is bounded: counting the objects the collector tracks walks the whole
heap, every player waiting meanwhile, and so do the walks it can be asked for (by kind,
a full collection, the garbage found in cycles, the growth since the last snapshot:
31 ms of CPU a call at 1,000 connections, a control player's ping held up to 427 ms;
docs/SECURITY.md). Such a walk is made at most once every
``--debug-stats-interval`` seconds; in between, an answer carries the last count again
with its age, and a request that asks for a walk is refused (429 with Retry-After).
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import math
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from typing import Any

from fastapi import Request
from starlette.exceptions import HTTPException

from snakes.server.rooms.errors import BadRequest, RateLimited

BEARER = "Bearer "


class DebugStats:
    """Who may read ``/debug/stats``, and when its heap walk last ran."""

    def __init__(
        self, token: str, interval: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._token = token.encode()
        self.interval = interval
        self._clock = clock
        self._walked_at = -math.inf
        self.tracked = 0
        self.walks = 0
        self.heap_snapshot: tracemalloc.Snapshot | None = None

    def admits(self, authorization: str | None) -> bool:
        """Does the request's ``Authorization`` header carry the token? (In constant
        time: how much of a guess matched is not told by how long the answer takes.)"""
        if authorization is None or not authorization.startswith(BEARER):
            return False
        return hmac.compare_digest(authorization[len(BEARER) :].encode(), self._token)

    def wait(self) -> float:
        """Seconds until the heap may be walked again; 0 when it may now."""
        return max(0.0, self._walked_at + self.interval - self._clock())

    def walked(self) -> None:
        self._walked_at = self._clock()
        self.tracked = len(gc.get_objects())
        self.walks += 1

    def age(self) -> float:
        return self._clock() - self._walked_at


def _number(request: Request, name: str, most: int) -> int:
    value = request.query_params.get(name)
    if value is None:
        return 0
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(f"{name}: a whole number") from None
    if not 0 <= number <= most:
        raise BadRequest(f"{name}: 0-{most}")
    return number


async def debug_stats(request: Request) -> dict[str, Any]:
    """Python heap and asyncio tasks (``--debug-stats-token``: send it as
    ``Authorization: Bearer TOKEN``; without it this path is unknown, 404).

    ``?types=N`` adds the N most common kinds of object the garbage collector tracks
    (``&generation=G``: only those in generation G). ``?collect=true`` runs a full
    collection first, so the heap figures count live objects only, not garbage cycles
    waiting for the next full collection (a pause: never on a production server).
    ``?garbage=N`` runs a full collection and names the N most common kinds of object
    it found in garbage cycles: what reference counting alone could not free.
    ``?growth=N`` (with tracemalloc on) names the N source lines whose live memory grew
    most since the last such call: what a slow leak keeps. Each of these walks the
    heap: at most one walk every ``--debug-stats-interval`` seconds.
    """
    stats: DebugStats = request.app.state.debug_stats
    if not stats.admits(request.headers.get("authorization")):
        raise HTTPException(404)  # answered as any unknown path
    types = _number(request, "types", 200)
    generation = request.query_params.get("generation")
    if generation not in (None, "0", "1", "2"):
        raise BadRequest("generation: 0, 1 or 2")
    collect = request.query_params.get("collect", "false").lower() in ("true", "1")
    garbage = _number(request, "garbage", 200)
    growth = _number(request, "growth", 100)
    asked = bool(types or collect or garbage or growth)
    wait = stats.wait()
    if asked and wait > 0:
        seconds = max(1, math.ceil(wait))
        message = (
            f"the heap was walked less than {stats.interval:g} s ago; try again in {seconds} s"
        )
        raise RateLimited(message, retry_after=seconds)
    cycles: list[tuple[str, int]] = []
    common: list[tuple[str, int]] = []
    grown: list[tuple[str, int, int]] = []
    if wait <= 0:
        if garbage:
            cycles = _garbage_kinds(garbage)
        if collect:
            gc.collect()
        if types:
            tracked = gc.get_objects() if generation is None else gc.get_objects(int(generation))
            common = Counter(type(o).__qualname__ for o in tracked).most_common(types)
            del tracked
        if growth and tracemalloc.is_tracing():
            grown = _growth(stats, growth)
        stats.walked()
    runtime = request.app.state.runtime
    current, peak = tracemalloc.get_traced_memory() if tracemalloc.is_tracing() else (0, 0)
    return {
        "tracemalloc_current": current,
        "tracemalloc_peak": peak,
        "allocated_blocks": sys.getallocatedblocks(),
        "tasks": len(asyncio.all_tasks()),
        "gc_collections": [g["collections"] for g in gc.get_stats()],
        "gc_seconds": request.app.state.metrics.gc.seconds,
        "gc_longest": request.app.state.metrics.gc.longest,
        "gc_tracked": stats.tracked,
        "gc_tracked_age": round(stats.age(), 3),
        "heap_walks": stats.walks,
        "gc_types": common,
        "gc_garbage": cycles,
        "growth": grown,
        "room_queues": runtime.queue_count,
        "lookup_addresses": len(request.app.state.lookups),
        **runtime.stats(),
    }


def _growth(stats: DebugStats, limit: int) -> list[tuple[str, int, int]]:
    """(source line, bytes grown, blocks grown) since the previous snapshot."""
    snapshot = tracemalloc.take_snapshot()
    before, stats.heap_snapshot = stats.heap_snapshot, snapshot
    if before is None:
        return []
    changes = snapshot.compare_to(before, "lineno")[:limit]
    return [(str(c.traceback), c.size_diff, c.count_diff) for c in changes]


def _garbage_kinds(limit: int) -> list[tuple[str, int]]:
    """Collect, keeping what the collector frees, and count it by kind."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        counts = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return counts.most_common(limit)

"""Work that takes more than a moment, done away from the players and within bounds.

A game's story, the odds of a posted record and a QR code cost milliseconds to tenths of a
second of CPU each (docs/SECURITY.md has the worst of each). None of it may hold up the
players, and no stranger may buy more of it than they pay for in requests:

- :class:`ComputePool`: the work runs in a process of its own (one; started on the first
  request that needs it; ``compute_worker.py``), at a lower CPU priority (``nice`` +10)
  and with numpy's BLAS on one thread: it can never hold the server's GIL, and when both
  want a core the players' event loop wins. At most ``waiting`` requests wait for it;
  one more is refused at once, ``busy`` (HTTP 503, ``Retry-After``), rather than queued
  without end. Its caches (chains, stories, QR codes) are bounded in bytes, and live in
  that process.
- :class:`ComputeBudget`: per client address (an IPv6 /64), the CPU the address's
  requests really took (measured in the worker with ``time.process_time``) is charged to
  a bucket of ``cpu_seconds`` a minute, and requests are counted against ``requests`` a
  minute; at most ``in_flight`` of its requests are in the pool at once. Past any of
  these, ``rate_limited`` (HTTP 429, ``Retry-After``), before its body is even read.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar, cast

from snakes.server.compute_worker import Outcome, start_worker, timed
from snakes.server.rooms.errors import Busy, Internal, ProtocolError, RateLimited, refusal
from snakes.server.transport.limits import Buckets, address_key

log = logging.getLogger("snakes.compute")

T = TypeVar("T")

WORKERS = 1
"""Processes that compute: one core's worth at most, whatever comes in, so the players'
event loop always has the other."""
WAITING = 8
"""Requests that may wait for the worker; past that, ``busy``."""
BUSY_RETRY_SECONDS = 2


class ComputePool:
    """A worker process and a queue of at most ``waiting`` requests
    (``tests/transport/test_compute.py`` shows each bound)."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING) -> None:
        self._workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._slots = threading.BoundedSemaphore(workers + waiting)
        self.refused = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # A fresh interpreter, not a fork of a server with sockets and a running loop.
            self._executor = ProcessPoolExecutor(
                self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_worker,
            )
        return self._executor

    async def run(
        self,
        work: Callable[..., T],
        *args: object,
        done: Callable[[float], None] | None = None,
    ) -> T:
        """``work(*args)`` in the worker (both picklable). ``done`` is called on the event
        loop with the CPU seconds the work took, once it has ended (0 if it never ran).

        A slot is held until the work has ended, not until this coroutine ends: a request
        whose client went away still counts while its work runs.
        """
        if not self._slots.acquire(blocking=False):
            self.refused += 1
            if done is not None:
                done(0.0)
            raise Busy(
                "the server is working out other requests; try again in a moment",
                retry_after=BUSY_RETRY_SECONDS,
            )
        loop = asyncio.get_running_loop()
        try:
            future = self._pool().submit(timed, work, *args)
        except BrokenProcessPool:  # the worker died on an earlier request
            future = self._restart().submit(timed, work, *args)

        def ended(finished: Future[Outcome]) -> None:
            self._slots.release()
            if done is not None:
                ran = not finished.cancelled() and finished.exception() is None
                loop.call_soon_threadsafe(done, finished.result().seconds if ran else 0.0)

        future.add_done_callback(ended)
        try:
            outcome = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            log.error("the compute worker died; the next request starts another")
            raise Internal("the server failed; nothing changed") from None
        if outcome.refusal is not None:
            code, message, retry_after = outcome.refusal
            raise refusal(code, message, retry_after=retry_after)
        return cast(T, outcome.value)

    def _restart(self) -> ProcessPoolExecutor:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        return self._pool()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


CPU_SECONDS = 2.0
"""CPU seconds one address's requests may cost a minute. A player's own use is far below:
the odds after a move take about a millisecond, the story of a long game a few tens."""
REQUESTS = 120
"""Requests one address may make a minute."""
IN_FLIGHT = 4
"""An address's requests in the pool at once (working or waiting)."""


class ComputeBudget:
    """Per-address bounds on the pool's work: CPU seconds and requests a minute, and how
    many requests at once. ``cpu_seconds`` 0 turns every bound off."""

    def __init__(
        self,
        cpu_seconds: float = CPU_SECONDS,
        requests: int = REQUESTS,
        in_flight: int = IN_FLIGHT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.enabled = cpu_seconds > 0
        # The CPU bucket counts milliseconds: one may be overdrawn by the request that
        # spends it (its cost is known only after), and must be paid back before the next.
        self._cpu_ms = Buckets(round(cpu_seconds * 1000), 60.0, clock)
        self._requests = Buckets(requests, 60.0, clock)
        self._in_flight: Counter[str] = Counter()
        self.in_flight = in_flight
        self.refused = 0

    def admit(self, address: str) -> Callable[[float], None]:
        """Let one request of ``address`` in, or refuse it (``rate_limited``); the answer
        is to be called once with the CPU seconds the request took, when it has ended."""
        if not self.enabled:
            return _free
        key = address_key(address)
        wait = max(self._cpu_ms.wait(key), self._requests.wait(key))
        if wait > 0:
            self.refused += 1
            raise _refuse("your address has asked for too much work", wait)
        if self._in_flight[key] >= self.in_flight:
            self.refused += 1
            raise _refuse("your address has too many requests under way", 1.0)
        self._requests.spend(key)
        self._in_flight[key] += 1

        def ended(seconds: float) -> None:
            self._in_flight[key] -= 1
            if not self._in_flight[key]:
                del self._in_flight[key]
            self._cpu_ms.spend(key, seconds * 1000)

        return ended


def _free(_seconds: float) -> None:
    pass


def _refuse(what: str, wait: float) -> ProtocolError:
    seconds = max(1, math.ceil(wait))
    return RateLimited(f"{what}; try again in {seconds} s", retry_after=seconds)


class Ticket:
    """One request let in by the budget: run its work once, or give the ticket back."""

    def __init__(self, pool: ComputePool, done: Callable[[float], None]) -> None:
        self._pool = pool
        self._done: Callable[[float], None] | None = done

    async def run(self, work: Callable[..., T], *args: object) -> T:
        done, self._done = self._done, None
        assert done is not None, "a ticket runs one piece of work"
        return await self._pool.run(work, *args, done=done)

    def give_back(self) -> None:
        """The request ended before its work began (its body never came): nothing spent."""
        done, self._done = self._done, None
        if done is not None:
            done(0.0)


class Compute:
    """The pool and the budget together: what an endpoint calls."""

    def __init__(self, pool: ComputePool, budget: ComputeBudget) -> None:
        self.pool = pool
        self.budget = budget

    def admit(self, address: str) -> Ticket:
        """Let a request of ``address`` in (``rate_limited`` otherwise), before its body
        is read, so that a refused flood costs nothing but its headers."""
        return Ticket(self.pool, self.budget.admit(address))

    async def run(self, address: str, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` for ``address``, within its budget and the pool's bounds."""
        return await self.admit(address).run(work, *args)

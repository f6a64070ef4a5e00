"""Clocks: every countdown and pause runs on one of these, never on bare sleeps.

The system clock is for play; the manual clock lets tests move time by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on this clock's scale: only differences between two readings mean anything.

        :class:`SystemClock` is monotonic; :class:`WallClock` is the system's wall clock
        (seconds since the epoch), which NTP or an operator may step back or forward.
        """
        ...

    async def wait(self, delay: float | None, wake: asyncio.Event) -> None:
        """Return after ``delay`` seconds of this clock, or as soon as ``wake`` is set."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    async def wait(self, delay: float | None, wake: asyncio.Event) -> None:
        if delay is not None and delay <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), delay)


class WallClock(SystemClock):
    """Seconds since the epoch: nodes sharing Redis read the same time (NTP keeps it close).

    Not monotonic: a step of the system clock moves every deadline kept on it.
    """

    def now(self) -> float:
        return time.time()


class ManualClock:
    """Time stands still until :meth:`advance` moves it."""

    def __init__(self, start: float = 1_000.0) -> None:
        self._now = start
        self._listeners: set[asyncio.Event] = set()

    def now(self) -> float:
        return self._now

    async def wait(self, delay: float | None, wake: asyncio.Event) -> None:
        if delay is not None and delay <= 0:
            return
        self._listeners.add(wake)
        try:
            await wake.wait()
        finally:
            self._listeners.discard(wake)

    def advance(self, seconds: float) -> None:
        self._now += seconds
        for listener in list(self._listeners):
            listener.set()

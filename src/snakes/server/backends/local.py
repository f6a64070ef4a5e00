"""One process: the room log in SQLite (or memory), timers on a heap.

This process owns every room, so nothing is forwarded, published or heard from another
node, and presence needs no board: the runtime knows every connection itself, and
delivers every committed change's messages to them.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import math
from collections.abc import Callable
from typing import Protocol

from snakes.server.backends.interfaces import Connection, FireTimer, RoomLog
from snakes.server.clock import Clock
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work

log = logging.getLogger("snakes.backend")


class LocalLog(RoomLog, Protocol):
    def write(self, room: Room, work: Work, *, created: bool) -> bool: ...
    def write_many(self, changes: list[tuple[Room, Work, bool]]) -> list[bool]: ...
    def close(self) -> None: ...


class LocalBus:
    """Nothing to publish: the runtime delivers to this process's connections."""

    async def subscribe(self, code: str) -> None:
        """Every room's messages are here already."""

    async def unsubscribe(self, code: str) -> None:
        """Nothing to leave."""


class LocalTimers:
    """Due times on a heap, one task firing them on the room clock.

    The task sleeps until the earliest due time; a new timer wakes it only if it is due
    sooner than that (a roll sets the next countdown, a minute away: no wake-up)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._heap: list[tuple[float, str, str]] = []
        self._due: dict[tuple[str, str], float] = {}
        self._wake = asyncio.Event()
        self._until = -math.inf
        """The due time the task sleeps until (inf: none; -inf: it is not asleep)."""

    def __len__(self) -> int:
        return len(self._due)

    def apply(self, code: str, changes: dict[str, float | None]) -> None:
        for name, due in changes.items():
            if due is None:
                self._due.pop((code, name), None)
            else:
                self._due[(code, name)] = due
                heapq.heappush(self._heap, (due, code, name))
                if due < self._until:
                    self._wake.set()

    async def run(self, fire: FireTimer) -> None:
        while True:
            self._until = -math.inf
            now = self.clock.now()
            while self._heap and self._heap[0][0] <= now:
                due, code, name = heapq.heappop(self._heap)
                if self._due.get((code, name)) != due:
                    continue  # cancelled or moved
                del self._due[(code, name)]
                try:
                    await fire(code, name, due)
                except Exception:
                    log.exception("timer %s of room %s failed", name, code)
            now = self.clock.now()
            if self._heap and self._heap[0][0] <= now:
                continue  # one came due while the others fired
            self._until = self._heap[0][0] if self._heap else math.inf
            delay = self._until - now if self._heap else None
            self._wake.clear()
            await self.clock.wait(delay, self._wake)


class LocalPresence:
    """Nothing to share: the runtime of the one process sees every connection."""

    async def join(self, code: str, session: Connection) -> None:
        """Known to the runtime already."""

    async def leave(self, code: str, session: Connection) -> None:
        """Known to the runtime already."""

    async def members(self, code: str) -> dict[str, str]:
        return {}


class GroupCommit:
    """Changes of the rooms that commit within ``window`` seconds of each other are
    written in one transaction (0: those of the same turn of the event loop). Each
    caller still waits until its own change is durable."""

    def __init__(self, room_log: LocalLog, window: float = 0.0, most: int = 256) -> None:
        self._log = room_log
        self.window = window
        self.most = most
        """A group this large is written at once, without waiting out the window."""
        self._pending: list[tuple[Room, Work, bool, asyncio.Future[bool]]] = []
        self._timer: asyncio.TimerHandle | asyncio.Handle | None = None
        self.transactions = 0
        self.changes = 0

    async def write(self, room: Room, work: Work, created: bool) -> bool:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._pending.append((room, work, created, future))
        if len(self._pending) >= self.most:
            self._flush()
        elif self._timer is None:
            self._timer = (
                loop.call_later(self.window, self._flush)
                if self.window > 0
                else loop.call_soon(self._flush)
            )
        return await future

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        batch, self._pending = self._pending, []
        if not batch:
            return
        self.transactions += 1
        self.changes += len(batch)
        try:
            answers = self._log.write_many([(r, w, c) for r, w, c, _ in batch])
        except Exception as error:  # StoreUnavailable: every change in the group failed
            for *_, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (*_, future), answer in zip(batch, answers, strict=True):
            if not future.done():
                future.set_result(answer)


class LocalBackend:
    def __init__(self, room_log: LocalLog, clock: Clock, commit_window: float = 0.0) -> None:
        self.clock = clock
        self.log: LocalLog = room_log
        self.group = GroupCommit(room_log, commit_window)
        self.bus = LocalBus()
        self.timers = LocalTimers(clock)
        self.presence = LocalPresence()

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        """Nothing to connect to: a failed write says so itself."""

    async def stop(self) -> None:
        self.log.close()

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        # One process: an intent's answer is never lost on the way, so no outcome is kept.
        if work.durable and not await self.group.write(room, work, created):
            return False
        self.timers.apply(room.code, work.timers)
        return True  # its messages: the runtime delivers them, once the room is swapped

    def stats(self) -> dict[str, int]:
        return {"timers": len(self.timers)}

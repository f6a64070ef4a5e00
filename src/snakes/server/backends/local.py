"""Where rooms live between intents, how a change is committed, how viewers hear of it.

A handler changes a room and writes down what must follow in a :class:`Work`: actions
to store, records to keep, updates to send, timers to set. The backend commits the
work as one unit. Two backends share this interface:

- :class:`LocalBackend` (one process): rooms in memory, SQLite on disk, timers on a heap.
- ``RedisBackend`` (many processes): rooms, timers and presence in Redis, updates over
  pub/sub; a commit fails if another node changed the room first, and is retried.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from snakes.engine import Action
from snakes.server.backends.sqlite import Store
from snakes.server.clock import Clock
from snakes.server.rooms.model import Room
from snakes.server.runtime.session import Session

log = logging.getLogger("snakes.backend")

FireTimer = Callable[[str, str, float], Awaitable[None]]
Resync = Callable[[str], Awaitable[None]]


class BackendUnavailable(Exception):
    """The shared store cannot be reached; the intent changed nothing."""


@dataclass
class Work:
    """What one handler's change requires, committed together or not at all."""

    new_game: bool = False
    """The room's action log starts again (a rematch or a start)."""
    actions: list[Action] = field(default_factory=list)
    records: list[tuple[int, str]] = field(default_factory=list)
    updates: list[tuple[str, str]] = field(default_factory=list)
    """(body, connection id to leave out): each body a JSON object without ``you``."""
    timers: dict[str, float | None] = field(default_factory=dict)
    """Timers to set (a due time) or cancel (None)."""
    delete: bool = False
    changed: bool = False

    @property
    def empty(self) -> bool:
        return not (self.changed or self.actions or self.updates or self.timers or self.delete)


@dataclass(frozen=True)
class Presence:
    """Who is connected to a room, across every node."""

    secrets: frozenset[str]
    """Secret digests of connected seat holders."""
    viewers: int


class Backend(Protocol):
    clock: Clock

    async def start(self, fire: FireTimer, resync: Resync) -> None: ...
    async def stop(self) -> None: ...
    async def fetch(self, code: str, cached: Room | None) -> Room | None: ...
    async def commit(self, room: Room, work: Work, *, created: bool = False) -> bool: ...
    async def attach(self, code: str, session: Session) -> None: ...
    async def detach(self, code: str, session: Session) -> None: ...
    def presence(self, code: str) -> Presence: ...
    def local_sessions(self, code: str) -> list[Session]: ...
    async def load_record(self, code: str, game: int | None) -> str | None: ...
    async def startup_rooms(self) -> list[str]: ...
    async def purge(self, before: float) -> int: ...
    def stats(self) -> dict[str, int]: ...
    async def ready(self) -> bool: ...


def deliver(
    sessions: list[Session], body: str, host: int | None, hashes: list[str], skip: str = ""
) -> None:
    """Send one update to local connections, each with its own ``you``.

    Seat numbers can move in the lobby, so each connection's seats are worked out again
    from its secret digest before the update goes out.
    """
    head = body[:-1]
    tails: dict[frozenset[int], str] = {}
    for session in sessions:
        if session.id == skip:
            continue
        if session.secret_hash:
            session.seats = frozenset(i for i, h in enumerate(hashes) if h == session.secret_hash)
        tail = tails.get(session.seats)
        if tail is None:
            you = {
                "seats": sorted(session.seats),
                "host": host is not None and host in session.seats,
                "spectator": not session.seats,
            }
            tail = tails[session.seats] = f',"you":{json.dumps(you)}}}'
        session.send(head + tail)


class LocalBackend:
    """One process: rooms in memory, the SQLite store on disk, timers on a heap."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._sessions: dict[str, set[Session]] = defaultdict(set)
        self._presence: dict[str, Presence] = {}
        """Worked out again only when someone connects or leaves (asked ~5 times a roll)."""
        self._heap: list[tuple[float, str, str]] = []
        self._due: dict[tuple[str, str], float] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, fire: FireTimer, resync: Resync) -> None:
        self._task = asyncio.create_task(self._run_timers(fire))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self.store.close()

    async def fetch(self, code: str, cached: Room | None) -> Room | None:
        return cached if cached is not None else self.store.load_room(code)

    async def commit(self, room: Room, work: Work, *, created: bool = False) -> bool:
        if created and self.store.load_room(room.code) is not None:
            return False  # that code is taken
        if work.delete:
            self.store.delete_room(room.code)
        else:
            if work.new_game:
                self.store.start_game_log(room.code)
            first_seq = room.version - len(work.actions) + 1
            self.store.save_changes(room, work.actions, first_seq)
            for game, record in work.records:
                self.store.save_record(room.code, game, room.touched_at, record)
        for name, due in work.timers.items():
            if due is None:
                self._due.pop((room.code, name), None)
            else:
                self._due[(room.code, name)] = due
                heapq.heappush(self._heap, (due, room.code, name))
                self._wake.set()
        sessions = self.local_sessions(room.code)
        hashes = [s.secret_hash for s in room.seats]
        for body, skip in work.updates:
            deliver(sessions, body, room.host, hashes, skip)
        return True

    async def attach(self, code: str, session: Session) -> None:
        self._sessions[code].add(session)
        self._presence.pop(code, None)

    async def detach(self, code: str, session: Session) -> None:
        self._presence.pop(code, None)
        members = self._sessions.get(code)
        if members is not None:
            members.discard(session)
            if not members:
                del self._sessions[code]

    def presence(self, code: str) -> Presence:
        known = self._presence.get(code)
        if known is not None:
            return known
        sessions = self._sessions.get(code)
        if not sessions:
            return Presence(frozenset(), 0)
        known = Presence(frozenset(s.secret_hash for s in sessions if s.secret_hash), len(sessions))
        self._presence[code] = known
        return known

    def local_sessions(self, code: str) -> list[Session]:
        return list(self._sessions.get(code, ()))

    async def load_record(self, code: str, game: int | None) -> str | None:
        return self.store.load_record(code, game)

    async def startup_rooms(self) -> list[str]:
        return self.store.room_codes(online=True)

    async def purge(self, before: float) -> int:
        return self.store.purge(records_before=before, local_rooms_before=before)

    def stats(self) -> dict[str, int]:
        return {
            "connections": sum(len(m) for m in self._sessions.values()),
            "timers": len(self._due),
        }

    async def ready(self) -> bool:
        return self.store.ready()

    async def _run_timers(self, fire: FireTimer) -> None:
        while True:
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
            delay = self._heap[0][0] - now if self._heap else None
            self._wake.clear()
            await self.clock.wait(delay, self._wake)

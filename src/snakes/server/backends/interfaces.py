"""The backends' small interfaces, each with a local and a Redis implementation.

- :class:`RoomLog`: a room's snapshot and its append-only action log, and records.
- :class:`RoomBus`: a room's messages to every node that has viewers of it.
- :class:`Timers`: when each room's timers are due; claiming the due ones.
- :class:`PresenceBoard`: who is connected to a room, on any node.

A :class:`Backend` bundles the four and adds the one write that spans them,
:meth:`Backend.commit`: the change is stored, its timers set and its messages sent as
one unit, or nothing is. Locally that is one SQLite transaction followed by in-memory
timers and delivery; with Redis it is one script that also checks this node still
owns the room.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from snakes.server.clock import Clock
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work
from snakes.server.runtime.session import Session


class StoreUnavailable(Exception):
    """The store cannot be reached or written; the change was not stored."""


class StoreUnanswered(StoreUnavailable):
    """The change went out to the store and its answer was lost (it did not come within
    the deadline, or the connection broke): it may have been stored, or may be yet."""


class RoomLog(Protocol):
    async def load(self, code: str) -> Room | None:
        """The room from its snapshot and the tail of its log; None if there is none."""
        ...

    async def load_record(self, code: str, game: int | None) -> str | None: ...
    async def live_codes(self) -> list[str]:
        """Rooms to bring back when the process starts (their countdowns restart)."""
        ...

    async def purge(self, before: float, unopened_before: float) -> int:
        """Drop records and local rooms untouched since ``before``, and local rooms never
        opened, made before ``unopened_before``."""
        ...

    async def probe(self) -> bool:
        """A real write: True once the store takes changes again after an outage."""
        ...


class RoomBus(Protocol):
    """A room's committed messages reach its connections on every node (sent by
    :meth:`Backend.commit`); a node listens while it has connections to the room."""

    async def subscribe(self, code: str) -> None: ...
    async def unsubscribe(self, code: str) -> None: ...


FireTimer = Callable[[str, str, float], Awaitable[None]]


class Timers(Protocol):
    async def run(self, fire: FireTimer) -> None:
        """Fire due timers until cancelled."""
        ...


class PresenceBoard(Protocol):
    """Connections to a room as every node can see them (a node taking a room over
    learns from here who is already connected)."""

    async def join(self, code: str, session: Session) -> None: ...
    async def leave(self, code: str, session: Session) -> None: ...
    async def members(self, code: str) -> dict[str, str]:
        """Live connections: connection key -> the seat secret digest it holds ('')."""
        ...


class Backend(Protocol):
    @property
    def clock(self) -> Clock: ...
    @property
    def log(self) -> RoomLog: ...
    @property
    def bus(self) -> RoomBus: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def presence(self) -> PresenceBoard: ...

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        """Begin. ``outage`` is called whenever the store cannot be reached; ``resync``
        with rooms whose messages may have been lost meanwhile."""
        ...

    async def stop(self) -> None: ...
    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        """Store the change, set its timers, send its messages. False: refused (the code
        is taken, or another node owns the room now); raises :class:`StoreUnavailable`.
        ``request``: the intent's id, stored with the change where the store keeps
        outcomes (Redis: see ``RedisOwners.settle``)."""
        ...

    def stats(self) -> dict[str, int]: ...
